@testable import Appliance
import Foundation
import Pipeline
import XCTest

/// A `nodwire` process whose stdout and stderr are collected as they come.
final class RunningNodwire: @unchecked Sendable {
    static let exe = ReplayTests.nodwire
    let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    /// `executable`: another program to watch the same way (the MQTT tests' broker and mosquitto_sub).
    init(_ arguments: [String], environment: [String: String] = [:], executable: String = RunningNodwire.exe) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else { throw TimedOut(what: "\(executable) (swift build --build-tests builds it)") }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "INVOCATION_ID"] { env[key] = nil }
        env.merge(environment) { _, new in new }
        process.environment = env
        let o = Pipe(), e = Pipe()
        process.standardOutput = o
        process.standardError = e
        try process.run()
        // Plain blocking reads on threads of their own (FileHandle's readabilityHandler has missed data here).
        for (pipe, isOut) in [(o, true), (e, false)] {
            let fd = pipe.fileHandleForReading.fileDescriptor
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let n = read(fd, &buffer, buffer.count)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { break }
                    lock.withLock { if isOut { out += buffer[0..<n] } else { err += buffer[0..<n] } }
                }
                lock.withLock { open -= 1 }
            }.start()
        }
    }

    private var open = 2

    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    func waitForStderr(_ text: String, timeout: Double = 20) throws {
        try waitUntil("«\(text)» on stderr; got:\n\(stderr)", timeout: timeout) { stderr.contains(text) }
    }

    func waitForStdout(_ text: String, timeout: Double = 20) throws {
        try waitUntil("«\(text)» on stdout; got:\n\(stdout)", timeout: timeout) { stdout.contains(text) }
    }

    func signal(_ s: Int32) { kill(process.processIdentifier, s) }

    /// Waits for the exit (killing it after `timeout`) and returns the exit status.
    func finish(timeout: Double = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate(); process.waitUntilExit(); return -1 }
        process.waitUntilExit()
        let drained = Date().addingTimeInterval(5)
        while lock.withLock({ open > 0 }) && Date() < drained { Thread.sleep(forTimeInterval: 0.01) }
        return process.terminationStatus
    }
}

/// `nodwire run` as a whole, as systemd and a kiosk app see it: the built binary on a real recording, a real
/// notify socket, the real event socket read by `nodwire events`, real signals.
final class RunServiceTests: XCTestCase {
    static let clip = ReplayTests.root + "/.build-fixtures/clm_look.y4m"

    private func temp(_ name: String) -> String { NSTemporaryDirectory() + "run-\(getpid())-\(name)" }

    func testRunServesEventsNotifiesSystemdReloadsAndStopsGracefully() throws {
        let socketPath = temp("events.sock")
        let configPath = temp("run.toml")
        let base = "[events]\nsocket_path = \"\(socketPath)\"\n[logging]\nlevel = \"debug\"\n"
        try base.write(toFile: configPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        let notify = try NotifyListener(abstract: true)

        let run = try RunningNodwire(["run", "--source", Self.clip, "--loop", "--config", configPath, "--status-interval", "0.5"],
                                     environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "400000"])
        var messages: [String] = []
        func collect(until wanted: String, timeout: Double = 20) throws {
            let deadline = MonotonicClock.now() + timeout
            while !messages.contains(where: { $0.hasPrefix(wanted) }) {
                guard MonotonicClock.now() < deadline else { throw TimedOut(what: "\(wanted) on the notify socket; got \(messages)") }
                if let m = notify.receive(timeout: 0.2) { messages.append(m) }
            }
        }
        try collect(until: "READY=1")
        try run.waitForStderr("receiving frames from \(Self.clip): 400x300 at 25 fps", timeout: 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: socketPath))

        defer { if run.process.isRunning { run.process.terminate() } }
        let reader = try RunningNodwire(["events", "--socket", socketPath])
        defer { if reader.process.isRunning { reader.process.terminate() } }
        try run.waitForStderr("events: a reader connected")

