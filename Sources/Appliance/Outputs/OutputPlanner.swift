import Gestures

/// A level change the planner asks for: at `time` (seconds, the caller's time base) write the logical
/// `value` to output `output` (an index into `OutputsConfig.outputs`).
struct LineChange: Equatable, Sendable {
    var time: Double
    var output: Int
    var value: Bool
    /// Why, for the log: "nod pulse", "pulse end", "look_stop hold end", "status searching".
    var cause: String
}

/// Gesture events and time in, line level changes out. A value type that reads no clock: every call
/// says what time it is, so the same inputs always give the same changes (and tests need no waiting).
///
/// Rules:
/// - An output is *active* (its safe value inverted) while ANY request on it is active: a pulse not yet
///   ended, a hold or repeat in its on phase, or its latch. Otherwise it is at its safe value.
/// - A pulse that is retriggered while running is extended to end `pulse_ms` after the new event (the
///   line stays on: no second edge). Overlapping requests from several bindings are ORed the same way.
/// - Holds and repeats end at the look_stop of the direction that started them (look_start), at face_lost
///   (always), at their max_hold_ms, on a fault and at shutdown. A new start of the same binding restarts it.
/// - Latches (toggle/latch/release) survive face loss; a fault or shutdown clears them.
/// - While a fault is set every output is safe and events are ignored; the status LED shows `fault`.
/// - The status LED (no binding drives it) shows the pattern of the current state, from the moment the
///   state began; a fired binding inverts it for `fired_flash_ms`. State priority: fault, low_battery,
///   then searching (no face), calibrating, tracking.
struct OutputPlanner: Sendable {
    enum Status: String, Sendable {
        case searching, calibrating, tracking, fault
        case lowBattery = "low_battery"
    }

    private struct Hold: Sendable {
        var binding: Int
        var output: Int
        var startKind: GestureKind
        var direction: Direction?
        var start: Double
        var until: Double
        /// Repeat: period and on time in seconds; nil for a plain hold.
        var repeating: (period: Double, on: Double)?

        func isOn(at t: Double) -> Bool {
            guard t < until else { return false }
            guard let r = repeating else { return true }
            let elapsed = t - start
            let k = (elapsed / r.period + 1e-9).rounded(.down)
            return elapsed - k * r.period + 1e-9 < r.on
        }

        /// The next time after `t` this hold's level may change.
        func nextChange(after t: Double) -> Double? {
            guard t < until else { return nil }
            guard let r = repeating else { return until }
            let elapsed = t - start
            let k = (elapsed / r.period + 1e-9).rounded(.down)
            var edge = isOn(at: t) ? start + k * r.period + r.on : start + (k + 1) * r.period
            if edge <= t + 1e-9 { edge += isOn(at: t) ? r.period - r.on : r.on }
            return min(edge, until)
        }
    }

    let config: OutputsConfig
    /// Mirrors the gesture engine's rule: after a loss longer than this the resting pose is learnt again,
    /// so face_found means "calibrating" (the status LED cannot ask the engine).
    let recalibrateAfterLoss: Double
    let statusOutput: Int?

    private(set) var now: Double
    private(set) var status: Status = .searching
    private var statusSince: Double
    private var flashUntil: Double?
    private var pulseUntil: [Double?]
    private var latched: [Bool]
    private var holds: [Hold] = []
    /// What each output is at now: active (true) or safe (false). Everything starts safe.
    private var active: [Bool]
    private var facePresent = false
    private var calibrating = false
    private var everCalibrated = false
    private var lostAt: Double?
    private(set) var fault = false
    private(set) var lowBattery = false
    private(set) var stopped = false

