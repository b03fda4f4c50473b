import Foundation

/// The addresses a person opens the setup page at (`nodwire web-url`), with the token in the fragment:
/// the page reads `#token=`, and a fragment is never sent to the server, so the token is in no log.
enum WebURL {
    /// One URL per address a browser can use. A wildcard listen address gets one for each of this
    /// machine's `addresses` that the socket accepts (IPv4 for 0.0.0.0; IPv4 and IPv6 for ::, which
    /// Linux binds to both) and one for `hostname`.local; any other address is printed as it is.
    static func urls(listen: WebSettings.Address, token: String?, addresses: [HostAddress], hostname: String?) -> [String] {
        guard let family = listen.wildcard else { return [url(host: listen.host, port: listen.port, token: token)] }
        let hosts = addresses.filter { !$0.ipv6 } + addresses.filter { $0.ipv6 && family == .ipv6 }
        // mDNS (avahi on Raspberry Pi OS) answers for the short name in .local.
        let name = String((hostname ?? "").prefix { $0 != "." })
        let local = name.isEmpty || name == "localhost" ? [] : ["\(name).local"]
        return (hosts.map(\.text) + local).map { url(host: $0, port: listen.port, token: token) }
    }

    static func url(host: String, port: Int, token: String?) -> String {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "http://\(authority)/" + (token.map { "#token=" + fragmentEncoded($0) } ?? "")
    }

    /// Unreserved characters stay; everything else is %-escaped, which the page's URLSearchParams undoes
    /// (a bare `+` would otherwise come back as a space).
    static func fragmentEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "-._~")
        allowed.insert(charactersIn: "a"..."z")
        allowed.insert(charactersIn: "A"..."Z")
        allowed.insert(charactersIn: "0"..."9")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The token of `settings`, or why it cannot be had: a file this user may not read is a matter of
    /// who runs the command (77, EX_NOPERM), anything else one of the config (78), as `nodwire run` says.
    static func token(_ settings: WebSettings) throws(Failure) -> String? {
        let path = settings.tokenFile
        if !path.isEmpty, access(path, R_OK) != 0, errno == EACCES {
            throw Failure(message: "web.token_file \(path): this user may not read it: run this as root (sudo nodwire web-url) or as a member "
                + "of group nodwire, which deploy/install.sh gives the file to (sudo usermod -a -G nodwire $USER, then log in again)",
                exitCode: 77)
        }
        do { return try WebSetup.token(settings) } catch {
            throw Failure(message: error.message + " (deploy/install.sh makes /etc/nodwire/web-token; or write a long random line into the file)",
                          exitCode: error.exitCode)
        }
    }
}

/// One of this machine's network addresses, as text (no brackets).
struct HostAddress: Equatable {
    var text: String
    var ipv6: Bool

    /// The machine's addresses another machine can reach: interfaces that are up, not loopback, and not
    /// IPv6 link-local (fe80::/10 needs the interface's zone in the URL, which browsers do not take).
    static func current() -> [HostAddress] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [HostAddress] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ifa_next
            guard let address = entry.ifa_addr, entry.ifa_flags & UInt32(IFF_UP) != 0, entry.ifa_flags & UInt32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                guard inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil else { continue }
                found.append(HostAddress(text: Self.string(text), ipv6: false))
            case AF_INET6:
                var v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let linkLocal = withUnsafeBytes(of: &v6) { $0[0] == 0xFE && $0[1] & 0xC0 == 0x80 }
                guard !linkLocal, inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil else { continue }
                found.append(HostAddress(text: Self.string(text), ipv6: true))
            default:
                continue
            }
        }
        // An address on two interfaces (a bridge and its port) is one place to go.
        return found.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// This machine's name (gethostname), nil if it has none.
    static func hostname() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return nil }
        let text = string(name)
        return text.isEmpty ? nil : text
    }

    /// A NUL-terminated C string's text.
    private static func string(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension WebSettings.Address {
    enum Family { case ipv4, ipv6 }

    /// The family of a wildcard address (0.0.0.0: every IPv4 address; ::: every address), nil for any other.
    var wildcard: Family? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return v4.s_addr == 0 ? .ipv4 : nil }
        if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: &v6) { $0.allSatisfy { $0 == 0 } } ? .ipv6 : nil }
        return nil
    }
}
