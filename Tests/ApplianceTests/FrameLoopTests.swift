@testable import Appliance
import Foundation
import Gestures
import Pipeline
import XCTest

/// The frame loop of `nodwire run` with a real recording and the real vision core, its source scripted to
/// go away and come back, its outputs on the dry-run driver: what readers and lines see when the camera is
/// lost, when the battery runs low and out, and that the governor holds the configured rate.
final class FrameLoopTests: XCTestCase {
    static let clip = ReplayTests.root + "/.build-fixtures/clm_look.y4m"

    /// Frames of a recording as fast as they are asked for; `away` frames are reported as an outage.
    final class ScriptedSource: LiveFrameSource, @unchecked Sendable {
        let name = "scripted camera"
        let details = "a recording"
        var counters = LiveSourceCounters()
        var reader: Y4MReader
        let away: Range<Int>
        var suspended = 0
        var onFrame: (Int) -> Void = { _ in }
        var wantsEveryFrame = false

        init(away: Range<Int> = 0..<0) throws {
            reader = try Y4MReader(path: FrameLoopTests.clip)
            self.away = away
        }

        func open() {}
        func nextNewest(into frame: inout LumaFrame) throws(RunError) -> SourceStep {
            do { guard try reader.next(into: &frame) else { return .ended } } catch { throw .source("\(error)", exitCode: 65) }
            onFrame(frame.index)
            if away.contains(frame.index) { return .unavailable("camera 0 was disconnected while in use") }
            counters.delivered += 1
            return .frame
        }
        func suspend() { suspended += 1 }
        func interrupt() {}
        func close() {}
    }

