import Foundation
import Gestures

/// Where planned line changes go: real GPIO lines, or nowhere but the log (dry run).
protocol LineDriver: AnyObject {
    /// Writes a logical value to output `index` (of `OutputsConfig.outputs`).
    func write(_ index: Int, _ value: Bool) throws
    /// Every line to its safe value, kept `settle` seconds, then released. Returns what failed (the rest
    /// are still released).
    func releaseAll(settle: Double) -> [Error]
    /// "gpiochip0 [pinctrl-bcm2711] line 17 ('GPIO17')", or the config's chip:line for a dry run.
    func describe(_ index: Int) -> String
}

/// The configured outputs as requested GPIO lines, each at its safe value from the moment it is requested.
final class GPIOLineDriver: LineDriver {
    let lines: [GPIOOutputLine]

    /// Requests every output's line. Lines requested before a failure are released (at their safe value)
    /// before the error is thrown. Two outputs naming the same physical line (e.g. by offset and by name)
    /// are refused with a config error.
    init(_ config: OutputsConfig) throws {
        var chips: [String: GPIOChip] = [:]
        var lines: [GPIOOutputLine] = []
        do {
            for o in config.outputs {
                let chip = try chips[o.line.chip] ?? GPIOChip.open(o.line.chip)
                chips[o.line.chip] = chip
                let offset = try chip.resolve(o.line.line)
                if let i = lines.firstIndex(where: { $0.chip.path == chip.path && $0.offset == offset }) {
                    throw Failure(message: "outputs \"\(config.outputs[i].name)\" and \"\(o.name)\" are the same line "
                                  + "(\(lines[i].displayName)); give each output its own line", exitCode: ConfigError.exitCode)
                }
                lines.append(try GPIOOutputLine(o.line, on: chip))
            }
        } catch {
            for l in lines { try? l.release() }
            throw error
        }
        self.lines = lines
    }

    func write(_ index: Int, _ value: Bool) throws { try lines[index].set(value) }

    func releaseAll(settle: Double) -> [Error] {
        // Drive every line safe first, then wait once, then let go: one settle for all lines.
        var errors: [Error] = []
        for l in lines where !l.isReleased {
            do { try l.set(l.spec.safeValue) } catch { errors.append(error) }
        }
        if settle > 0 { Thread.sleep(forTimeInterval: settle) }
        for l in lines {
            do { try l.release() } catch { errors.append(error) }
        }
        return errors
    }

    func describe(_ index: Int) -> String { lines[index].displayName }
}

/// A dry run: nothing is opened; the values are only remembered (and logged by the runner).
final class DryRunDriver: LineDriver {
    let config: OutputsConfig
    private(set) var values: [Bool]
    init(_ config: OutputsConfig) {
        self.config = config
        values = config.outputs.map(\.line.safeValue)
    }
    func write(_ index: Int, _ value: Bool) throws { values[index] = value }
    func releaseAll(settle: Double) -> [Error] {
        values = config.outputs.map(\.line.safeValue)
        return []
    }
    func describe(_ index: Int) -> String { "\(config.outputs[index].line.chip) line \(config.outputs[index].line.line)" }
}

/// Drives a `LineDriver` from an `OutputPlanner`, logging each change as a JSON line:
/// `{"time":5.12,"type":"output","output":"switch1","value":1,"cause":"nod pulse"}` (real time adds
/// "late_ms": how long after its due time the write happened, and "written":false on a change that was
/// superseded before it could be written; see `apply`).
/// With a clock (real time) events are handled at the clock's time and a timer thread of its own writes
/// the timed changes (pulse ends, repeats, the status LED) when they are due, whatever the frame loop is
/// busy with. Without one (dry run) time is the events' own timestamps, as fast as the input comes.
/// Thread-safe: every planner step, write and log line happens under one lock.
final class OutputRunner: @unchecked Sendable {
    private var planner: OutputPlanner
    let driver: LineDriver
    /// Seconds in the planner's time base (for replay: seconds since the first frame was due).
    let clock: (@Sendable () -> Double)?
    let log: (String) -> Void
    let settle: Double

    private let condition = NSCondition()
    private var timerRunning = false
    private var stopping = false
    private var timerFailure: Failure?
    private let timerDone = DispatchSemaphore(value: 0)
    /// The logical value last written to each output (they are requested at their safe values).
    private var written: [Bool]
    /// Told each value written, with the output's name (MQTT publishes it); set before `start()`.
    var changed: (@Sendable (String, Bool) -> Void)?

