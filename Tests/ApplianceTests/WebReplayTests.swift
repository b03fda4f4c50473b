import Foundation
import XCTest

/// `nodwire replay --realtime` serves the setup page when the config enables [web] (trying the page on a
/// recording), spoken to with curl as in WebTests; without --realtime it says so and serves nothing.
final class WebReplayTests: XCTestCase {
    private func config(_ name: String, port: Int) throws -> String {
        let path = NSTemporaryDirectory() + "webreplay-\(getpid())-\(name).toml"
        try "[budget]\nactive_rate = 60.0\ncpu_percent = 400.0\n[web]\nenable = true\nlisten = \"127.0.0.1:\(port)\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func curl(_ args: [String]) throws -> RunningNodwire {
        let curl = try RunningNodwire(["-s"] + args, executable: "/usr/bin/curl")
        addTeardownBlock { if curl.process.isRunning { curl.process.terminate() } }
        return curl
    }

    func testRealtimeServesThePageWhileTheClipPlays() throws {
        let port = TestBroker.freePort()
        let replay = try RunningNodwire(["replay", WebTests.clip, "--realtime", "--config", try config("realtime", port: port)])
        addTeardownBlock { if replay.process.isRunning { replay.process.terminate() } }
        try replay.waitForStderr("web: serving the setup page on http://127.0.0.1:\(port)/", timeout: 60)
        let stream = try curl(["-N", "--max-time", "120", "http://127.0.0.1:\(port)/api/events"])

        let status = try curl(["--max-time", "10", "http://127.0.0.1:\(port)/api/status"])
        XCTAssertEqual(status.finish(timeout: 15), 0, status.stderr)
        let document = try XCTUnwrap(jsonObject(status.stdout), status.stdout)
        XCTAssertEqual(document["source"] as? String, WebTests.clip)
        XCTAssertEqual(document["camera"] as? String, "ok")

        // The clip turns right at 4.6 s: the page hears it as the replay prints it, and the head's pose.
        try stream.waitForStdout(#""type":"look_start","direction":"right""#, timeout: 60)
        try stream.waitForStdout("event: pose\ndata: {\"time\":")
        XCTAssertEqual(replay.finish(timeout: 120), 0, replay.stderr)
        XCTAssertTrue(replay.stdout.contains(#""type":"look_start","direction":"right""#), replay.stdout)
        // The stream ends with the replay (curl is not left waiting); the server closes it as `nodwire run`
        // does at shutdown, mid-response to curl (18).
        XCTAssertTrue([0, 18].contains(stream.finish(timeout: 15)), "the page's stream ends with the replay")
    }

    func testWithoutRealtimeItSaysSoOnceAndServesNothing() throws {
        let replay = try RunningNodwire(["replay", WebTests.clip, "--config", try config("fast", port: TestBroker.freePort())])
        XCTAssertEqual(replay.finish(timeout: 120), 0, replay.stderr)
        XCTAssertEqual(replay.stderr.components(separatedBy: "serves the setup page only with --realtime").count, 2, replay.stderr)
        XCTAssertFalse(replay.stderr.contains("web: serving"), replay.stderr)
        XCTAssertTrue(replay.stdout.contains(#""type":"look_start","direction":"right""#), "the replay itself runs as ever")
    }
}
