@testable import Appliance
import XCTest

/// `nodwire replay --outputs` (dry run) and `gpio test` through the real binary, on a real clip. The
/// same chain against real kernel lines runs in the VM: hardware/tests/outputs-hil.sh.
final class OutputReplayTests: XCTestCase {
    private struct Run { var status: Int32; var lines: [[String: Any]]; var stderr: String }

    private func nodwire(_ args: [String], config: String) throws -> Run {
        let exe = ReplayTests.nodwire
        guard FileManager.default.isExecutableFile(atPath: exe) else { throw XCTSkip("\(exe) not built: swift build --build-tests builds it") }
        let file = NSTemporaryDirectory() + "outputs-\(getpid())-\(UUID().uuidString).toml"
        try config.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args + ["--config", file]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return Run(status: p.terminationStatus, lines: lines, stderr: errText)
    }

    static let config = """
    [[outputs]]
    name = "right"
    chip = "gpiochip0"
    line = 1
    [[outputs]]
    name = "down"
    chip = "gpiochip0"
    line = 2
    safe = 1
    [[outputs]]
    name = "led"
    chip = "gpiochip0"
    line = 3
    [[bindings]]
    event = "look_start"
    direction = "right"
    output = "right"
    action = "pulse"
    pulse_ms = 300
    [[bindings]]
    event = "look_start"
    direction = "down"
    output = "down"
    action = "hold"
    [status_led]
    output = "led"
    """

    private func double(_ v: Any?) -> Double { (v as? Double) ?? Double(v as? Int ?? -1) }

    func testDryRunReplayDrivesTheConfiguredLinesAtTheClipsTimes() throws {
        let run = try nodwire(["replay", ReplayTests.root + "/.build-fixtures/clm_look.y4m", "--outputs"], config: Self.config)
        XCTAssertEqual(run.status, 0, run.stderr)
        let changes = run.lines.filter { $0["type"] as? String == "output" }
        func of(_ name: String) -> [(Double, Int, String)] {
            changes.filter { $0["output"] as? String == name }.map { (double($0["time"]), $0["value"] as? Int ?? -1, $0["cause"] as? String ?? "") }
        }
        let look = try XCTUnwrap(run.lines.first { $0["type"] as? String == "look_start" && $0["direction"] as? String == "right" })
        let t = double(look["time"])
        let right = of("right")
        XCTAssertEqual(right.map(\.1), [1, 0])
        XCTAssertEqual(right[0].0, t, accuracy: 0.0005, "on at the event's own time (dry run)")
        XCTAssertEqual(right[1].0 - right[0].0, 0.3, accuracy: 0.0015, "off 300 ms later")
        XCTAssertEqual(right[1].2, "pulse end")

        // safe = 1: the hold drives 0, look_stop down brings back 1
        let start = try XCTUnwrap(run.lines.first { $0["type"] as? String == "look_start" && $0["direction"] as? String == "down" })
        let stop = try XCTUnwrap(run.lines.first { $0["type"] as? String == "look_stop" && $0["direction"] as? String == "down" })
        let down = of("down")
        XCTAssertEqual(down.map(\.1), [0, 1])
        XCTAssertEqual(down[0].0, double(start["time"]), accuracy: 0.0005)
        XCTAssertEqual(down[1].0, double(stop["time"]), accuracy: 0.0005)
        XCTAssertEqual(down[1].2, "look_stop down")

        // The status LED: lit at 0 (searching), then its patterns; off at the end (shutdown).
        let led = of("led")
        XCTAssertEqual(led.first?.0, 0); XCTAssertEqual(led.first?.1, 1)
        XCTAssertEqual(led.last?.2, "shutdown"); XCTAssertEqual(led.last?.1, 0)
        XCTAssertEqual(led.filter { $0.2 == "status flash" }.count, 2, "one flash for each fired binding")

        // Output lines are in time order with the events.
        let times = run.lines.map { double($0["time"]) }
        XCTAssertEqual(times, times.sorted())
    }

    /// `--budget` governs the outputs' replay as it does the plain one (it was ignored with `--outputs`):
    /// a budget no frame fits lowers the rate to the minimum, and the stats say so.
    func testABudgetGovernsTheOutputsReplayToo() throws {
        let clip = ReplayTests.root + "/.build-fixtures/clm_look.y4m"
        let run = try nodwire(["replay", clip, "--outputs", "--budget", "1", "--stats"], config: "[budget]\nminimum_rate = 5\n" + Self.config)
        XCTAssertEqual(run.status, 0, run.stderr)
        let stats = try XCTUnwrap(run.stderr.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.last, run.stderr)
        let budget = try XCTUnwrap(stats["budget"] as? [String: Any], "\(stats)")
        XCTAssertEqual(double(budget["cpu_percent_budget"]), 1)
        XCTAssertLessThan(double(stats["frames_processed"]), 420 * 10 / 25, "\(stats)")
        XCTAssertTrue(run.stderr.contains("nodwire: budget:"), run.stderr)
        XCTAssertEqual(run.lines.filter { $0["type"] as? String == "output" }.last?["cause"] as? String, "shutdown")
    }

    func testOutputsNeedAnOutputsSection() throws {
        let run = try nodwire(["replay", ReplayTests.root + "/.build-fixtures/clm_look.y4m", "--outputs"], config: "[vision]\nmirrored = false\n")
        XCTAssertEqual(run.status, 78)
        XCTAssertTrue(run.stderr.contains("no [[outputs]]"), run.stderr)
    }

    func testGPIOTestOnAMissingChipSaysWhatExists() throws {
        let run = try nodwire(["gpio", "test"], config: "[[outputs]]\nname = \"a\"\nchip = \"no-such-chip-label\"\nline = 1\n")
        XCTAssertEqual(run.status, 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("'no-such-chip-label' not found"), run.stderr)
    }
}
