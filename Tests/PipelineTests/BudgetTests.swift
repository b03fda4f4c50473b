import Foundation
@testable import Pipeline
import XCTest

/// The governed loop on a simulated clock: frames arrive at a camera's rate, each processed frame costs a set
/// amount of CPU, and the process CPU clock is fake. Sensors are temporary folders laid out like sysfs.
final class BudgetTests: XCTestCase {
    /// Process CPU seconds of the simulated process.
    final class FakeCPU: @unchecked Sendable { var seconds = 0.0 }

    struct Simulation {
        var loop: GovernedLoop
        let cpu: FakeCPU
        var time = 0.0
        var notices: [BudgetNotice] = []
        /// Process CPU % over the last two simulated seconds (a governor window), sampled every second.
        var perSecond: [Double] = []
        /// Frames offered.
        var offered = 0
        private var cpuAtSecond: [Double] = [0]

        init(_ settings: BudgetSettings, readSensors: Bool = false) {
            let cpu = FakeCPU()
            self.cpu = cpu
            loop = GovernedLoop(settings: settings, startTime: 0, processCPU: { cpu.seconds }, readSensors: readSensors)
        }

        /// Runs `seconds` of camera frames; each processed frame costs `frameCost` s of CPU, each offered one `overhead`.
        mutating func run(_ seconds: Double, cameraRate: Double = 30, frameCost: Double, overhead: Double = 0, face: Bool = true) {
            let end = time + seconds
            while time < end - 1e-9 {
                offered += 1
                cpu.seconds += overhead
                if loop.offer(frameAt: time) == .process {
                    cpu.seconds += frameCost
                    loop.processed(frameAt: time, cpuSeconds: frameCost, faceSeen: face)
                }
                notices += loop.takeNotices()
                time += 1 / cameraRate
                if time >= Double(cpuAtSecond.count) - 1e-9 {
                    cpuAtSecond.append(cpu.seconds)
                    if cpuAtSecond.count >= 3 { perSecond.append((cpuAtSecond.last! - cpuAtSecond[cpuAtSecond.count - 3]) / 2 * 100) }
                }
            }
        }

        /// Seconds until the per-second CPU use entered ±10 % of `budget` and stayed there.
        func convergenceTime(budget: Double) -> Int? {
            guard let last = perSecond.lastIndex(where: { abs($0 - budget) > budget * 0.1 }) else { return 0 }
            return last + 1 < perSecond.count ? last + 1 : nil
        }
    }

    /// An active rate of 15, half the simulated camera's 30 fps, so the pacing shows (the default is every frame).
    func settings(budget: Double) -> BudgetSettings {
        var s = BudgetSettings()
        s.cpuPercent = budget
        s.activeRate = 15
        return s
    }

    // MARK: governor

    /// 20 ms a frame at 15 fps is 30 % of a core, plus 0.5 ms for each of 30 frames a second (1.5 %) whatever
    /// the rate; with a 20 % budget the rate settles where 1.5 + 2 × rate = 0.95 × 20.
    func testConvergesIntoTheBudget() throws {
        var sim = Simulation(settings(budget: 20))
        sim.run(20, frameCost: 0.020, overhead: 0.0005)
        let converged = try XCTUnwrap(sim.convergenceTime(budget: 20), "per-second CPU: \(sim.perSecond)")
        XCTAssertLessThanOrEqual(converged, 8, "\(sim.perSecond)")
        let tail = sim.perSecond.suffix(8)
        XCTAssertLessThanOrEqual(tail.max()!, 20, "\(tail)")
        XCTAssertGreaterThanOrEqual(tail.min()!, 18, "\(tail)")
        let status = sim.loop.status
        XCTAssertEqual(status.targetRate, (20 * 0.95 - 1.5) / 2, accuracy: 0.5, "the fixed 1.5 % is paid first")
        XCTAssertFalse(status.overBudget)
        XCTAssertEqual(sim.loop.stats.processedRate.rate(at: sim.time), status.targetRate, accuracy: 1.1)
    }

