import Foundation
import Logging

/// Commands from `<prefix>/command/<kind>`, each kind only when `[mqtt.commands]` allows it. Every command
/// gets an answer on `<prefix>/reply`: `{"command":…,"ok":true|false,"message":…}`. Called on the MQTT
/// link's thread; nothing here waits for the frame loop (requests are taken between frames).
struct MQTTCommands: Sendable {
    let enabled: MQTTSettings.Commands
    let loop: FrameLoop
    let outputs: OutputRunner?
    /// Output names a pulse may address (the status LED follows its patterns, not commands).
    let pulsable: [String]
    let configPath: String?
    let logger: Logger
    /// Applies a saved config as SIGHUP does (the reload service reads the file again).
    var reload: @Sendable () -> Void = { kill(getpid(), SIGHUP) }

    static let defaultPulseMs = 500

    struct Reply: Equatable {
        var ok: Bool
        var message: String
    }

    /// The kinds and the setting that allows each.
    static func setting(of kind: String) -> String? {
        switch kind {
        case "recalibrate": return "recalibrate"
        case "pause", "resume": return "pause"
        case "pulse": return "pulse"
        case "config": return "config"
        default: return nil
        }
    }

    func handle(kind: String, payload: [UInt8], retained: Bool) -> Reply {
        let reply = answer(kind: kind, payload: payload, retained: retained)
        let what = "mqtt command \(kind)"
        if reply.ok { logger.notice("\(what): \(reply.message)") } else { logger.warning("\(what) refused: \(reply.message)") }
        return reply
    }

    private func answer(kind: String, payload: [UInt8], retained: Bool) -> Reply {
        guard let setting = Self.setting(of: kind) else {
            return Reply(ok: false, message: "unknown command (known: recalibrate, pause, resume, pulse, config)")
        }
        guard enabled.enabled.contains(setting) else {
            return Reply(ok: false, message: "ignored: not enabled (mqtt.commands.\(setting) = false)")
        }
        // A retained command would run again at every connect.
        guard !retained else { return Reply(ok: false, message: "ignored: a retained message is not a command (publish it without retain)") }
        let text = String(decoding: payload, as: UTF8.self)
        switch kind {
        case "recalibrate":
            loop.requestRecalibration()
            return Reply(ok: true, message: "learning the resting pose again")
        case "pause":
            loop.setPaused(true)
            return Reply(ok: true, message: "paused: the camera is off until resume")
        case "resume":
            loop.setPaused(false)
            return Reply(ok: true, message: "watching again")
        case "pulse":
            return pulse(text.trimmingCharacters(in: .whitespacesAndNewlines))
        default:
            return newConfig(payload)
        }
    }

    /// "name" or "name ms".
    private func pulse(_ request: String) -> Reply {
        let parts = request.split(separator: " ", omittingEmptySubsequences: true)
        guard let outputs, !pulsable.isEmpty else { return Reply(ok: false, message: "there are no outputs to pulse") }
        guard let name = parts.first.map(String.init), parts.count <= 2, pulsable.contains(name), let index = outputs.names.firstIndex(of: name) else {
            return Reply(ok: false, message: "\(ConfigValue.quoted(request)) is not an output: send one of \(pulsable.map { ConfigValue.quoted($0) }.joined(separator: ", ")), optionally followed by milliseconds")
        }
        var ms = Self.defaultPulseMs
        if parts.count == 2 {
            guard let n = Int(parts[1]), (10...60_000).contains(n) else { return Reply(ok: false, message: "the pulse length must be 10 to 60000 ms") }
            ms = n
        }
        do { try outputs.pulse(index, ms: ms, cause: "mqtt pulse") } catch {
            return Reply(ok: false, message: "\(error)")
        }
        return Reply(ok: true, message: "\(name) pulsed for \(ms) ms")
    }

    /// Checked exactly as the file is (it is read from disk by the same loader), saved atomically with the
    /// old file kept as .bak, then applied by the reload service as on SIGHUP.
    private func newConfig(_ payload: [UInt8]) -> Reply {
        guard let path = configPath else { return Reply(ok: false, message: "nodwire run was started without --config: there is no file to replace") }
        let candidate = path + ".new"
        defer { try? FileManager.default.removeItem(atPath: candidate) }
        do { try Data(payload).write(to: URL(fileURLWithPath: candidate)) } catch {
            return Reply(ok: false, message: "cannot write \(candidate): \((error as NSError).localizedDescription) (is /etc/nodwire writable for the service? see deploy/nodwire-mqtt.conf)")
        }
        let config: NodwireConfig
        do { config = try ConfigLoader.load(file: candidate) } catch {
            // The loader names the candidate; the person sent a document, so say where in it.
            return Reply(ok: false, message: "refused, the running settings stay: " + "\(error)".replacingOccurrences(of: candidate, with: "config"))
        }
        // The one thing the reload would still refuse after the loader (it loads the model): check it here,
        // so a document the device cannot use never replaces the file.
        guard FileManager.default.isReadableFile(atPath: ModelLocator.resolve(config.vision.modelPath)) else {
            return Reply(ok: false, message: "refused, the running settings stay: config: vision.model_path = \(ConfigValue.quoted(config.vision.modelPath)): no such file on this device")
        }
        let backup = path + ".bak"
        do {
            if FileManager.default.fileExists(atPath: path) {
                try? FileManager.default.removeItem(atPath: backup)
                try FileManager.default.copyItem(atPath: path, toPath: backup)
            }
            guard rename(candidate, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            return Reply(ok: false, message: "cannot replace \(path): \(error)")
        }
        reload()
        return Reply(ok: true, message: "saved to \(path) (the old file is \(backup)); reloading it")
    }

    static func json(kind: String, _ reply: Reply) -> String {
        "{\"command\":\(EventJSON.quoted(kind)),\"ok\":\(reply.ok),\"message\":\(EventJSON.quoted(reply.message))}"
    }
}