        // A refused file changes nothing; the process goes on.
        try (base + "[gestures.zones]\nidle_yaw = 99\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        try run.waitForStderr("config reload refused, the running settings stay: \(configPath):6: gestures.zones.idle_yaw = 99 is not allowed")
        XCTAssertTrue(run.process.isRunning)

        // An accepted one starts a new engine: the stream closes the old one's face and calibrates again.
        // (Only once there is a face to close: a reload before the first frame with a face has nothing to end.)
        try reader.waitForStdout("\"type\":\"calibrated\"")
        try (base + "[gestures.zones]\nthreshold_yaw = 14\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        try run.waitForStderr("config reloaded from \(configPath): changed gestures.zones.threshold_yaw (12.0 → 14.0)")
        do { try reader.waitForStdout("\"reason\":\"config_reload\"") } catch { XCTFail(run.stderr); throw error }
        try waitUntil("calibration after the reload, at the reader") {
            guard let i = reader.stdoutLines.firstIndex(where: { $0.contains("config_reload") }) else { return false }
            return reader.stdoutLines[i...].contains { $0.contains("\"type\":\"calibrated\"") }
        }

        try collect(until: "STATUS=")
        let statuses = messages.filter { $0.hasPrefix("STATUS=") }
        XCTAssertTrue(statuses.contains { $0.range(of: #"^STATUS=\d+(\.\d)? fps, CPU \d+%, vision [\d.]+ ms/frame, face "#, options: .regularExpression) != nil },
                      "\(statuses)")
        XCTAssertGreaterThanOrEqual(messages.filter { $0 == "WATCHDOG=1" }.count, 2, "a keep-alive every 0.2 s: \(messages)")

        run.signal(SIGTERM)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertEqual(reader.finish(), 0, "events ends when run stops: \(reader.stderr)")
        try collect(until: "STOPPING=1", timeout: 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath), "the socket file is removed")

        // What the reader got is exactly a stretch of what run printed, every line a JSON event.
        let printed = run.stdoutLines
        let read = reader.stdoutLines
        XCTAssertFalse(read.isEmpty)
        let start = try XCTUnwrap(printed.firstIndex(of: read[0]))
        XCTAssertEqual(Array(printed[start..<min(printed.count, start + read.count)]), read)
        for line in printed {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            XCTAssertNotNil(object["type"] as? String)
        }
        // Stopping closes what is open: the last event says the face is gone because we stop.
        XCTAssertEqual(printed.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["reason"] as? String,
                       "stopping", printed.last ?? "")
    }

    func testARecordingWithoutLoopEndsTheServiceCleanly() throws {
        let clip = try syntheticY4M(frames: 12, rate: 25, width: 160, height: 120)
        defer { try? FileManager.default.removeItem(atPath: clip) }
        let notify = try NotifyListener(abstract: false)
        let run = try RunningNodwire(["run", "--source", clip], environment: ["NOTIFY_SOCKET": notify.name])
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertEqual(notify.receive(timeout: 1), "READY=1")
        XCTAssertEqual(notify.receive(timeout: 1), "STOPPING=1")
        // Every frame was either processed or, when the loop was late (a loaded machine), skipped for a newer one.
        // (or passed over by the governor: at most `budget.active_rate` of a 25 fps recording, by default all).
        let counts = run.stderr.firstMatch(of: /frame loop ended budget_skipped=(\d+) frames=(\d+) frames_with_face=0 skipped=(\d+)/)
        XCTAssertEqual(counts.map { Int($0.1)! + Int($0.2)! + Int($0.3)! }, 12, run.stderr)
        XCTAssertEqual(Double(counts.map { Int($0.2)! } ?? 0), 12 * min(25, NodwireConfig().budget.activeRate) / 25, accuracy: 2, run.stderr)
    }

    /// The outputs in the appliance: a look right pulses its line, and SIGTERM leaves every line safe.
    func testRunDrivesTheOutputsAndLeavesThemSafeOnSIGTERM() throws {
        let configPath = temp("outputs.toml")
        try OutputReplayTests.config.write(toFile: configPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        let run = try RunningNodwire(["run", "--source", Self.clip, "--gpio", "dry-run", "--config", configPath])
        defer { if run.process.isRunning { run.process.terminate() } }
        try run.waitForStderr("outputs (dry run): right = gpiochip0 line 1, down = gpiochip0 line 2, led = gpiochip0 line 3", timeout: 10)
        // He turns to his right about 4.6 s into the clip: a 300 ms pulse.
        try run.waitForStderr(#""output":"right","value":1,"cause":"look_start right""#)
        try run.waitForStderr(#""output":"right","value":0,"cause":"pulse end""#, timeout: 2)
        // Looking down holds "down" (safe = 1, so active is 0) until he looks back up; stop him mid-hold.
        try run.waitForStderr(#""output":"down","value":0,"cause":"look_start down""#)
        run.signal(SIGTERM)
        XCTAssertEqual(run.finish(), 0, run.stderr)
        let after = try XCTUnwrap(run.stderr.range(of: #""cause":"look_start down""#)).upperBound
        let tail = String(run.stderr[after...])
        XCTAssertTrue(tail.contains(#""output":"down","value":1,"cause":"look_stop down""#), "the hold ends with the stream's look_stop (reason stopping): \(tail)")
        // Each line's last logged value is its safe value (the status LED off).
        var last: [String: Int] = [:]
        for line in run.stderr.split(separator: "\n") {
            guard let json = line.firstIndex(of: "{"),
                  let o = try? JSONSerialization.jsonObject(with: Data(line[json...].utf8)) as? [String: Any],
                  o["type"] as? String == "output", let name = o["output"] as? String else { continue }
            last[name] = o["value"] as? Int
        }
        XCTAssertEqual(last, ["right": 0, "down": 1, "led": 0], run.stderr)
        XCTAssertTrue(run.stdoutLines.last?.contains(#""reason":"stopping""#) ?? false)
    }

    /// As a service (--wait-for-camera), a missing camera is waited for: the service is ready, says why
    /// it has no frames, keeps the watchdog fed, and stops cleanly. This machine has no camera at all.
    func testAServiceWaitsForAMissingCameraAndSaysWhy() throws {
        let notify = try NotifyListener(abstract: true)
        let configPath = temp("wait.toml")
        try "[logging]\nlevel = \"debug\"\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configPath) }
        let run = try RunningNodwire(["run", "--wait-for-camera", "--config", configPath, "--status-interval", "0.3"],
                                     environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "400000"])
        defer { if run.process.isRunning { run.process.terminate() } }
        var messages: [String] = []
        let deadline = MonotonicClock.now() + 20
        while !(messages.contains("READY=1") && messages.contains { $0.hasPrefix("STATUS=no frames from camera 0: ") }
                && messages.filter({ $0 == "WATCHDOG=1" }).count >= 2) {
            guard MonotonicClock.now() < deadline else { XCTFail("\(messages)\n\(run.stderr)"); break }
            if let m = notify.receive(timeout: 0.2) { messages.append(m) }
        }
        try run.waitForStdout(#""type":"camera_lost""#)
        XCTAssertTrue(run.stdout.contains("libcamera"), run.stdout)
        XCTAssertTrue(run.stderr.contains("no camera yet, waiting for it: "), run.stderr)
        XCTAssertTrue(run.process.isRunning)
        run.signal(SIGTERM)
        XCTAssertEqual(run.finish(), 0, run.stderr)
    }

    func testRefusalsHaveTheirExitCodesAndNeverSayReady() throws {
        let badConfig = temp("bad.toml")
        try "[logging]\nlevel = \"loud\"\n".write(toFile: badConfig, atomically: true, encoding: .utf8)
        let noDir = temp("nodir.toml")
        try "[events]\nsocket_path = \"/nonexistent-dir/events.sock\"\n".write(toFile: noDir, atomically: true, encoding: .utf8)
        let truncated = temp("truncated.y4m")
        var bytes = Array("YUV4MPEG2 W160 H120 F25:1 Cmono\n".utf8)
        for _ in 0..<3 { bytes += Array("FRAME\n".utf8) + [UInt8](repeating: 128, count: 160 * 120) }
        bytes += Array("FRAME\n".utf8) + [1, 2, 3]
        try Data(bytes).write(to: URL(fileURLWithPath: truncated))
        defer { for f in [badConfig, noDir, truncated] { try? FileManager.default.removeItem(atPath: f) } }

        let cases: [([String], Int32, String)] = [
            (["run", "--source", Self.clip, "--config", badConfig], 78, "\(badConfig):2: logging.level = \"loud\" is not allowed"),
            (["run"], 69, "libcamera"),   // this machine has no camera (the VM test has one: hardware/tests/camera-hil.sh)
            (["run", "--camera", "0", "--source", Self.clip], 64, "--camera and --source exclude each other"),
            (["run", "--wait-for-camera", "--source", Self.clip], 64, "--wait-for-camera is for the camera"),
            (["run", "--source", "/nonexistent.y4m"], 66, "/nonexistent.y4m: cannot open the file"),
            (["run", "--source", Self.clip, "--config", noDir], 73, "/nonexistent-dir/events.sock: cannot serve events on this socket"),
            (["run", "--source", truncated], 65, "frame 3 is truncated"),
            (["events", "--socket", temp("nobody.sock")], 69, "cannot connect"),
            (["events"], 64, "give --socket PATH"),
        ]
        for (arguments, code, message) in cases {
            let notify = try NotifyListener(abstract: true)
            let run = try RunningNodwire(arguments, environment: ["NOTIFY_SOCKET": notify.name])
            XCTAssertEqual(run.finish(), code, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): «\(run.stderr)» lacks «\(message)»")
            let said = notify.receive(timeout: 0.05)
            if code == 65 {
                XCTAssertEqual(said, "READY=1", "the truncated frame comes after good ones")
            } else {
                XCTAssertNil(said, "\(arguments) told systemd \(said ?? "")")
            }
        }
    }
}
