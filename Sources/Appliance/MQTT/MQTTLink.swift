import CMosquitto
import Foundation
import Logging
import Pipeline

/// The appliance's connection to an MQTT broker, through libmosquitto, on a thread of its own.
///
/// Nothing here ever makes the frame loop or the outputs wait: they only put messages into a bounded
/// `MQTTOutbox` under a lock and, if it was empty, write a byte to a pipe that wakes the thread. The thread
/// drives libmosquitto's non-blocking calls (`mosquitto_loop_read/write/misc`) from its own poll().
///
/// Every connection attempt uses a fresh libmosquitto client: libmosquitto would otherwise send its
/// unacknowledged QoS 1 messages again after a reconnect, however old they are. So what reaches the broker
/// after an outage is only what the outbox still holds, which drops events older than `max_event_age`.
/// Reconnecting goes on forever, the pause doubling from 1 s up to `reconnect_max_delay`.
final class MQTTLink: EventSink, @unchecked Sendable {
    let settings: MQTTSettings
    let endpoint: MQTTSettings.Endpoint
    let clientID: String
    /// Topics start with this ("nodwire/<client id>" unless set).
    let prefix: String
    private let password: String?
    private let logger: Logger

    /// Says in the event stream what happened to the connection: ("mqtt_connected", nil) or ("mqtt_disconnected", why).
    /// Set before `start()`.
    var announce: (@Sendable (_ type: String, _ reason: String?) -> Void)?
    /// Retained messages to send on every connect after "online" (Home Assistant discovery). Set before `start()`.
    var onConnect: [MQTTOutbox.Message] = []
    /// Takes a message from `<prefix>/command/<kind>` and returns the answer for `<prefix>/reply`; nil: the
    /// link does not subscribe. Called on the link's thread. Set before `start()`.
    var commands: (@Sendable (_ kind: String, _ payload: [UInt8], _ retained: Bool) -> String)?

    private let lock = NSLock()
    private var outbox: MQTTOutbox
    private var stopping = false
    private var health = Health()
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    // Only the link's thread touches these.
    private var inflight = 0
    private var refusal: String?
    private var lastLogLine = ""

    /// The connection as the status reports it.
    struct Health: Equatable {
        var connected = false
        /// Why it is not connected (nil while connected or before the first attempt ended).
        var problem: String?
        var connects = 0
        /// Messages the broker confirmed (QoS 1).
        var delivered = 0
    }

    static let maxInflight = 10

    var availabilityTopic: String { "\(prefix)/availability" }
    var eventTopic: String { "\(prefix)/event" }
    var gestureTopic: String { "\(prefix)/gesture" }
    var statusTopic: String { "\(prefix)/status" }
    var commandTopic: String { "\(prefix)/command" }
    var replyTopic: String { "\(prefix)/reply" }
    func outputTopic(_ name: String) -> String { "\(prefix)/output/\(name)" }

    /// Reads the password file (the one thing that can be refused here); connects only on `start()`.
    init(settings: MQTTSettings, logger: Logger) throws(MQTTError) {
        guard case let .success(endpoint) = MQTTSettings.endpoint(settings.broker) else { throw .badBroker(settings.broker) }
        self.settings = settings
        self.endpoint = endpoint
        clientID = settings.clientID.isEmpty ? Self.hostClientID() : settings.clientID
        prefix = settings.topicPrefix.isEmpty ? "nodwire/\(clientID)" : settings.topicPrefix
        password = settings.passwordFile.isEmpty ? nil : try Self.readPassword(settings.passwordFile)
        self.logger = logger
        outbox = MQTTOutbox(capacity: settings.queueLength)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .system("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// The host name, made fit for a topic level.
    static func hostClientID() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: ".").first.map(String.init) ?? ""
        let clean = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return clean.isEmpty ? "nodwire" : clean
    }

    static func readPassword(_ path: String) throws(MQTTError) -> String {
        do { return try SecretFile.firstLine(path) } catch { throw .passwordFile(path, error.why) }
    }

    // MARK: What the appliance hands over (any thread, never waits for the network)

    /// An event line of the stream: queued for `<prefix>/event` (QoS 1, not retained); a gesture also as its
    /// plain name on `<prefix>/gesture` (what Home Assistant's device triggers match).
    func deliver(line: String) {
        let now = MonotonicClock.now()
        let gesture = HomeAssistant.gesture(ofEventLine: line)
        enqueue {
            $0.push(event: .init(topic: eventTopic, payload: line, retain: false, queuedAt: now))
            if let gesture { $0.push(event: .init(topic: gestureTopic, payload: gesture, retain: false, queuedAt: now)) }
        }
    }

