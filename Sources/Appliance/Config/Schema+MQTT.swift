import Foundation
import Gestures

/// `[mqtt]`: events, health and (when allowed) commands over an MQTT broker. Off while `broker` is "".
/// Defaults live here; what each key means is in `ConfigSchema.mqtt` (`nodwire config defaults`).
struct MQTTSettings: Equatable {
    /// "mqtt://host[:port]" or "mqtts://host[:port]"; "" leaves MQTT off.
    var broker = ""
    /// "" takes the host name.
    var clientID = ""
    var username = ""
    /// A file holding the password (its first line), so the password itself is never in the config.
    var passwordFile = ""
    /// CA certificates (PEM) that sign the broker's certificate; "" trusts the system's CAs.
    var caFile = ""
    var keepalive = 30
    /// "" is "nodwire/<client id>".
    var topicPrefix = ""
    var statusInterval = 5.0
    /// Messages waiting for the broker; beyond it the oldest are dropped (and counted).
    var queueLength = 1000
    /// Seconds after which an event not yet sent is dropped instead (a nod from minutes ago must not switch a light).
    var maxEventAge = 10.0
    var reconnectMaxDelay = 60.0
    var homeAssistant = HomeAssistant()
    var commands = Commands()

    struct HomeAssistant: Equatable {
        var discovery = true
        var prefix = "homeassistant"
    }

    /// Which commands the device takes from `<prefix>/command/<kind>`; each kind separately, none by default.
    struct Commands: Equatable {
        var recalibrate = false
        var pause = false
        var pulse = false
        var config = false

        var enabled: [String] {
            [("recalibrate", recalibrate), ("pause", pause), ("pulse", pulse), ("config", config)].filter(\.1).map(\.0)
        }
    }

    var enabled: Bool { !broker.isEmpty }

    /// Where the broker is, read from `broker`.
    struct Endpoint: Equatable {
        var host: String
        var port: Int
        var tls: Bool
        var description: String { "\(tls ? "mqtts" : "mqtt")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    enum Parsed {
        case success(Endpoint)
        case failure(SettingProblem)
    }