    func testRaisesTheRateWhenThereIsRoom() {
        var sim = Simulation(settings(budget: 20))
        sim.run(10, frameCost: 0.040)
        XCTAssertLessThan(sim.loop.status.targetRate, 6)
        sim.run(8, frameCost: 0.004)    // 15 fps × 4 ms = 6 %: room for the full rate
        XCTAssertEqual(sim.loop.status.targetRate, 15)
        XCTAssertEqual(sim.loop.stats.processedRate.rate(at: sim.time), 15, accuracy: 1.1)
    }

    /// 100 ms a frame at the minimum 4 fps is 40 %: a 20 % budget cannot be met, which is reported, and
    /// reported as met again once frames get cheaper.
    func testUnmeetableBudgetIsReported() {
        var sim = Simulation(settings(budget: 20))
        sim.run(10, frameCost: 0.100)
        XCTAssertTrue(sim.loop.status.overBudget)
        XCTAssertEqual(sim.loop.status.targetRate, 4)
        XCTAssertEqual(sim.notices.filter { if case .budget(met: false, _, _) = $0 { return true } else { return false } }.count, 1, "\(sim.notices)")
        XCTAssertTrue(sim.notices.contains { "\($0)".contains("cannot be met") })
        sim.run(6, frameCost: 0.020)
        XCTAssertFalse(sim.loop.status.overBudget)
        XCTAssertTrue(sim.notices.contains { if case .budget(met: true, _, _) = $0 { return true } else { return false } })
    }

    func testIdleAfterNoFaceThenActiveWhenOneAppears() throws {
        var s = settings(budget: 50)
        s.idleAfter = 5
        var sim = Simulation(s)
        sim.run(4.9, frameCost: 0.002, face: false)
        XCTAssertEqual(sim.loop.status.mode, .active, "not idle before idle_after")
        sim.run(5, frameCost: 0.002, face: false)
        XCTAssertEqual(sim.loop.status.mode, .idle)
        XCTAssertEqual(sim.loop.status.targetRate, 2)
        XCTAssertEqual(sim.loop.stats.processedRate.rate(at: sim.time), 2, accuracy: 0.5)
        XCTAssertTrue(sim.notices.contains(.mode(.idle, targetRate: 2)), "\(sim.notices)")
        // The next processed frame shows a face: active at once, at the full rate.
        sim.run(0.6, frameCost: 0.002, face: true)
        XCTAssertEqual(sim.loop.status.mode, .active)
        XCTAssertEqual(sim.loop.status.targetRate, 15)
        sim.run(2, frameCost: 0.002, face: true)
        XCTAssertEqual(sim.loop.stats.processedRate.rate(at: sim.time), 15, accuracy: 1.1)
    }

    // MARK: pacing and measuring

    func testPacerHoldsTheRateNewestFrameWins() {
        var pacer = FramePacer()
        var processed: [Double] = []
        for i in 0..<250 {   // 10 s of a 25 fps camera at a 15 fps target
            let t = Double(i) / 25
            if pacer.shouldProcess(at: t, rate: 15) { processed.append(t) }
        }
        XCTAssertEqual(Double(processed.count), 150, accuracy: 1, "15 fps, not every second frame (12.5 fps)")
        let gaps = zip(processed.dropFirst(), processed).map { $0 - $1 }
        XCTAssertTrue(gaps.allSatisfy { $0 >= 0.039 && $0 <= 0.081 }, "\(gaps)")
        XCTAssertFalse(pacer.shouldProcess(at: 10.04, rate: 0), "rate 0 processes nothing")
        // A faster target takes effect from the last processed frame, not after the old period.
        var p2 = FramePacer()
        XCTAssertTrue(p2.shouldProcess(at: 0, rate: 0.5))
        XCTAssertFalse(p2.shouldProcess(at: 0.04, rate: 0.5))
        XCTAssertTrue(p2.shouldProcess(at: 0.08, rate: 15))
        // After a stall there is no burst of catching up.
        XCTAssertTrue(p2.shouldProcess(at: 5, rate: 15))
        XCTAssertFalse(p2.shouldProcess(at: 5.04, rate: 15))
    }

