/// Where a newly found face rests, refined over its first seconds (`Calibration.refineSeconds`): the median of
/// its poses while it was not out in a look. Calibration takes the first steady half second, one glimpse of a
/// person who may be turned, leaning or mid-sentence; a median over the seconds after it is where they sit.
/// The median, not the mean: a talker's sways and a turn that stays inside the look threshold pull it little.
struct NeutralRefiner: Sendable {
    /// Refining stops at this time.
    let until: Double
    /// Where the head pointer was when calibrated (image pixels): only poses near it count.
    let anchor: (x: Double, y: Double)
    private var yaws: [Double] = []
    private var pitches: [Double] = []

    /// Starts from the poses calibration averaged (`seed`), taken with the head pointer at `anchor`, until `until`.
    init(seed: [Angles], anchor: (x: Double, y: Double), until: Double) {
        self.until = until; self.anchor = anchor
        // 30 fps for the default 10 s, and the seed: no allocation while it runs at the usual rates.
        yaws.reserveCapacity(320); pitches.reserveCapacity(320)
        for a in seed { add(a) }
    }

    /// One more pose of the head at rest or talking (not out in a look).
    mutating func add(_ a: Angles) {
        Self.insert(a.yaw, into: &yaws)
        Self.insert(a.pitch, into: &pitches)
    }

    /// The median of the poses so far; nil before the first.
    var neutral: Angles? {
        guard !yaws.isEmpty else { return nil }
        return Angles(yaw: Self.median(yaws), pitch: Self.median(pitches))
    }

    /// Kept sorted as they come (binary search), so the median is a look-up.
    private static func insert(_ v: Double, into sorted: inout [Double]) {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        sorted.insert(v, at: lo)
    }

    private static func median(_ sorted: [Double]) -> Double {
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}
