import Gestures

/// `[[outputs]]`, `[[bindings]]` and `[status_led]`: arrays of tables, read here rather than by the flat
/// `SettingSpec` walk. Everything is checked before anything starts; each refusal names the file, the
/// line, the key (`bindings[2].action`, counting the [[bindings]] tables from 1), the value and what is allowed.
extension ConfigSchema {
    /// Top-level keys this file reads (ConfigLoader leaves them out of its flat walk).
    static let outputSections = ["outputs", "bindings", "status_led"]

    static func parseOutputs(_ root: [String: TOMLNode], file: String, lines: KeyLines) throws(ConfigError) -> OutputsConfig {
        var config = OutputsConfig()
        var seenLines: [String: String] = [:]   // normalized chip:line -> the output using it
        for (i, table) in try tables(root, "outputs", file: file, lines: lines).enumerated() {
            let r = try TableReader(table, prefix: "outputs[\(i + 1)]", file: file, lines: lines,
                                    known: ["name", "chip", "line", "active_low", "safe", "drive", "bias"])
            let name = try r.required("name", r.string("name", allowed: "a name in quotes, e.g. \"switch1\""))
            if name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "\"" }) {
                throw r.refuse("name", "\"\(name)\"", "a name in quotes without spaces, e.g. \"switch1\"")
            }
            if let other = config.outputs.first(where: { $0.name == name }) {
                throw r.refuse("name", "\"\(name)\"", "a name no other output has (\"\(other.name)\" is taken)")
            }
            let chip = try r.required("chip", r.string("chip", allowed: "a chip name, number, /dev path or label in quotes, e.g. \"gpiochip0\""))
            let line: GPIOLineSpec.Line
            switch r.value("line") {
            case let .int(i)?: line = .offset(i)
            case let .string(s)?: line = .init(parsing: s)
            case nil: throw r.missing("line", "an offset (17) or a line name in quotes (\"GPIO17\")")
            case let v?: throw r.refuse("line", v.text, "an offset (17) or a line name in quotes (\"GPIO17\")")
            }
            var spec = GPIOLineSpec(chip: chip, line: line)
            spec.activeLow = try r.bool("active_low") ?? false
            switch r.value("safe") {
            case nil: break
            case let .int(i)? where i == 0 || i == 1: spec.safeValue = i == 1
            case let .bool(b)?: spec.safeValue = b
            case let v?: throw r.refuse("safe", v.text, "0 or 1 (the logical value meaning \"not pressed\")")
            }
            let drives = GPIOLineSpec.Drive.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            if let d = try r.string("drive", allowed: "one of \(drives)") {
                guard let drive = GPIOLineSpec.Drive(parsing: d) else { throw r.refuse("drive", "\"\(d)\"", "one of \(drives)") }
                spec.drive = drive
            }
            let biases = GPIOLineSpec.Bias.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            if let b = try r.string("bias", allowed: "one of \(biases)") {
                guard let bias = GPIOLineSpec.Bias(parsing: b) else { throw r.refuse("bias", "\"\(b)\"", "one of \(biases)") }
                spec.bias = bias
            }
            do { try spec.validate() } catch {
                throw r.refuse("line", "\(line)", "\(error)")
            }
            let key = Self.lineKey(spec)
            if let other = seenLines[key] {
                throw r.refuse("line", "\(line)", "a line no other output uses (output \(other) already uses it)")
            }
            seenLines[key] = "\"\(name)\" (chip \(chip), line \(line))"
            config.outputs.append(.init(name: name, line: spec))
        }
        let names = config.outputs.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let outputsAllowed = config.outputs.isEmpty ? "the name of an output, but there is no [[outputs]] table" : "one of \(names)"

        for (i, table) in try tables(root, "bindings", file: file, lines: lines).enumerated() {
            let r = try TableReader(table, prefix: "bindings[\(i + 1)]", file: file, lines: lines,
                                    known: ["event", "direction", "output", "outputs", "action", "pulse_ms", "max_hold_ms", "rate_hz"])
            let events = OutputsConfig.bindableEvents.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            let eventName = try r.required("event", r.string("event", allowed: "one of \(events)"))
            guard let event = GestureKind(rawValue: eventName), OutputsConfig.bindableEvents.contains(event) else {
                throw r.refuse("event", "\"\(eventName)\"", "one of \(events)")
            }
            let directions = Direction.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            var direction: Direction?
            if let d = try r.string("direction", allowed: "one of \(directions)") {
                guard OutputsConfig.directionalEvents.contains(event) else {
                    throw r.refuse("direction", "\"\(d)\"", "no direction for \(eventName) (only look, look_start and look_stop have one)")
                }
                guard let dir = Direction(rawValue: d) else { throw r.refuse("direction", "\"\(d)\"", "one of \(directions)") }
                direction = dir
            }
            var targets: [String]
            switch (r.value("output"), r.value("outputs")) {
            case (nil, nil): throw r.missing("output", "output = \"NAME\" or outputs = [\"A\", \"B\"], naming [[outputs]]: \(names)")
            case (_?, _?): throw r.refuse("outputs", r.value("outputs")!.text, "either output or outputs, not both")
            case let (one?, nil):
                guard let s = one.string else { throw r.refuse("output", one.text, outputsAllowed) }
                targets = [s]
            case let (nil, many?):
                guard let a = many.array, !a.isEmpty, case let strings = a.compactMap(\.string), strings.count == a.count else {
                    throw r.refuse("outputs", many.text, "a list of output names, e.g. [\"switch1\", \"buzzer\"]")
                }
                targets = strings
            }
            let key = r.value("output") != nil ? "output" : "outputs"
            for t in targets where config.index(of: t) == nil {
                throw r.refuse(key, "\"\(t)\"", outputsAllowed)
            }
            if Set(targets).count != targets.count { throw r.refuse(key, "\(targets)", "each output once") }
            targets = targets.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }

            let actions = "\"pulse\", \"hold\", \"repeat\", \"toggle\", \"latch\", \"release\""
            let actionName = try r.required("action", r.string("action", allowed: "one of \(actions)"))
            let pulseMs = try r.int("pulse_ms", 10...60_000)
            let maxHoldMs = try r.int("max_hold_ms", 100...3_600_000)
            let rateHz = try r.double("rate_hz", 0.1...20)
            let action: OutputsConfig.Action
            var used: Set<String> = []
            switch actionName {
            case "pulse":
                action = .pulse(ms: pulseMs ?? OutputsConfig.defaultPulseMs); used = ["pulse_ms"]
            case "hold":
                action = .hold(maxMs: maxHoldMs ?? OutputsConfig.defaultMaxHoldMs); used = ["max_hold_ms"]
            case "repeat":
                let rate = rateHz ?? OutputsConfig.defaultRateHz
                let periodMs = 1000 / rate
                let on = pulseMs ?? Int((periodMs / 2).rounded())
                if Double(on) >= periodMs {
                    throw r.refuse("pulse_ms", "\(on)", "shorter than one repeat period (\(Int(periodMs)) ms at rate_hz = \(rate)), so the line goes off between presses")
                }
                action = .repeat(rateHz: rate, onMs: on, maxMs: maxHoldMs ?? OutputsConfig.defaultMaxHoldMs)
                used = ["pulse_ms", "max_hold_ms", "rate_hz"]
            case "toggle": action = .toggle
            case "latch": action = .latch
            case "release": action = .release
            default: throw r.refuse("action", "\"\(actionName)\"", "one of \(actions)")
            }
            if action.needsContinuousEvent && OutputsConfig.continuousEvents[event] == nil {
                let fits = OutputsConfig.continuousEvents.keys.map(\.rawValue).sorted().joined(separator: " or ")
                throw r.refuse("action", "\"\(actionName)\"",
                               "for event \"\(eventName)\" (it has no duration): pulse, toggle, latch, release; \(actionName) needs an event that lasts: \(fits)")
            }
            for extra in ["pulse_ms", "max_hold_ms", "rate_hz"] where r.value(extra) != nil && !used.contains(extra) {
                throw r.refuse(extra, r.value(extra)!.text, "nothing here: \(extra) is not a setting of action \"\(actionName)\"")
            }
            config.bindings.append(.init(event: event, direction: direction, outputs: targets, action: action))
        }

        if let value = root["status_led"] {
            guard let table = value.table else {
                throw .notATable(file: file, line: lines.line(of: "status_led"), key: "status_led")
            }
            let patternKeys: [(String, WritableKeyPath<OutputsConfig.StatusLED, BlinkPattern>)] = [
                ("searching", \.searching), ("calibrating", \.calibrating), ("tracking", \.tracking),
                ("fault", \.fault), ("low_battery", \.lowBattery),
            ]
            let r = try TableReader(table, prefix: "status_led", file: file, lines: lines,
                                    known: ["output"] + patternKeys.map(\.0) + ["fired_flash_ms"])
            let name = try r.required("output", r.string("output", allowed: outputsAllowed))
            guard config.index(of: name) != nil else { throw r.refuse("output", "\"\(name)\"", outputsAllowed) }
            if let b = config.bindings.first(where: { $0.outputs.contains(name) }) {
                throw r.refuse("output", "\"\(name)\"", "an output no binding drives (a \(b.event.rawValue) binding drives \"\(name)\")")
            }
            var led = OutputsConfig.StatusLED(output: name)
            for (key, path) in patternKeys {
                if let p = try r.pattern(key) { led[keyPath: path] = p }
            }
            for (i, a) in patternKeys.enumerated() {
                for b in patternKeys[..<i] where led[keyPath: a.1] == led[keyPath: b.1] {
                    throw r.refuse(a.0, led[keyPath: a.1].text, "a pattern different from status_led.\(b.0) (\(led[keyPath: b.1].text)), so the installer can tell the states apart")
                }
            }
            led.firedFlashMs = try r.int("fired_flash_ms", 0...2000) ?? led.firedFlashMs
            config.statusLED = led
        }
        return config
    }

    /// `[[name]]` tables (an empty list when absent).
    private static func tables(_ root: [String: TOMLNode], _ key: String, file: String, lines: KeyLines) throws(ConfigError) -> [[String: TOMLNode]] {
        guard let value = root[key] else { return [] }
        guard let array = value.array else {
            throw .wrongType(file: file, line: lines.line(of: key), key: key, value: value.text,
                             allowed: "[[\(key)]] tables, one for each \(key == "outputs" ? "output" : "binding")")
        }
        var out: [[String: TOMLNode]] = []
        for (i, element) in array.enumerated() {
            guard let t = element.table else {
                throw .wrongType(file: file, line: lines.line(of: key), key: "\(key)[\(i + 1)]", value: element.text,
                                 allowed: "a [[\(key)]] table")
            }
            out.append(t)
        }
        return out
    }

    /// The same physical line however it is written: gpiochip0 = 0 = /dev/gpiochip0, names case-insensitive.
    static func lineKey(_ spec: GPIOLineSpec) -> String {
        var chip = spec.chip.trimmingCharacters(in: .whitespaces)
        if chip.hasPrefix("/dev/") { chip.removeFirst(5) }
        if !chip.isEmpty, chip.allSatisfy({ $0.isASCII && $0.isNumber }) { chip = "gpiochip" + chip }
        switch spec.line {
        case let .offset(n): return "\(chip):\(n)"
        case let .name(s): return "\(chip):name:\(s.lowercased())"
        }
    }
}

