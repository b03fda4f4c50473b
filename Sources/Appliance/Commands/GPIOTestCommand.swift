import ArgumentParser
import Foundation

extension GPIOCommand {
    /// `nodwire gpio test --config FILE`: each configured output pulsed in turn, named as it goes, so an
    /// installer can check the wiring line by line.
    struct TestOutputs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Pulses each configured output in turn, naming it, to check the wiring.",
            discussion: """
                Every [[outputs]] line is requested at its safe value; then, one after the other, each is made \
                active for --pulse-ms and returned to safe for --gap-ms. At the end, and on Ctrl-C, SIGTERM or \
                SIGHUP, every line is back at its safe value before it is released (exit 128+signal after a signal).
                """)

        @Option(help: "The config file with the [[outputs]] to test.") var config: String
        @Option(help: "Milliseconds each output is active (10...60000).") var pulseMs: Int = 500
        @Option(help: "Milliseconds between outputs (0...60000).") var gapMs: Int = 500
        @Option(help: "Only this output (by name); may be repeated.") var output: [String] = []
        @Option(help: "Rounds through all outputs (1...100).") var rounds: Int = 1

        func validate() throws {
            guard (10...60_000).contains(pulseMs) else { throw ValidationError("--pulse-ms must be 10...60000") }
            guard (0...60_000).contains(gapMs) else { throw ValidationError("--gap-ms must be 0...60000") }
            guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be 1...100") }
        }

        func run() throws {
            let outputs = try loadConfig(config).outputs
            guard !outputs.isEmpty else { throw Failure(message: "\(config): no [[outputs]] to test", exitCode: ConfigError.exitCode) }
            let names = outputs.outputs.map(\.name)
            for o in output where !names.contains(o) {
                throw Failure(message: "--output \(o): no such output in \(config); outputs: \(names.joined(separator: ", "))", exitCode: 64)
            }
            let chosen = outputs.outputs.indices.filter { output.isEmpty || output.contains(names[$0]) }
            let stop = StopSignals()   // before any line is requested
            let driver: GPIOLineDriver
            do { driver = try GPIOLineDriver(outputs) } catch let e as GPIOError {
                throw Failure(message: e.description, exitCode: e.exitCode)
            }
            var caught: Int32 = 0
            var failure: Error?
            rounds: for _ in 0..<rounds {
                for i in chosen {
                    let o = outputs.outputs[i]
                    log("\(o.name): \(driver.describe(i)) active (\(o.line.safeValue ? 0 : 1)) for \(pulseMs) ms")
                    do { try driver.write(i, !o.line.safeValue) } catch { failure = error; break rounds }
                    caught = stop.wait(seconds: Double(pulseMs) / 1000)
                    do { try driver.write(i, o.line.safeValue) } catch { failure = error; break rounds }
                    log("\(o.name): back to safe (\(o.line.safeValue ? 1 : 0))")
                    if caught != 0 { break rounds }
                    caught = stop.wait(seconds: Double(gapMs) / 1000)
                    if caught != 0 { break rounds }
                }
            }
            if caught != 0 { log("caught \(StopSignals.name(caught)): returning every line to its safe value") }
            let errors = driver.releaseAll(settle: 0.1)
            if let failure { throw Failure(message: "\(failure); every line was returned to its safe value", exitCode: (failure as? GPIOError)?.exitCode ?? 74) }
            if let e = errors.first { throw Failure(message: "releasing the outputs: \(e)", exitCode: 74) }
            log("all \(chosen.count) output(s) back to safe and released")
            if caught != 0 { throw ExitCode(128 + caught) }
        }

        private func log(_ s: String) { FileHandle.standardError.write(Data("nodwire gpio test: \(s)\n".utf8)) }
    }
}
