import Foundation
import Gestures

/// `[web]`: the setup page served by `nodwire run` (docs/web.md). Off unless `enable`; loopback only by
/// default. Defaults live here; what each key means is in `ConfigSchema.web` (`nodwire config defaults`).
struct WebSettings: Equatable {
    var enable = false
    /// "host:port" or "[v6]:port".
    var listen = "127.0.0.1:8080"
    /// A file whose first line is the token; required off loopback. The token itself is never in the
    /// config, the log, the status or `config defaults`.
    var tokenFile = ""
    /// Bytes of unsent lines an event-stream client may fall behind before it is dropped.
    var clientBufferBytes = 65_536
    /// Open connections at most (each page holds one for its event stream).
    var maxConnections = 16
    /// Folder where a guided fit on the page may keep its session as a labelled clip; "" keeps none.
    var sessionsDir = ""

    struct Address: Equatable {
        var host: String
        var port: Int
        /// Only this machine can reach it.
        var loopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }
        var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    enum Parsed {
        case success(Address)
        case failure(SettingProblem)
        var address: Address? { if case let .success(a) = self { a } else { nil } }
    }

    /// The address in `listen`, or why it is not one.
    static func address(_ text: String) -> Parsed {
        func bad(_ why: String) -> Parsed {
            .failure(SettingProblem(key: "web.listen", message: "\(ConfigValue.quoted(text)) \(why)"))
        }
        let host: Substring, port: Substring
        if text.hasPrefix("[") {   // [::1]:8080
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else { return bad("is not [address]:port") }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return bad("has no port: write host:port, e.g. 127.0.0.1:8080") }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !host.contains(":") else { return bad("is an IPv6 address without brackets: write [address]:port") }
        }
        guard !host.isEmpty, !host.contains(where: { "/?#@ ".contains($0) }) else { return bad("has no host (write 0.0.0.0:8080 for every interface)") }
        guard let p = Int(port), (1...65535).contains(p) else { return bad("has a port that is not a number from 1 to 65535") }
        return .success(Address(host: String(host), port: p))
    }

    func problems() -> [SettingProblem] {
        guard enable else { return [] }
        switch Self.address(listen) {
        case let .failure(p): return [p]
        case let .success(a):
            if !a.loopback && tokenFile.isEmpty {
                return [SettingProblem(key: "web.token_file", message: "is required when web.listen (\(a.description)) is not a loopback address: anyone on the network could pulse the outputs. Make one (deploy/install.sh does) or listen on 127.0.0.1")]
            }
            return []
        }
    }
}

extension ConfigSchema {
    static var web: [SettingSpec] { [
        .bool("web.enable", \.web.enable, "Serve the setup page (status, events, where the head is, the outputs) over HTTP (docs/web.md)."),
        .text("web.listen", \.web.listen, "host:port (or [v6]:port) to listen on. A loopback address (127.0.0.1, ::1, localhost) is reachable from this machine only; any other needs web.token_file."),
        .optionalPath("web.token_file", \.web.tokenFile, "File whose first line is the secret the page must send (Authorization: Bearer) to see anything or pulse an output; required off loopback. The token itself is never logged or shown. deploy/install.sh makes /etc/nodwire/web-token; `nodwire web-url` prints the page's address with it. \"\" for none (loopback only)."),
        .int("web.client_buffer_bytes", \.web.clientBufferBytes, 4_096...16_777_216, "Unsent bytes a page's event stream may fall behind before it is dropped (the page reconnects); the gesture loop never waits for a page."),
        .int("web.max_connections", \.web.maxConnections, 1...256, "Open HTTP connections at most; more wait to be accepted."),
        .optionalPath("web.sessions_dir", \.web.sessionsDir, "Folder where a guided fit on the page keeps its session, when asked, as fit-DATE.y4m and fit-DATE.labels.json (its prompts as a labelled timeline: replay, evaluate or fit it again). About 5 MB a second of session; the service must be allowed to write there (docs/web.md). \"\" keeps none."),
    ] }
}
