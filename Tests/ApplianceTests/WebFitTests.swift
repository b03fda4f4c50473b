@testable import Appliance
import Foundation
import Pipeline
import XCTest

/// The guided fit on the setup page, over real HTTP against `nodwire run` (see WebTests).
extension WebTests {
    private func json(_ body: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], body)
    }

    /// On a labelled recording the fit runs on the whole clip at once with its labels as the prompts; Save
    /// writes only the fitted settings (old file kept as .bak), the running nodwire reloads them, and the
    /// status then shows the new zones in use. Starting, saving and stopping need the page's own origin.
    func testTheFitOnARecordingIsSavedAndUsed() throws {
        let (run, port) = try serve("fit-clip", extra: "[gestures.zones]\nthreshold_yaw = 12.0  # before the fit\n")
        let origin = "Origin: http://127.0.0.1:\(port)"
        XCTAssertEqual(try json(try http(port, "/api/fit").body)["state"] as? String, "idle")
        XCTAssertEqual(try http(port, "/api/fit/start", post: true, data: "pace=1").code, 403, "a POST from elsewhere")
        XCTAssertEqual(try http(port, "/api/fit/start", headers: [origin]).code, 404, "a GET changes nothing")
        let bad = try http(port, "/api/fit/start", post: true, headers: [origin], data: "pace=9")
        XCTAssertEqual(bad.code, 409)
        XCTAssertTrue(bad.body.contains("pace 9 is not allowed"), bad.body)
        XCTAssertEqual(try http(port, "/api/fit/save", post: true, headers: [origin]).code, 409, "nothing to save yet")

        XCTAssertEqual(try http(port, "/api/fit/start", post: true, headers: [origin], data: "pace=1").code, 200)
        var state: [String: Any] = [:]
        for _ in 0..<120 {
            state = try json(try http(port, "/api/fit").body)
            if state["state"] as? String == "done" { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertEqual(state["state"] as? String, "done", "\(state)")
        let report = try XCTUnwrap(state["report"] as? [String: Any])
        XCTAssertEqual((report["found"] as? [String])?.sorted(), ["down", "left", "right", "up"])
        XCTAssertEqual(report["false_while_talking"] as? Int, 0)
        let changes = try XCTUnwrap(report["changes"] as? [[String: Any]])
        let yaw = try XCTUnwrap(changes.first { $0["key"] as? String == "gestures.zones.threshold_yaw" })
        let proposed = try XCTUnwrap(yaw["new"] as? Double)
        XCTAssertLessThan(proposed, 12, "he turns ~15°: half of that")

        let saved = try http(port, "/api/fit/save", post: true, headers: [origin])
        XCTAssertEqual(saved.code, 200, saved.body)
        let config = temp("fit-clip.toml")
        XCTAssertTrue(FileManager.default.fileExists(atPath: config + ".bak"))
        cleanup.append { try? FileManager.default.removeItem(atPath: config + ".bak") }
        XCTAssertTrue(try String(contentsOfFile: config + ".bak", encoding: .utf8).contains("threshold_yaw = 12.0  # before the fit"))
        XCTAssertEqual(try ConfigLoader.load(file: config).gestures.zones.thresholdYaw, proposed)
        try run.waitForStderr("config reloaded from \(config): changed gestures.zones", timeout: 20)
        var inUse: Double?
        for _ in 0..<20 {
            let zones = try json(try http(port, "/api/status").body)["zones"] as? [String: Any]
            inUse = zones?["threshold_yaw"] as? Double
            if inUse == proposed { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssertEqual(inUse, proposed, "the status shows the saved zones in use")
    }

    /// With a camera (here a clip without labels, played as a camera would give it) the page walks the
    /// person through the prompts as the frames come, then proposes; Stop ends a session and changes nothing.
    func testALiveSessionGivesThePromptsThenAProposal() throws {
        let clip = temp("unlabelled.y4m")
        try? FileManager.default.removeItem(atPath: clip)
        try FileManager.default.copyItem(atPath: WebTests.clip, toPath: clip)
        cleanup.append { try? FileManager.default.removeItem(atPath: clip) }
        let sessions = temp("sessions")
        try? FileManager.default.removeItem(atPath: sessions)
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        cleanup.append { try? FileManager.default.removeItem(atPath: sessions) }
        let (_, port) = try serve("fit-live", extra: "sessions_dir = \"\(sessions)\"\n", clip: clip)
        let origin = "Origin: http://127.0.0.1:\(port)"
        XCTAssertEqual(try json(try http(port, "/api/fit").body)["source"] as? String, "live")

        XCTAssertEqual(try http(port, "/api/fit/start", post: true, headers: [origin], data: "pace=0.25&keep=1").code, 200)
        var state: [String: Any] = [:]
        var prompted: [String] = []
        for _ in 0..<200 {
            state = try json(try http(port, "/api/fit").body)
            if state["state"] as? String != "recording" { break }
            if let step = state["step"] as? String, prompted.last != step { prompted.append(step) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(state["state"] as? String, "done", "\(state)")
        XCTAssertEqual(prompted, ["neutral", "left", "right", "up", "down", "nod", "shake", "talk"], "every prompt in turn")
        XCTAssertNotNil(state["report"] as? [String: Any])
        XCTAssertTrue((state["text"] as? String)?.contains("this session with the proposal: found") == true, "\(state)")

        // Kept as a clip with its prompts as labels: the clip replays, and its timeline has every prompt.
        let kept = try XCTUnwrap(state["kept"] as? String, "\(state)")
        let names = try FileManager.default.contentsOfDirectory(atPath: sessions).sorted()
        XCTAssertEqual(names.count, 2, "\(names)")
        let video = sessions + "/" + (try XCTUnwrap(names.first { $0.hasSuffix(".y4m") }))
        XCTAssertTrue(kept.hasPrefix(video), kept)
        let labels = try ClipLabels.read(path: String(video.dropLast(4)) + ".labels.json")
        XCTAssertEqual(Set(labels.segments.map(\.label)), [.none, .turnNoseToImageRight, .turnNoseToImageLeft, .lookUp, .lookDown, .nod, .shake, .noneTalking])
        var reader = try Y4MReader(path: video)
        var frame = reader.makeFrame(), frames = 0
        while try reader.next(into: &frame) { frames += 1 }
        XCTAssertEqual(frames, labels.segments.last.map { $0.end + 1 }, "one label for every frame kept")
        XCTAssertGreaterThan(frames, 100)

        // A Start over a session under way ends it first: its half-kept clip goes, only the new one's stays,
        // and Stop removes that too (a session stopped half way is not kept).
        XCTAssertEqual(try http(port, "/api/fit/start", post: true, headers: [origin], data: "pace=1&keep=1").code, 200)
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(try http(port, "/api/fit/start", post: true, headers: [origin], data: "pace=1&keep=1").code, 200)
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sessions).filter { $0.hasSuffix(".y4m") }.count, 2,
                       "the finished session's clip and the running one's")
        XCTAssertEqual(try http(port, "/api/fit/cancel", post: true, headers: [origin]).code, 200)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sessions).sorted(), names, "only the finished session is kept")

        // A new session can be stopped; the state goes back to idle and the config is untouched.
        let (_, other) = try serve("fit-nofolder", clip: clip)
        let noFolder = try http(other, "/api/fit/start", post: true, headers: ["Origin: http://127.0.0.1:\(other)"], data: "pace=1&keep=1")
        XCTAssertEqual(noFolder.code, 409)
        XCTAssertTrue(noFolder.body.contains("web.sessions_dir is not set"), noFolder.body)
        let config = temp("fit-live.toml")
        let before = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertEqual(try http(port, "/api/fit/start", post: true, headers: [origin], data: "pace=1").code, 200)
        XCTAssertEqual(try json(try http(port, "/api/fit").body)["state"] as? String, "recording")
        XCTAssertEqual(try http(port, "/api/fit/cancel", post: true, headers: [origin]).code, 200)
        XCTAssertEqual(try json(try http(port, "/api/fit").body)["state"] as? String, "idle")
        XCTAssertEqual(try String(contentsOfFile: config, encoding: .utf8), before)
    }

    /// Tuning by hand: each value checked as the file checks it, then all of them with the rest of the
    /// file; a refusal names the key and why and writes nothing; a good one is saved (old file as .bak),
    /// reloaded and in use. Only gestures.* from the page.
    func testSettingsFromThePageAreCheckedSavedAndUsed() throws {
        let (run, port) = try serve("tune")
        let origin = "Origin: http://127.0.0.1:\(port)"
        let config = temp("tune.toml")
        let before = try String(contentsOfFile: config, encoding: .utf8)
        func post(_ data: String, headers: [String]? = nil) throws -> (code: Int, message: String) {
            let r = try http(port, "/api/settings", post: true, headers: headers ?? [origin], data: data)
            return (r.code, (try json(r.body))["message"] as? String ?? r.body)
        }
        XCTAssertEqual(try post("gestures.zones.threshold_yaw=9", headers: []).code, 403, "not from the page's origin")
        XCTAssertEqual(try http(port, "/api/settings?gestures.zones.threshold_yaw=9").code, 404, "a GET changes nothing")
        var r = try post("gestures.zones.threshold_yaw=99")
        XCTAssertEqual(r.code, 400)
        XCTAssertTrue(r.message.contains("gestures.zones.threshold_yaw = 99") && r.message.contains("allowed: a number from"), r.message)
        r = try post("gestures.zones.threshold_yaw=nine")
        XCTAssertEqual(r.code, 400, r.message)
        r = try post("gestures.zones.nope=1")
        XCTAssertEqual(r.code, 400)
        XCTAssertTrue(r.message.contains("gestures.zones.nope: no such setting"), r.message)
        r = try post("camera.fps=10")
        XCTAssertEqual(r.code, 403)
        XCTAssertTrue(r.message.contains("only gestures.* settings"), r.message)
        r = try post("gestures.zones.idle_yaw=20")
        XCTAssertEqual(r.code, 400, "an idle zone wider than the threshold (12): \(r.message)")
        XCTAssertTrue(r.message.contains("idle_yaw"), r.message)
        XCTAssertEqual(try String(contentsOfFile: config, encoding: .utf8), before, "nothing written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: config + ".bak"))

        r = try post("gestures.zones.threshold_yaw=9&gestures.zones.idle_yaw=3.5")
        XCTAssertEqual(r.code, 200, r.message)
        cleanup.append { try? FileManager.default.removeItem(atPath: config + ".bak") }
        XCTAssertEqual(try String(contentsOfFile: config + ".bak", encoding: .utf8), before)
        let saved = try ConfigLoader.load(file: config).gestures.zones
        XCTAssertEqual([saved.thresholdYaw, saved.idleYaw], [9, 3.5])
        try run.waitForStderr("config reloaded from \(config): changed gestures.zones", timeout: 20)
        var inUse: Double?
        for _ in 0..<20 {
            inUse = (try json(try http(port, "/api/status").body)["zones"] as? [String: Any])?["threshold_yaw"] as? Double
            if inUse == 9 { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        XCTAssertEqual(inUse, 9, "the status shows the new threshold in use")
    }
}
