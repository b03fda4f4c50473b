/// Recent smoothed samples, oldest first, in a fixed ring: what the nod and shake detectors look back over.
struct History: Sendable {
    struct Entry: Sendable {
        var time: Double
        var yaw: Double
        var pitch: Double
        var pointerX: Double
        var pointerY: Double
        var faceSize: Double
    }

    private var ring: [Entry]
    private var start = 0
    private(set) var count = 0

    init(capacity: Int) {
        ring = [Entry](repeating: Entry(time: 0, yaw: 0, pitch: 0, pointerX: 0, pointerY: 0, faceSize: 1), count: capacity)
    }

    subscript(i: Int) -> Entry { ring[(start + i) % ring.count] }

    mutating func append(_ e: Entry) {
        if count == ring.count {
            ring[start] = e
            start = (start + 1) % ring.count
        } else {
            ring[(start + count) % ring.count] = e
            count += 1
        }
    }

    mutating func removeAll() { start = 0; count = 0 }
}

/// Finds one nod (axis = pitch) or shake (axis = yaw) that has just ended: still, then out-and-back
/// swings, then still again. Pure: it reads the history and the settings only.
struct SwingDetector: Sendable {
    enum Axis: Sendable { case yaw, pitch }

    struct Found: Equatable {
        var cycles: Int
        var startTime: Double
        var endTime: Double
    }

    let axis: Axis
    let settings: GestureSettings.Swing
    let maxTranslation: Double

    private func value(_ e: History.Entry) -> Double { axis == .yaw ? e.yaw : e.pitch }
    private func other(_ e: History.Entry) -> Double { axis == .yaw ? e.pitch : e.yaw }

    /// Both axes within `stillRange` from index `from` to `to` (inclusive).
    private func isStill(_ h: History, _ from: Int, _ to: Int) -> Bool {
        guard from <= to else { return false }
        var lo = (h[from].yaw, h[from].pitch), hi = lo
        for k in from...to {
            lo = (min(lo.0, h[k].yaw), min(lo.1, h[k].pitch))
            hi = (max(hi.0, h[k].yaw), max(hi.1, h[k].pitch))
        }
        return hi.0 - lo.0 < settings.stillRange && hi.1 - lo.1 < settings.stillRange
    }

    /// The first index of the still stretch that ends the history, if it has lasted `settle`.
    func settledIndex(_ h: History) -> Int? {
        guard h.count > 1 else { return nil }
        let last = h.count - 1
        var e = last
        var lo = (h[last].yaw, h[last].pitch), hi = lo
        while e > 0 {
            let p = h[e - 1]
            let nlo = (min(lo.0, p.yaw), min(lo.1, p.pitch)), nhi = (max(hi.0, p.yaw), max(hi.1, p.pitch))
            guard nhi.0 - nlo.0 < settings.stillRange && nhi.1 - nlo.1 < settings.stillRange else { break }
            lo = nlo; hi = nhi; e -= 1
        }
        return h[last].time - h[e].time >= settings.settle ? e : nil
    }

    /// A gesture that ends at index `end` (the start of the still stretch) and began after `notBefore`.
    func detect(_ h: History, end: Int, notBefore: Double) -> Found? {
        let s = settings
        // Onset: the latest still moment before `end` that is followed by a real excursion.
        var start: Int?
        var i = end - 1
        while i >= 0, h[end].time - h[i].time <= s.maxDuration, h[i].time > notBefore {
            var excursion = 0.0
            for k in i...end { excursion = max(excursion, abs(value(h[k]) - value(h[i]))) }
            // A rest before the gesture is at the level it returns to (a flat turning point is not).
            if excursion >= s.minAmplitude, abs(value(h[i]) - value(h[end])) <= s.returnTolerance * s.minAmplitude {
                var j = i
                while j > 0, h[i].time - h[j - 1].time <= s.stillBefore { j -= 1 }
                if h[i].time - h[j].time >= s.stillBefore * 0.8, h[j].time > notBefore || j == i, isStill(h, j, i) {
                    start = i
                    break
                }
            }
            i -= 1
        }
        guard let start else { return nil }

        // Turning points, with a hysteresis below the amplitude so wobbles show up as short swings.
        let hysteresis = 0.6 * s.minAmplitude
        var pivots = [start]
        var extreme = start, direction = 0.0
        for k in (start + 1)...end {
            let v = value(h[k])
            if direction == 0 {
                if abs(v - value(h[start])) >= hysteresis { direction = v > value(h[start]) ? 1 : -1; extreme = k }
            } else if (v - value(h[extreme])) * direction > 0 {
                extreme = k
            } else if abs(v - value(h[extreme])) >= hysteresis {
                pivots.append(extreme)
                direction = -direction
                extreme = k
            }
        }
        pivots.append(end)
        let swings = pivots.count - 1
        guard swings >= s.minSwings, h[end].time - h[start].time <= s.maxDuration else { return nil }

        var smallest = Double.infinity
        for n in 0..<swings {
            let a = pivots[n], b = pivots[n + 1]
            let size = abs(value(h[b]) - value(h[a])), duration = h[b].time - h[a].time
            guard size >= s.minAmplitude, duration >= s.minSwingDuration, duration <= s.maxSwingDuration else { return nil }
            smallest = min(smallest, size)
        }
        guard abs(value(h[end]) - value(h[start])) <= s.returnTolerance * smallest else { return nil }

        // Held turning points are looks, not nods.
        for n in 1..<swings {
            let p = pivots[n], near = 0.25 * min(abs(value(h[p]) - value(h[pivots[n - 1]])), abs(value(h[pivots[n + 1]]) - value(h[p])))
            var a = p, b = p
            while a > start, abs(value(h[a - 1]) - value(h[p])) <= near { a -= 1 }
            while b < end, abs(value(h[b + 1]) - value(h[p])) <= near { b += 1 }
            guard h[b].time - h[a].time <= s.maxHold else { return nil }
        }

        // The other axis stays quiet, and the head does not travel: a body moving is not a gesture.
        var lo = value(h[start]), hi = lo, olo = other(h[start]), ohi = olo, travel = 0.0
        for k in start...end {
            lo = min(lo, value(h[k])); hi = max(hi, value(h[k]))
            olo = min(olo, other(h[k])); ohi = max(ohi, other(h[k]))
            let dx = h[k].pointerX - h[start].pointerX, dy = h[k].pointerY - h[start].pointerY
            travel = max(travel, (dx * dx + dy * dy).squareRoot() / max(1, h[start].faceSize))
        }
        guard ohi - olo <= s.maxCrossRatio * (hi - lo), travel <= maxTranslation else { return nil }
        return Found(cycles: max(1, swings / 2), startTime: h[start].time, endTime: h[end].time)
    }
}
