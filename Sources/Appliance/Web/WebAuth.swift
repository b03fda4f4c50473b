import Foundation
import Pipeline

/// Who may use the setup page's API. With a token (always off loopback) every /api/ request must carry it
/// (Authorization: Bearer, or for the page's own GETs the cookie it sets, or for a POST a `token` form
/// field); without one (loopback only) the request's Host must be a loopback name, so a page elsewhere
/// that points its own name at 127.0.0.1 (DNS rebinding) gets nothing. A POST must also come from the
/// page's own origin (Origin, else Referer, equal to http://Host). Failures are rate-limited: after
/// `maxFailures` in `window` seconds every request that needs the token is refused until the window passes.
final class WebAuth: @unchecked Sendable {
    enum Verdict: Equatable {
        case allowed
        case unauthorized(String)   // 401
        case forbidden(String)      // 403
        case limited                // 429
    }

    private let token: [UInt8]?
    let maxFailures: Int
    let window: Double
    private let lock = NSLock()
    private var failures: [Double] = []

    init(token: String?, maxFailures: Int = 10, window: Double = 60) {
        self.token = token.map { Array($0.utf8) }
        self.maxFailures = maxFailures
        self.window = window
    }

    var needsToken: Bool { token != nil }

    /// Checks a request. `formToken`: a POST's `token` field. `now`: MonotonicClock seconds.
    func check(headers: [String: String], post: Bool, formToken: String? = nil, now: Double = MonotonicClock.now()) -> Verdict {
        let verdict = judge(headers: headers, post: post, formToken: formToken, now: now)
        if case .allowed = verdict { return verdict }
        if case .limited = verdict { return verdict }
        lock.withLock { failures.append(now) }
        return verdict
    }

    private func judge(headers: [String: String], post: Bool, formToken: String?, now: Double) -> Verdict {
        let host = headers["host"] ?? ""
        if let token {
            let limited = lock.withLock { () -> Bool in
                failures.removeAll { now - $0 > window }
                return failures.count >= maxFailures
            }
            if limited { return .limited }
            var given = headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? formToken
            if given == nil && !post { given = Self.cookie("nodwire_token", in: headers["cookie"]) }
            guard let given else { return .unauthorized("no token") }
            guard Self.equal(Array(given.utf8), token) else { return .unauthorized("wrong token") }
        } else if !Self.isLoopbackHost(host) {
            return .forbidden("Host \(ConfigValue.quoted(host)) is not this machine's loopback name")
        }
        if post && !Self.sameOrigin(headers) { return .forbidden("not from the page's own origin (Origin/Referer must be http://\(host))") }
        return .allowed
    }

    /// Compares in time that depends only on the lengths, not on where the first difference is.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0xFF)
        }
        return difference == 0
    }

    static func sameOrigin(_ headers: [String: String]) -> Bool {
        guard let host = headers["host"], !host.isEmpty else { return false }
        let expected = "http://\(host)"
        if let origin = headers["origin"] { return origin == expected }
        if let referer = headers["referer"] { return referer == expected || referer.hasPrefix(expected + "/") }
        return false
    }

    /// 127.x.x.x, localhost or [::1], with or without a port.
    static func isLoopbackHost(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") { name = name.dropFirst().prefix { $0 != "]" } } else if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        // Digits and dots only: "127.0.0.1.example.net" is someone else's name.
        return name == "localhost" || name == "::1" || (name.hasPrefix("127.") && name.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(name + "=") { return String(pair.dropFirst(name.count + 1)).removingPercentEncoding }
        }
        return nil
    }
}