    func testMetersCountRatesAndCPU() {
        var meter = FrameRateMeter(span: 1)
        for i in 0..<50 { meter.add(Double(i) * 0.1) }            // 10 fps for 5 s
        for i in 0..<20 { meter.add(5 + Double(i) * 0.05) }       // then 20 fps for 1 s
        XCTAssertEqual(meter.rate(at: 5.95), 20, accuracy: 0.01)
        XCTAssertEqual(meter.averageRate, 69 / 5.95, accuracy: 0.01)
        XCTAssertEqual(meter.rate(at: 8), 0, "nothing in the last second")

        var cumulative = CPUUsageMeter(window: 2)
        var used = 0.0
        for i in 0...40 {
            cumulative.add(time: Double(i) * 0.1, cpuSeconds: used)
            used += i < 20 ? 0.05 : 0.01        // 50 % for 2 s, then 10 %
        }
        XCTAssertEqual(cumulative.percent!, 10, accuracy: 0.01)
        XCTAssertEqual(cumulative.averagePercent!, 30, accuracy: 0.01)
        XCTAssertNil(CPUUsageMeter(window: 2).percent)
    }

    func testStatsAddUp() {
        var sim = Simulation(settings(budget: 20))
        sim.run(6, frameCost: 0.030)
        sim.loop.droppedLate()
        let s = sim.loop.stats
        XCTAssertEqual(s.captured, sim.offered + 1)
        XCTAssertEqual(s.processed + s.dropped, s.captured)
        XCTAssertEqual(s.late, 1)
        XCTAssertEqual(s.frameCost.median!, 30, accuracy: 1e-9)
        XCTAssertEqual(s.cpu.averagePercent!, Double(s.processed) * 0.030 / sim.time * 100, accuracy: 1.5)
    }

    func testRecentCostsKeepAFixedAmount() {
        var costs = RecentCosts(capacity: 4)
        XCTAssertNil(costs.median)
        for v in [100.0, 1, 2, 3, 4, 5] { costs.add(v) }
        XCTAssertEqual(costs.count, 6)
        XCTAssertEqual(costs.maximum, 5, "the 100 has rolled out of the last four")
        XCTAssertEqual(costs.median, 3)
        XCTAssertEqual(costs.mean!, 115 / 6, accuracy: 1e-9, "the mean is of all")
    }

    func testProcessCPUClockCountsWork() {
        let start = ProcessCPUClock.now()
        var x = 0.0
        for i in 0..<3_000_000 { x += sqrt(Double(i)) }
        XCTAssertGreaterThan(x, 0)
        XCTAssertGreaterThan(ProcessCPUClock.now(), start)
    }

    // MARK: battery and power model