    init(planner: OutputPlanner, driver: LineDriver, clock: (@Sendable () -> Double)?, settle: Double = 0.1,
         log: @escaping (String) -> Void) {
        self.planner = planner
        written = planner.config.outputs.map(\.line.safeValue)
        self.driver = driver
        self.clock = clock
        self.settle = settle
        self.log = log
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    var names: [String] { planner.config.outputs.map(\.name) }
    /// The logical value last written to each output, in the order of `names` (the setup page shows them).
    var values: [Bool] { locked { written } }
    /// When the last running pulse ends (what a clean end of input waits for).
    var pulsesEnd: Double? { locked { planner.pulsesEnd } }

    /// The first changes (the status LED), and with a clock the timer thread. Call after blocking the
    /// stop signals: the thread inherits the mask, so they keep going to `StopSignals`.
    func start() throws {
        try locked { try apply(planner.start()) }
        guard clock != nil else { return }
        timerRunning = true
        Thread.detachNewThread { [self] in timerLoop() }
    }

    /// Writes a line of its own (an event) into the same log, in order with the changes.
    func note(_ text: String) { locked { log(text) } }

    func handle(_ event: GestureEvent) throws {
        try locked {
            try apply(planner.handle(event, at: clock?() ?? event.time))
            condition.signal()   // the next deadline may be sooner now
        }
    }

    /// Dry run: runs the timers up to `t`, then polls for a stop signal. Real time: waits until the clock
    /// reaches `t` (the timer thread writes what falls due meanwhile). Returns the stop signal, or 0.
    /// Throws the timer thread's failure (the outputs are already safe then).
    func wait(until t: Double, stop: StopSignals) throws -> Int32 {
        guard let clock else {
            try locked { try apply(planner.advance(to: t)) }
            return stop.wait(seconds: 0)
        }
        while true {
            if let f = locked({ timerFailure }) { throw f }
            // Poll even when behind time (left <= 0), so a stop signal is never left waiting for the end.
            let left = t - clock()
            let signal = stop.wait(seconds: min(max(left, 0), 0.05))
            if signal != 0 { return signal }
            if left <= 0 { return 0 }
        }
    }

    /// Pulses output number `output` for `ms` (a command); throws what writing the line throws.
    func pulse(_ output: Int, ms: Int, cause: String) throws {
        try locked {
            try apply(planner.pulse(output, ms: ms, at: clock?() ?? planner.now, cause: cause))
            condition.signal()   // the pulse's end is the next deadline
        }
    }

    /// A fault: every line safe at once (the status LED to its fault pattern), errors ignored.
    func fault() { locked { faultLocked() } }

    /// The fault is over (the camera is back): events count again, the status LED leaves its fault pattern.
    func clearFault() throws {
        try locked {
            try apply(planner.setFault(false, at: clock?() ?? planner.now))
            condition.signal()
        }
    }

    /// The status LED shows (or stops showing) the low-battery pattern.
    func setLowBattery(_ on: Bool) throws {
        try locked {
            guard planner.lowBattery != on else { return }
            try apply(planner.setLowBattery(on, at: clock?() ?? planner.now))
            condition.signal()
        }
    }

    /// The status LED shows the low-battery pattern (unless a fault outranks it).
    var lowBattery: Bool { locked { planner.lowBattery } }

    /// Why the timer thread stopped writing (the outputs are already safe then), if it did.
    var failure: Failure? { locked { timerFailure } }

    /// Stops the timer, then every line safe, settled and released. Returns release errors.
    func shutdown() -> [Error] {
        if locked({ () -> Bool in stopping = true; condition.signal(); return timerRunning }) { timerDone.wait() }
        return locked {
            let changes = planner.shutdown(at: clock?() ?? planner.now)
            for c in changes { try? driver.write(c.output, c.value); log(line(c)); changed?(names[c.output], c.value) }
            return driver.releaseAll(settle: clock == nil ? 0 : settle)
        }
    }

    private func timerLoop() {
        condition.lock()
        while !stopping, let clock {
            if let next = planner.nextChange(after: planner.now) {
                let left = next - clock()
                if left > 0 {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: left))
                    continue
                }
                do { try apply(planner.advance(to: clock())) } catch {
                    timerFailure = error as? Failure ?? Failure(message: "\(error)", exitCode: 74)
                    break
                }
            } else {
                condition.wait()
            }
        }
        timerRunning = false
        condition.unlock()
        timerDone.signal()
    }

    private func faultLocked() {
        let changes = planner.setFault(true, at: clock?() ?? planner.now)
        for c in changes { try? driver.write(c.output, c.value); written[c.output] = c.value; log(line(c)); changed?(names[c.output], c.value) }
    }

    /// Called with the lock held. In real time a batch can hold several changes of one output that were
    /// all due before this write (the process was kept off the CPU): only the last is written, so the
    /// line never shows a press microseconds long that no one planned; the others are logged with
    /// "written":false. A dry run writes (records) every change.
    private func apply(_ changes: [LineChange]) throws {
        let last = clock == nil ? [:] : Dictionary(changes.enumerated().map { ($0.element.output, $0.offset) }, uniquingKeysWith: max)
        for (i, c) in changes.enumerated() {
            if clock != nil && (last[c.output] != i || c.value == written[c.output]) {
                log(line(c, written: false))
                continue
            }
            do {
                try driver.write(c.output, c.value)
                written[c.output] = c.value
            } catch {
                log(line(c, failed: "\(error)"))
                faultLocked()
                throw Failure(message: "\(error); every output was set to its safe value", exitCode: (error as? GPIOError)?.exitCode ?? 74)
            }
            log(line(c))
            changed?(names[c.output], c.value)
        }
    }

    private func line(_ c: LineChange, failed: String? = nil, written: Bool = true) -> String {
        var s = "{\"time\":\(EventJSON.number(c.time, 3)),\"type\":\"output\",\"output\":\(EventJSON.quoted(names[c.output])),"
            + "\"value\":\(c.value ? 1 : 0),\"cause\":\(EventJSON.quoted(c.cause))"
        if let clock { s += ",\"late_ms\":\(EventJSON.number((clock() - c.time) * 1000, 2))" }
        if let failed { s += ",\"error\":\(EventJSON.quoted(failed))" }
        if !written { s += ",\"written\":false" }
        return s + "}"
    }
}
