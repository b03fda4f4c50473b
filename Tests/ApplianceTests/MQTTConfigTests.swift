@testable import Appliance
import XCTest

/// `[mqtt]` in the config, and the outbox that keeps the frame loop from ever waiting for the broker.
final class MQTTConfigTests: XCTestCase {
    func testOffUnlessABrokerIsSetAndEverySettingIsDocumented() throws {
        XCTAssertFalse(NodwireConfig().mqtt.enabled)
        let defaults = ConfigSchema.defaultsFile()
        XCTAssertTrue(defaults.contains("\n[mqtt]\n"), defaults)
        for spec in ConfigSchema.mqtt { XCTAssertTrue(defaults.contains("\n\(spec.name) = "), "\(spec.key) is in config defaults") }
        XCTAssertFalse(defaults.lowercased().contains("password ="), "only a password file, never a password, is a setting")
        let c = try ConfigLoader.parse("""
        [mqtt]
        broker = "mqtts://broker.lan"
        username = "kiosk7"
        password_file = "/etc/nodwire/mqtt.password"
        [mqtt.home_assistant]
        discovery = false
        [mqtt.commands]
        pulse = true
        """, file: "m.toml")
        XCTAssertTrue(c.mqtt.enabled)
        XCTAssertEqual(c.mqtt.username, "kiosk7")
        XCTAssertFalse(c.mqtt.homeAssistant.discovery)
        XCTAssertEqual(c.mqtt.commands.enabled, ["pulse"])
        guard case let .success(e) = MQTTSettings.endpoint(c.mqtt.broker) else { return XCTFail("not parsed") }
        XCTAssertEqual(e, .init(host: "broker.lan", port: 8883, tls: true))
    }

    func testBrokerAddresses() {
        let good: [(String, MQTTSettings.Endpoint)] = [
            ("mqtt://localhost", .init(host: "localhost", port: 1883, tls: false)),
            ("mqtt://10.0.0.2:1884", .init(host: "10.0.0.2", port: 1884, tls: false)),
            ("mqtts://[::1]:8884", .init(host: "::1", port: 8884, tls: true)),
        ]
        for (url, expected) in good {
            guard case let .success(e) = MQTTSettings.endpoint(url) else { XCTFail(url); continue }
            XCTAssertEqual(e, expected, url)
        }
        XCTAssertEqual(MQTTSettings.Endpoint(host: "::1", port: 8884, tls: true).description, "mqtts://[::1]:8884")
        for url in ["localhost:1883", "tcp://h:1", "mqtt://", "mqtt://h:0", "mqtt://h:70000", "mqtt://h:x", "mqtt://u@h", "mqtt://h/topic", "mqtts://[::1"] {
            guard case let .failure(p) = MQTTSettings.endpoint(url) else { XCTFail("accepted \(url)"); continue }
            XCTAssertEqual(p.key, "mqtt.broker")
        }
    }

    func testBadMQTTConfigsAreRefusedWithTheKey() {
        let cases: [(String, [String])] = [
            ("[mqtt]\nbroker = \"localhost\"", ["mqtt.broker", "\"localhost\" is not a broker address", "mqtt://host:port"]),
            ("[mqtt]\nbroker = \"mqtt://h\"\nca_file = \"/ca.pem\"", ["mqtt.ca_file", "mqtts://"]),
            ("[mqtt]\nbroker = \"mqtt://h\"\npassword_file = \"/p\"", ["mqtt.password_file", "needs mqtt.username"]),
            ("[mqtt]\nbroker = \"mqtt://h\"\nclient_id = \"a/b\"", ["mqtt.client_id", "may not hold /"]),
            ("[mqtt]\nbroker = \"mqtt://h\"\ntopic_prefix = \"site/#\"", ["mqtt.topic_prefix", "plain topic"]),
            ("[mqtt]\nkeepalive = 1", ["bad.toml:2", "mqtt.keepalive = 1", "from 5 to 3600"]),
            ("[mqtt]\nqueue_length = 0", ["mqtt.queue_length = 0", "from 1 to 100000"]),
            ("[mqtt.commands]\nreboot = true", ["unknown setting mqtt.commands.reboot", "mqtt.commands.pulse"]),
            ("[mqtt]\npassword = \"secret\"", ["unknown setting mqtt.password.", "mqtt.password_file"]),
        ]
        for (text, expected) in cases {
            do {
                _ = try ConfigLoader.parse(text, file: "bad.toml")
                XCTFail("accepted: \(text)")
            } catch {
                for part in expected { XCTAssertTrue("\(error)".contains(part), "«\(error)» lacks «\(part)» for:\n\(text)") }
            }
        }
    }

    func testThePasswordFileIsReadAndNeverShown() throws {
        let path = NSTemporaryDirectory() + "mqtt-pw-\(getpid())"
        try "s3cret!\nignored\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try MQTTLink.readPassword(path), "s3cret!")
        XCTAssertThrowsError(try MQTTLink.readPassword(path + "-missing")) { XCTAssertEqual("\($0)", "mqtt.password_file \(path)-missing: there is no such file") }
        try "\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try MQTTLink.readPassword(path)) { XCTAssertTrue("\($0)".contains("its first line is empty")) }
    }

    func testTheOutboxDropsTheOldestAndTheStaleAndKeepsTheNewestState() {
        var box = MQTTOutbox(capacity: 3)
        func event(_ n: Int, at t: Double) -> MQTTOutbox.Message { .init(topic: "e", payload: "\(n)", retain: false, queuedAt: t) }
        for n in 1...5 { box.push(event: event(n, at: Double(n))) }
        XCTAssertEqual(box.dropped, 2)
        XCTAssertEqual(box.pendingEvents, 3)
        box.push(state: .init(topic: "s", payload: "old", retain: true, queuedAt: 0))
        box.push(state: .init(topic: "o/a", payload: "1", retain: true, queuedAt: 0))
        box.push(state: .init(topic: "s", payload: "new", retain: true, queuedAt: 0))
        // At t = 5.5 with a 2 s limit, event 3 (queued at 3) is stale; 4 and 5 go, after the state.
        var sent: [String] = []
        while let m = box.next(now: 5.5, maxAge: 2) { sent.append("\(m.topic)=\(m.payload)") }
        XCTAssertEqual(sent, ["s=new", "o/a=1", "e=4", "e=5"])
        XCTAssertEqual(box.stale, 1)
        XCTAssertTrue(box.isEmpty)
        // Long runs keep the storage bounded.
        for n in 0..<10_000 { box.push(event: event(n, at: 100)); if n % 2 == 0 { _ = box.next(now: 100, maxAge: 1) } }
        XCTAssertEqual(box.pendingEvents, 3)
    }
}