    init(config: OutputsConfig, recalibrateAfterLoss: Double = GestureSettings().calibration.recalibrateAfterLoss, start: Double = 0) {
        self.config = config
        self.recalibrateAfterLoss = recalibrateAfterLoss
        statusOutput = config.statusLED.flatMap { config.index(of: $0.output) }
        now = start
        statusSince = start
        let n = config.outputs.count
        pulseUntil = Array(repeating: nil, count: n)
        latched = Array(repeating: false, count: n)
        active = Array(repeating: false, count: n)
    }

    /// The changes due at the start (the status LED's first level).
    mutating func start() -> [LineChange] { emit(at: now, cause: nil) }

    /// The logical value an output has now.
    func value(of output: Int) -> Bool { active[output] != config.outputs[output].line.safeValue }

    /// The earliest time after `t` at which `advance` may change a line; nil when nothing is scheduled.
    func nextChange(after t: Double) -> Double? {
        var next: Double?
        func consider(_ c: Double?) { if let c, c > t, c < (next ?? .infinity) { next = c } }
        for p in pulseUntil { consider(p) }
        for h in holds { consider(h.nextChange(after: t)) }
        if statusOutput != nil && !stopped {
            consider(flashUntil)
            consider(pattern(status).nextChange(after: t - statusSince).map { statusSince + $0 })
        }
        return next
    }

    /// When the last running pulse ends (nil: none running): what a clean end of input waits for.
    var pulsesEnd: Double? { pulseUntil.compactMap { $0 }.filter { $0 > now }.max() }

    /// Runs the timers up to `t`: each change carries the exact time it was due.
    mutating func advance(to t: Double) -> [LineChange] {
        var out: [LineChange] = []
        while let next = nextChange(after: now), next <= t {
            now = next
            out += emit(at: next, cause: nil)
        }
        now = max(now, t)
        return out
    }

    /// One gesture event, handled at `t` (by default its own timestamp). Timers due before `t` run first.
    mutating func handle(_ event: GestureEvent, at t: Double? = nil) -> [LineChange] {
        let t = max(now, t ?? event.time)
        var out = advance(to: t)
        guard !fault && !stopped else { return out }
        let name = event.kind.rawValue + (event.direction.map { " \($0.rawValue)" } ?? "")
        switch event.kind {
        case .faceFound:
            facePresent = true
            calibrating = !everCalibrated || (lostAt.map { t - $0 > recalibrateAfterLoss } ?? false)
            lostAt = nil
        case .faceLost:
            facePresent = false
            lostAt = t
            holds.removeAll()
        case .calibrated:
            calibrating = false
            everCalibrated = true
        case .lookStop:
            holds.removeAll { $0.startKind == .lookStart && ($0.direction == nil || event.direction == nil || $0.direction == event.direction) }
        default: break
        }
        var fired = false
        for (b, binding) in config.bindings.enumerated()
        where binding.event == event.kind && (binding.direction == nil || binding.direction == event.direction) {
            fired = true
            for output in binding.outputs.compactMap({ config.index(of: $0) }) {
                switch binding.action {
                case let .pulse(ms):
                    pulseUntil[output] = max(pulseUntil[output] ?? t, t + Double(ms) / 1000)
                case let .hold(maxMs):
                    startHold(binding: b, output: output, event: event, at: t, maxMs: maxMs, repeating: nil)
                case let .repeat(rate, onMs, maxMs):
                    startHold(binding: b, output: output, event: event, at: t, maxMs: maxMs,
                              repeating: (1 / rate, Double(onMs) / 1000))
                case .toggle: latched[output].toggle()
                case .latch: latched[output] = true
                case .release: latched[output] = false
                }
            }
        }
        if fired, let led = config.statusLED, led.firedFlashMs > 0 { flashUntil = t + Double(led.firedFlashMs) / 1000 }
        out += emit(at: t, cause: name)
        return out
    }

    /// A pulse asked for by name (an MQTT command), as a pulse binding would make it; none during a fault.
    mutating func pulse(_ output: Int, ms: Int, at t: Double, cause: String) -> [LineChange] {
        let t = max(now, t)
        var out = advance(to: t)
        guard !fault && !stopped else { return out }
        pulseUntil[output] = max(pulseUntil[output] ?? t, t + Double(ms) / 1000)
        out += emit(at: t, cause: cause)
        return out
    }

