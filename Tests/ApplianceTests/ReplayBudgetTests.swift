@testable import Appliance
import Foundation
import Gestures
import Pipeline
import XCTest

/// `nodwire replay --budget`: the governed loop on real recordings. Without --realtime the CPU is measured per
/// second of the recording, as real time would see it, so these run at full speed.
final class ReplayBudgetTests: XCTestCase {
    private func replay(_ clip: String, budget: BudgetSettings) throws -> (events: [GestureEvent], summary: Replay.Summary) {
        try ReplayTests.replay("\(ReplayTests.root)/.build-fixtures/\(clip)", budget: budget)
    }

    /// With room in the budget a 25 fps clip is processed at the active 15 fps, and the looks are still seen.
    func testActiveRateOnA25fpsClipStillSeesTheLooks() throws {
        var b = BudgetSettings()
        b.cpuPercent = 400
        b.activeRate = 15
        let (events, summary) = try replay("clm_look.y4m", budget: b)
        let loop = try XCTUnwrap(summary.loop)
        XCTAssertEqual(summary.frames, 420)
        XCTAssertEqual(loop.stats.captured, 420)
        XCTAssertEqual(Double(loop.stats.processed), 420 * 15 / 25, accuracy: 2)
        XCTAssertEqual(loop.stats.processed + loop.stats.skipped, 420)
        for d in Direction.allCases {
            XCTAssertTrue(events.contains { $0.kind == .lookStart && $0.direction == d }, "a look_start \(d) at 15 fps: \(events)")
        }
        XCTAssertTrue(summary.json.contains("\"budget\":{\"cpu_percent_budget\":400"), summary.json)
    }

    /// A budget far below what 15 fps costs makes the governor skip more, down to its minimum rate, and say so.
    func testATinyBudgetLowersTheRateToTheMinimum() throws {
        var b = BudgetSettings()
        b.cpuPercent = 0.1       // below what the config allows, to be far below any frame's cost
        b.minimumRate = 5
        b.activeRate = 15
        let loop = try XCTUnwrap(try replay("clm_look.y4m", budget: b).summary.loop)
        XCTAssertLessThan(loop.stats.processed, 420 * 15 / 25 - 50, "fewer than at the full active rate")
        XCTAssertEqual(loop.status.targetRate, 5)
        XCTAssertTrue(loop.status.overBudget, "and says the budget cannot be met")
    }

    /// In real time the frames come at the clip's rate and the governed loop processes the active 15 of 25 a
    /// second; a 3 s cut of clm_look keeps the test short.
    func testRealtimeReplayIsGoverned() throws {
        var reader = try Y4MReader(path: "\(ReplayTests.root)/.build-fixtures/clm_look.y4m")
        let cut = NSTemporaryDirectory() + "nodwire-cut-\(getpid()).y4m"
        defer { try? FileManager.default.removeItem(atPath: cut) }
        var writer = try Y4MWriter(path: cut, width: reader.width, height: reader.height, frameRate: reader.frameRate)
        var frame = reader.makeFrame()
        for _ in 0..<75 { guard try reader.next(into: &frame) else { break }; try writer.write(frame) }
        writer.close()
        var s = ReplayTests.withModel()
        s.budget.cpuPercent = 400
        s.budget.activeRate = 15
        let summary = try Replay(file: cut, settings: s, processor: try FaceProcessor(settings: s.vision), budget: s.budget)
            .run(realtime: true) { _ in }
        let stats = try XCTUnwrap(summary.loop).stats
        XCTAssertGreaterThanOrEqual(summary.wallSeconds, 74.0 / 25)
        XCTAssertEqual(stats.captured, 75)
        XCTAssertEqual(stats.processed + stats.skipped + stats.late, 75)
        // 15 fps for 3 s; a busy machine may wake the loop late and lose a few frames to newer ones.
        XCTAssertTrue((36...46).contains(stats.processed), "processed \(stats.processed), late \(stats.late)")
        XCTAssertGreaterThan(stats.skipped, 20)
    }

    func testBadBudgetOptionIsRefused() throws {
        let exe = ReplayTests.nodwire
        guard FileManager.default.isExecutableFile(atPath: exe) else { return XCTFail("\(exe) not built: swift build --build-tests builds it") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["replay", ReplayTests.root + "/.build-fixtures/clm_look.y4m", "--budget", "0"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 64)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("--budget 0.0 is not allowed; allowed: a number from 1 to 400"), text)
    }
}
