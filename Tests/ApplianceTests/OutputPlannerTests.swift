@testable import Appliance
import Gestures
import XCTest

/// The action planner: events and time in, line changes out. No clock is read, so every timing is exact.
final class OutputPlannerTests: XCTestCase {
    /// Outputs a (line 0), b (line 1), led (line 2) plus the given bindings / status LED.
    private func planner(_ bindings: String, status: String = "", extraOutputs: String = "") throws -> OutputPlanner {
        let text = """
        [[outputs]]
        name = "a"
        chip = "gpiochip0"
        line = 0
        [[outputs]]
        name = "b"
        chip = "gpiochip0"
        line = 1
        [[outputs]]
        name = "led"
        chip = "gpiochip0"
        line = 2
        \(extraOutputs)
        \(bindings)
        \(status)
        """
        return OutputPlanner(config: try ConfigLoader.parse(text, file: "t.toml").outputs, recalibrateAfterLoss: 10)
    }

    private func ev(_ kind: GestureKind, _ t: Double, _ d: Direction? = nil) -> GestureEvent {
        GestureEvent(kind, frame: Int(t * 25), time: t, direction: d)
    }

    /// (time, output, value) of changes, times rounded to the microsecond.
    private func edges(_ changes: [LineChange], _ output: Int? = nil) -> [String] {
        changes.filter { output == nil || $0.output == output }
            .map { "\(($0.time * 1e6).rounded() / 1e6) \($0.output)=\($0.value ? 1 : 0)" }
    }

