import Foundation
import XCTest

/// A Mosquitto broker of the test's own on loopback, on a free port, with a config file in a temporary
/// folder; stopped by `stop()` (tests call it in a defer). scripts/setup.sh installs Mosquitto: a machine
/// without it fails these tests with that said, rather than skipping them.
final class TestBroker {
    let port: Int
    let folder: String
    private let extra: String
    private(set) var process: RunningNodwire?

    /// `extra`: more lines for the listener (password_file, TLS files).
    init(port: Int? = nil, extra: String = "", start: Bool = true) throws {
        self.port = port ?? Self.freePort()
        folder = NSTemporaryDirectory() + "mqtt-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        self.extra = extra
        if start { try self.start() }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Where a Mosquitto program is (the broker is in /usr/sbin, which a user's PATH may lack).
    static func program(_ name: String) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/bin", "/usr/local/sbin"]
        for dir in path where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        throw TimedOut(what: "\(name), which is not installed: the MQTT tests need Mosquitto (scripts/setup.sh installs mosquitto and mosquitto-clients)")
    }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func start() throws {
        // `user`: started as root, Mosquitto would become user mosquitto, which cannot read the test's key files.
        let config = "\(folder)/mosquitto.conf"
        let host = extra.contains("certfile") ? "localhost" : "127.0.0.1"
        try """
        listener \(port) \(host)
        user \(NSUserName())
        persistence false
        log_dest stderr
        log_type error
        log_type warning
        log_type notice
        log_type information
        \(extra.contains("password_file") ? "allow_anonymous false" : "allow_anonymous true")
        \(extra)

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let broker = try RunningNodwire(["-c", config], executable: Self.program("mosquitto"))
        process = broker
        try waitUntil("the broker on port \(port) to listen; it said:\n\(broker.stderr)", timeout: 20) {
            broker.stderr.contains("Opening ipv4 listen socket on port \(port)") || broker.stderr.contains("Opening ipv6 listen socket on port \(port)")
        }
        guard broker.process.isRunning else { throw TimedOut(what: "the broker to keep running; it said:\n\(broker.stderr)") }
    }

    func stop() {
        guard let broker = process, broker.process.isRunning else { return }
        broker.signal(SIGTERM)
        _ = broker.finish(timeout: 10)
        process = nil
    }

    /// A `mosquitto_sub -v` on `topic` ("topic payload" lines), ready once it has seen a probe message.
    func subscribe(_ topic: String, tls: [String] = []) throws -> RunningNodwire {
        let host = tls.isEmpty ? "127.0.0.1" : "localhost"
        let sub = try RunningNodwire(["-h", host, "-p", "\(port)", "-v", "-q", "1", "-t", topic, "-t", "probe/#"] + tls,
                                     executable: Self.program("mosquitto_sub"))
        let probe = "probe/\(UUID().uuidString.prefix(8))"
        try waitUntil("mosquitto_sub to subscribe; it said:\n\(sub.stderr)", timeout: 20) {
            _ = try? publish(probe, "ready", tls: tls)
            return sub.stdout.contains("\(probe) ready")
        }
        return sub
    }

    func publish(_ topic: String, _ payload: String, retain: Bool = false, tls: [String] = []) throws {
        let pub = try RunningNodwire(["-h", tls.isEmpty ? "127.0.0.1" : "localhost", "-p", "\(port)", "-q", "1", "-t", topic, "-m", payload]
                                     + (retain ? ["-r"] : []) + tls, executable: Self.program("mosquitto_pub"))
        guard pub.finish(timeout: 10) == 0 else { throw TimedOut(what: "mosquitto_pub \(topic): \(pub.stderr)") }
    }

    /// The retained message of `topic`, if any.
    func retained(_ topic: String, tls: [String] = []) throws -> String? {
        let sub = try RunningNodwire(["-h", tls.isEmpty ? "127.0.0.1" : "localhost", "-p", "\(port)", "-C", "1", "-W", "3", "-t", topic] + tls,
                                     executable: Self.program("mosquitto_sub"))
        _ = sub.finish(timeout: 10)
        return sub.stdoutLines.first
    }
}

extension RunningNodwire {
    /// mosquitto_sub -v lines as (topic, payload).
    var messages: [(topic: String, payload: String)] {
        stdoutLines.compactMap { line in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }

    func payloads(_ topic: String) -> [String] { messages.filter { $0.topic == topic }.map(\.payload) }
}

/// JSON object of a line (event or status), or nil.
func jsonObject(_ text: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}