/// Reads the keys of one table, refusing unknown ones; errors carry the file line of the key.
private struct TableReader {
    let table: [String: TOMLNode]
    let prefix: String
    let file: String
    let lines: KeyLines

    init(_ table: [String: TOMLNode], prefix: String, file: String, lines: KeyLines, known: [String]) throws(ConfigError) {
        self.table = table; self.prefix = prefix; self.file = file; self.lines = lines
        for key in table.keys.sorted() where !known.contains(key) {
            throw .unknownKey(file: file, line: lines.line(of: "\(prefix).\(key)") ?? lines.line(of: prefix),
                              key: "\(prefix).\(key)", known: known.map { "\(prefix).\($0)" })
        }
    }

    func value(_ key: String) -> TOMLNode? { table[key] }

    func refuse(_ key: String, _ value: String, _ allowed: String) -> ConfigError {
        .outOfRange(file: file, line: lines.line(of: "\(prefix).\(key)") ?? lines.line(of: prefix), key: "\(prefix).\(key)",
                    value: value, allowed: allowed)
    }

    func missing(_ key: String, _ allowed: String) -> ConfigError {
        .outOfRange(file: file, line: lines.line(of: prefix), key: "\(prefix).\(key)", value: "(missing)", allowed: allowed)
    }

    func required<T>(_ key: String, _ value: T?) throws(ConfigError) -> T {
        guard let value else { throw missing(key, "a value: \(key) is required") }
        return value
    }

