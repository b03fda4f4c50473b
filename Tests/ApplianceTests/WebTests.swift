@testable import Appliance
import Foundation
import Logging
import XCTest

/// The setup page's server as a person's browser meets it: `nodwire run` on the clip (every frame, dry-run
/// outputs) with `[web]`, spoken to over real HTTP on loopback with curl.
final class WebTests: XCTestCase {
    static let clip = RunServiceTests.clip
    var cleanup: [() -> Void] = []
    override func tearDown() {
        for c in cleanup.reversed() { c() }
        cleanup = []
    }

    func temp(_ name: String) -> String { NSTemporaryDirectory() + "web-\(getpid())-\(name)" }

    /// Runs nodwire with `[web]` on a free loopback port; returns it and the port once it serves.
    func serve(_ name: String, token: String? = nil, extra: String = "", loop: Bool = true, clip: String = WebTests.clip) throws -> (RunningNodwire, Int) {
        let port = TestBroker.freePort()
        var web = "[web]\nenable = true\nlisten = \"127.0.0.1:\(port)\"\n"
        if let token {
            let tokenPath = temp("\(name).token")
            try (token + "\n").write(toFile: tokenPath, atomically: true, encoding: .utf8)
            cleanup.append { try? FileManager.default.removeItem(atPath: tokenPath) }
            web += "token_file = \"\(tokenPath)\"\n"
        }
        let path = temp("\(name).toml")
        try ("[budget]\nactive_rate = 60.0\ncpu_percent = 400.0\n" + web + extra + "\n" + OutputReplayTests.config)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let run = try RunningNodwire(["run", "--source", clip, "--every-frame", "--gpio", "dry-run", "--config", path] + (loop ? ["--loop"] : []))
        cleanup.append {
            if run.process.isRunning { run.process.terminate(); _ = run.finish() }
            try? FileManager.default.removeItem(atPath: path)
        }
        try run.waitForStderr("web: serving the setup page on http://127.0.0.1:\(port)/", timeout: 60)
        return (run, port)
    }

    /// One request with curl: the status code and the body.
    func http(_ port: Int, _ path: String, post: Bool = false, headers: [String] = [], data: String? = nil) throws -> (code: Int, body: String) {
        var args = ["-s", "--max-time", "10", "-o", "-", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)\(path)"]
        if post { args += ["-X", "POST"] }
        for h in headers { args += ["-H", h] }
        if let data { args += ["--data", data] }
        let curl = try RunningNodwire(args, executable: "/usr/bin/curl")
        XCTAssertEqual(curl.finish(timeout: 15), 0, curl.stderr)
        var lines = curl.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let code = Int(lines.popLast() ?? "") ?? 0
        return (code, lines.joined(separator: "\n"))
    }

    private func events(_ port: Int, headers: [String] = []) throws -> RunningNodwire {
        let curl = try RunningNodwire(["-s", "-N", "--max-time", "120"] + headers.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(port)/api/events"],
                                      executable: "/usr/bin/curl")
        cleanup.append { if curl.process.isRunning { curl.process.terminate() } }
        return curl
    }

