/// Where a newly found face rests, refined over its first seconds (`Calibration.refineSeconds`): the median of
/// its poses while it was not out in a look. Calibration takes the first steady half second, one glimpse of a
/// person who may be turned, leaning or mid-sentence; a median over the seconds after it is where they sit.
/// The median, not the mean: a talker's sways and a turn that stays inside the look threshold pull it little.
struct NeutralRefiner: Sendable {
    /// Refining stops at this time.
    let until: Double
    /// Where the head pointer was when calibrated (image pixels): only poses near it count.
    let anchor: (x: Double, y: Double)
    /// The viewing angle there (the yaw of a face looking into the lens from that place, degrees): whether the rest
    /// is turned away from the camera is judged where it was learnt, not wherever the body has since leaned.
    var viewingAngle = 0.0
    /// The rest was moved to where the face, found turned, faced the camera (`GestureEngine.facingRest`): once is
    /// all a face found turned needs.
    var facedCamera = false
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

/// A head holding still: the poses of its current stay, kept while no step between samples is faster than
/// `calibration.max_speed`. Held for `calibration.seconds`, the mean of its last `calibration.average_seconds`
/// is a rest. Times, not sample counts, so it takes as long at the governor's 5 fps as at 30.
struct SteadyStay: Sendable {
    private var poses: [(time: Double, angles: Angles)] = []

    init() { poses.reserveCapacity(64) }

    mutating func removeAll() { poses.removeAll(keepingCapacity: true) }

    /// No stay under way.
    var isEmpty: Bool { poses.isEmpty }

    /// One more pose; once the head has held still `calibration.seconds`, the rest and the poses it is the mean of
    /// (the stay then starts afresh).
    mutating func add(_ a: Angles, at t: Double, _ c: GestureSettings.Calibration) -> (rest: Angles, poses: [Angles])? {
        if let last = poses.last, a.moved(fasterThan: c.maxSpeed, since: last.angles, seconds: max(t - last.time, 1e-6)) {
            removeAll()
        }
        poses.append((t, a))
        // A microsecond's tolerance for times that are sums of rounded frame periods.
        guard let first = poses.first, t - first.time >= c.seconds - 1e-6 else { return nil }
        let tail = poses.filter { $0.time >= t - c.averageSeconds - 1e-6 }.map(\.angles)
        removeAll()
        return (Angles.mean(tail), tail)
    }
}

/// A stay facing the camera, judged the way a person who talks holds one: every pose within a look of the line of
/// sight (`within`: not turned away), no step faster than `calibration.max_speed`, and over the last `seconds` the
/// line of sight on average within `centred` of the camera. A talker's head sways ±3-5° as they speak; judged pose by
/// pose against the idle zone, as `SteadyStay` judges calibration, one sway past 5° started the stay again, and a
/// talker found turned never had a stay long enough (docs/gestures.md "A face found turned while talking"). The rest
/// is the mean of the stay's last `seconds`, and those poses.
struct FacingStay: Sendable {
    private var poses: [(time: Double, angles: Angles, sight: Double)] = []
    private var since: Double?

    init() { poses.reserveCapacity(64) }

    mutating func removeAll() { poses.removeAll(keepingCapacity: true); since = nil }

    /// No stay under way.
    var isEmpty: Bool { since == nil }

    mutating func add(_ a: Angles, sightYaw: Double, at t: Double, within: Double, centred: Double, maxSpeed: Double,
                      lasting seconds: Double) -> (rest: Angles, poses: [Angles])? {
        guard abs(sightYaw) < within else { removeAll(); return nil }
        if let last = poses.last, a.moved(fasterThan: maxSpeed, since: last.angles, seconds: max(t - last.time, 1e-6)) {
            removeAll()
        }
        if since == nil { since = t }
        poses.append((t, a, sightYaw))
        // A microsecond's tolerance for times that are sums of rounded frame periods.
        poses.removeAll { $0.time < t - seconds - 1e-6 }
        guard let start = since, t - start >= seconds - 1e-6 else { return nil }
        guard abs(poses.reduce(0) { $0 + $1.sight } / Double(poses.count)) <= centred else { return nil }
        let window = poses.map(\.angles)
        removeAll()
        return (Angles.mean(window), window)
    }
}
