@testable import Appliance
import Foundation
import XCTest

/// Login and TLS against a real Mosquitto: a refused login or certificate is a clear error naming the
/// broker and what was refused, the password never shows, and the appliance goes on locally meanwhile.
final class MQTTSecurityTests: XCTestCase {
    private var cleanup: [() -> Void] = []
    override func tearDown() {
        for c in cleanup.reversed() { c() }
        cleanup = []
    }

    private func file(_ name: String, _ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "mqtt-sec-\(getpid())-\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        cleanup.append { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func run(_ config: String, name: String) throws -> RunningNodwire {
        let path = try file("\(name).toml", config)
        let run = try RunningNodwire(["run", "--source", RunServiceTests.clip, "--every-frame", "--loop", "--config", path])
        cleanup.append { if run.process.isRunning { run.process.terminate(); _ = run.finish() } }
        return run
    }

    /// Stops the run and checks that the secret was never printed.
    private func finish(_ run: RunningNodwire, secret: String) {
        run.signal(SIGTERM)
        XCTAssertEqual(run.finish(timeout: 30), 0, run.stderr)
        XCTAssertFalse(run.stderr.contains(secret), "the password is never logged")
        XCTAssertFalse(run.stdout.contains(secret), "the password is never in the stream")
    }

    func testAWrongPasswordIsRefusedByNameAndTheRightOneConnects() throws {
        let passwords = NSTemporaryDirectory() + "mqtt-sec-\(getpid())-passwd"
        cleanup.append { try? FileManager.default.removeItem(atPath: passwords) }
        let tool = try RunningNodwire(["-c", "-b", passwords, "kiosk", "right-horse-battery"], executable: TestBroker.program("mosquitto_passwd"))
        XCTAssertEqual(tool.finish(), 0, tool.stderr)
        let broker = try TestBroker(extra: "password_file \(passwords)")
        cleanup.append { broker.stop() }
        let endpoint = "mqtt://127.0.0.1:\(broker.port)"

        let wrong = try file("wrong.pw", "wrong-horse-battery\n")
        let refused = try run(MQTTRunTests.config(port: broker.port, client: "pw", extra: "username = \"kiosk\"\npassword_file = \"\(wrong)\""), name: "wrong")
        try refused.waitForStderr("mqtt: cannot connect to \(endpoint): the broker refused the connection: Connection Refused: not authorised. (user kiosk; check mqtt.password_file)", timeout: 60)
        try refused.waitForStdout(#""type":"look_start""#, timeout: 60)   // the appliance works on meanwhile
        try refused.waitForStdout(#""type":"mqtt_disconnected","reason":"the broker refused the connection"#)
        finish(refused, secret: "wrong-horse-battery")

        let right = try file("right.pw", "right-horse-battery\n")
        let accepted = try run(MQTTRunTests.config(port: broker.port, client: "pw", extra: "username = \"kiosk\"\npassword_file = \"\(right)\""), name: "right")
        try accepted.waitForStderr("mqtt: connected to \(endpoint) as pw", timeout: 60)
        finish(accepted, secret: "right-horse-battery")

        let missing = try RunningNodwire(["run", "--source", RunServiceTests.clip, "--config",
                                          try file("missing.toml", MQTTRunTests.config(port: broker.port, client: "pw", extra: "username = \"kiosk\"\npassword_file = \"/nonexistent/pw\""))])
        XCTAssertEqual(missing.finish(), 78, "a missing password file is refused at start")
        XCTAssertTrue(missing.stderr.contains("mqtt.password_file /nonexistent/pw: there is no such file"), missing.stderr)
    }

    /// mqtts:// with a CA made here by openssl: the broker's certificate (for localhost) is checked; signed
    /// by another CA it is refused, saying so.
    func testTLSChecksTheBrokersCertificate() throws {
        let dir = NSTemporaryDirectory() + "mqtt-tls-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        cleanup.append { try? FileManager.default.removeItem(atPath: dir) }
        func openssl(_ args: [String]) throws {
            let p = try RunningNodwire(args, executable: TestBroker.program("openssl"))
            XCTAssertEqual(p.finish(timeout: 60), 0, "openssl \(args.joined(separator: " ")): \(p.stderr)")
        }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        for ca in ["ca", "other-ca"] {
            try openssl(["req", "-x509"] + key + ["-keyout", "\(dir)/\(ca).key", "-out", "\(dir)/\(ca).pem", "-days", "2", "-subj", "/CN=Nodwire test \(ca)"])
        }
        try openssl(["req"] + key + ["-keyout", "\(dir)/server.key", "-out", "\(dir)/server.csr", "-subj", "/CN=localhost"])
        try "subjectAltName=DNS:localhost\n".write(toFile: "\(dir)/san.ext", atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", "\(dir)/server.csr", "-CA", "\(dir)/ca.pem", "-CAkey", "\(dir)/ca.key", "-CAcreateserial",
                     "-out", "\(dir)/server.pem", "-days", "2", "-extfile", "\(dir)/san.ext"])
        let broker = try TestBroker(extra: "cafile \(dir)/ca.pem\ncertfile \(dir)/server.pem\nkeyfile \(dir)/server.key")
        cleanup.append { broker.stop() }
        let endpoint = "mqtts://localhost:\(broker.port)"
        let tls = ["--cafile", "\(dir)/ca.pem"]
        let sub = try broker.subscribe("nodwire/tls/#", tls: tls)
        cleanup.append { sub.process.terminate() }

        let good = try run(MQTTRunTests.config(port: broker.port, client: "tls", extra: "ca_file = \"\(dir)/ca.pem\"", scheme: "mqtts", host: "localhost"), name: "tls")
        try good.waitForStderr("mqtt: connected to \(endpoint) as tls", timeout: 60)
        try waitUntil("events over TLS; got:\n\(sub.stdout)", timeout: 60) { !sub.payloads("nodwire/tls/event").isEmpty }
        XCTAssertEqual(sub.payloads("nodwire/tls/availability").first, "online")
        good.signal(SIGTERM)
        XCTAssertEqual(good.finish(timeout: 30), 0, good.stderr)

        let bad = try run(MQTTRunTests.config(port: broker.port, client: "tls2", extra: "ca_file = \"\(dir)/other-ca.pem\"", scheme: "mqtts", host: "localhost"), name: "tls2")
        try bad.waitForStderr("mqtt: cannot connect to \(endpoint): TLS failed", timeout: 60)
        try bad.waitForStderr("certificate verify failed")
        XCTAssertTrue(bad.stderr.contains("the broker's certificate is not signed by \(dir)/other-ca.pem, or names another host"), bad.stderr)
        XCTAssertFalse(bad.stderr.contains("mqtt: connected"), bad.stderr)
        try bad.waitForStdout(#""type":"look_start""#, timeout: 60)
        bad.signal(SIGTERM)
        XCTAssertEqual(bad.finish(timeout: 30), 0, bad.stderr)
        XCTAssertEqual(sub.payloads("nodwire/tls2/availability"), [], "nothing came through the refused connection")

        // The right CA, but the certificate is for localhost, not 127.0.0.1: the host name is checked too.
        let wrongName = try run(MQTTRunTests.config(port: broker.port, client: "tls3", extra: "ca_file = \"\(dir)/ca.pem\"", scheme: "mqtts"), name: "tls3")
        try wrongName.waitForStderr("mqtt: cannot connect to mqtts://127.0.0.1:\(broker.port): TLS failed", timeout: 60)
        XCTAssertTrue(wrongName.stderr.contains("certificate verify failed"), wrongName.stderr)
        wrongName.signal(SIGTERM)
        XCTAssertEqual(wrongName.finish(timeout: 30), 0, wrongName.stderr)
    }
}