    private func wrongType(_ key: String, _ v: TOMLNode, _ allowed: String) -> ConfigError {
        .wrongType(file: file, line: lines.line(of: "\(prefix).\(key)") ?? lines.line(of: prefix), key: "\(prefix).\(key)",
                   value: v.text, allowed: allowed)
    }

    func string(_ key: String, allowed: String) throws(ConfigError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { throw wrongType(key, v, allowed) }
        return s
    }

    func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.bool else { throw wrongType(key, v, "true or false") }
        return b
    }

    func int(_ key: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        let allowed = SettingSpec.Kind.int(range).allowed
        guard let v = value(key) else { return nil }
        guard let i = v.int else { throw wrongType(key, v, allowed) }
        guard range.contains(i) else { throw refuse(key, "\(i)", allowed) }
        return i
    }

    func double(_ key: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        let allowed = SettingSpec.Kind.double(range).allowed
        guard let v = value(key) else { return nil }
        let d: Double
        switch v {
        case let .int(i): d = Double(i)
        case let .double(x): d = x
        default: throw wrongType(key, v, allowed)
        }
        guard range.contains(d) else { throw refuse(key, ConfigValue.double(d).text, allowed) }
        return d
    }

    func pattern(_ key: String) throws(ConfigError) -> BlinkPattern? {
        let allowed = "\"on\", \"off\", or milliseconds on, off, on, off... as a list of an even count, each 20 to 60000 (e.g. [100, 900])"
        guard let v = value(key) else { return nil }
        if let s = v.string {
            switch s {
            case "on": return .on
            case "off": return .off
            default: throw refuse(key, "\"\(s)\"", allowed)
            }
        }
        guard let a = v.array else { throw wrongType(key, v, allowed) }
        let steps = a.compactMap(\.int)
        guard steps.count == a.count, !steps.isEmpty, steps.count % 2 == 0, steps.allSatisfy({ (20...60_000).contains($0) }) else {
            throw refuse(key, v.text, allowed)
        }
        return .blink(steps)
    }
}