    /// A temporary folder laid out like /sys/class/power_supply or /sys/class/thermal.
    final class FakeSysfs {
        let root: String
        init() throws {
            root = NSTemporaryDirectory() + "nodwire-sysfs-\(getpid())-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        }
        func write(_ path: String, _ text: String) {
            let full = "\(root)/\(path)"
            try! FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try! (text + "\n").write(toFile: full, atomically: true, encoding: .utf8)
        }
        func remove(_ path: String) { try? FileManager.default.removeItem(atPath: "\(root)/\(path)") }
        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    func testRuntimeTargetBecomesACPUCap() throws {
        // Pi 4: 10 Wh over 2 h allows 5 W; minus 3.06 W idle and 1.25 W camera leaves 0.69 W = 0.69 / 0.77 of a core.
        XCTAssertEqual(PowerModel.pi4.cpuPercent(allowedWatts: try XCTUnwrap(PowerModel.allowedWatts(capacityWh: 10, runtimeHours: 2))),
                       0.69 / 0.77 * 100, accuracy: 1e-9)
        XCTAssertEqual(PowerModel.zero2W.cpuPercent(allowedWatts: 2), 30, accuracy: 1e-9)
        XCTAssertEqual(PowerModel.pi5.watts(cpuPercent: 100), 2.7 + 1.25 + 1.4, accuracy: 1e-9)
        XCTAssertNil(PowerModel.allowedWatts(capacityWh: 10, runtimeHours: 0))

        let sysfs = try FakeSysfs()
        sysfs.write("BAT0/type", "Battery")
        sysfs.write("BAT0/capacity", "80")
        sysfs.write("BAT0/status", "Discharging")
        sysfs.write("BAT0/energy_full", "10000000")          // µWh: 10 Wh
        var s = settings(budget: 50)
        s.battery.supplyRoot = sysfs.root
        s.battery.runtimeHours = 5                           // 2 W on a Zero 2 W: 30 % of a core
        s.power.board = .zero2w
        var governor = BudgetGovernor(settings: s, startTime: 0)
        governor.observe(supply: PowerSupplyReader(root: sysfs.root).read())
        XCTAssertEqual(try XCTUnwrap(governor.status.runtimeCapPercent), 30, accuracy: 1e-9)
        XCTAssertEqual(governor.status.budgetPercent, 30, accuracy: 1e-9)

        // charge_full × voltage_min_design when energy_full is absent: 3 Ah × 3.7 V = 11.1 Wh over 5 h = 2.22 W.
        sysfs.remove("BAT0/energy_full")
        sysfs.write("BAT0/charge_full", "3000000")
        sysfs.write("BAT0/voltage_min_design", "3700000")
        governor.observe(supply: PowerSupplyReader(root: sysfs.root).read())
        XCTAssertEqual(try XCTUnwrap(governor.status.runtimeCapPercent), (2.22 - 0.6 - 1.25) / 0.5 * 100, accuracy: 1e-6)
        // Over 10 h only 1.11 W is allowed, less than idle plus camera: nothing is left for the CPU.
        var long = s
        long.battery.runtimeHours = 10
        var g10 = BudgetGovernor(settings: long, startTime: 0)
        g10.observe(supply: PowerSupplyReader(root: sysfs.root).read())
        XCTAssertEqual(g10.status.runtimeCapPercent, 0)
        XCTAssertEqual(g10.status.budgetPercent, 0)
        // The configured capacity wins over the battery's own figure.
        var s2 = s
        s2.battery.capacityWh = 20                           // 4 W: (4 - 1.85) / 0.5 = 430 %, so the 50 % setting rules
        var g2 = BudgetGovernor(settings: s2, startTime: 0)
        g2.observe(supply: PowerSupplyReader(root: sysfs.root).read())
        XCTAssertEqual(try XCTUnwrap(g2.status.runtimeCapPercent), 430, accuracy: 1e-9)
        XCTAssertEqual(g2.status.budgetPercent, 50)

        // On mains (charging, or an online supply) no runtime cap applies.
        sysfs.write("AC/type", "Mains")
        sysfs.write("AC/online", "1")
        g2.observe(supply: PowerSupplyReader(root: sysfs.root).read())
        XCTAssertNil(g2.status.runtimeCapPercent)
        XCTAssertEqual(g2.status.budgetPercent, 50)

        // A power bank reports nothing: the configured capacity and runtime still cap the CPU.
        let empty = try FakeSysfs()
        var g3 = BudgetGovernor(settings: s2, startTime: 0)
        g3.observe(supply: PowerSupplyReader(root: empty.root).read())
        XCTAssertEqual(try XCTUnwrap(g3.status.runtimeCapPercent), 430, accuracy: 1e-9)
    }

    /// The runtime cap is obeyed by the loop: with 30 % allowed, 30 ms frames settle near 9.5 fps.
    func testLoopObeysTheRuntimeCap() throws {
        let sysfs = try FakeSysfs()
        sysfs.write("BAT0/type", "Battery")
        sysfs.write("BAT0/capacity", "80")
        sysfs.write("BAT0/status", "Discharging")
        sysfs.write("BAT0/energy_full", "10000000")
        var s = settings(budget: 100)
        s.battery.supplyRoot = sysfs.root
        s.thermal.zoneRoot = sysfs.root + "/no-thermal"
        s.battery.runtimeHours = 5
        s.power.board = .zero2w
        var sim = Simulation(s, readSensors: true)
        sim.run(20, frameCost: 0.030)
        XCTAssertEqual(sim.loop.status.budgetPercent, 30, accuracy: 1e-9)
        XCTAssertTrue(sim.notices.contains { if case let .runtimeCap(p?) = $0 { return abs(p - 30) < 1e-9 } else { return false } }, "\(sim.notices)")
        XCTAssertLessThanOrEqual(sim.perSecond.suffix(6).max()!, 33)
        XCTAssertGreaterThanOrEqual(sim.perSecond.suffix(6).min()!, 25)
    }

    func testLowAndCriticalBatteryWithHysteresis() throws {
        let sysfs = try FakeSysfs()
        sysfs.write("battery/type", "Battery")
        sysfs.write("battery/status", "Discharging")
        var s = settings(budget: 50)                          // low 20 %, critical 7 %, hysteresis 3 %, low rate 5 fps
        s.battery.supplyRoot = sysfs.root
        s.thermal.zoneRoot = sysfs.root                       // no zones: no temperature, no limit
        var g = BudgetGovernor(settings: s, startTime: 0)
        func at(_ percent: Int, status: String = "Discharging") -> (Severity, Double) {
            sysfs.write("battery/capacity", String(percent))
            sysfs.write("battery/status", status)
            g.observe(supply: PowerSupplyReader(root: sysfs.root).read())
            g.refresh(at: 1)
            return (g.status.battery, g.status.targetRate)
        }
        XCTAssertEqual(at(50).0, .normal)
        XCTAssertEqual(at(20).0, .reduced)
        XCTAssertEqual(at(20).1, 5)
        XCTAssertEqual(at(7).0, .paused)
        XCTAssertEqual(g.status.mode, .paused)
        XCTAssertEqual(at(7).1, 0)
        XCTAssertEqual(at(9).0, .paused, "within the hysteresis")
        XCTAssertEqual(at(10).0, .reduced)
        XCTAssertEqual(at(22).0, .reduced, "within the hysteresis")
        XCTAssertEqual(at(23).0, .normal)
        XCTAssertEqual(at(23).1, 15)
        XCTAssertEqual(at(5, status: "Charging").0, .normal, "charging: the level does not limit")
        XCTAssertEqual(at(5, status: "Discharging").0, .paused)

        // The loop drops every frame while paused, and says why.
        var sim = Simulation(s, readSensors: true)
        sim.run(2, frameCost: 0.01)
        XCTAssertEqual(sim.loop.stats.processed, 0)
        XCTAssertEqual(sim.loop.stats.skipped, sim.offered)
        XCTAssertTrue(sim.notices.contains(.battery(.paused, percent: 5)), "\(sim.notices)")
        XCTAssertTrue(sim.notices.contains(.mode(.paused, targetRate: 0)))
    }

    func testThermalLevelsWithHysteresis() throws {
        let sysfs = try FakeSysfs()
        sysfs.write("thermal_zone0/temp", "40000")
        sysfs.write("cooling_device0/cur_state", "0")         // not a zone: ignored
        var s = settings(budget: 50)                          // hot 75 °C, critical 82 °C, hysteresis 5 °C, hot rate 5 fps
        s.thermal.zoneRoot = sysfs.root
        var g = BudgetGovernor(settings: s, startTime: 0)
        func at(_ celsius: Double) -> Severity {
            sysfs.write("thermal_zone1/temp", String(Int(celsius * 1000)))
            let (t, problems) = ThermalReader(root: sysfs.root).read()
            XCTAssertEqual(problems, [])
            g.observe(celsius: t)
            g.refresh(at: 1)
            return g.status.thermal
        }
        XCTAssertEqual(at(60), .normal)
        XCTAssertEqual(g.status.celsius, 60, "the hottest zone counts")
        XCTAssertEqual(at(75.5), .reduced)
        XCTAssertEqual(g.status.targetRate, 5)
        XCTAssertEqual(at(82), .paused)
        XCTAssertEqual(g.status.targetRate, 0)
        XCTAssertEqual(at(78), .paused, "within the hysteresis")
        XCTAssertEqual(at(77), .reduced)
        XCTAssertEqual(at(71), .reduced, "within the hysteresis")
        XCTAssertEqual(at(70), .normal)
        XCTAssertEqual(g.status.targetRate, 15)
    }

    /// Missing and garbled files are named once each and otherwise ignored; the loop keeps running.
    func testMissingAndGarbledSysfsFilesAreClearAndNotFatal() throws {
        let missing = PowerSupplyReader(root: "/nonexistent/power_supply").read()
        XCTAssertFalse(missing.hasBattery)
        XCTAssertEqual(missing.problems.map(\.description), ["/nonexistent/power_supply: cannot list the folder"])
        XCTAssertEqual(ThermalReader(root: "/nonexistent/thermal").read().problems.count, 1)

        let sysfs = try FakeSysfs()
        sysfs.write("BAT0/type", "Battery")
        sysfs.write("BAT0/capacity", "lots")
        sysfs.write("BAT0/status", "Dying")
        sysfs.write("AC/type", "Mains")
        sysfs.write("AC/online", "7")
        sysfs.write("thermal_zone0/temp", "hot")
        sysfs.write("thermal_zone1/temp", "55000")
        sysfs.write("thermal_zone2/temp", "-273000")
        let supply = PowerSupplyReader(root: sysfs.root).read()
        XCTAssertNil(supply.capacityPercent)
        XCTAssertEqual(supply.status, .unknown)
        let messages = supply.problems.map(\.description).joined(separator: "\n")
        XCTAssertTrue(messages.contains("\(sysfs.root)/BAT0/capacity: \"lots\" is not a whole number (charge in percent)"), messages)
        XCTAssertTrue(messages.contains("BAT0/status: \"Dying\" is not Charging, Discharging"), messages)
        XCTAssertTrue(messages.contains("AC/online: 7 is outside 0...2"), messages)
        let thermal = ThermalReader(root: sysfs.root).read()
        XCTAssertEqual(thermal.celsius, 55, "the readable zone still counts")
        XCTAssertEqual(thermal.problems.count, 2)
        XCTAssertTrue(thermal.problems.map(\.description).joined().contains("thermal_zone0/temp: \"hot\" is not a whole number"))

        // A battery without capacity and a missing status file: no level limit, no crash.
        sysfs.remove("BAT0/status")
        var s = settings(budget: 50)
        s.battery.supplyRoot = sysfs.root
        s.thermal.zoneRoot = sysfs.root
        s.sensorInterval = 1
        var sim = Simulation(s, readSensors: true)
        sim.run(5, frameCost: 0.002)
        XCTAssertEqual(sim.loop.status.battery, .normal)
        XCTAssertEqual(sim.loop.stats.processedRate.rate(at: sim.time), 15, accuracy: 1.1)
        let problems = sim.notices.compactMap { if case let .sensorProblem(p) = $0 { return p.path } else { return nil } }
        XCTAssertEqual(Set(problems).count, problems.count, "each problem once, though read five times: \(problems)")
        XCTAssertTrue(problems.contains("\(sysfs.root)/BAT0/status"), "\(problems)")
        XCTAssertTrue(sim.notices.contains { "\($0)".hasPrefix("ignoring \(sysfs.root)/thermal_zone0/temp") })
    }

    func testSettingsContradictionsNameTheirKeys() {
        var s = BudgetSettings()
        XCTAssertTrue(s.problems().isEmpty)
        s.minimumRate = s.activeRate + 10
        s.thermal.hotCelsius = 90
        XCTAssertEqual(s.problems().map(\.key), ["budget.minimum_rate", "budget.thermal.hot_celsius"])
    }
}