    final class Collector: EventSink, @unchecked Sendable {
        var lines: [[String: Any]] = []
        func deliver(line: String) {
            lines.append(try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])
        }
        func index(of type: String, reason: String? = nil) -> Int? {
            lines.firstIndex { $0["type"] as? String == type && (reason == nil || $0["reason"] as? String == reason) }
        }
    }

    private func processor() throws -> FaceProcessor {
        var vision = VisionSettings()
        vision.modelPath = ReplayTests.model
        return try FaceProcessor(settings: vision)
    }

    /// Every frame of a 25 fps clip is processed, whatever the machine's load (the budget is not under test here).
    private func roomyBudget() -> BudgetSettings {
        var b = BudgetSettings()
        b.activeRate = 25
        b.cpuPercent = 400
        return b
    }

    /// Outputs from `config` on the dry-run driver, on the events' own timestamps.
    private func outputs(_ config: String, log: @escaping (String) -> Void) throws -> (OutputRunner, DryRunDriver) {
        let settings = try ConfigLoader.parse(config, file: "outputs.toml")
        let driver = DryRunDriver(settings.outputs)
        let runner = OutputRunner(planner: OutputPlanner(config: settings.outputs, recalibrateAfterLoss: 1), driver: driver, clock: nil, log: log)
        try runner.start()
        return (runner, driver)
    }

    static let holdRight = """
    [[outputs]]
    name = "right"
    chip = "gpiochip0"
    line = 1
    [[outputs]]
    name = "led"
    chip = "gpiochip0"
    line = 2
    [[bindings]]
    event = "look_start"
    direction = "right"
    output = "right"
    action = "hold"
    [status_led]
    output = "led"
    """

    func testALostCameraClosesTheHoldPutsOutputsSafeAndCalibratesAgainWhenItIsBack() throws {
        // clm_look turns to his right at frames 107-134: the camera goes away at 125, in the middle of the hold.
        let source = try ScriptedSource(away: 125..<200)
        var log: [String] = []
        let (runner, driver) = try outputs(Self.holdRight) { log.append($0) }
        var valuesWhileAway: [[Bool]] = []
        source.onFrame = { i in if (130..<200).contains(i) { valuesWhileAway.append(driver.values) } }
        let sink = Collector()
        let loop = FrameLoop(source: source, processor: try processor(), gestures: GestureSettings(), budget: roomyBudget(),
                             readSensors: false, outputs: runner, sinks: [sink], notifier: try SystemdNotifier(environment: [:]),
                             logger: .init(label: "test"))
        try loop.run()

        let types = sink.lines.map { $0["type"] as! String }
        let lost = try XCTUnwrap(sink.index(of: "camera_lost"), "\(types)")
        XCTAssertEqual(sink.lines[lost]["frame"] as? Int, 125)
        XCTAssertEqual(sink.lines[lost]["reason"] as? String, "camera 0 was disconnected while in use")
        // The hold was on; the stream closes it, then the face, both because of the camera.
        let start = try XCTUnwrap(sink.index(of: "look_start"))
        XCTAssertEqual(sink.lines[start]["direction"] as? String, "right")
        XCTAssertLessThan(start, lost)
        XCTAssertEqual(sink.lines[lost + 1]["type"] as? String, "look_stop")
        XCTAssertEqual(sink.lines[lost + 1]["reason"] as? String, "camera_lost")
        XCTAssertEqual(sink.lines[lost + 2]["type"] as? String, "face_lost")
        XCTAssertEqual(sink.lines[lost + 2]["reason"] as? String, "camera_lost")
        // Nothing else while it is away; then it is back, the face is found and the resting pose learnt again.
        let found = try XCTUnwrap(sink.index(of: "camera_found"))
        XCTAssertEqual(found, lost + 3)
        XCTAssertEqual(sink.lines[found]["frame"] as? Int, 200)
        XCTAssertEqual(sink.lines[found + 1]["type"] as? String, "face_found")
        XCTAssertTrue(sink.lines[(found + 1)...].contains { $0["type"] as? String == "calibrated" })
        // The switch line safe (off) while the camera was away; the status LED shows the fault.
        XCTAssertFalse(valuesWhileAway.isEmpty)
        XCTAssertTrue(valuesWhileAway.allSatisfy { $0[0] == false }, "the hold on \"right\" ended at once")
        // On the events' clock (this runner has no other): the hold ends with the look_stop at frame 125
        // (5 s), the status LED shows the fault from then, and searching again once frames are back.
        let text = log.joined(separator: "\n")
        let stop = try XCTUnwrap(log.firstIndex(of: #"{"time":5,"type":"output","output":"right","value":0,"cause":"look_stop right"}"#), text)
        let fault = try XCTUnwrap(log.firstIndex { $0.hasPrefix(#"{"time":5,"type":"output","output":"led","#) && $0.hasSuffix(#""cause":"status fault"}"#) }, text)
        XCTAssertGreaterThan(fault, stop)
        XCTAssertTrue(log[(fault + 1)...].contains { $0.contains(#""cause":"status searching""#) }, text)
        // And at the end of the run everything is back to safe.
        XCTAssertEqual(driver.values, [false, false])
        XCTAssertEqual(sink.lines.last?["reason"] as? String, "stopping")
        XCTAssertEqual(loop.current.frames, 420 - 75)
    }

    func testTheGovernorProcessesTheActiveRateAndCountsTheRest() throws {
        let source = try ScriptedSource()
        var budget = BudgetSettings()
        budget.activeRate = 10   // of a 25 fps clip
        budget.cpuPercent = 400
        let loop = FrameLoop(source: source, processor: try processor(), gestures: GestureSettings(), budget: budget,
                             readSensors: false, outputs: nil, sinks: [Collector()], notifier: try SystemdNotifier(environment: [:]),
                             logger: .init(label: "test"))
        try loop.run()
        let done = loop.current
        XCTAssertEqual(done.frames + done.budgetSkipped, 420)
        XCTAssertEqual(Double(done.frames), 420 * 10 / 25, accuracy: 2, "10 of every 25 frames")
        XCTAssertEqual(done.governor?.targetRate, 10)
    }

    func testASourceThatWantsEveryFrameIsNotThinnedByRateOrBudget() throws {
        let source = try ScriptedSource()
        source.wantsEveryFrame = true
        var budget = BudgetSettings()
        budget.activeRate = 5   // of a 25 fps clip
        budget.cpuPercent = 1
        let loop = FrameLoop(source: source, processor: try processor(), gestures: GestureSettings(), budget: budget,
                             readSensors: false, outputs: nil, sinks: [Collector()], notifier: try SystemdNotifier(environment: [:]),
                             logger: .init(label: "test"))
        try loop.run()
        XCTAssertEqual(loop.current.frames, 420)
        XCTAssertEqual(loop.current.budgetSkipped, 0)
    }

    func testACriticalBatteryPausesTheCameraAndALowOneShowsOnTheStatusLED() throws {
        // A battery as the kernel lists it, discharging; the test changes its charge while the loop runs.
        let root = NSTemporaryDirectory() + "supplies-\(getpid())-\(UUID().uuidString)"
        let bat = root + "/BAT0"
        try FileManager.default.createDirectory(atPath: bat, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        @Sendable func battery(_ percent: Int) {
            for (k, v) in [("type", "Battery"), ("status", "Discharging"), ("capacity", "\(percent)"), ("present", "1")] {
                try! "\(v)\n".write(toFile: "\(bat)/\(k)", atomically: true, encoding: .utf8)
            }
        }
        battery(15)   // low (below 20 %)
        var budget = roomyBudget()
        budget.battery.supplyRoot = root
        budget.sensorInterval = 0.5
        budget.thermal.zoneRoot = root + "/no-thermal"
        let source = try ScriptedSource()
        // Frame 100 (4 s in): the charge drops to critical; the loop pauses and reads again once a second,
        // so the test lifts it back to 50 % after a while.
        var lowBatteryShown: [Int: Bool] = [:]
        var runner: OutputRunner?
        source.onFrame = { i in
            if i == 90 || i == 419 { lowBatteryShown[i] = runner?.lowBattery }
            if i == 100 {
                battery(5)
                DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { battery(50) }
            }
        }
        runner = try outputs(Self.holdRight) { _ in }.0
        let sink = Collector()
        let loop = FrameLoop(source: source, processor: try processor(), gestures: GestureSettings(), budget: budget,
                             readSensors: true, outputs: runner, sinks: [sink], notifier: try SystemdNotifier(environment: [:]),
                             logger: .init(label: "test"))
        try loop.run()

        XCTAssertEqual(lowBatteryShown[90], true, "15 % is below the low level (20 %)")
        XCTAssertEqual(lowBatteryShown[419], false, "50 % is above low + hysteresis")
        let paused = try XCTUnwrap(sink.index(of: "paused"), "\(sink.lines.map { $0["type"]! })")
        XCTAssertEqual(sink.lines[paused]["reason"] as? String, "battery critical")
        let pausedAt = try XCTUnwrap(sink.lines[paused]["frame"] as? Int)
        XCTAssertTrue((100...113).contains(pausedAt), "paused within a sensor interval (0.5 s) of the drop: \(pausedAt)")
        XCTAssertGreaterThanOrEqual(source.suspended, 1, "the camera was switched off")
        let resumed = try XCTUnwrap(sink.index(of: "resumed"))
        XCTAssertGreaterThan(resumed, paused)
        // The face was present when it paused: the stream says it is lost because of the pause.
        XCTAssertTrue(sink.lines[paused...resumed].contains { $0["type"] as? String == "face_lost" && $0["reason"] as? String == "paused" })
    }

    // MARK: the camera source

    /// A camera that delivers `frames` pictures (numbered from 0, 30 fps, as a freshly opened CameraCapture
    /// does) and then reports it was unplugged.
    final class FlakyCamera: LumaCamera {
        let frames: Int
        var given = 0
        init(frames: Int) { self.frames = frames }
        var counters: CameraCounters { CameraCounters(captured: given + 1, delivered: given, dropped: 1) }
        func next(into frame: inout LumaFrame, timeout: Double) throws(CameraError) {
            guard given < frames else { throw .disconnected(camera: "0: flaky") }
            frame.index = given
            frame.time = Double(given) / 30
            given += 1
        }
    }

    func testTheCameraSourceReopensWithBackoffAndKeepsCounting() throws {
        // Opens: a camera good for 3 frames, then two failures (not there yet), then a good one.
        var script: [Result<FlakyCamera, CameraError>] = [.success(FlakyCamera(frames: 3)), .failure(.noCameras),
                                                          .failure(.noCameras), .success(FlakyCamera(frames: 100))]
        var opens = 0
        let source = CameraSource<FlakyCamera>(name: "camera 0", schedule: BackoffSchedule(first: 0.05, factor: 2, maximum: 0.1),
                                               describe: { _ in "flaky" }) { () throws(CameraError) in
            opens += 1
            return try script.removeFirst().get()
        }
        try source.open()
        var frame = LumaFrame(width: 2, height: 2)
        var steps: [SourceStep] = []
        var frames: [(Int, Double)] = []
        let start = MonotonicClock.now()
        while frames.count < 6 {
            let step = try source.nextNewest(into: &frame)
            steps.append(step)
            if step == .frame { frames.append((frame.index, frame.time)) }
            XCTAssertLessThan(steps.count, 20, "\(steps)")
            if steps.count >= 20 { break }
        }
        let waited = MonotonicClock.now() - start
        XCTAssertEqual(opens, 4)
        XCTAssertEqual(frames.map(\.0), [0, 1, 2, 3, 4, 5], "numbers go on after the restart")
        XCTAssertEqual(frames[3].1 - frames[2].1, waited, accuracy: 0.05, "the gap is as long as the outage (frames came at once)")
        XCTAssertTrue(zip(frames, frames.dropFirst()).allSatisfy { $0.1 < $1.1 })
        let outages = steps.compactMap { if case let .unavailable(why) = $0 { return why } else { return nil } }
        XCTAssertEqual(outages.count, 3, "the unplug and the two failed tries: \(steps)")
        XCTAssertTrue(outages[0].contains("was disconnected while in use"), outages[0])
        XCTAssertTrue(outages[1].contains("libcamera sees no cameras") && outages[1].contains("; trying again in 0.1 s (try 3)"), outages[1])
        // 0.05 + 0.1 + 0.1 s of backoff at least.
        XCTAssertGreaterThanOrEqual(waited, 0.25)
        XCTAssertEqual(source.counters.restarts, 1)
        XCTAssertEqual(source.counters.delivered, 6)
        XCTAssertEqual(source.counters.skipped, 2, "each camera's drops add up")
    }

    func testACameraThatCannotBeOpenedAtStartIsRefusedWithItsExitCode() {
        let source = CameraSource<FlakyCamera>(name: "camera 0", describe: { _ in "" }) { () throws(CameraError) in
            throw .busy(camera: "0: cam", holders: ["/dev/media0 (VIMC MDEV) is held by 'cam' (pid 7)"])
        }
        XCTAssertThrowsError(try source.open()) {
            XCTAssertEqual(($0 as? RunError)?.exitCode, 75)
            XCTAssertTrue("\($0)".contains("held by 'cam' (pid 7)"), "\($0)")
        }
    }
}
