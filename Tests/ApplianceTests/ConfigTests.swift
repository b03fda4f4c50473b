@testable import Appliance
import XCTest

final class ConfigTests: XCTestCase {
    /// The printed defaults are a complete, valid file that reads back as the defaults.
    func testDefaultsFileRoundTrips() throws {
        let text = ConfigSchema.defaultsFile()
        XCTAssertEqual(try ConfigLoader.parse(text, file: "defaults.toml"), NodwireConfig())
        for spec in ConfigSchema.all { XCTAssertTrue(text.contains("\n\(spec.name) = "), spec.key) }
    }

    func testKeysAreUniqueAndDocumented() {
        let keys = ConfigSchema.all.map(\.key)
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertTrue(ConfigSchema.all.allSatisfy { !$0.doc.isEmpty })
    }

    func testValuesLandInTheSettings() throws {
        let c = try ConfigLoader.parse("""
        [vision]
        mirrored = true
        min_face_size = 90
        [gestures.zones]
        threshold_yaw = 15        # whole numbers are fine for decimals
        [gestures.nod]
        min_amplitude = 9.5
        [gestures.smoothing]
        kind = "moving_average"
        """, file: "t.toml")
        XCTAssertTrue(c.vision.mirrored)
        XCTAssertEqual(c.vision.minFaceSize, 90)
        XCTAssertEqual(c.gestures.zones.thresholdYaw, 15)
        XCTAssertEqual(c.gestures.nod.minAmplitude, 9.5)
        XCTAssertEqual(c.gestures.smoothing.kind, .movingAverage)
    }

