import ArgumentParser
import Foundation
import Pipeline

/// `replay --outputs`: the configured outputs driven from a recording, so the whole chain can be tried
/// without a camera.
struct ReplayOutputOptions: ParsableArguments {
    @Flag(help: ArgumentHelp("Drive the config's [[outputs]] from the events; line changes are JSON lines "
        + "(\"type\":\"output\") on stdout, in time order with the events.",
        discussion: "--gpio real paces the recording in real time, so pulses have their real length. --gpio dry-run "
        + "opens no line and runs as fast as it can on the recording's timestamps (use --realtime to pace it)."))
    var outputs = false

    enum Driver: String, ExpressibleByArgument, CaseIterable { case dryRun = "dry-run", real }

    @Option(help: "With --outputs: dry-run (print only) or real (GPIO lines).")
    var gpio: Driver = .dryRun
}

/// Runs the pipeline over a recording and the planner over its events, writing to a `LineDriver`.
/// Every line is back at its safe value when it returns or throws, and on SIGINT/SIGTERM/SIGHUP
/// (blocked before any line is requested, collected between frames: nothing runs in a signal handler).
struct OutputReplay {
    let file: String
    let settings: NodwireConfig
    let processor: FaceProcessor
    let options: ReplayOutputOptions
    let realtime: Bool
    let stats: Bool
    /// The setup page (`--realtime` with [web]): it shows these outputs and may pulse them.
    var web: ReplayWeb? = nil
    /// `--rate`: frames processed a second, as in `Replay`.
    var rate: Double? = nil
    /// `--start`: seconds in where the replay begins, as in `Replay`.
    var start: Double = 0
    /// `--budget` (or the config's with `--realtime`): the governed loop, as in `Replay`.
    var budget: BudgetSettings? = nil

    /// A stop signal, carried out of the frame loop.
    private struct Stopped: Error { let signal: Int32 }

    func run(_ output: LineOutput) throws {
        let config = settings.outputs
        guard !config.isEmpty else {
            throw Failure(message: "--outputs: the config has no [[outputs]] (see `nodwire config defaults`)", exitCode: ConfigError.exitCode)
        }
        let stop = StopSignals()
        let real = options.gpio == .real
        let driver: LineDriver
        do { driver = real ? try GPIOLineDriver(config) : DryRunDriver(config) } catch let e as GPIOError {
            throw Failure(message: e.description, exitCode: e.exitCode)
        }
        let wallStart = MonotonicClock.now()
        let paced = real || realtime
        let sinceStart: @Sendable () -> Double = { MonotonicClock.now() - wallStart }
        let clock = paced ? sinceStart : nil
        let runner = OutputRunner(
            planner: OutputPlanner(config: config, recalibrateAfterLoss: settings.gestures.calibration.recalibrateAfterLoss),
            driver: driver, clock: clock,
            log: { line in output.write(line); if paced { output.flush() } })
        let summary: Replay.Summary
        // The page goes before the outputs are released, so no pulse of its can reach a released line.
        let shutdown = { web?.stop(); return runner.shutdown() }
        do {
            try runner.start()
            try web?.start(outputs: runner, pulsable: config.pulsable, sourceName: file)
            summary = try Replay(file: file, settings: settings, processor: processor, budget: budget, watch: web?.watch, rate: rate, start: start).run(
                beforeFrame: { t in
                    let signal = try runner.wait(until: t, stop: stop)
                    if signal != 0 { throw Stopped(signal: signal) }
                },
                onEvent: { event in
                    runner.note(EventJSON.line(event))
                    try runner.handle(event)
                })
            // The end of the recording: running pulses finish, then everything goes safe.
            if let end = runner.pulsesEnd {
                let signal = try runner.wait(until: end, stop: stop)
                if signal != 0 { throw Stopped(signal: signal) }
            }
        } catch let s as Stopped {
            let errors = shutdown()
            output.flush()
            FileHandle.standardError.write(Data("nodwire replay: caught \(StopSignals.name(s.signal)): every output back to its safe value\(errors.isEmpty ? "" : " (errors: \(errors))")\n".utf8))
            throw ExitCode(128 + s.signal)
        } catch {
            web?.stop()
            runner.fault()
            _ = runner.shutdown()
            output.flush()
            throw error
        }
        let errors = shutdown()
        output.flush()
        if stats { FileHandle.standardError.write(Data((summary.json + "\n").utf8)) }
        if let e = errors.first { throw Failure(message: "releasing the outputs: \(e)", exitCode: 74) }
    }
}