    /// The page and its files, the status document, and the event stream with the clip's looks, the
    /// head's pose and the status; on loopback without a token a same-origin pulse is accepted, while a
    /// Host that is not a loopback name (DNS rebinding) gets nothing.
    func testThePageTheStatusAndTheEventStream() throws {
        let (run, port) = try serve("status")
        let page = try http(port, "/")
        XCTAssertEqual(page.code, 200)
        XCTAssertTrue(page.body.contains("<title>Nodwire</title>") && page.body.contains("/app.js"), page.body)
        XCTAssertEqual(try http(port, "/app.js").code, 200)
        XCTAssertEqual(try http(port, "/app.css").code, 200)

        let stream = try events(port)
        try stream.waitForStdout(#""type":"look_start","direction":"right""#, timeout: 60)
        try stream.waitForStdout("event: pose\ndata: {\"time\":")
        try stream.waitForStdout("event: status\ndata: {\"state\":\"running\"")
        try stream.waitForStdout(#""pose":{"yaw":"#)

        let reply = try http(port, "/api/status")
        XCTAssertEqual(reply.code, 200)
        let status = try XCTUnwrap(jsonObject(reply.body), reply.body)
        for key in ["state", "fps", "cpu_percent", "budget_percent", "battery_percent", "celsius", "camera", "face_present", "calibrated",
                    "calibrating", "neutral", "zones", "outputs", "source", "frames"] {
            XCTAssertTrue(status.keys.contains(key), "status has \(key): \(reply.body)")
        }
        XCTAssertEqual(status["camera"] as? String, "ok")
        XCTAssertGreaterThan(status["fps"] as? Double ?? 0, 1, reply.body)
        let zones = status["zones"] as? [String: Any]
        XCTAssertEqual(zones?["threshold_yaw"] as? Double, 12, reply.body)
        // The held look the page draws: the defaults, up/down only (yaw off at 1).
        XCTAssertEqual(zones?["held_share_pitch"] as? Double, 0.75, reply.body)
        XCTAssertEqual(zones?["held_share_yaw"] as? Double, 1, reply.body)
        XCTAssertEqual(zones?["held_for"] as? Double, 1, reply.body)
        let outputs = try XCTUnwrap(status["outputs"] as? [[String: Any]])
        XCTAssertEqual(outputs.map { $0["name"] as? String }, ["right", "down", "led"])
        XCTAssertEqual(outputs.map { $0["pulsable"] as? Bool }, [true, true, false], "the status LED is not pulsed by hand")

        // The live picture: JPEG from libjpeg-turbo, with the face seen in it (kept only once someone asks).
        let picturePath = NSTemporaryDirectory() + "web-\(getpid())-picture.jpg"
        defer { try? FileManager.default.removeItem(atPath: picturePath) }
        var face = ""
        try waitUntil("a picture", timeout: 20) {
            guard let curl = try? RunningNodwire(["-s", "-D", "-", "-o", picturePath, "http://127.0.0.1:\(port)/api/picture.jpg"], executable: "/usr/bin/curl"),
                  curl.finish(timeout: 10) == 0, curl.stdout.hasPrefix("HTTP/1.1 200") else { return false }
            face = curl.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-nodwire-face:") }.map(String.init) ?? ""
            return true
        }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: picturePath))
        XCTAssertEqual(Array(jpeg.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        XCTAssertTrue(face.contains(#""width":400,"height":300,"face":{"box":["#) && face.contains(#""landmarks":[["#), face)
        XCTAssertTrue(face.contains(#""contrast":"#) && face.contains(#""dim":false}"#), "clm_look's face is lit: \(face)")

        // Loopback without a token: the page's own origin may pulse; GET never changes anything.
        XCTAssertEqual(try http(port, "/api/outputs/right/pulse").code, 404, "no GET route that pulses")
        let origin = "Origin: http://127.0.0.1:\(port)"
        let ok = try http(port, "/api/outputs/right/pulse", post: true, headers: [origin])
        XCTAssertEqual(ok.code, 200, ok.body)
        try run.waitForStderr("web: right pulsed for 500 ms (from 127.0.0.1:")
        XCTAssertEqual(try http(port, "/api/outputs/led/pulse", post: true, headers: [origin]).code, 404, "the status LED")
        // A rebound name: the browser would send its own Host and Origin; both "match", but the Host is not ours.
        let rebound = try http(port, "/api/status", headers: ["Host: evil.example:\(port)"])
        XCTAssertEqual(rebound.code, 403, rebound.body)
        XCTAssertEqual(try http(port, "/api/status", headers: ["Host: 127.0.0.1.evil.example:\(port)"]).code, 403)
        try run.waitForStderr("web: refused GET /api/status from")
    }

    /// With a token: nothing without it (401), a wrong one (401), the right one from another origin or
    /// none (403); the right one from the page's origin pulses (the dry-run log shows it). The token is
    /// never in the log or the status. Many failures in a row are refused without being checked (429).
    func testPulseNeedsTheTokenAndThePagesOwnOrigin() throws {
        let token = "s3cret-\(UUID().uuidString)"
        let (run, port) = try serve("auth", token: token)
        let path = "/api/outputs/right/pulse"
        let origin = "Origin: http://127.0.0.1:\(port)"
        XCTAssertEqual(try http(port, "/").code, 200, "the page itself has nothing secret")
        XCTAssertEqual(try http(port, "/api/status").code, 401)
        XCTAssertEqual(try http(port, "/api/status", headers: ["Cookie: nodwire_token=\(token)"]).code, 200, "the page's cookie")
        let status = try http(port, "/api/status", headers: ["Authorization: Bearer \(token)"])
        XCTAssertEqual(status.code, 200)
        XCTAssertEqual(jsonObject(status.body)?["token_required"] as? Bool, true)

        XCTAssertEqual(try http(port, path, post: true, headers: [origin]).code, 401, "no token")
        XCTAssertEqual(try http(port, path, post: true, headers: [origin, "Authorization: Bearer nope"]).code, 401, "wrong token")
        XCTAssertEqual(try http(port, path, post: true, headers: ["Authorization: Bearer \(token)"]).code, 403, "no origin")
        XCTAssertEqual(try http(port, path, post: true, headers: ["Origin: http://evil.example", "Authorization: Bearer \(token)"]).code, 403, "cross-origin")
        XCTAssertEqual(try http(port, path, post: true, headers: ["Cookie: nodwire_token=\(token)", origin]).code, 401, "a cookie is not enough to change anything")
        XCTAssertFalse(run.stderr.contains(#""cause":"web pulse""#), "nothing pulsed yet")

        let ok = try http(port, path, post: true, headers: [origin, "Authorization: Bearer \(token)"])
        XCTAssertEqual(ok.code, 200, ok.body)
        try run.waitForStderr(#""output":"right","value":"#, #""cause":"web pulse""#)
        // As the page's form would send it.
        let form = try http(port, "/api/outputs/down/pulse", post: true, headers: ["Referer: http://127.0.0.1:\(port)/"], data: "token=\(token)")
        XCTAssertEqual(form.code, 200, form.body)
        try run.waitForStderr(#""output":"down","value":0,"cause":"web pulse""#)
        try run.waitForStderr("web: refused POST /api/outputs/right/pulse from")
        let huge = try http(port, path, post: true, headers: [origin, "Authorization: Bearer \(token)"], data: String(repeating: "a", count: 20_000))
        XCTAssertEqual(huge.code, 413, "a body over 16 KiB is refused before anything else")

        // Six refusals so far; four more fill the window, then even the right token waits.
        for _ in 0..<4 { XCTAssertEqual(try http(port, "/api/status", headers: ["Authorization: Bearer x"]).code, 401) }
        XCTAssertEqual(try http(port, "/api/status", headers: ["Authorization: Bearer \(token)"]).code, 429)
        XCTAssertFalse(run.stderr.contains(token), "the token is never logged")
    }

    /// A page that connects to the event stream and never reads: it is dropped once its buffer is full,
    /// the frame loop processes every frame as it does with no page at all, and the run ends cleanly.
    func testAPageThatNeverReadsIsDroppedAndNeverStallsTheLoop() throws {
        func framesOfWholeClip(_ name: String, stalled: Bool) throws -> (frames: String, log: String) {
            let (run, port) = try serve(name, extra: "client_buffer_bytes = 4096\n[gestures.moves]\nenabled = true\n", loop: false)
            var fd: Int32 = -1
            if stalled {
                fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var small: Int32 = 1024
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                XCTAssertEqual(connected, 0)
                let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                XCTAssertEqual(request.withCString { send(fd, $0, strlen($0), 0) }, request.utf8.count)
            }
            defer { if fd >= 0 { close(fd) } }
            XCTAssertEqual(run.finish(timeout: 240), 0, "the run ends by itself, page or not:\n\(run.stderr.suffix(3000))")
            let line = try XCTUnwrap(run.stderr.split(separator: "\n").first { $0.contains("frame loop ended") }, run.stderr)
            let frames = try XCTUnwrap(line.range(of: #"frames=\d+"#, options: .regularExpression).map { String(line[$0]) }, String(line))
            return (frames, run.stderr)
        }
        let alone = try framesOfWholeClip("alone", stalled: false)
        let stalled = try framesOfWholeClip("stalled", stalled: true)
        XCTAssertEqual(stalled.frames, alone.frames, "every frame processed with a stalled page as without one")
        XCTAssertTrue(stalled.log.contains("web: a page fell 4096 bytes behind its event stream and was dropped"), stalled.log.suffix(3000).description)
    }

    /// Listening beyond loopback without a token file is refused at load, with the key and why (78).
    func testANetworkAddressWithoutATokenIsRefused() throws {
        let path = temp("open.toml")
        try "[web]\nenable = true\nlisten = \"0.0.0.0:8080\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try RunningNodwire(["run", "--source", Self.clip, "--config", path])
        XCTAssertEqual(run.finish(timeout: 30), 78)
        XCTAssertTrue(run.stderr.contains("web.token_file"), run.stderr)
        XCTAssertTrue(run.stderr.contains("is required when web.listen (0.0.0.0:8080) is not a loopback address"), run.stderr)

        try "[web]\nenable = true\nlisten = \"0.0.0.0:8080\"\ntoken_file = \"/nonexistent/token\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let missing = try RunningNodwire(["run", "--source", Self.clip, "--config", path])
        XCTAssertEqual(missing.finish(timeout: 30), 78)
        XCTAssertTrue(missing.stderr.contains("web.token_file /nonexistent/token: there is no such file"), missing.stderr)
    }
}

extension WebTests {
    /// An address someone else holds: the run ends with 69 and says which setting and why.
    func testAnAddressInUseEndsTheRunWithItsReason() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 1), 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let path = NSTemporaryDirectory() + "web-\(getpid())-busy.toml"
        try "[web]\nenable = true\nlisten = \"127.0.0.1:\(port)\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try RunningNodwire(["run", "--source", Self.clip, "--loop", "--config", path])
        XCTAssertEqual(run.finish(timeout: 60), 69, run.stderr)
        XCTAssertTrue(run.stderr.contains("web.listen 127.0.0.1:\(port): cannot serve the setup page:"), run.stderr)
    }
}

/// The parts of the web side that need no server.
final class WebPartsTests: XCTestCase {
    func testAddressesAndTheTokenRule() {
        XCTAssertEqual(WebSettings.address("127.0.0.1:8080").address, WebSettings.Address(host: "127.0.0.1", port: 8080))
        XCTAssertEqual(WebSettings.address("[::1]:80").address, WebSettings.Address(host: "::1", port: 80))
        for bad in ["8080", ":8080", "host:0", "host:x", "::1:80", "[::1]80"] {
            XCTAssertNil(WebSettings.address(bad).address, bad)
        }
        var web = WebSettings()
        web.enable = true
        XCTAssertEqual(web.problems(), [])
        web.listen = "192.0.2.1:8080"
        XCTAssertEqual(web.problems().map(\.key), ["web.token_file"])
        web.tokenFile = "/etc/nodwire/web-token"
        XCTAssertEqual(web.problems(), [])
    }

    func testTokenComparisonOriginAndLoopbackNames() {
        XCTAssertTrue(WebAuth.equal(Array("abc".utf8), Array("abc".utf8)))
        for other in ["abd", "ab", "abcd", ""] { XCTAssertFalse(WebAuth.equal(Array(other.utf8), Array("abc".utf8)), other) }
        XCTAssertTrue(WebAuth.isLoopbackHost("127.0.0.1:8080"))
        XCTAssertTrue(WebAuth.isLoopbackHost("[::1]:8080"))
        XCTAssertTrue(WebAuth.isLoopbackHost("localhost"))
        XCTAssertFalse(WebAuth.isLoopbackHost("127.0.0.1.example.net:8080"))
        XCTAssertFalse(WebAuth.isLoopbackHost("nodwire.local:8080"))
        XCTAssertTrue(WebAuth.sameOrigin(["host": "pi:8080", "origin": "http://pi:8080"]))
        XCTAssertTrue(WebAuth.sameOrigin(["host": "pi:8080", "referer": "http://pi:8080/"]))
        XCTAssertFalse(WebAuth.sameOrigin(["host": "pi:8080", "referer": "http://pi:8080.evil.example/"]))
        XCTAssertFalse(WebAuth.sameOrigin(["host": "pi:8080"]))
    }

    /// The loop's side of a page: lines queue up to the capacity; one more drops the page, whose stream then
    /// ends, and nothing more is queued for it.
    func testAPageThatFallsBehindIsDropped() async {
        let hub = WebHub(capacity: 100, logger: Logger(label: "test"))
        let client = hub.connect()
        hub.deliver(line: String(repeating: "x", count: 40))   // 48 bytes with "data: " and the blank line
        let first = await client.next()
        XCTAssertEqual(first, "data: " + String(repeating: "x", count: 40) + "\n\n")
        hub.deliver(line: String(repeating: "y", count: 40))
        hub.deliver(line: String(repeating: "z", count: 40))   // 96 bytes waiting: still in
        XCTAssertEqual(hub.dropped, 0)
        hub.deliver(line: "one too many")
        XCTAssertEqual(hub.dropped, 1)
        XCTAssertFalse(hub.hasClients)
        let after = await client.next()
        XCTAssertNil(after, "its stream ends")
    }

    func testTheDefaultsDocumentEveryWebKey() {
        let keys = ConfigSchema.all.map(\.key)
        for key in ["web.enable", "web.listen", "web.token_file", "web.client_buffer_bytes", "web.max_connections"] { XCTAssertTrue(keys.contains(key), key) }
    }
}

extension RunningNodwire {
    /// A stderr line holding both parts (a dry-run output line: its output and its cause).
    func waitForStderr(_ first: String, _ second: String, timeout: Double = 20) throws {
        try waitUntil("a line with «\(first)» and «\(second)» on stderr; got:\n\(stderr)", timeout: timeout) {
            stderr.split(separator: "\n").contains { $0.contains(first) && $0.contains(second) }
        }
    }
}
