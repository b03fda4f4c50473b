import ArgumentParser
import Foundation

/// `nodwire gpio list|set`: see and test the GPIO lines before wiring gestures to them.
struct GPIOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio",
        abstract: "List GPIO chips and lines, or drive one line by hand to test the wiring.",
        subcommands: [List.self, SetLine.self, TestOutputs.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Chips, their lines, names, and which program holds each line.")

        func run() throws {
            print(GPIOInventory.libraryDescription)
            print(GPIOInventory.render(GPIOInventory.list()), terminator: "")
        }
    }

    struct SetLine: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Drive a line to a value, hold it, then return it to 0 (the safe value) and release it.",
            discussion: """
                The line is requested at 0, set to --value, kept there for --hold seconds, driven back to 0, kept \
                at 0 for --settle-ms and released. SIGINT, SIGTERM and SIGHUP during the hold end it early, \
                with the same return to 0 (exit status 128+signal). SIGKILL cannot be caught: see hardware/README.md.
                """)

        @Option(help: "Chip: gpiochip0, /dev/gpiochip0, 0, or its label.") var chip: String
        @Option(help: "Line: offset (17) or name (GPIO17, led).") var line: String
        @Option(help: "Logical value to drive: 0 or 1.") var value: Int
        @Flag(help: "The line is active-low (1 drives the pin low).") var activeLow = false
        @Option(help: "Seconds to hold the value (0...3600).") var hold: Double = 0
        @Option(help: "Drive: push-pull, open-drain, open-source.") var drive: String = "push-pull"
        @Option(help: "Bias: as-is, disabled, pull-up, pull-down.") var bias: String = "as-is"
        @Option(help: "Milliseconds to keep the safe value before releasing (0...5000).") var settleMs: Int = 100

        func validate() throws {
            guard value == 0 || value == 1 else { throw ValidationError("--value must be 0 or 1") }
            guard hold.isFinite, (0...3600).contains(hold) else { throw ValidationError("--hold must be 0...3600 seconds") }
            guard (0...5000).contains(settleMs) else { throw ValidationError("--settle-ms must be 0...5000") }
            guard GPIOLineSpec.Drive(parsing: drive) != nil else {
                throw ValidationError("--drive must be one of \(GPIOLineSpec.Drive.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard GPIOLineSpec.Bias(parsing: bias) != nil else {
                throw ValidationError("--bias must be one of \(GPIOLineSpec.Bias.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func spec() throws -> GPIOLineSpec {
            let s = GPIOLineSpec(chip: chip, line: .init(parsing: line), activeLow: activeLow, safeValue: false,
                                 drive: GPIOLineSpec.Drive(parsing: drive) ?? .pushPull,
                                 bias: GPIOLineSpec.Bias(parsing: bias) ?? .asIs)
            try s.validate()
            return s
        }

        func run() throws {
            // Stop signals are blocked before the line is requested, so one that arrives at any point from
            // here on is queued and handled below with the line back at its safe value.
            let stop = StopSignals()
            let out: GPIOOutputLine
            do {
                out = try GPIOOutputLine(spec())
            } catch let e as GPIOError {
                throw Failure(message: e.description, exitCode: e.exitCode)
            }
            var caught: Int32 = 0
            do {
                try out.set(value == 1)
                let back = try out.get() ? 1 : 0
                log("\(out.displayName) set to \(value)\(activeLow ? " (active-low)" : ""), read back \(back), holding \(hold)s")
                caught = stop.wait(seconds: hold)
                if caught != 0 { log("caught \(StopSignals.name(caught)) during the hold: returning the line to its safe value") }
            } catch {
                log("\(error): returning the line to its safe value")
                try? out.release(settle: Double(settleMs) / 1000)
                throw Failure(message: "\(error)", exitCode: (error as? GPIOError)?.exitCode ?? 74)
            }
            do {
                try out.release(settle: Double(settleMs) / 1000)
                log("\(out.displayName) back to safe value 0 and released")
            } catch {
                throw Failure(message: "\(error)", exitCode: 74)
            }
            if caught != 0 { throw ExitCode(128 + caught) }
        }

        private func log(_ s: String) { FileHandle.standardError.write(Data("nodwire gpio: \(s)\n".utf8)) }
    }
}

/// SIGINT, SIGTERM and SIGHUP, blocked and collected synchronously (sigtimedwait), so nothing runs in a
/// signal handler. A handler that only records the signal is installed as well, for the case a thread
/// that does not block them receives one: its default action would otherwise end the process with the
/// line still driven.
final class StopSignals {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private var set = sigset_t()

    init() {
        sigemptyset(&set)
        for s in Self.signals {
            sigaddset(&set, s)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in stopSignalRecorded = signo }
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits up to `seconds`; returns the stop signal that arrived, or 0.
    func wait(seconds: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if stopSignalRecorded != 0 { return stopSignalRecorded }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                var none = timespec()   // poll once: a signal may be pending right at the end
                let s = sigtimedwait(&set, nil, &none)
                return s > 0 ? s : 0
            }
            let slice = min(left, 0.1)   // short slices so a signal recorded by the handler is seen soon
            var ts = timespec(tv_sec: Int(slice), tv_nsec: Int((slice - Double(Int(slice))) * 1e9))
            let s = sigtimedwait(&set, nil, &ts)
            if s > 0 { return s }
        }
    }

    static func name(_ s: Int32) -> String {
        switch s {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(s)"
        }
    }
}

/// Written only by the signal handler (a plain store, async-signal-safe), read by StopSignals.wait.
nonisolated(unsafe) private var stopSignalRecorded: Int32 = 0