    /// The broker address, or why it is not one.
    static func endpoint(_ url: String) -> Parsed {
        func bad(_ why: String) -> Parsed {
            .failure(SettingProblem(key: "mqtt.broker", message: "\(ConfigValue.quoted(url)) \(why)"))
        }
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") { (tls, rest) = (false, url.dropFirst(7)) }
        else if url.hasPrefix("mqtts://") { (tls, rest) = (true, url.dropFirst(8)) }
        else { return bad("is not a broker address: write mqtt://host:port, or mqtts://host:port for TLS") }
        var host = rest
        var portText: Substring?
        if rest.hasPrefix("[") {   // an IPv6 address: [::1]:1883
            guard let close = rest.firstIndex(of: "]") else { return bad("has a [ without its ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return bad("has something other than :port after the address") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { return bad("has no host name") }
        guard !host.contains(where: { "/?#@ ".contains($0) }) else { return bad("must be only scheme, host and port (no path, user or query)") }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else { return bad("has a port that is not a number from 1 to 65535") }
            port = p
        }
        return .success(Endpoint(host: String(host), port: port, tls: tls))
    }

    func problems() -> [SettingProblem] {
        guard enabled else { return [] }
        var found: [SettingProblem] = []
        switch Self.endpoint(broker) {
        case let .failure(p): found.append(p)
        case let .success(e):
            if !e.tls && !caFile.isEmpty {
                found.append(SettingProblem(key: "mqtt.ca_file", message: "is for TLS: the broker must be mqtts://… to use it"))
            }
        }
        if !passwordFile.isEmpty && username.isEmpty {
            found.append(SettingProblem(key: "mqtt.password_file", message: "needs mqtt.username (the password is that user's)"))
        }
        if clientID.utf8.count > 128 { found.append(SettingProblem(key: "mqtt.client_id", message: "is longer than 128 bytes")) }
        if !clientID.isEmpty && clientID.contains(where: { "/+#".contains($0) || $0.isWhitespace }) {
            found.append(SettingProblem(key: "mqtt.client_id", message: "may not hold /, +, # or spaces (it is part of the topics)"))
        }
        for (key, topic) in [("mqtt.topic_prefix", topicPrefix), ("mqtt.home_assistant.prefix", homeAssistant.prefix)] where !topic.isEmpty {
            if topic.contains(where: { "+#".contains($0) }) || topic.hasPrefix("/") || topic.hasSuffix("/") {
                found.append(SettingProblem(key: key, message: "must be a plain topic: no + or #, no / at either end"))
            }
        }
        return found
    }
}

extension ConfigSchema {
    static var mqtt: [SettingSpec] { [
        .optionalText("mqtt.broker", \.mqtt.broker, "The MQTT broker: \"mqtt://host:port\" (port 1883 if left out) or \"mqtts://host:port\" for TLS with the certificate checked (8883). \"\" leaves MQTT off (docs/mqtt.md)."),
        .optionalText("mqtt.client_id", \.mqtt.clientID, "This device's name at the broker and in its topics; \"\" takes the host name."),
        .optionalText("mqtt.username", \.mqtt.username, "User name for the broker; \"\" for none."),
        .optionalPath("mqtt.password_file", \.mqtt.passwordFile, "File whose first line is the password (keep it readable by Nodwire only); the password itself is never written in the config, the log or the status. \"\" for none."),
        .optionalPath("mqtt.ca_file", \.mqtt.caFile, "With mqtts://: the CA certificate (PEM) that signed the broker's; \"\" trusts the system's CAs."),
        .int("mqtt.keepalive", \.mqtt.keepalive, 5...3600, "Seconds between keep-alive pings; the broker publishes the last will (offline) after 1.5 times this without a word."),
        .optionalText("mqtt.topic_prefix", \.mqtt.topicPrefix, "Topics start with this; \"\" is \"nodwire/<client id>\"."),
        .double("mqtt.status_interval", \.mqtt.statusInterval, 1...3600, "Seconds between status messages (retained); a change of face, camera, pause or connection is sent at once."),
        .int("mqtt.queue_length", \.mqtt.queueLength, 1...100_000, "Events waiting for the broker at most; when it is slow or away the oldest are dropped and counted (status: mqtt_dropped). The gesture loop never waits."),
        .double("mqtt.max_event_age", \.mqtt.maxEventAge, 0.5...3600, "Seconds after which an event not yet sent is dropped instead (counted as mqtt_stale): after a reconnect no old \"yes\" arrives late."),
        .double("mqtt.reconnect_max_delay", \.mqtt.reconnectMaxDelay, 1...3600, "Longest pause between attempts to reach the broker; pauses double from 1 s up to this, forever."),
        .bool("mqtt.home_assistant.discovery", \.mqtt.homeAssistant.discovery, "Publish Home Assistant MQTT discovery documents: a device with sensors and a trigger for each gesture."),
        .text("mqtt.home_assistant.prefix", \.mqtt.homeAssistant.prefix, "Home Assistant's discovery prefix (its MQTT integration's setting)."),
        .bool("mqtt.commands.recalibrate", \.mqtt.commands.recalibrate, "Accept <prefix>/command/recalibrate: learn the resting pose again. Every command is answered on <prefix>/reply; one not enabled is ignored and logged."),
        .bool("mqtt.commands.pause", \.mqtt.commands.pause, "Accept <prefix>/command/pause and <prefix>/command/resume: stop watching (camera off) and start again."),
        .bool("mqtt.commands.pulse", \.mqtt.commands.pulse, "Accept <prefix>/command/pulse with an output's name (and optionally milliseconds, default 500): a pulse on that output."),
        .bool("mqtt.commands.config", \.mqtt.commands.config, "Accept <prefix>/command/config with a whole config document: checked as a file is (refused with key and reason), saved over the --config file (the old one kept as .bak) and applied as SIGHUP would."),
    ] }
}
