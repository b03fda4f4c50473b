import Foundation
import Hummingbird
import Logging

/// Tuning from the page by hand: `POST /api/settings` with form fields `gestures.…=value` (and the
/// token). Only the gesture settings may be changed this way: the camera, the outputs, MQTT and the page
/// itself need a restart and are the owner's to change in the file. Each value is checked as the config
/// file checks it, then all of them together with the rest of the file; a refusal names the key and why,
/// and nothing is written. Accepted ones are written (old file kept as .bak) and reloaded as on SIGHUP.
struct WebTuning: Sendable {
    let configPath: String?
    let logger: Logger
    var reload: @Sendable () -> Void = { kill(getpid(), SIGHUP) }

    struct Reply { var status: HTTPResponse.Status; var message: String }

    /// The settings a page may change.
    static func tunable(_ key: String) -> Bool { key.hasPrefix("gestures.") }

    func apply(_ form: [(String, String)]) -> Reply {
        let fields = form.filter { $0.0 != "token" }
        guard !fields.isEmpty else { return Reply(status: .badRequest, message: "no settings given: send key=value pairs, e.g. gestures.zones.threshold_yaw=10") }
        var values: [(key: String, value: ConfigValue)] = []
        for (key, text) in fields {
            guard let spec = ConfigSchema.all.first(where: { $0.key == key }) else {
                return Reply(status: .badRequest, message: "\(key): no such setting (`nodwire config defaults` lists them)")
            }
            guard Self.tunable(key) else {
                return Reply(status: .forbidden, message: "\(key): only gestures.* settings can be changed from the page; this one is changed in the config file")
            }
            guard let value = Self.value(text, for: spec.kind), case let .success(ok) = spec.accept(value) else {
                return Reply(status: .badRequest, message: "\(key) = \(text): not allowed; allowed: \(spec.kind.allowed)")
            }
            values.append((key, ok))
        }
        return write(values, what: "settings")
    }

    /// Writes `values` into the config file (only those keys; the old file kept as .bak) and reloads it.
    func write(_ values: [(key: String, value: ConfigValue)], what: String) -> Reply {
        guard let path = configPath else {
            return Reply(status: .conflict, message: "nodwire run was started without --config: there is no file to save to")
        }
        guard !values.isEmpty else { return Reply(status: .ok, message: "nothing to change: \(path) stays as it is") }
        do {
            let saved = try ConfigFileSave.save(values, to: path)
            reload()
            logger.notice("web: \(what) saved to \(path): \(values.map { "\($0.key) = \($0.value.text)" }.joined(separator: ", "))")
            return Reply(status: .ok, message: "saved to \(saved.path) (the old file is \(saved.backup)); reloading it")
        } catch let failure as Failure {
            return Reply(status: failure.exitCode == ConfigError.exitCode ? .badRequest : .conflict, message: "nothing saved: \(failure.message)")
        } catch {
            return Reply(status: .conflict, message: "nothing saved: \(error)")
        }
    }

    /// A form field's text as the setting's kind reads it.
    static func value(_ text: String, for kind: SettingSpec.Kind) -> ConfigValue? {
        switch kind {
        case .bool: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .int, .oneOf: return Int(text).map(ConfigValue.int)
        case .double: return Double(text).flatMap { $0.isFinite ? ConfigValue.double($0) : nil }
        case .choice, .path, .optionalPath, .text, .optionalText: return .string(text)
        }
    }

    /// Every field of a form body, in order.
    static func fields(_ body: String) -> [(String, String)] {
        body.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String? { String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let key = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            return (key, value)
        }
    }

    static func routes(_ router: Router<WebContext>, tuning: WebTuning, gate: @escaping @Sendable (Request, WebContext, Bool, String?) -> Response?) {
        router.post("/api/settings") { request, context in
            var request = request
            let body = String(buffer: try await request.collectBody(upTo: context.maxUploadSize))
            let form = fields(body)
            if let refused = gate(request, context, true, form.first { $0.0 == "token" }?.1) { return refused }
            let reply = tuning.apply(form)
            if reply.status != .ok { tuning.logger.warning("web: settings refused: \(reply.message)") }
            return WebServer.json(reply.status, "{\"ok\":\(reply.status == .ok),\"message\":\(EventJSON.quoted(reply.message))}")
        }
    }
}
