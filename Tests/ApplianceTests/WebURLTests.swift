@testable import Appliance
import Foundation
import XCTest

/// `nodwire web-url` as a person runs it: the real binary on a config, its lines and exit code.
final class WebURLTests: XCTestCase {
    private var cleanup: [() -> Void] = []
    override func tearDown() {
        for c in cleanup.reversed() { c() }
        cleanup = []
    }

    private func file(_ name: String, _ text: String, mode: Int = 0o644) throws -> String {
        let path = NSTemporaryDirectory() + "weburl-\(getpid())-\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, mode_t(mode)), 0)
        cleanup.append { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Runs `nodwire web-url --config FILE`; `dropRead`: without the right to read files that are not its
    /// own (root keeps it otherwise), so an unreadable token file is unreadable to it.
    private func webURL(_ config: String, dropRead: Bool = false) throws -> (code: Int32, out: String, err: String) {
        let args = ["web-url", "--config", config]
        let run = dropRead && getuid() == 0
            ? try RunningNodwire(["--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search", RunningNodwire.exe] + args,
                                 executable: "/usr/bin/setpriv")
            : try RunningNodwire(args)
        let code = run.finish(timeout: 30)
        return (code, run.stdout, run.stderr)
    }

    /// Loopback needs no token: one URL, and a word on how to reach it from elsewhere.
    func testLoopbackPrintsTheLoopbackURL() throws {
        let r = try webURL(try file("loop.toml", "[web]\nenable = true\nlisten = \"127.0.0.1:8123\"\n"))
        XCTAssertEqual(r.code, 0, r.err)
        XCTAssertEqual(r.out, "http://127.0.0.1:8123/\n")
        XCTAssertTrue(r.err.contains("from this machine only") && r.err.contains("ssh -L 8123:127.0.0.1:8123"), r.err)
    }

    /// 0.0.0.0: one line for each IPv4 address of this machine (as `hostname -I` lists them) and its .local
    /// name, each with the token (escaped) after #; none for loopback or IPv6.
    func testWildcardPrintsEveryAddressWithTheToken() throws {
        let token = try file("token", "k3y+/=\nsecond line is not the token\n", mode: 0o640)
        let r = try webURL(try file("any.toml", "[web]\nenable = true\nlisten = \"0.0.0.0:8124\"\ntoken_file = \"\(token)\"\n"))
        XCTAssertEqual(r.code, 0, r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        let suffix = ":8124/#token=k3y%2B%2F%3D"
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("http://") && $0.hasSuffix(suffix) }, r.out)
        let hosts = lines.map { String($0.dropFirst("http://".count).dropLast(suffix.count)) }

        let listed = try RunningNodwire(["-I"], executable: "/bin/hostname")
        XCTAssertEqual(listed.finish(), 0)
        let ipv4 = listed.stdout.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.contains(":") }
        let name = try RunningNodwire([], executable: "/bin/hostname")
        XCTAssertEqual(name.finish(), 0)
        let local = (name.stdout.split(separator: ".").first.map(String.init) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) + ".local"
        XCTAssertEqual(Set(hosts), Set(ipv4 + [local]), r.out)
        XCTAssertEqual(hosts.last, local, "the name comes after the addresses")
        XCTAssertFalse(hosts.contains { $0.hasPrefix("127.") || $0.hasPrefix("[") }, r.out)
    }

    func testDisabledSaysHowToEnable() throws {
        let r = try webURL(try file("off.toml", "[web]\nlisten = \"0.0.0.0:8125\"\n"))
        XCTAssertEqual(r.code, 78)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.contains("the setup page is off: add [web] with enable = true"), r.err)
    }

    func testAMissingOrUnreadableTokenFileSaysWhatToDo() throws {
        let missing = try webURL(try file("missing.toml", "[web]\nenable = true\nlisten = \"0.0.0.0:8126\"\ntoken_file = \"/nonexistent/web-token\"\n"))
        XCTAssertEqual(missing.code, 78)
        XCTAssertTrue(missing.err.contains("web.token_file /nonexistent/web-token: there is no such file"), missing.err)
        XCTAssertTrue(missing.err.contains("deploy/install.sh makes /etc/nodwire/web-token"), missing.err)

        let token = try file("locked-token", "secret\n", mode: 0o000)
        let config = try file("locked.toml", "[web]\nenable = true\nlisten = \"0.0.0.0:8126\"\ntoken_file = \"\(token)\"\n")
        let locked = try webURL(config, dropRead: true)
        XCTAssertEqual(locked.code, 77, locked.err)
        XCTAssertEqual(locked.out, "")
        XCTAssertTrue(locked.err.contains("this user may not read it: run this as root (sudo nodwire web-url) or as a member of group nodwire"), locked.err)
        XCTAssertFalse(locked.err.contains("secret"))
    }
}

/// The URLs themselves, from given addresses.
final class WebURLPartsTests: XCTestCase {
    let addresses = [HostAddress(text: "fd00::2", ipv6: true), HostAddress(text: "192.0.2.7", ipv6: false)]

    func testWildcardFamiliesAndNames() throws {
        let any4 = try XCTUnwrap(WebSettings.address("0.0.0.0:80").address)
        XCTAssertEqual(WebURL.urls(listen: any4, token: "t", addresses: addresses, hostname: "pi.example.net"),
                       ["http://192.0.2.7:80/#token=t", "http://pi.local:80/#token=t"], "IPv4 only on 0.0.0.0; the short name in .local")
        let any6 = try XCTUnwrap(WebSettings.address("[::]:80").address)
        XCTAssertEqual(WebURL.urls(listen: any6, token: "t", addresses: addresses, hostname: "localhost"),
                       ["http://192.0.2.7:80/#token=t", "http://[fd00::2]:80/#token=t"], "IPv4 first; no localhost.local")
        let one = try XCTUnwrap(WebSettings.address("[fd00::9]:8080").address)
        XCTAssertEqual(WebURL.urls(listen: one, token: nil, addresses: addresses, hostname: "pi"), ["http://[fd00::9]:8080/"])
        XCTAssertNil(try XCTUnwrap(WebSettings.address("127.0.0.1:80").address).wildcard)
        XCTAssertEqual(try XCTUnwrap(WebSettings.address("[0:0::0]:80").address).wildcard, .ipv6)
    }

    func testTheTokenSurvivesThePagesDecoding() {
        XCTAssertEqual(WebURL.fragmentEncoded("aZ09-._~ +/&=#%é"), "aZ09-._~%20%2B%2F%26%3D%23%25%C3%A9")
    }
}