    /// Each bad file is refused with the file, the line, the key, the value and what is allowed.
    func testBadConfigsAreRefusedWithWhatAndWhere() {
        let cases: [(String, [String])] = [
            ("[vision\nmirrored = true", ["bad.toml:1", "not valid TOML"]),
            ("[vision]\nmirrored = maybe", ["bad.toml:2", "not valid TOML"]),
            ("[vision]\nmirored = true", ["bad.toml:2", "vision.mirored", "Did you mean vision.mirrored", "vision.min_face_size"]),
            ("[visoin]\nmirrored = true", ["bad.toml:1", "unknown setting visoin", "gestures"]),
            ("[vision]\nmirrored = 1", ["bad.toml:2", "vision.mirrored = 1", "true or false"]),
            ("[vision]\nmin_face_size = \"big\"", ["bad.toml:2", "vision.min_face_size", "a number from 30.0 to 400.0"]),
            ("[vision]\nmin_face_size = 10", ["bad.toml:2", "vision.min_face_size = 10", "from 30.0 to 400.0"]),
            ("[gestures.calibration]\nseconds = \"long\"", ["bad.toml:2", "gestures.calibration.seconds", "a number from 0.1 to 10.0"]),
            ("[gestures.calibration]\nseconds = 100", ["gestures.calibration.seconds = 100", "0.1 to 10.0"]),
            // Keys of an earlier version: refused, saying what replaced them.
            ("[gestures.calibration]\nsamples = 15", ["bad.toml:2", "gestures.calibration.samples is no longer read", "gestures.calibration.seconds", "0.45"]),
            ("[gestures.calibration]\nmax_jump = 2.5", ["gestures.calibration.max_jump is no longer read", "max_speed", "75"]),
            ("[gestures.calibration]\naverage_last = 8", ["gestures.calibration.average_last is no longer read", "average_seconds"]),
            ("[gestures.smoothing]\nkind = \"kalman\"", ["bad.toml:2", "\"kalman\"", "\"one_euro\", \"moving_average\", \"none\""]),
            ("[gestures.zones]\nidle_yaw = 20\nthreshold_yaw = 12", ["gestures.zones.idle_yaw", "smaller than gestures.zones.threshold_yaw"]),
            ("[gestures.nod]\nmin_amplitude = -3", ["gestures.nod.min_amplitude = -3", "from 1.0 to 60.0"]),
            ("[gestures.nod]\nmin_amplitude = 2\nhysteresis = 2.5", ["gestures.nod.hysteresis", "smaller than"]),
            ("gestures = 3", ["bad.toml:1", "gestures is a section"]),
            ("[vision]\nmodel_path = \"\"", ["vision.model_path", "a file path"]),
            ("[vision]\nmirrored = [true]", ["vision.mirrored", "wrong type"]),
            ("[gestures.zones]\nthreshold_yaw = nan", ["gestures.zones.threshold_yaw", "not allowed"]),
            // [[outputs]], [[bindings]], [status_led]: Self.out is 4 lines, so the next table starts on line 5.
            (Self.out + "[[outputs]]\nname = \"b\"\nchip = \"/dev/gpiochip0\"\nline = 1",
             ["bad.toml:8", "outputs[2].line = 1", "output \"a\" (chip gpiochip0, line 1) already uses it"]),
            (Self.out + "[[outputs]]\nname = \"b\"\nchip = \"0\"\nline = \"LED\"\n[[outputs]]\nname = \"c\"\nchip = \"gpiochip0\"\nline = \"led\"",
             ["bad.toml:12", "outputs[3].line = 'led'", "output \"b\" (chip 0, line 'LED') already uses it"]),
            (Self.out + "[[outputs]]\nname = \"a\"\nchip = \"gpiochip0\"\nline = 2", ["bad.toml:6", "outputs[2].name = \"a\"", "no other output has"]),
            (Self.out + "[[outputs]]\nname = \"b\"\nchip = \"gpiochip0\"\nline = -4", ["bad.toml:8", "outputs[2].line", "negative"]),
            (Self.out + "[[outputs]]\nname = \"b\"\nchip = \"gpiochip0\"", ["bad.toml:5", "outputs[2].line = (missing)", "an offset (17)"]),
            ("[[outputs]]\nname = \"a\"\nchip = \"gpiochip0\"\nline = 1\nsafe = 2", ["bad.toml:5", "outputs[1].safe = 2", "0 or 1"]),
            ("[[outputs]]\nname = \"a\"\nchip = \"gpiochip0\"\nline = 1\ndrive = \"totem-pole\"", ["bad.toml:5", "\"totem-pole\"", "\"open-drain\""]),
            ("[[outputs]]\nname = \"a\"\nchip = \"gpiochip0\"\npin = 1", ["bad.toml:4", "unknown setting outputs[1].pin", "Did you mean outputs[1].line"]),
            ("outputs = 3", ["bad.toml:1", "outputs = 3", "[[outputs]] tables"]),
            (Self.out + "[[bindings]]\nevent = \"blink\"\noutput = \"a\"\naction = \"pulse\"",
             ["bad.toml:6", "bindings[1].event = \"blink\"", "\"nod\", \"shake\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"b\"\naction = \"pulse\"", ["bad.toml:7", "bindings[1].output = \"b\"", "one of \"a\""]),
            ("[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"", ["bad.toml:3", "bindings[1].output = \"a\"", "there is no [[outputs]] table"]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutputs = [\"a\", \"x\"]\naction = \"latch\"", ["bad.toml:7", "bindings[1].outputs = \"x\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"hold\"",
             ["bad.toml:8", "bindings[1].action = \"hold\"", "for event \"nod\"", "face_found or look_start"]),
            (Self.out + "[[bindings]]\nevent = \"look\"\noutput = \"a\"\naction = \"repeat\"", ["bad.toml:8", "\"repeat\"", "for event \"look\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"press\"", ["bad.toml:8", "\"press\"", "\"pulse\", \"hold\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"\npulse_ms = 0", ["bad.toml:9", "bindings[1].pulse_ms = 0", "from 10 to 60000"]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"\npulse_ms = 0.5", ["bad.toml:9", "bindings[1].pulse_ms", "wrong type", "whole number"]),
            (Self.out + "[[bindings]]\nevent = \"look_start\"\noutput = \"a\"\naction = \"repeat\"\nrate_hz = 0",
             ["bad.toml:9", "bindings[1].rate_hz = 0", "from 0.1 to 20.0"]),
            (Self.out + "[[bindings]]\nevent = \"look_start\"\noutput = \"a\"\naction = \"repeat\"\nrate_hz = 5\npulse_ms = 200",
             ["bad.toml:10", "bindings[1].pulse_ms = 200", "shorter than one repeat period (200 ms"]),
            (Self.out + "[[bindings]]\nevent = \"look_start\"\noutput = \"a\"\naction = \"hold\"\nmax_hold_ms = 99",
             ["bad.toml:9", "max_hold_ms = 99", "from 100 to 3600000"]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"toggle\"\npulse_ms = 100",
             ["bad.toml:9", "bindings[1].pulse_ms = 100", "not a setting of action \"toggle\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\ndirection = \"up\"\noutput = \"a\"\naction = \"pulse\"",
             ["bad.toml:7", "bindings[1].direction = \"up\"", "only look, look_start and look_stop"]),
            (Self.out + "[[bindings]]\nevent = \"look\"\ndirection = \"sideways\"\noutput = \"a\"\naction = \"pulse\"",
             ["bad.toml:7", "\"sideways\"", "\"left\", \"right\", \"up\", \"down\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\naction = \"pulse\"", ["bad.toml:5", "bindings[1].output = (missing)"]),
            (Self.out + "[status_led]\noutput = \"led\"", ["bad.toml:6", "status_led.output = \"led\"", "one of \"a\""]),
            (Self.out + "[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"\n[status_led]\noutput = \"a\"",
             ["bad.toml:10", "status_led.output = \"a\"", "no binding drives"]),
            (Self.out + "[status_led]\noutput = \"a\"\nsearching = [100, 200, 300]", ["bad.toml:7", "status_led.searching", "even count"]),
            (Self.out + "[status_led]\noutput = \"a\"\nsearching = \"blink\"", ["bad.toml:7", "status_led.searching = \"blink\"", "\"on\", \"off\""]),
            (Self.out + "[status_led]\noutput = \"a\"\ncalibrating = [100, 900]", ["bad.toml:7", "status_led.calibrating = [100, 900]", "different from status_led.searching"]),
            (Self.out + "[status_led]\noutput = \"a\"\nfired_flash_ms = 5000", ["bad.toml:7", "status_led.fired_flash_ms = 5000", "from 0 to 2000"]),
            ("[budget]\ncpu_percent = 0", ["bad.toml:2", "budget.cpu_percent = 0", "from 1.0 to 400.0"]),
            ("[budget.power]\nboard = \"pi3\"", ["bad.toml:2", "budget.power.board", "\"pi4\", \"pi5\", \"zero2w\", \"custom\""]),
            ("[budget.battery]\nlow_percent = 5\ncritical_percent = 10", ["budget.battery.critical_percent", "must be below budget.battery.low_percent"]),
            ("[budget]\nminimum_rate = 40", ["budget.minimum_rate", "must not exceed budget.active_rate"]),
        ]
        for (text, expected) in cases {
            do {
                _ = try ConfigLoader.parse(text, file: "bad.toml")
                XCTFail("accepted: \(text)")
            } catch {
                let message = "\(error)"
                for part in expected { XCTAssertTrue(message.contains(part), "«\(message)» lacks «\(part)» for:\n\(text)") }
            }
        }
    }

    static let out = "[[outputs]]\nname = \"a\"\nchip = \"gpiochip0\"\nline = 1\n"

    /// deploy/examples-outputs.toml is the example `config defaults` prints, and it is a valid config.
    func testOutputsExampleIsValidAndMatchesTheDeployFile() throws {
        let deploy = try String(contentsOfFile: ReplayTests.root + "/deploy/examples-outputs.toml", encoding: .utf8)
        XCTAssertEqual(deploy, ConfigSchema.outputsExample + "\n")
        let c = try ConfigLoader.parse(deploy, file: "examples-outputs.toml").outputs
        XCTAssertEqual(c.outputs.map(\.name), ["switch1", "switch2", "status"])
        XCTAssertEqual(c.outputs[0].line, GPIOLineSpec(chip: "gpiochip0", line: .offset(17)))
        XCTAssertEqual(c.bindings.count, 4)
        XCTAssertEqual(c.bindings[0], .init(event: .nod, direction: nil, outputs: ["switch1"], action: .pulse(ms: 250)))
        XCTAssertEqual(c.bindings[1], .init(event: .lookStart, direction: .right, outputs: ["switch2"], action: .hold(maxMs: 3000)))
        XCTAssertEqual(c.bindings[2].action, .repeat(rateHz: 1.5, onMs: 200, maxMs: 10000))
        XCTAssertEqual(c.bindings[3].action, .toggle)
        XCTAssertEqual(c.statusLED?.output, "status")
        XCTAssertEqual(c.statusLED?.fault, .blink([100, 100, 100, 700]))

        // In `config defaults` it is commented out: settings as `#key`, so removing that `#` gives the example back.
        let defaults = ConfigSchema.defaultsFile()
        let tail = defaults[defaults.range(of: "# Nodwire outputs")!.lowerBound...]
        let uncommented = tail.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#") && !$0.hasPrefix("# ") && $0 != "#" ? String($0.dropFirst()) : String($0) }.joined(separator: "\n")
        XCTAssertEqual(uncommented, deploy)
    }

    func testOutputDefaultsAndSpellings() throws {
        let c = try ConfigLoader.parse(Self.out + """
        active_low = true
        safe = true
        drive = "open_drain"
        bias = "pull-up"
        [[outputs]]
        name = "b"
        chip = "sim"
        line = "GPIO5"
        [[bindings]]
        event = "look_start"
        outputs = ["a", "b"]
        action = "repeat"
        [[bindings]]
        event = "face_found"
        output = "b"
        action = "hold"
        [[bindings]]
        event = "nod"
        output = "a"
        action = "pulse"
        """, file: "t.toml").outputs
        XCTAssertEqual(c.outputs[0].line, GPIOLineSpec(chip: "gpiochip0", line: .offset(1), activeLow: true, safeValue: true, drive: .openDrain, bias: .pullUp))
        XCTAssertEqual(c.outputs[1].line.line, .name("GPIO5"))
        XCTAssertEqual(c.bindings[0].action, .repeat(rateHz: 2, onMs: 250, maxMs: 5000), "2 Hz, half on, 5 s max by default")
        XCTAssertEqual(c.bindings[1].action, .hold(maxMs: 5000))
        XCTAssertEqual(c.bindings[2].action, .pulse(ms: 200))
        XCTAssertNil(c.statusLED)
        XCTAssertEqual(try ConfigLoader.parse("", file: "t.toml").outputs, OutputsConfig(), "no outputs is fine (replay without --outputs)")
    }

    func testUnreadableFileNamesIt() {
        XCTAssertThrowsError(try ConfigLoader.load(file: "/nonexistent/nodwire.toml")) {
            XCTAssertTrue("\($0)".contains("/nonexistent/nodwire.toml"))
        }
    }

    func testRefusedConfigExitsWith78() throws {
        let exe = ReplayTests.nodwire
        guard FileManager.default.isExecutableFile(atPath: exe) else { return XCTFail("\(exe) not built: swift build --build-tests builds it") }
        let file = NSTemporaryDirectory() + "bad-\(getpid()).toml"
        try "[vision]\nmin_face_size = 5\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["config", "check", file]
        let err = Pipe()
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 78)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("\(file):2: vision.min_face_size = 5"), text)
    }
}
