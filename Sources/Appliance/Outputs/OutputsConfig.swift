import Gestures

/// What the gestures switch: named GPIO outputs, the bindings from events to actions on them, and an
/// optional status LED. Read from `[[outputs]]`, `[[bindings]]` and `[status_led]` (Schema+Outputs.swift);
/// the defaults of every optional key live here, once.
struct OutputsConfig: Equatable, Sendable {
    var outputs: [Output] = []
    var bindings: [Binding] = []
    var statusLED: StatusLED?

    /// The outputs a person may pulse by hand (the setup page, MQTT): all but the status LED, which
    /// follows its patterns.
    var pulsable: [String] { outputs.map(\.name).filter { $0 != statusLED?.output } }

    /// One GPIO line with a name the bindings use.
    struct Output: Equatable, Sendable {
        var name: String
        /// `line.safeValue` is the logical value at start, at exit, on a fault and whenever nothing asks for
        /// the line: "not pressed". Active is its opposite.
        var line: GPIOLineSpec
    }

    /// "When this event happens, do that to these outputs."
    struct Binding: Equatable, Sendable {
        var event: GestureKind
        /// Only events with this direction (look, look_start, look_stop); nil: any.
        var direction: Direction?
        var outputs: [String]
        var action: Action
    }

    enum Action: Equatable, Sendable {
        /// Active for `ms`, then back to safe.
        case pulse(ms: Int)
        /// Active while the gesture lasts (look_start to its look_stop, or face_found to face_lost), at most `maxMs`.
        case hold(maxMs: Int)
        /// While the gesture lasts (as hold), active for `onMs` every 1/`rateHz` seconds, starting at once.
        case `repeat`(rateHz: Double, onMs: Int, maxMs: Int)
        /// Flips the output's latch.
        case toggle
        /// Sets the latch (active until a release, a fault or exit).
        case latch
        /// Clears the latch.
        case release

        var name: String {
            switch self {
            case .pulse: return "pulse"
            case .hold: return "hold"
            case .repeat: return "repeat"
            case .toggle: return "toggle"
            case .latch: return "latch"
            case .release: return "release"
            }
        }

        /// hold and repeat need an event that has an end.
        var needsContinuousEvent: Bool {
            switch self {
            case .hold, .repeat: return true
            default: return false
            }
        }
    }

    /// The status LED: one output and a blink pattern for each state.
    struct StatusLED: Equatable, Sendable {
        var output: String
        var searching = BlinkPattern.blink([100, 900])
        var calibrating = BlinkPattern.blink([250, 250])
        var tracking = BlinkPattern.on
        var fault = BlinkPattern.blink([100, 100, 100, 700])
        var lowBattery = BlinkPattern.blink([50, 1950])
        /// A fired binding inverts the LED for this long (0: no flash).
        var firedFlashMs = 150
    }

    // Defaults of the binding parameters.
    static let defaultPulseMs = 200
    static let defaultMaxHoldMs = 5000
    static let defaultRateHz = 2.0
    /// Events that can start a hold or repeat (and what ends it).
    static let continuousEvents: [GestureKind: String] = [.lookStart: "its look_stop (same direction) or face_lost",
                                                          .faceFound: "face_lost"]
    /// Events a binding may name (`move` is a per-frame stream and `unheard` an explanation, not triggers).
    static let bindableEvents: [GestureKind] = GestureKind.allCases.filter { $0 != .move && $0 != .unheard }
    static let directionalEvents: Set<GestureKind> = [.look, .lookStart, .lookStop]

    /// True when no binding or status LED uses any output.
    var isEmpty: Bool { outputs.isEmpty }
    func index(of name: String) -> Int? { outputs.firstIndex { $0.name == name } }
}

/// A status LED pattern: steadily off, steadily on, or blinking through alternating on/off milliseconds
/// (starting with on, repeating) from the moment the state is entered.
enum BlinkPattern: Equatable, Sendable {
    case off, on
    case blink([Int])

    /// Whether the LED is lit `elapsed` seconds after the pattern started.
    func isOn(after elapsed: Double) -> Bool {
        switch self {
        case .off: return false
        case .on: return true
        case let .blink(steps):
            let (index, _) = position(elapsed, steps)
            return index % 2 == 0
        }
    }

    /// Seconds after the start of the next on/off change strictly after `elapsed`; nil for steady patterns.
    func nextChange(after elapsed: Double) -> Double? {
        guard case let .blink(steps) = self else { return nil }
        let (_, end) = position(elapsed, steps)
        return end
    }

    var period: Double {
        guard case let .blink(steps) = self else { return 0 }
        return Double(steps.reduce(0, +)) / 1000
    }

    /// The step `elapsed` falls in, and when that step ends (seconds after the start).
    private func position(_ elapsed: Double, _ steps: [Int]) -> (Int, Double) {
        let period = self.period
        let cycles = (max(0, elapsed) / period + 1e-9).rounded(.down)
        var end = cycles * period
        for (i, ms) in steps.enumerated() {
            end += Double(ms) / 1000
            if elapsed + 1e-9 < end { return (i, end) }
        }
        return (0, end + Double(steps[0]) / 1000)
    }

    /// As written in the config file.
    var text: String {
        switch self {
        case .off: return "\"off\""
        case .on: return "\"on\""
        case let .blink(steps): return "[" + steps.map(String.init).joined(separator: ", ") + "]"
        }
    }
}
