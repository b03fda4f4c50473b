@testable import Appliance
import Foundation
import Pipeline
import XCTest

/// `nodwire run` with `[mqtt]`, against a real Mosquitto broker started by the test and read with
/// mosquitto_sub: what is published, the last will, outages and reconnects. Every frame is seen
/// (--every-frame, budget lifted), so results do not depend on the machine's speed.
final class MQTTRunTests: XCTestCase {
    static let clip = RunServiceTests.clip

    private var cleanup: [() -> Void] = []
    override func tearDown() {
        for c in cleanup.reversed() { c() }
        cleanup = []
    }

    private func temp(_ name: String) -> String { NSTemporaryDirectory() + "mqtt-run-\(getpid())-\(name)" }

    static func config(port: Int, client: String, extra: String = "", scheme: String = "mqtt", host: String = "127.0.0.1") -> String {
        """
        [budget]
        active_rate = 60.0
        cpu_percent = 400.0
        [mqtt]
        broker = "\(scheme)://\(host):\(port)"
        client_id = "\(client)"
        keepalive = 5
        reconnect_max_delay = 1.0
        \(extra)
        """
    }

    /// Runs nodwire on the clip with `config` (plus dry-run outputs when given); killed at the end of the test.
    private func run(_ config: String, name: String, loop: Bool, outputs: Bool = false, more: [String] = []) throws -> RunningNodwire {
        let path = temp("\(name).toml")
        try (config + "\n" + (outputs ? OutputReplayTests.config : "")).write(toFile: path, atomically: true, encoding: .utf8)
        let args = ["run", "--source", Self.clip, "--every-frame", "--config", path] + (loop ? ["--loop"] : []) + (outputs ? ["--gpio", "dry-run"] : []) + more
        let run = try RunningNodwire(args)
        cleanup.append {
            if run.process.isRunning { run.process.terminate(); _ = run.finish() }
            try? FileManager.default.removeItem(atPath: path)
        }
        return run
    }

    private func started(_ broker: TestBroker) -> TestBroker {
        cleanup.append { broker.stop() }
        return broker
    }

