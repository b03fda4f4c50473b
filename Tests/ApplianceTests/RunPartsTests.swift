@testable import Appliance
import Foundation
import Gestures
import Logging
import Pipeline
import XCTest

/// A datagram socket bound in the test, standing in for systemd's notify socket.
final class NotifyListener {
    let fd: Int32
    let name: String
    private let path: String?

    /// `abstract`: an address in the abstract namespace, named `@...` in $NOTIFY_SOCKET.
    init(abstract: Bool) throws {
        let tag = "nodwire-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        path = abstract ? nil : NSTemporaryDirectory() + tag + ".notify"
        name = abstract ? "@" + tag : path!
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw NSError(domain: "bind", code: Int(errno)) }
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }

    /// The next datagram, or nil after `timeout` seconds.
    func receive(timeout: Double) -> String? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
    }
}

/// A tiny Cmono recording of `frames` frames at `rate` fps whose first pixel is the frame number.
func syntheticY4M(frames: Int, rate: Int, width: Int = 4, height: Int = 2) throws -> String {
    let path = NSTemporaryDirectory() + "synthetic-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).y4m"
    var bytes = Array("YUV4MPEG2 W\(width) H\(height) F\(rate):1 Cmono\n".utf8)
    for i in 0..<frames {
        bytes += Array("FRAME\n".utf8)
        bytes += [UInt8(i % 256)] + [UInt8](repeating: 0, count: width * height - 1)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

final class RunPartsTests: XCTestCase {
    // MARK: systemd notify

    func testNotifierReachesAPathSocketAndAnAbstractOne() throws {
        for abstract in [false, true] {
            let listener = try NotifyListener(abstract: abstract)
            let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.name])
            XCTAssertTrue(notifier.isActive)
            notifier.ready()
            notifier.status("25 fps,\nface tracked")
            notifier.watchdog()
            notifier.stopping()
            notifier.stopping()
            XCTAssertEqual(listener.receive(timeout: 2), "READY=1")
            XCTAssertEqual(listener.receive(timeout: 2), "STATUS=25 fps, face tracked", "a status stays one line")
            XCTAssertEqual(listener.receive(timeout: 2), "WATCHDOG=1")
            XCTAssertEqual(listener.receive(timeout: 2), "STOPPING=1")
            XCTAssertNil(listener.receive(timeout: 0.1), "STOPPING=1 is said once")
        }
    }

    func testNotifierWithoutSystemdDoesNothingAndReadsTheWatchdog() throws {
        let none = try SystemdNotifier(environment: [:])
        XCTAssertFalse(none.isActive)
        XCTAssertFalse(none.send("READY=1"))
        XCTAssertNil(none.watchdogInterval)
        XCTAssertEqual(try SystemdNotifier(environment: ["WATCHDOG_USEC": "3000000"]).watchdogInterval, 1.5)
        XCTAssertEqual(try SystemdNotifier(environment: ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "\(getpid())"]).watchdogInterval, 1.5)
        XCTAssertNil(try SystemdNotifier(environment: ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "1"]).watchdogInterval,
                     "the watchdog is another process's")
        XCTAssertThrowsError(try SystemdNotifier(environment: ["NOTIFY_SOCKET": "relative/path"])) {
            XCTAssertTrue("\($0)".contains("relative/path"), "\($0)")
        }
        XCTAssertThrowsError(try SystemdNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)]))
    }

    // MARK: logging

    /// A kept fit session plays at the rate its frames came, not at the camera's: the loop processed every
    /// second or third frame of a 30 fps camera (here 12.5 fps), so a clip marked 30 fps would play 2.4x fast.
    func testAKeptSessionClipHasTheRateItsFramesCameAt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nodwire-session-\(getpid()).y4m").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clip = SessionClipWriter(path: path, frameRate: 30)
        for i in 0..<25 {
            clip.offer(LumaFrame(width: 4, height: 2, time: 100 + Double(i) * 0.08, pixels: [UInt8](repeating: UInt8(i), count: 8)))
            Thread.sleep(forTimeInterval: 0.002)
        }
        guard case let .success(times) = clip.finish() else { return XCTFail("the clip failed") }
        XCTAssertEqual(times.count + clip.dropped, 25)
        XCTAssertEqual(clip.frameRate, 12.5)
        var reader = try Y4MReader(path: path)
        XCTAssertEqual(reader.frameRate, 12.5)
        var frame = reader.makeFrame(), n = 0
        while try reader.next(into: &frame) { n += 1 }
        XCTAssertEqual(n, times.count)
        XCTAssertEqual(Y4MWriter.rate(ofFrameTimes: [1]), nil, "one frame has no rate")
    }

    func testLogLinesForTheJournalAndForATerminal() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let journal = NodwireLogHandler.format(level: .warning, message: "events: a reader\nfell behind", metadata: ["fd": "7", "a": "1"],
                                               format: .journal, date: date)
        XCTAssertEqual(journal, "<4>events: a reader fell behind a=1 fd=7\n")
        XCTAssertEqual(NodwireLogHandler.format(level: .info, message: "nod", metadata: [:], format: .journal, date: date), "<6>nod\n")
        let terminal = NodwireLogHandler.format(level: .info, message: "nod", metadata: ["frame": "12"], format: .terminal, date: date)
        XCTAssertNotNil(terminal.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.250 info    nod frame=12\n$"#, options: .regularExpression), terminal)
    }

    func testAutoFormatIsJournalUnderSystemd() {
        XCTAssertEqual(LogControl.resolve(.auto, environment: [:]), .terminal)
        XCTAssertEqual(LogControl.resolve(.auto, environment: ["JOURNAL_STREAM": "8:12345"]), .journal)
        XCTAssertEqual(LogControl.resolve(.auto, environment: ["INVOCATION_ID": "0123abcd"]), .journal)
        XCTAssertEqual(LogControl.resolve(.terminal, environment: ["INVOCATION_ID": "0123abcd"]), .terminal)
        XCTAssertEqual(LogControl.resolve(.journal, environment: [:]), .journal)
        let control = LogControl(LoggingSettings(), environment: [:])
        control.apply(LoggingSettings(level: .debug, format: .journal), environment: [:])
        XCTAssertEqual(control.level, .debug)
        XCTAssertEqual(control.logger("t").logLevel, .debug, "loggers follow a reload")
        XCTAssertEqual(control.format, .journal)
    }

    func testLoggingAndEventSettingsReadFromTheConfig() throws {
        let c = try ConfigLoader.parse("""
        [logging]
        level = "debug"
        format = "journal"
        [events]
        socket_path = "/run/nodwire/events.sock"
        stdout = false
        """, file: "t.toml")
        XCTAssertEqual(c.logging, LoggingSettings(level: .debug, format: .journal))
        XCTAssertEqual(c.events.socketPath, "/run/nodwire/events.sock")
        XCTAssertFalse(c.events.stdout)
        XCTAssertEqual(try ConfigLoader.parse("[events]\nsocket_path = \"\"", file: "t.toml").events.socketPath, "", "empty is off")
        for (text, expected) in [
            ("[logging]\nlevel = \"loud\"", ["logging.level", "\"trace\", \"debug\", \"info\""]),
            ("[logging]\nformat = \"json\"", ["logging.format", "\"auto\", \"terminal\", \"journal\""]),
            ("[events]\nsocket_path = \"/\(String(repeating: "s", count: 120))\"", ["events.socket_path", "at most 107"]),
            ("[events]\nsocket_path = 3", ["events.socket_path", "or \"\" for none"]),
        ] {
            XCTAssertThrowsError(try ConfigLoader.parse(text, file: "bad.toml")) { error in
                for part in expected { XCTAssertTrue("\(error)".contains(part), "«\(error)» lacks «\(part)»") }
            }
        }
    }

    /// Found by fuzzing: toml++ aborts (debug) or has undefined behaviour (release) on these headers.
    func testTableHeadersWithoutANameAreRefusedNotACrash() throws {
        for (text, place) in [("[$]", "h.toml:1:2"), ("[vision]\nmirrored = true\n  [ ;]", "h.toml:3:5"), ("[[$]]", "h.toml:1:3"),
                              ("[\u{E9}]", "h.toml:1:2"), ("[", "h.toml:1:2")] {
            XCTAssertThrowsError(try ConfigLoader.parse(text, file: "h.toml")) {
                XCTAssertTrue("\($0)".hasPrefix("\(place): not valid TOML: a table header must start with a name"), "\($0)")
            }
        }
        XCTAssertEqual(try ConfigLoader.parse("[\"vision\"]\nmirrored = true\n[ gestures.zones ]\nidle_yaw = 3", file: "h.toml").gestures.zones.idleYaw, 3)
        XCTAssertThrowsError(try ConfigLoader.parse("a = \"\"\"\n[$]\n\"\"\"", file: "h.toml")) {
            XCTAssertTrue("\($0)".contains("unknown setting a"), "inside a multi-line string it is text: \($0)")
        }
        // The fuzzer's find: a `'''` inside a quoted key is not the start of a multi-line string.
        XCTAssertThrowsError(try ConfigLoader.parse("ge_yaw = 4.5\n\"gestu'''\".refractory = 2\n[)gestures.calibration]\nsamples = 19 # c\n", file: "h.toml")) {
            XCTAssertTrue("\($0)".hasPrefix("h.toml:3:2: not valid TOML: a table header must start with a name"), "\($0)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("\u{FEFF}[%on]", file: "h.toml")) {
            XCTAssertTrue("\($0)".hasPrefix("h.toml:1:2: not valid TOML: a table header"), "after a byte-order mark: \($0)")
        }
        XCTAssertThrowsError(try ConfigLoader.parse("[vision]\n[[[x]]]", file: "h.toml")) {
            XCTAssertTrue("\($0)".hasPrefix("h.toml:2:3: not valid TOML: a table header"), "\($0)")
        }
        // Also found by fuzzing: toml++ asserts on a '}' where an array expects a value.
        for (text, place) in [("d = [true,\n}in", "h.toml:2:1"), ("a = { b = [} }", "h.toml:1:12"), ("a = [ # [\n }", "h.toml:2:2")] {
            XCTAssertThrowsError(try ConfigLoader.parse(text, file: "h.toml")) {
                XCTAssertTrue("\($0)".hasPrefix("\(place): not valid TOML: a '}' inside an array"), "\($0)")
            }
        }
        // Where a `[` does not open a header, the check must not refuse valid TOML: lines of a multi-line
        // array (also inside an inline table), the inside of strings, comments.
        for text in ["a = [\n  [ [1, 2], {x = 1} ],\n  [ {y = 2} ],\n]",
                     "a = { b = [\n [ {c = 1} ]\n] }",
                     "a = '''\n[ ;]\n'''",
                     "a = \"\"\"\n\\\"\"\"\n[ ;]\n\"\"\"",
                     "a = \"[\" # '''\n\"'''\" = 1",
                     "[\"x]\"] # [\n"] {
            XCTAssertThrowsError(try ConfigLoader.parse(text, file: "h.toml"), text) {
                XCTAssertTrue("\($0)".contains("unknown setting"), "valid TOML, read to the end: \($0)")
            }
        }
    }

    func testAFileThatIsNotUTF8SaysSo() throws {
        let file = NSTemporaryDirectory() + "latin1-\(getpid()).toml"
        try Data([0x5B, 0x76, 0x69, 0x73, 0x69, 0x6F, 0x6E, 0x5D, 0x0A, 0x23, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertThrowsError(try ConfigLoader.load(file: file)) {
            XCTAssertEqual("\($0)", "\(file):2:2: byte 0xE9 is not UTF-8; a config file is UTF-8 text with no control characters but tab, newline and carriage return")
        }
    }

    func testWrittenStringsReadBack() throws {
        let path = "/run/a \"b\" \\c\td\u{1}é"
        let text = "[events]\nsocket_path = \(ConfigValue.string(path).text)\n"
        XCTAssertEqual(try ConfigLoader.parse(text, file: "w.toml").events.socketPath, path, text)
    }

    // MARK: paced recording

    func testRecordingIsPacedAtItsRateAndLoops() throws {
        let path = try syntheticY4M(frames: 5, rate: 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = PacedRecording(path: path, loop: true)
        try source.open()
        XCTAssertEqual(source.frameRate, 20)
        var frame = LumaFrame(width: 1, height: 1)
        let start = MonotonicClock.now()
        var indices: [Int] = []
        for _ in 0..<12 {
            XCTAssertEqual(try source.nextNewest(into: &frame), .frame)
            indices.append(frame.index)
            XCTAssertEqual(Int(frame[0, 0]), frame.index % 5, "looping starts the file over")
            XCTAssertEqual(frame.time, Double(frame.index) / 20, accuracy: 1e-9)
        }
        let elapsed = MonotonicClock.now() - start
        let last = try XCTUnwrap(indices.last)
        XCTAssertEqual(indices, indices.sorted(), "looping keeps counting up")
        XCTAssertEqual(Set(indices).count, 12)
        // On a busy machine the test thread may be late and frames are skipped, as from a camera: all counted.
        XCTAssertEqual(source.counters.delivered + source.counters.skipped, last + 1)
        XCTAssertEqual(source.counters.restarts, last / 5)
        XCTAssertGreaterThanOrEqual(elapsed, Double(last) / 20 - 0.002, "frame \(last) is not due before \(last * 50) ms")
    }

    func testALateReaderGetsTheNewestFrame() throws {
        let path = try syntheticY4M(frames: 40, rate: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = PacedRecording(path: path, loop: false)
        try source.open()
        var frame = LumaFrame(width: 1, height: 1)
        XCTAssertEqual(try source.nextNewest(into: &frame), .frame)
        XCTAssertEqual(frame.index, 0)
        Thread.sleep(forTimeInterval: 0.1)   // 10 frame periods
        XCTAssertEqual(try source.nextNewest(into: &frame), .frame)
        XCTAssertGreaterThanOrEqual(frame.index, 9, "frames that went by were skipped, not queued")
        XCTAssertEqual(source.counters.skipped, frame.index - 1)
        while try source.nextNewest(into: &frame) == .frame {}
        XCTAssertEqual(frame.index, 39, "a recording without --loop ends")
    }

    func testEveryFrameWaitsForALateReaderInsteadOfSkipping() throws {
        let path = try syntheticY4M(frames: 40, rate: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = PacedRecording(path: path, loop: false, everyFrame: true)
        try source.open()
        var frame = LumaFrame(width: 1, height: 1)
        XCTAssertEqual(try source.nextNewest(into: &frame), .frame)
        Thread.sleep(forTimeInterval: 0.1)   // 10 frame periods late
        var indices = [frame.index]
        while try source.nextNewest(into: &frame) == .frame {
            indices.append(frame.index)
            XCTAssertEqual(frame.time, Double(frame.index) / 100, accuracy: 1e-9, "times stay the recording's")
        }
        XCTAssertEqual(indices, Array(0..<40), "every frame, in order")
        XCTAssertEqual(source.counters.skipped, 0)
        XCTAssertEqual(source.counters.delivered, 40)
    }

    func testInterruptEndsAWaitAtOnce() throws {
        let path = try syntheticY4M(frames: 3, rate: 1)   // one frame a second
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = PacedRecording(path: path, loop: false)
        try source.open()
        var frame = LumaFrame(width: 1, height: 1)
        XCTAssertEqual(try source.nextNewest(into: &frame), .frame)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { source.interrupt() }
        let start = MonotonicClock.now()
        XCTAssertEqual(try source.nextNewest(into: &frame), .ended)
        XCTAssertLessThan(MonotonicClock.now() - start, 0.9, "did not wait for frame 1's time")
    }

    func testMissingAndBrokenRecordingsAreClearSourceErrors() throws {
        XCTAssertThrowsError(try PacedRecording(path: "/nonexistent.y4m", loop: false).open()) {
            XCTAssertEqual(($0 as? RunError)?.exitCode, 66)
            XCTAssertTrue("\($0)".contains("/nonexistent.y4m"))
        }
        let empty = NSTemporaryDirectory() + "empty-\(getpid()).y4m"
        try Data("YUV4MPEG2 W4 H2 F25:1 Cmono\n".utf8).write(to: URL(fileURLWithPath: empty))
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let looping = PacedRecording(path: empty, loop: true)
        try looping.open()
        var frame = LumaFrame(width: 1, height: 1)
        XCTAssertThrowsError(try looping.nextNewest(into: &frame)) {
            XCTAssertEqual(($0 as? RunError)?.exitCode, 65)
            XCTAssertTrue("\($0)".contains("no frames"), "\($0)")
        }
    }

    // MARK: event buffers and the socket server

    func testLineBufferRefusesWhatWouldOverflowAndDrainsInOrder() {
        var b = LineBuffer(capacity: 10)
        XCTAssertTrue(b.append("abcd"))
        XCTAssertTrue(b.append("efgh"))
        XCTAssertFalse(b.append("i"), "10 bytes are there; one more line needs 2")
        var out: [UInt8] = []
        _ = b.drain { raw in out += raw.prefix(3); return 3 }
        XCTAssertTrue(b.append("x"))
        while !b.isEmpty { _ = b.drain { raw in out += raw; return raw.count } }
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "abcd\nefgh\nx\n")
    }

    func testSocketServesEveryReaderAndDropsOneThatFallsBehind() throws {
        let path = NSTemporaryDirectory() + "ev-\(getpid()).sock"
        let server = try EventSocketServer(path: path, clientBufferBytes: 65_536, logger: Logger(label: "test"))
        server.start()
        defer { server.stop() }
        let fast = try UnixSocket.connect(path: path)
        let stuck = try UnixSocket.connect(path: path)
        defer { close(fast); close(stuck) }
        try waitUntil("two readers") { server.clientCount == 2 }
        // The fast reader reads all the time on its own thread, as a kiosk app would.
        let received = LockedBytes()
        let reading = Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(fast, &buffer, buffer.count)
                if n <= 0 { break }
                received.append(buffer[0..<n])
            }
            received.finish()
        }
        reading.start()
        let event = GestureEvent(.nod, frame: 7, time: 0.28, cycles: 1)
        let line = EventJSON.line(event)
        // 10000 lines (~500 KB) in bursts, as frames bring them (if faster than real): far beyond the stuck
        // reader's 64 KB allowance plus the ~200 KB the kernel buffers for it.
        let count = 10_000
        for i in 0..<count {
            server.deliver(line: line)
            if i % 20 == 19 { Thread.sleep(forTimeInterval: 0.002) }
        }
        try waitUntil("the stuck reader's disconnection") { server.disconnectedSlow == 1 }
        let expected = count * (line.utf8.count + 1)
        try waitUntil("all lines at the fast reader") { received.count >= expected }
        XCTAssertEqual(server.clientCount, 1, "the reader that keeps up stays")
        XCTAssertEqual(server.disconnectedSlow, 1)
        let lines = String(decoding: received.bytes, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, count, "every line, in order, none torn")
        XCTAssertTrue(lines.allSatisfy { $0 == line })
        // The stuck reader sees the end of its stream after what it was sent.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let n = read(stuck, &buffer, buffer.count)
            if n <= 0 { break }
            total += n
        }
        XCTAssertLessThan(total, expected, "the stuck reader was cut off")
        XCTAssertEqual(total % (line.utf8.count + 1), 0, "after a whole line")
    }

    func testSocketPathThatIsInUseOrNotASocketIsRefusedAndAStaleOneReplaced() throws {
        let path = NSTemporaryDirectory() + "ev2-\(getpid()).sock"
        let first = try EventSocketServer(path: path, clientBufferBytes: 4096, logger: Logger(label: "test"))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o660, "owner and group may connect")
        XCTAssertThrowsError(try EventSocketServer(path: path, clientBufferBytes: 4096, logger: Logger(label: "test"))) {
            XCTAssertTrue("\($0)".contains("already serves it"), "\($0)")
            XCTAssertEqual(($0 as? RunError)?.exitCode, 73)
        }
        // A socket file left behind by a crash (nobody listens) is replaced.
        let fd = try UnixSocket.listen(path: path + ".stale")
        close(fd)
        let replaced = try EventSocketServer(path: path + ".stale", clientBufferBytes: 4096, logger: Logger(label: "test"))
        replaced.stop()
        first.stop()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "stop removes the socket file")
        let plain = NSTemporaryDirectory() + "plain-\(getpid()).txt"
        try Data("x".utf8).write(to: URL(fileURLWithPath: plain))
        defer { try? FileManager.default.removeItem(atPath: plain) }
        XCTAssertThrowsError(try EventSocketServer(path: plain, clientBufferBytes: 4096, logger: Logger(label: "test"))) {
            XCTAssertTrue("\($0)".contains("not a socket"), "\($0)")
        }
        XCTAssertThrowsError(try EventSocketServer(path: "/nonexistent-dir/ev.sock", clientBufferBytes: 4096, logger: Logger(label: "test"))) {
            XCTAssertTrue("\($0)".contains("/nonexistent-dir/ev.sock"), "\($0)")
        }
    }

    // MARK: reload and status

    func testReloadRefusesABadFileAndListsWhatAGoodOneChanges() throws {
        let file = NSTemporaryDirectory() + "reload-\(getpid()).toml"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "[gestures.zones]\nidle_yaw = 99\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard case let .refused(message) = ConfigReload.prepare(path: file, running: NodwireConfig()) else { return XCTFail("accepted a bad file") }
        XCTAssertTrue(message.contains("\(file):2: gestures.zones.idle_yaw = 99"), message)

        try "[gestures.zones]\nthreshold_yaw = 14\n[logging]\nlevel = \"debug\"\n[events]\nstdout = false\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard case let .accepted(config, update, changes, restart) = ConfigReload.prepare(path: file, running: NodwireConfig()) else {
            return XCTFail("refused a good file")
        }
        XCTAssertEqual(config.gestures.zones.thresholdYaw, 14)
        XCTAssertEqual(update?.gestures.zones.thresholdYaw, 14)
        XCTAssertNil(update?.processor, "vision did not change: no new processor")
        XCTAssertEqual(changes, ["gestures.zones.threshold_yaw (12.0 → 14.0)", "logging.level (\"info\" → \"debug\")", "events.stdout (true → false)"])
        XCTAssertEqual(restart, ["events.stdout"])

        try "[logging]\nlevel = \"debug\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard case let .accepted(_, noUpdate, _, _) = ConfigReload.prepare(path: file, running: NodwireConfig()) else { return XCTFail() }
        XCTAssertNil(noUpdate, "logging alone leaves the frame loop alone")

        try "[vision]\nmodel_path = \"/nonexistent/model.dat\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard case let .refused(visionMessage) = ConfigReload.prepare(path: file, running: NodwireConfig()) else {
            return XCTFail("accepted a model that does not exist")
        }
        XCTAssertTrue(visionMessage.contains("/nonexistent/model.dat"), visionMessage)
    }

    func testStatusLineSaysRateCPUAndFace() {
        var a = FrameLoopSnapshot()
        a.frames = 100
        a.visionMilliseconds = 300
        a.lastFrameAt = 10
        var b = a
        b.frames = 150
        b.visionMilliseconds = 400
        b.face = .tracked
        b.lastFrameAt = 12
        XCTAssertEqual(StatusLine.text(previous: a, current: b, seconds: 2, cpuSeconds: 0.5, now: 12, source: "cam"),
                       "25 fps, CPU 25%, vision 2 ms/frame, face tracked")
        b.source.skipped = 4
        XCTAssertTrue(StatusLine.text(previous: a, current: b, seconds: 2, cpuSeconds: 0.5, now: 12, source: "cam").hasSuffix(", 4 frames skipped (too slow)"))
        XCTAssertEqual(StatusLine.text(previous: b, current: b, seconds: 5, cpuSeconds: 0, now: 20, source: "cam"), "no frames from cam for 8 s, CPU 0%")
        XCTAssertEqual(StatusLine.text(previous: FrameLoopSnapshot(), current: FrameLoopSnapshot(), seconds: 5, cpuSeconds: 0, now: 20, source: "cam"),
                       "waiting for the first frame from cam, CPU 0%")
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` for up to `timeout` seconds; throws (failing the test) if it never holds.
func waitUntil(_ what: String = "a condition", timeout: Double = 10, _ condition: () -> Bool) throws {
    let deadline = MonotonicClock.now() + timeout
    while !condition() {
        if MonotonicClock.now() > deadline { throw TimedOut(what: what) }
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// Bytes one thread appends and another reads.
final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var done = false
    func append(_ more: ArraySlice<UInt8>) { lock.withLock { data += more } }
    func finish() { lock.withLock { done = true } }
    var count: Int { lock.withLock { data.count } }
    var bytes: [UInt8] { lock.withLock { data } }
}
