/// Which line to drive and how: a plain value, e.g. from the config file or the command line.
/// Values are logical: with `activeLow` the kernel inverts them on the pin.
struct GPIOLineSpec: Sendable, Equatable, Hashable {
    enum Line: Sendable, Equatable, Hashable, CustomStringConvertible {
        case offset(Int)
        case name(String)

        /// "17" is an offset, anything else a line name ("led", "GPIO17").
        init(parsing text: String) {
            let t = text.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty, t.allSatisfy(\.isASCII), t.allSatisfy(\.isNumber), let n = Int(t) { self = .offset(n) } else { self = .name(t) }
        }

        var description: String {
            switch self {
            case let .offset(n): return "\(n)"
            case let .name(s): return "'\(s)'"
            }
        }
    }

    enum Drive: String, Sendable, CaseIterable, Hashable {
        case pushPull = "push-pull", openDrain = "open-drain", openSource = "open-source"

        /// Accepts "push-pull", "push_pull", "pushpull" (any case).
        init?(parsing text: String) {
            let t = GPIOLineSpec.normalized(text)
            guard let d = Drive.allCases.first(where: { GPIOLineSpec.normalized($0.rawValue) == t }) else { return nil }
            self = d
        }
    }

    enum Bias: String, Sendable, CaseIterable, Hashable {
        case asIs = "as-is", disabled = "disabled", pullUp = "pull-up", pullDown = "pull-down"

        /// Accepts "pull-up", "pull_up", "pullup", "up", "disable", "none" (any case).
        init?(parsing text: String) {
            let t = GPIOLineSpec.normalized(text)
            switch t {
            case "up": self = .pullUp
            case "down": self = .pullDown
            case "disable", "none", "off": self = .disabled
            case "asis", "": self = .asIs
            default:
                guard let b = Bias.allCases.first(where: { GPIOLineSpec.normalized($0.rawValue) == t }) else { return nil }
                self = b
            }
        }
    }

    /// "gpiochip0", "/dev/gpiochip0" or a chip label ("pinctrl-bcm2711", "gpio-sim.0-node0").
    var chip: String
    var line: Line
    var activeLow: Bool = false
    /// The logical value the line is requested with and returns to on release: "switch not pressed".
    var safeValue: Bool = false
    var drive: Drive = .pushPull
    var bias: Bias = .asIs

    init(chip: String, line: Line, activeLow: Bool = false, safeValue: Bool = false,
         drive: Drive = .pushPull, bias: Bias = .asIs) {
        self.chip = chip; self.line = line; self.activeLow = activeLow
        self.safeValue = safeValue; self.drive = drive; self.bias = bias
    }

    /// `"gpiochip0:17"`, `"gpiochip0:led"`, `"/dev/gpiochip0:17"`, `"pinctrl-bcm2711:GPIO17"` (split at the last ':').
    init(parsing text: String) throws {
        guard let colon = text.lastIndex(of: ":") else {
            throw GPIOError.invalidSpec("'\(text)' should be CHIP:LINE, e.g. gpiochip0:17 or gpiochip0:led")
        }
        self.init(chip: String(text[..<colon]), line: Line(parsing: String(text[text.index(after: colon)...])))
        try validate()
    }

    /// Throws `GPIOError.invalidSpec` for settings that can never work.
    func validate() throws {
        if chip.trimmingCharacters(in: .whitespaces).isEmpty { throw GPIOError.invalidSpec("no chip given (e.g. gpiochip0)") }
        if chip.contains("\0") { throw GPIOError.invalidSpec("chip name contains a NUL byte") }
        switch line {
        case let .offset(n) where n < 0: throw GPIOError.invalidSpec("line offset \(n) is negative")
        case let .offset(n) where n > Int(UInt32.max): throw GPIOError.invalidSpec("line offset \(n) is too large")
        case let .name(s) where s.isEmpty: throw GPIOError.invalidSpec("no line given (an offset like 17 or a name like led)")
        case let .name(s) where s.contains("\0"): throw GPIOError.invalidSpec("line name contains a NUL byte")
        default: break
        }
        if drive == .openSource && bias == .pullUp || drive == .openDrain && bias == .pullDown {
            // The kernel takes it, but the line could never change level: open-drain only pulls low
            // (a pull-down keeps it low), open-source only pulls high (a pull-up keeps it high).
            throw GPIOError.invalidSpec("drive \(drive.rawValue) with bias \(bias.rawValue) leaves the line at one level whatever is set")
        }
    }

    fileprivate static func normalized(_ s: String) -> String {
        s.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
    }
}

import Foundation