    /// The whole clip: every event of the stream reaches the broker in order, as the same JSON; the outputs'
    /// values and the status are there (retained); "online" first, "offline" after a clean end.
    func testRunPublishesEveryEventTheOutputsAndTheStatus() throws {
        let broker = started(try TestBroker())
        let sub = try broker.subscribe("nodwire/clip/#")
        cleanup.append { sub.process.terminate() }
        let run = try run(Self.config(port: broker.port, client: "clip"), name: "clip", loop: false, outputs: true)
        XCTAssertEqual(run.finish(timeout: 300), 0, run.stderr)
        try waitUntil("offline after the clean end; got:\n\(sub.stdout)", timeout: 20) { sub.payloads("nodwire/clip/availability").last == "offline" }
        XCTAssertEqual(sub.payloads("nodwire/clip/availability"), ["online", "offline"])

        let published = sub.payloads("nodwire/clip/event").filter { !$0.contains("mqtt_") }
        XCTAssertEqual(published, run.stdoutLines.filter { !$0.contains("mqtt_") }, "every event, in order, as the stream has it")
        XCTAssertTrue(published.contains { $0.contains(#""type":"look_start","direction":"right""#) }, "\(published)")
        XCTAssertTrue(run.stdoutLines.contains { $0.contains(#""type":"mqtt_connected""#) }, "the stream says when MQTT connects")
        // The pulse on "right" (look right) and the hold of "down", each value as it changed.
        XCTAssertEqual(Array(sub.payloads("nodwire/clip/output/right").prefix(2)), ["1", "0"], sub.stdout)
        XCTAssertTrue(sub.payloads("nodwire/clip/output/down").contains("0"), sub.stdout)

        // Gestures by name, for Home Assistant's triggers, whose discovery documents are retained.
        let gestures = run.stdoutLines.compactMap(HomeAssistant.gesture(ofEventLine:))
        XCTAssertTrue(gestures.contains("look_up") && gestures.contains("look_start_right"), "\(gestures)")
        XCTAssertEqual(sub.payloads("nodwire/clip/gesture"), gestures)
        let trigger = try XCTUnwrap(broker.retained("homeassistant/device_automation/clip/look_up/config").flatMap(jsonObject))
        XCTAssertEqual(trigger["topic"] as? String, "nodwire/clip/gesture")
        XCTAssertNotNil(try broker.retained("homeassistant/binary_sensor/clip/face/config").flatMap(jsonObject))

        let status = try XCTUnwrap(broker.retained("nodwire/clip/status").flatMap(jsonObject), "a retained status")
        XCTAssertGreaterThan(status["frames"] as? Int ?? 0, 100, "\(status)")
        XCTAssertEqual(status["mqtt_dropped"] as? Int, 0, "\(status)")
        for key in ["fps", "cpu_percent", "budget_percent", "battery_percent", "celsius", "camera", "face_present", "calibrated", "state"] {
            XCTAssertTrue(status.keys.contains(key), "status has \(key): \(status)")
        }
        XCTAssertEqual(try broker.retained("nodwire/clip/availability"), "offline")
    }

    /// SIGKILL: no goodbye, so the broker publishes the last will.
    func testAKilledDeviceGoesOfflineByItsLastWill() throws {
        let broker = started(try TestBroker())
        let sub = try broker.subscribe("nodwire/killed/availability")
        cleanup.append { sub.process.terminate() }
        let run = try run(Self.config(port: broker.port, client: "killed"), name: "killed", loop: true)
        try waitUntil("online; got:\n\(sub.stdout)\n\(run.stderr)", timeout: 60) { sub.payloads("nodwire/killed/availability") == ["online"] }
        run.signal(SIGKILL)
        try waitUntil("offline by the last will; got:\n\(sub.stdout)", timeout: 20) { sub.payloads("nodwire/killed/availability") == ["online", "offline"] }
    }

    /// No broker at start: the appliance works locally and says why MQTT is not there; the broker comes,
    /// it connects; the broker goes for a few seconds and comes back: the frame loop never stalls, the events
    /// of the outage are dropped and counted, none older than max_event_age arrives late.
    func testBrokerDownAtStartThenOutageAndReconnect() throws {
        let broker = try TestBroker(start: false)
        cleanup.append { broker.stop() }
        let config = Self.config(port: broker.port, client: "outage", extra: "queue_length = 5000\nmax_event_age = 1.0\n[gestures.moves]\nenabled = true\n[logging]\nlevel = \"debug\"")
        let run = try run(config, name: "outage", loop: true, more: ["--status-interval", "0.5"])
        let endpoint = "mqtt://127.0.0.1:\(broker.port)"
        try run.waitForStderr("mqtt: cannot connect to \(endpoint): Connection refused; trying again", timeout: 60)
        try run.waitForStdout(#""type":"mqtt_disconnected","reason":"Connection refused""#)
        try run.waitForStderr("MQTT connecting to \(endpoint) (Connection refused)")   // the status line
        func frames() -> Int { run.stdoutLines.filter { $0.contains(#""type":"move""#) }.count }
        let before = frames()
        try waitUntil("frames while the broker is down", timeout: 60) { frames() > before + 20 }
        XCTAssertTrue(run.process.isRunning)

        try broker.start()
        try run.waitForStderr("mqtt: connected to \(endpoint) as outage", timeout: 30)
        let sub = try broker.subscribe("nodwire/outage/#")
        try waitUntil("events through the broker", timeout: 30) { sub.payloads("nodwire/outage/event").count > 10 }

        // A few seconds of outage, measured in frames: the loop keeps its pace (generously: a quarter).
        let beforeStart = MonotonicClock.now(), framesBefore = frames()
        Thread.sleep(forTimeInterval: 3)
        let rateBefore = Double(frames() - framesBefore) / (MonotonicClock.now() - beforeStart)
        broker.stop()
        sub.process.terminate()
        try run.waitForStderr("mqtt: lost the connection to \(endpoint)", timeout: 20)
        try run.waitForStderr("MQTT reconnecting to \(endpoint) (")
        Thread.sleep(forTimeInterval: 1)
        let lastFrameBeforeOutage = try XCTUnwrap(lastFrame(run))
        let outageStart = MonotonicClock.now(), framesAtOutage = frames()
        Thread.sleep(forTimeInterval: 4)
        let rateDuring = Double(frames() - framesAtOutage) / (MonotonicClock.now() - outageStart)
        XCTAssertGreaterThan(rateDuring, rateBefore / 4, "the frame loop does not wait for the network: \(rateDuring) fps during the outage, \(rateBefore) before")
        let lastStaleFrame = try XCTUnwrap(lastFrame(run))   // every event up to here is over 1 s old when the broker returns (+2 s)
        Thread.sleep(forTimeInterval: 2)

        try broker.start()
        let again = try broker.subscribe("nodwire/outage/#")
        cleanup.append { again.process.terminate() }
        try waitUntil("the reconnect; got:\n\(run.stderr)", timeout: 30) { run.stderr.components(separatedBy: "mqtt: connected to \(endpoint) as outage").count == 3 }
        try waitUntil("events after the reconnect", timeout: 30) { again.payloads("nodwire/outage/event").count > 10 }
        let late = again.payloads("nodwire/outage/event").compactMap(jsonObject).compactMap { $0["frame"] as? Int }
            .filter { $0 > lastFrameBeforeOutage && $0 <= lastStaleFrame }
        XCTAssertEqual(late, [], "events from the outage older than max_event_age are not replayed")
        // The queue holds every event of the outage (queue_length 5000), so only their age kept them from the broker.
        let outageEvents = run.stdoutLines.compactMap(jsonObject).compactMap { $0["frame"] as? Int }
            .filter { $0 > lastFrameBeforeOutage && $0 <= lastStaleFrame }.count
        try waitUntil("a status counting the stale events; got \(again.payloads("nodwire/outage/status"))", timeout: 30) {
            guard let s = again.payloads("nodwire/outage/status").last.flatMap(jsonObject) else { return false }
            return (s["mqtt_stale"] as? Int ?? 0) >= outageEvents && (s["mqtt_reconnects"] as? Int ?? 0) >= 1
        }
        print("MQTT outage: \(EventJSON.number(rateBefore, 1)) frames/s before, \(EventJSON.number(rateDuring, 1)) during; \(outageEvents) events of the outage counted stale, none replayed")
        XCTAssertEqual(run.stdoutLines.filter { $0.contains(#""type":"mqtt_connected""#) }.count, 2, "the stream says each connect")
        run.signal(SIGTERM)
        XCTAssertEqual(run.finish(timeout: 30), 0, run.stderr)
    }

    private func lastFrame(_ run: RunningNodwire) -> Int? {
        run.stdoutLines.last(where: { $0.contains(#""type":"move""#) }).flatMap(jsonObject)?["frame"] as? Int
    }
}