    /// A camera or GPIO fault (or its end): on a fault everything goes safe and events are ignored.
    /// After it clears the state is "searching" until the next face_found.
    mutating func setFault(_ on: Bool, at t: Double) -> [LineChange] {
        var out = advance(to: t)
        fault = on
        if on { clearRequests() } else { facePresent = false }
        out += emit(at: now, cause: on ? "fault" : "fault cleared")
        return out
    }

    mutating func setLowBattery(_ on: Bool, at t: Double) -> [LineChange] {
        var out = advance(to: t)
        lowBattery = on
        out += emit(at: now, cause: on ? "low battery" : "battery ok")
        return out
    }

    /// Every output back to its safe value (the status LED off) for good: the end of a run.
    mutating func shutdown(at t: Double) -> [LineChange] {
        var out = advance(to: t)
        stopped = true
        clearRequests()
        out += emit(at: now, cause: "shutdown")
        return out
    }

    // MARK: - internals

    private mutating func startHold(binding: Int, output: Int, event: GestureEvent, at t: Double, maxMs: Int,
                                    repeating: (period: Double, on: Double)?) {
        holds.removeAll { $0.binding == binding && $0.output == output }
        holds.append(Hold(binding: binding, output: output, startKind: event.kind, direction: event.direction,
                          start: t, until: t + Double(maxMs) / 1000, repeating: repeating))
    }

    private mutating func clearRequests() {
        pulseUntil = pulseUntil.map { _ in nil }
        latched = latched.map { _ in false }
        holds.removeAll()
        flashUntil = nil
    }

    private func pattern(_ s: Status) -> BlinkPattern {
        guard let led = config.statusLED else { return .off }
        switch s {
        case .searching: return led.searching
        case .calibrating: return led.calibrating
        case .tracking: return led.tracking
        case .fault: return led.fault
        case .lowBattery: return led.lowBattery
        }
    }

    private func wantsActive(_ output: Int, at t: Double) -> Bool {
        if stopped { return false }
        if output == statusOutput {
            let base = pattern(status).isOn(after: t - statusSince)
            if let f = flashUntil, t < f, status != .fault { return !base }
            return base
        }
        if let p = pulseUntil[output], t < p { return true }
        return latched[output] || holds.contains { $0.output == output && $0.isOn(at: t) }
    }

    /// Brings the status and every output up to `t` and returns what changed.
    private mutating func emit(at t: Double, cause: String?) -> [LineChange] {
        let newStatus: Status = fault ? .fault : lowBattery ? .lowBattery : !facePresent ? .searching : calibrating ? .calibrating : .tracking
        if newStatus != status { status = newStatus; statusSince = t }
        var out: [LineChange] = []
        for i in active.indices {
            let want = wantsActive(i, at: t)
            guard want != active[i] else { continue }
            active[i] = want
            let why: String
            if i == statusOutput {
                why = stopped ? "shutdown" : flashUntil.map { t < $0 } == true ? "status flash" : "status \(status.rawValue)"
            } else if let cause {
                why = cause
            } else if pulseUntil[i] == t {
                why = "pulse end"
            } else if holds.contains(where: { $0.output == i && $0.until == t }) {
                why = "max hold"
            } else {
                why = "repeat"
            }
            out.append(LineChange(time: t, output: i, value: want != config.outputs[i].line.safeValue, cause: why))
        }
        // Forget what has run out, so the state stays small over a long run.
        for i in pulseUntil.indices where (pulseUntil[i] ?? .infinity) <= t { pulseUntil[i] = nil }
        holds.removeAll { $0.until <= t }
        if let f = flashUntil, f <= t { flashUntil = nil }
        return out
    }
}