    /// A retained state message (status, an output's value): only the newest one of a topic waits.
    func publishState(topic: String, payload: String) {
        enqueue { $0.push(state: .init(topic: topic, payload: payload, retain: true, queuedAt: MonotonicClock.now())) }
    }

    private func enqueue(_ body: (inout MQTTOutbox) -> Void) {
        let wasEmpty: Bool = lock.withLock {
            let empty = outbox.isEmpty
            body(&outbox)
            return empty
        }
        if wasEmpty { wake() }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)   // non-blocking: a full pipe already means "wake up"
    }

    var counters: (dropped: Int, stale: Int, queued: Int) {
        lock.withLock { (outbox.dropped, outbox.stale, outbox.pendingEvents) }
    }

    var currentHealth: Health { lock.withLock { health } }

    /// One line for the status: nil while connected.
    var statusNote: String? {
        let (h, c) = lock.withLock { (health, (outbox.dropped, outbox.stale)) }
        guard !h.connected else { return nil }
        var s = "MQTT \(h.connects > 0 ? "reconnecting to" : "connecting to") \(endpoint.description)"
        if let p = h.problem { s += " (\(p))" }
        if c.0 + c.1 > 0 { s += ", \(c.0 + c.1) events dropped" }
        return s
    }

    // MARK: The thread

    func start() {
        lock.withLock { started = true }
        let thread = Thread { [self] in run() }
        thread.name = "nodwire-mqtt"
        thread.start()
    }

    /// Sends what is queued (a few seconds at most), publishes "offline", disconnects, ends the thread.
    func stop() {
        guard lock.withLock({ () -> Bool in stopping = true; return started }) else { return }
        wake()
        finished.wait()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private static let libraryReady: Bool = { mosquitto_lib_init() == 0 }()

    private func run() {
        defer { finished.signal() }
        _ = Self.libraryReady
        var delay = 1.0
        while !isStopping {
            let wasConnected = session()
            if isStopping { break }
            if wasConnected { delay = 1 }
            logger.debug("mqtt: next attempt to reach \(endpoint.description) in \(EventJSON.number(delay, 1)) s")
            sleepUnlessWoken(until: MonotonicClock.now() + delay)
            delay = min(delay * 2, settings.reconnectMaxDelay)
        }
    }

    /// Waits until `deadline` or until stopped (queued messages do not cut the pause short).
    private func sleepUnlessWoken(until deadline: Double) {
        while !isStopping {
            let left = deadline - MonotonicClock.now()
            if left <= 0 { return }
            var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(min(left, 1) * 1000) + 1)
            if fd.revents != 0 { drainWake() }
        }
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func setHealth(_ change: (inout Health) -> Void) { lock.withLock { change(&health) } }

    /// One connection, from the attempt to its end. True if it was connected at some point.
    private func session() -> Bool {
        inflight = 0
        refusal = nil
        lastLogLine = ""
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let mosq = mosquitto_new(clientID, true, me) else {
            failed("libmosquitto could not make a client (out of memory)", connected: false)
            return false
        }
        defer { mosquitto_destroy(mosq) }
        if let problem = configure(mosq) {
            failed(problem, connected: false)
            return false
        }
        let rc = mosquitto_connect_async(mosq, endpoint.host, Int32(endpoint.port), Int32(settings.keepalive))
        guard rc == MOSQ_ERR_SUCCESS.raw else {
            failed(describe(rc), connected: false)
            return false
        }
        let attemptStart = MonotonicClock.now()
        var connected = false
        while true {
            if isStopping {
                if connected { goodbye(mosq) }
                return connected
            }
            if !connected && currentHealth.connected {
                connected = true
                onConnected(mosq)
            }
            if connected { sendQueued(mosq) }
            if let refusal {
                failed(refusal, connected: connected)
                return connected
            }
            let sock = mosquitto_socket(mosq)
            guard sock >= 0 else {
                failed("the connection closed", connected: connected)
                return connected
            }
            var fds = [pollfd(fd: sock, events: Int16(POLLIN) | (mosquitto_want_write(mosq) ? Int16(POLLOUT) : 0), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, 1000)
            if fds[1].revents != 0 { drainWake() }
            if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                let rc = mosquitto_loop_read(mosq, 1)
                if rc != MOSQ_ERR_SUCCESS.raw || mosquitto_socket(mosq) < 0 {
                    failed(refusal ?? describe(rc), connected: connected || currentHealth.connected)
                    return connected || currentHealth.connected
                }
            }
            if fds[0].revents & Int16(POLLOUT) != 0 {
                let rc = mosquitto_loop_write(mosq, 1)
                if rc != MOSQ_ERR_SUCCESS.raw || mosquitto_socket(mosq) < 0 {
                    failed(describe(rc), connected: connected)
                    return connected
                }
            }
            let misc = mosquitto_loop_misc(mosq)
            if misc != MOSQ_ERR_SUCCESS.raw {
                failed(describe(misc), connected: connected)
                return connected
            }
            if !connected && !currentHealth.connected && MonotonicClock.now() - attemptStart > Double(settings.keepalive) {
                failed("no answer within \(settings.keepalive) s", connected: false)
                return false
            }
        }
    }

    /// Will, login, TLS and callbacks of a fresh client; nil, or why it cannot be set up.
    private func configure(_ mosq: OpaquePointer) -> String? {
        _ = mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        var rc = mosquitto_will_set(mosq, availabilityTopic, 7, "offline", 1, true)
        guard rc == MOSQ_ERR_SUCCESS.raw else { return "the last will was refused: \(describe(rc))" }
        if !settings.username.isEmpty {
            rc = mosquitto_username_pw_set(mosq, settings.username, password)
            guard rc == MOSQ_ERR_SUCCESS.raw else { return "the user name was refused: \(describe(rc))" }
        }
        if endpoint.tls {
            // Certificate and host name checked (libmosquitto's default, kept on: never tls_insecure).
            rc = settings.caFile.isEmpty ? mosquitto_tls_set(mosq, nil, "/etc/ssl/certs", nil, nil, nil)
                                         : mosquitto_tls_set(mosq, settings.caFile, nil, nil, nil, nil)
            guard rc == MOSQ_ERR_SUCCESS.raw else {
                return settings.caFile.isEmpty ? "the system's CA certificates (/etc/ssl/certs) cannot be used: \(describe(rc))"
                    : "the CA file \(settings.caFile) cannot be used: \(describe(rc))"
            }
            _ = mosquitto_tls_opts_set(mosq, 1, nil, nil)   // 1: SSL_VERIFY_PEER
        }
        mosquitto_connect_callback_set(mosq) { _, me, rc in MQTTLink.from(me).connectAnswered(Int(rc)) }
        mosquitto_publish_callback_set(mosq) { _, me, _ in MQTTLink.from(me).acknowledged() }
        mosquitto_message_callback_set(mosq) { _, me, message in
            guard let m = message?.pointee, let topic = m.topic else { return }
            let payload = m.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(m.payloadlen))) } ?? []
            MQTTLink.from(me).received(topic: String(cString: topic), payload: payload, retained: m.retain)
        }
        mosquitto_log_callback_set(mosq) { _, me, level, text in
            guard level & Int32(MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0, let text else { return }
            MQTTLink.from(me).libraryLogged(String(cString: text))
        }
        return nil
    }

    private static func from(_ pointer: UnsafeMutableRawPointer?) -> MQTTLink {
        Unmanaged<MQTTLink>.fromOpaque(pointer!).takeUnretainedValue()
    }

    private func connectAnswered(_ rc: Int) {
        if rc == 0 {
            setHealth { $0.connected = true; $0.problem = nil; $0.connects += 1 }
        } else {
            refusal = "the broker refused the connection: \(String(cString: mosquitto_connack_string(Int32(rc))))"
                + (rc == 4 || rc == 5 ? (settings.username.isEmpty ? " (no user name given: set mqtt.username and mqtt.password_file)"
                                                                   : " (user \(settings.username); check mqtt.password_file)") : "")
        }
    }

    private func acknowledged() {
        inflight = max(0, inflight - 1)
        setHealth { $0.delivered += 1 }
    }

    /// libmosquitto's own error lines say what TLS refused (certificate verify failed, …).
    private func libraryLogged(_ text: String) { lastLogLine = text }

    private func describe(_ rc: Int32) -> String {
        var text = rc == MOSQ_ERR_ERRNO.raw ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
        if rc == MOSQ_ERR_TLS.raw || (endpoint.tls && lastLogLine.contains("SSL")) {
            text = "TLS failed" + (lastLogLine.isEmpty ? "" : ": \(lastLogLine)")
                + (lastLogLine.contains("certificate verify failed") ? " (the broker's certificate is not signed by \(settings.caFile.isEmpty ? "a CA this system trusts" : settings.caFile), or names another host)" : "")
        }
        return text
    }

    private func onConnected(_ mosq: OpaquePointer) {
        logger.notice("mqtt: connected to \(endpoint.description) as \(clientID); publishing under \(prefix)/")
        announce?("mqtt_connected", nil)
        publish(mosq, topic: availabilityTopic, payload: "online", retain: true)
        for m in onConnect { publish(mosq, topic: m.topic, payload: m.payload, retain: m.retain) }
        if commands != nil {
            let rc = mosquitto_subscribe(mosq, nil, "\(commandTopic)/+", 1)
            if rc != MOSQ_ERR_SUCCESS.raw { logger.error("mqtt: cannot subscribe to \(commandTopic)/+: \(describe(rc))") }
        }
    }

    private func received(topic: String, payload: [UInt8], retained: Bool) {
        guard let commands, topic.hasPrefix(commandTopic + "/") else { return }
        let reply = commands(String(topic.dropFirst(commandTopic.count + 1)), payload, retained)
        enqueue { $0.push(event: .init(topic: replyTopic, payload: reply, retain: false, queuedAt: MonotonicClock.now())) }
    }

    private func failed(_ why: String, connected: Bool) {
        let previous = lock.withLock { () -> Health in
            let before = health
            health.connected = false
            health.problem = why
            return before
        }
        let message = "mqtt: \(connected ? "lost the connection to" : "cannot connect to") \(endpoint.description): \(why)"
        if connected || previous.problem != why {
            logger.error("\(message); trying again, with growing pauses")
            if connected || previous.problem == nil { announce?("mqtt_disconnected", why) }
        } else {
            logger.debug("\(message)")
        }
    }

    private func publish(_ mosq: OpaquePointer, topic: String, payload: String, retain: Bool) {
        var bytes = Array(payload.utf8)
        let rc = mosquitto_publish(mosq, nil, topic, Int32(bytes.count), &bytes, 1, retain)
        if rc == MOSQ_ERR_SUCCESS.raw { inflight += 1 }
    }

    /// Hands queued messages to libmosquitto, no more than `maxInflight` unconfirmed at a time, so that
    /// messages wait (and age, and are dropped) in the bounded outbox, not in libmosquitto's unbounded queue.
    private func sendQueued(_ mosq: OpaquePointer) {
        while inflight < Self.maxInflight {
            let now = MonotonicClock.now()
            guard let m = lock.withLock({ outbox.next(now: now, maxAge: settings.maxEventAge) }) else { return }
            publish(mosq, topic: m.topic, payload: m.payload, retain: m.retain)
        }
    }

    /// A clean end: what is queued, then "offline" (the broker then forgets the last will), within 3 s.
    private func goodbye(_ mosq: OpaquePointer) {
        let deadline = MonotonicClock.now() + 3
        var offlineSent = false
        while MonotonicClock.now() < deadline {
            sendQueued(mosq)
            if !offlineSent && lock.withLock({ outbox.isEmpty }) {
                publish(mosq, topic: availabilityTopic, payload: "offline", retain: true)
                offlineSent = true
            }
            if offlineSent && inflight == 0 && !mosquitto_want_write(mosq) { break }
            let sock = mosquitto_socket(mosq)
            guard sock >= 0 else { return }
            var fd = pollfd(fd: sock, events: Int16(POLLIN) | (mosquitto_want_write(mosq) ? Int16(POLLOUT) : 0), revents: 0)
            _ = poll(&fd, 1, 100)
            if fd.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0, mosquitto_loop_read(mosq, 1) != MOSQ_ERR_SUCCESS.raw { return }
            if fd.revents & Int16(POLLOUT) != 0, mosquitto_loop_write(mosq, 1) != MOSQ_ERR_SUCCESS.raw { return }
        }
        mosquitto_disconnect(mosq)
        if mosquitto_want_write(mosq) { _ = mosquitto_loop_write(mosq, 1) }
        setHealth { $0.connected = false; $0.problem = "stopped" }
        logger.info("mqtt: disconnected from \(endpoint.description)")
    }
}

extension mosq_err_t {
    var raw: Int32 { Int32(rawValue) }
}

/// Why MQTT cannot start; the connection's own troubles are retried, not thrown.
enum MQTTError: Error, CustomStringConvertible {
    case badBroker(String)
    case passwordFile(String, String)
    case system(String)

    var description: String {
        switch self {
        case let .badBroker(b): return "mqtt.broker \(ConfigValue.quoted(b)) is not a broker address"
        case let .passwordFile(path, why): return "mqtt.password_file \(path): \(why)"
        case let .system(why): return "mqtt: \(why)"
        }
    }
}