    func testPulseEndsOnTime() throws {
        var p = try planner("[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"\npulse_ms = 200")
        XCTAssertEqual(p.start(), [])
        var out = p.handle(ev(.nod, 1.0))
        XCTAssertEqual(out, [LineChange(time: 1.0, output: 0, value: true, cause: "nod")])
        XCTAssertEqual(p.nextChange(after: 1.0), 1.2)
        XCTAssertEqual(p.advance(to: 1.19), [])
        out = p.advance(to: 5)
        XCTAssertEqual(out, [LineChange(time: 1.2, output: 0, value: false, cause: "pulse end")], "the change carries the time it was due")
        XCTAssertNil(p.nextChange(after: 5))
    }

    func testRetriggerDuringAPulseExtendsItWithoutASecondEdge() throws {
        var p = try planner("[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"\npulse_ms = 200")
        var out = p.handle(ev(.nod, 1.0))
        out += p.handle(ev(.nod, 1.1))
        out += p.advance(to: 2)
        XCTAssertEqual(edges(out), ["1.0 0=1", "1.3 0=0"])
    }

    func testOverlappingBindingsOnOneLineAreORed() throws {
        var p = try planner("""
        [[bindings]]
        event = "nod"
        output = "a"
        action = "pulse"
        pulse_ms = 200
        [[bindings]]
        event = "look_start"
        outputs = ["a", "b"]
        action = "hold"
        """)
        var out = p.handle(ev(.lookStart, 1.0, .right))
        out += p.handle(ev(.nod, 1.05))                 // pulse ends 1.25, inside the hold: no edge
        out += p.handle(ev(.lookStop, 2.0, .right))
        out += p.handle(ev(.nod, 3.0))
        out += p.advance(to: 4)
        XCTAssertEqual(edges(out), ["1.0 0=1", "1.0 1=1", "2.0 0=0", "2.0 1=0", "3.0 0=1", "3.2 0=0"])
    }

    func testSeveralLinesForOneEventAndDirectionFilters() throws {
        var p = try planner("""
        [[bindings]]
        event = "look"
        direction = "left"
        output = "a"
        action = "pulse"
        [[bindings]]
        event = "look"
        outputs = ["b"]
        action = "pulse"
        pulse_ms = 100
        """)
        var out = p.handle(ev(.look, 1.0, .right))
        out += p.handle(ev(.look, 2.0, .left))
        out += p.advance(to: 3)
        XCTAssertEqual(edges(out), ["1.0 1=1", "1.1 1=0", "2.0 0=1", "2.0 1=1", "2.1 1=0", "2.2 0=0"])
    }

    func testHoldEndsAtItsOwnLookStopFaceLostOrMaxHold() throws {
        let binding = "[[bindings]]\nevent = \"look_start\"\noutput = \"a\"\naction = \"hold\"\nmax_hold_ms = 1500"
        var p = try planner(binding)
        var out = p.handle(ev(.lookStart, 1.0, .right))
        out += p.handle(ev(.lookStop, 1.5, .left))     // another direction: not this hold
        out += p.handle(ev(.lookStop, 1.8, .right))
        XCTAssertEqual(edges(out), ["1.0 0=1", "1.8 0=0"])

        p = try planner(binding)
        out = p.handle(ev(.lookStart, 1.0, .up))
        out += p.handle(ev(.faceLost, 1.4))
        XCTAssertEqual(edges(out), ["1.0 0=1", "1.4 0=0"])
        XCTAssertEqual(out.last?.cause, "face_lost")

        p = try planner(binding)
        out = p.handle(ev(.lookStart, 1.0, .down))
        out += p.advance(to: 10)
        XCTAssertEqual(edges(out), ["1.0 0=1", "2.5 0=0"])
        XCTAssertEqual(out.last?.cause, "max hold")
        XCTAssertEqual(p.handle(ev(.lookStop, 11, .down)), [], "its look_stop after max hold changes nothing")
    }

    func testHoldOnFaceFoundLastsUntilFaceLost() throws {
        var p = try planner("[[bindings]]\nevent = \"face_found\"\noutput = \"b\"\naction = \"hold\"\nmax_hold_ms = 60000")
        var out = p.handle(ev(.faceFound, 1))
        out += p.handle(ev(.lookStop, 2, .left))
        out += p.handle(ev(.faceLost, 3))
        XCTAssertEqual(edges(out), ["1.0 1=1", "3.0 1=0"])
    }

    func testRepeatTogglesAtItsRateWhileHeld() throws {
        var p = try planner("""
        [[bindings]]
        event = "look_start"
        direction = "down"
        output = "a"
        action = "repeat"
        rate_hz = 2
        pulse_ms = 200
        """)
        var out = p.handle(ev(.lookStart, 1.0, .down))
        out += p.advance(to: 2.1)
        out += p.handle(ev(.lookStop, 2.1, .down))
        out += p.advance(to: 5)
        XCTAssertEqual(edges(out), ["1.0 0=1", "1.2 0=0", "1.5 0=1", "1.7 0=0", "2.0 0=1", "2.1 0=0"])
        XCTAssertTrue(out.dropFirst().dropLast().allSatisfy { $0.cause == "repeat" })
    }

    func testRepeatStopsAtMaxHold() throws {
        var p = try planner("[[bindings]]\nevent = \"look_start\"\noutput = \"a\"\naction = \"repeat\"\nrate_hz = 4\nmax_hold_ms = 600")
        var out = p.handle(ev(.lookStart, 0, .left))
        out += p.advance(to: 3)
        // 4 Hz, default on time half the period (125 ms): on 0, 0.25, 0.5; max hold ends it at 0.6.
        XCTAssertEqual(edges(out), ["0.0 0=1", "0.125 0=0", "0.25 0=1", "0.375 0=0", "0.5 0=1", "0.6 0=0"])
    }

    func testToggleLatchReleaseAndLatchSurvivesFaceLoss() throws {
        var p = try planner("""
        [[bindings]]
        event = "shake"
        output = "a"
        action = "toggle"
        [[bindings]]
        event = "nod"
        output = "a"
        action = "latch"
        [[bindings]]
        event = "look"
        direction = "up"
        output = "a"
        action = "release"
        """)
        var out = p.handle(ev(.shake, 1))
        out += p.handle(ev(.shake, 2))
        out += p.handle(ev(.nod, 3))
        out += p.handle(ev(.nod, 4))                // already latched: no edge
        out += p.handle(ev(.faceLost, 5))           // a latch is deliberate: it stays
        out += p.handle(ev(.look, 6, .up))
        XCTAssertEqual(edges(out), ["1.0 0=1", "2.0 0=0", "3.0 0=1", "6.0 0=0"])
    }

    func testFaultMakesEverythingSafeAndIgnoresEventsUntilCleared() throws {
        var p = try planner("""
        [[bindings]]
        event = "nod"
        output = "a"
        action = "latch"
        [[bindings]]
        event = "look_start"
        output = "b"
        action = "hold"
        """)
        var out = p.handle(ev(.nod, 1))
        out += p.handle(ev(.lookStart, 1.5, .left))
        out += p.setFault(true, at: 2)
        out += p.handle(ev(.nod, 3))
        out += p.setFault(false, at: 4)
        out += p.handle(ev(.nod, 5))
        XCTAssertEqual(edges(out), ["1.0 0=1", "1.5 1=1", "2.0 0=0", "2.0 1=0", "5.0 0=1"])
        XCTAssertEqual(p.status, .searching)
    }

    func testSafeValueOneInvertsWhatIsWritten() throws {
        var p = try planner("[[bindings]]\nevent = \"nod\"\noutput = \"c\"\naction = \"pulse\"",
                            extraOutputs: "[[outputs]]\nname = \"c\"\nchip = \"gpiochip0\"\nline = 3\nsafe = 1")
        XCTAssertTrue(p.value(of: 3), "starts at its safe value 1")
        var out = p.handle(ev(.nod, 1))
        out += p.advance(to: 2)
        XCTAssertEqual(edges(out), ["1.0 3=0", "1.2 3=1"])
    }

    func testShutdownReturnsEveryLineToSafe() throws {
        var p = try planner("[[bindings]]\nevent = \"nod\"\noutputs = [\"a\", \"b\"]\naction = \"latch\"",
                            status: "[status_led]\noutput = \"led\"")
        var out = p.start()
        out += p.handle(ev(.nod, 1))
        out += p.shutdown(at: 1.5)
        XCTAssertEqual(edges(out.filter { $0.time == 1.5 }), ["1.5 0=0", "1.5 1=0"], "the LED was already off at 1.5 (searching blink)")
        XCTAssertTrue((0..<3).allSatisfy { !p.value(of: $0) })
        XCTAssertNil(p.nextChange(after: 1.5), "nothing blinks after shutdown")
        XCTAssertEqual(p.handle(ev(.nod, 2)), [])
    }

    func testStatusLEDFollowsTheStateWithItsPatterns() throws {
        var p = try planner("[[bindings]]\nevent = \"nod\"\noutput = \"a\"\naction = \"pulse\"", status: """
        [status_led]
        output = "led"
        searching = [100, 900]
        calibrating = [200, 200]
        tracking = "on"
        fault = [50, 50]
        low_battery = [300, 300]
        fired_flash_ms = 150
        """)
        var out = p.start()                              // searching: on at 0, off 0.1, on 1.0, off 1.1
        out += p.advance(to: 1.5)
        XCTAssertEqual(edges(out, 2), ["0.0 2=1", "0.1 2=0", "1.0 2=1", "1.1 2=0"])
        out = p.handle(ev(.faceFound, 2.0))              // calibrating from 2.0: on, off 2.2, on 2.4
        out += p.advance(to: 2.5)
        XCTAssertEqual(edges(out, 2), ["2.0 2=1", "2.2 2=0", "2.4 2=1"])
        XCTAssertEqual(p.status, .calibrating)
        out = p.handle(ev(.calibrated, 2.5))
        out += p.advance(to: 10)
        XCTAssertEqual(edges(out, 2), [], "tracking is steady on; it was already on")
        XCTAssertEqual(p.status, .tracking)
        out = p.handle(ev(.nod, 10))                     // fired: inverted 150 ms
        out += p.advance(to: 11)
        XCTAssertEqual(edges(out, 2), ["10.0 2=0", "10.15 2=1"])
        XCTAssertEqual(out.first { $0.output == 2 }?.cause, "status flash")
        out = p.setLowBattery(true, at: 12)              // low battery beats tracking
        out += p.advance(to: 12.7)
        XCTAssertEqual(edges(out, 2), ["12.3 2=0", "12.6 2=1"])
        out = p.setFault(true, at: 13)                   // fault beats everything
        out += p.advance(to: 13.2)
        XCTAssertEqual(edges(out, 2), ["12.9 2=0", "13.0 2=1", "13.05 2=0", "13.1 2=1", "13.15 2=0", "13.2 2=1"])
        XCTAssertEqual(p.status, .fault)
    }

    func testFaceReturningSoonSkipsCalibrationButNotAfterALongLoss() throws {
        var p = try planner("", status: "[status_led]\noutput = \"led\"")
        _ = p.handle(ev(.faceFound, 1))
        _ = p.handle(ev(.calibrated, 2))
        _ = p.handle(ev(.faceLost, 3))
        XCTAssertEqual(p.status, .searching)
        _ = p.handle(ev(.faceFound, 5))                  // lost 2 s < 10 s: the engine keeps its neutral
        XCTAssertEqual(p.status, .tracking)
        _ = p.handle(ev(.faceLost, 6))
        _ = p.handle(ev(.faceFound, 20))                 // lost 14 s: the engine calibrates again
        XCTAssertEqual(p.status, .calibrating)
    }

    /// Time in small steps or one big step gives the same changes at the same times.
    func testChangesDoNotDependOnHowOftenTimeIsAdvanced() throws {
        let bindings = """
        [[bindings]]
        event = "look_start"
        output = "a"
        action = "repeat"
        rate_hz = 3
        [[bindings]]
        event = "nod"
        output = "b"
        action = "pulse"
        pulse_ms = 330
        """
        let status = "[status_led]\noutput = \"led\""
        var coarse = try planner(bindings, status: status), fine = try planner(bindings, status: status)
        var a = coarse.start(), b = fine.start()
        let events = [ev(.faceFound, 0.3), ev(.calibrated, 0.9), ev(.lookStart, 1.234, .up), ev(.nod, 2.0), ev(.lookStop, 3.3, .up)]
        for e in events { a += coarse.handle(e) }
        a += coarse.advance(to: 6)
        var t = 0.0
        var pending = events[...]
        while t < 6 {
            t += 0.013
            while let e = pending.first, e.time <= t { b += fine.advance(to: e.time); b += fine.handle(e); pending.removeFirst() }
            b += fine.advance(to: t)
        }
        XCTAssertEqual(edges(a), edges(b))
        XCTAssertGreaterThan(a.count, 12)
    }
}

/// The real-time runner: a timer thread writes timed changes; a batch that fell due while the process was
/// kept off the CPU is coalesced to each output's last value (no microsecond presses on the wire).
final class OutputRunnerTests: XCTestCase {
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var _t = 0.0
        private var _lines: [String] = []
        var t: Double { get { lock.withLock { _t } } set { lock.withLock { _t = newValue } } }
        var lines: [String] { lock.withLock { _lines } }
        func append(_ s: String) { lock.withLock { _lines.append(s) } }
    }

    func testLateBatchesAreCoalescedAndTimedChangesAreWrittenByTheTimer() throws {
        let config = try ConfigLoader.parse("""
        [[outputs]]
        name = "a"
        chip = "gpiochip0"
        line = 0
        [[bindings]]
        event = "look_start"
        output = "a"
        action = "repeat"
        rate_hz = 5
        pulse_ms = 100
        """, file: "t.toml").outputs
        let box = Box()
        let driver = DryRunDriver(config)
        let runner = OutputRunner(planner: OutputPlanner(config: config), driver: driver, clock: { box.t }, settle: 0,
                                  log: { box.append($0) })
        try runner.start()
        try runner.handle(GestureEvent(.lookStart, frame: 0, time: 0, direction: .left))
        XCTAssertEqual(driver.values, [true])
        box.t = 0.15                                   // the timer thread writes the 0.1 off on its own
        let deadline = Date().addingTimeInterval(5)
        while driver.values != [false] && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertEqual(driver.values, [false], "pulse end written by the timer thread")
        box.t = 1.05                                   // 0.2 on ... 1.0 on all overdue: one write at most
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(driver.values, [true], "the last due value (on at 1.0) is written")
        _ = runner.shutdown()
        XCTAssertEqual(driver.values, [false], "shutdown: safe")
        let lines = box.lines.filter { $0.contains("\"output\":\"a\"") }
        let written = lines.filter { !$0.contains("\"written\":false") }
        XCTAssertEqual(written.map { $0.contains("\"value\":1") ? 1 : 0 }, [1, 0, 1, 0], "\(written)")
        XCTAssertEqual(lines.filter { $0.contains("\"written\":false") }.count, 8, "0.2 ... 0.9 superseded: \(lines)")
    }
}
