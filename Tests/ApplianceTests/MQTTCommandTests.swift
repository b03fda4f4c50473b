@testable import Appliance
import Foundation
import XCTest

/// Commands over MQTT against a real Mosquitto: each kind only when enabled, answered on <prefix>/reply.
final class MQTTCommandTests: XCTestCase {
    private var cleanup: [() -> Void] = []
    override func tearDown() {
        for c in cleanup.reversed() { c() }
        cleanup = []
    }

    private struct Device {
        let run: RunningNodwire
        let sub: RunningNodwire
        let broker: TestBroker
        let configPath: String

        func command(_ kind: String, _ payload: String) throws -> [String: Any] {
            let before = sub.payloads("nodwire/cmd/reply").count
            try broker.publish("nodwire/cmd/command/\(kind)", payload)
            try waitUntil("a reply to \(kind); got:\n\(sub.stdout)\n\(run.stderr)", timeout: 30) { sub.payloads("nodwire/cmd/reply").count > before }
            let reply = try XCTUnwrap(jsonObject(sub.payloads("nodwire/cmd/reply")[before]))
            XCTAssertEqual(reply["command"] as? String, kind)
            return reply
        }
    }

    /// A device on the looping clip with dry-run outputs and `commands` enabled, once it is calibrated.
    private func device(_ commands: String, retainedBeforeStart: (topic: String, payload: String)? = nil) throws -> Device {
        let broker = try TestBroker()
        cleanup.append { broker.stop() }
        if let r = retainedBeforeStart { try broker.publish(r.topic, r.payload, retain: true) }
        let sub = try broker.subscribe("nodwire/cmd/#")
        cleanup.append { sub.process.terminate() }
        let configPath = NSTemporaryDirectory() + "mqtt-cmd-\(getpid())-\(UUID().uuidString.prefix(6)).toml"
        try (MQTTRunTests.config(port: broker.port, client: "cmd", extra: "[mqtt.commands]\n\(commands)\n") + "\n" + OutputReplayTests.config)
            .write(toFile: configPath, atomically: true, encoding: .utf8)
        cleanup.append { for p in [configPath, configPath + ".bak"] { try? FileManager.default.removeItem(atPath: p) } }
        let run = try RunningNodwire(["run", "--source", RunServiceTests.clip, "--every-frame", "--loop", "--gpio", "dry-run", "--config", configPath])
        cleanup.append { if run.process.isRunning { run.process.terminate(); _ = run.finish() } }
        try run.waitForStdout(#""type":"calibrated""#, timeout: 120)
        try waitUntil("online", timeout: 30) { sub.payloads("nodwire/cmd/availability").contains("online") }
        return Device(run: run, sub: sub, broker: broker, configPath: configPath)
    }

    func testRecalibratePulseAndConfigWhenEnabledPauseIgnoredWhenNot() throws {
        let d = try device("recalibrate = true\npulse = true\nconfig = true")
        try d.run.waitForStderr("mqtt: commands accepted on nodwire/cmd/command/…: recalibrate, pulse, config")

        // Recalibrate: the engine ends (face_lost, reason recalibrate) and learns the resting pose again.
        XCTAssertEqual(try d.command("recalibrate", "")["ok"] as? Bool, true)
        try d.run.waitForStdout(#""type":"face_lost","reason":"recalibrate""#)
        try waitUntil("calibrated again") {
            guard let i = d.run.stdoutLines.firstIndex(where: { $0.contains(#""reason":"recalibrate""#) }) else { return false }
            return d.run.stdoutLines[i...].contains { $0.contains(#""type":"calibrated""#) }
        }

        // Pulse an output by name; the status LED and unknown names are refused.
        XCTAssertEqual(try d.command("pulse", "right 200")["message"] as? String, "right pulsed for 200 ms")
        try d.run.waitForStderr(#""output":"right","value":1,"cause":"mqtt pulse""#)
        try waitUntil("the pulse on MQTT", timeout: 20) { d.sub.payloads("nodwire/cmd/output/right").suffix(2) == ["1", "0"] }
        for bad in ["led", "nope", "right 5"] {
            XCTAssertEqual(try d.command("pulse", bad)["ok"] as? Bool, false, bad)
        }

        // Not enabled: ignored, said in the reply and the log.
        let ignored = try d.command("pause", "")
        XCTAssertEqual(ignored["ok"] as? Bool, false)
        XCTAssertEqual(ignored["message"] as? String, "ignored: not enabled (mqtt.commands.pause = false)")
        try d.run.waitForStderr("mqtt command pause refused: ignored: not enabled (mqtt.commands.pause = false)")
        XCTAssertFalse(d.run.stdout.contains(#""reason":"command""#), "not paused")

        // A bad config: refused with key and reason, the file and the running settings unchanged.
        let original = try String(contentsOfFile: d.configPath, encoding: .utf8)
        let refused = try d.command("config", original + "\n[gestures.zones]\nidle_yaw = 99\n")
        XCTAssertEqual(refused["ok"] as? Bool, false)
        let why = refused["message"] as? String ?? ""
        XCTAssertTrue(why.hasPrefix("refused, the running settings stay: config:"), why)
        XCTAssertTrue(why.contains("gestures.zones.idle_yaw = 99 is not allowed"), why)
        XCTAssertEqual(try String(contentsOfFile: d.configPath, encoding: .utf8), original)
        XCTAssertFalse(FileManager.default.fileExists(atPath: d.configPath + ".new"))
        let noModel = try d.command("config", original + "\n[vision]\nmodel_path = \"/nonexistent/model.dat\"\n")
        XCTAssertEqual(noModel["message"] as? String, "refused, the running settings stay: config: vision.model_path = \"/nonexistent/model.dat\": no such file on this device")
        XCTAssertEqual(try String(contentsOfFile: d.configPath, encoding: .utf8), original)

        // A good one: saved (the old one as .bak) and reloaded as on SIGHUP.
        let changed = original + "\n[gestures.zones]\nthreshold_yaw = 14\n"
        XCTAssertEqual(try d.command("config", changed)["ok"] as? Bool, true)
        XCTAssertEqual(try String(contentsOfFile: d.configPath, encoding: .utf8), changed)
        XCTAssertEqual(try String(contentsOfFile: d.configPath + ".bak", encoding: .utf8), original)
        try d.run.waitForStderr("config reloaded from \(d.configPath): changed gestures.zones.threshold_yaw (12.0 → 14.0)")
        try d.run.waitForStdout(#""reason":"config_reload""#)

        d.run.signal(SIGTERM)
        XCTAssertEqual(d.run.finish(timeout: 30), 0, d.run.stderr)
    }

    func testPauseAndResumeAndNoRetainedCommand() throws {
        // A retained "pause" waiting at the broker is never run: it would run again at every connect.
        let d = try device("pause = true", retainedBeforeStart: ("nodwire/cmd/command/pause", "now"))
        try waitUntil("the retained command refused; got:\n\(d.sub.stdout)", timeout: 30) {
            d.sub.payloads("nodwire/cmd/reply").contains(#"{"command":"pause","ok":false,"message":"ignored: a retained message is not a command (publish it without retain)"}"#)
        }
        XCTAssertFalse(d.run.stdout.contains(#""type":"paused""#))

        XCTAssertEqual(try d.command("pause", "")["ok"] as? Bool, true)
        try d.run.waitForStdout(#""type":"paused","reason":"command""#)
        try waitUntil("a paused status", timeout: 30) { d.sub.payloads("nodwire/cmd/status").last.flatMap(jsonObject)?["state"] as? String == "paused" }
        let frames = d.run.stdoutLines.count
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(d.run.stdoutLines.count, frames, "no events while paused")
        XCTAssertEqual(try d.command("resume", "")["ok"] as? Bool, true)
        try d.run.waitForStdout(#""type":"resumed","reason":"command""#)
        try d.run.waitForStdout(#""type":"face_found""#)
        XCTAssertEqual(try d.command("config", "")["message"] as? String, "ignored: not enabled (mqtt.commands.config = false)")
        d.run.signal(SIGTERM)
        XCTAssertEqual(d.run.finish(timeout: 30), 0, d.run.stderr)
    }
}
