import ArgumentParser
import Foundation

/// `nodwire`: head gestures in, switch presses out.
struct Nodwire: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodwire",
        abstract: "Turns head gestures seen by a camera into GPIO switch presses.",
        discussion: "Start with `nodwire replay` on a recording to see what Nodwire sees, then `nodwire config defaults`.",
        subcommands: [RunCommand.self, ReplayCommand.self, EvaluateCommand.self, CalibrateCommand.self, EventsCommand.self,
                      CamerasCommand.self, CaptureCommand.self, GPIOCommand.self, ConfigCommand.self, FacesCommand.self,
                      LandmarksCommand.self, WebURLCommand.self]
    )
}

/// Runs a long-lived subcommand (`run`) in an async context, where its async `run()` is the one chosen.
func runService(_ command: inout any AsyncParsableCommand) async throws { try await command.run() }

// Our own failures carry a message for people and a sysexits code (78 for a refused config);
// everything else is argument parsing, which ArgumentParser reports itself.
do {
    var command = try Nodwire.parseAsRoot()
    if var service = command as? AsyncParsableCommand { try await runService(&service) } else { try command.run() }
} catch let failure as Failure {
    FileHandle.standardError.write(Data("nodwire: \(failure.message)\n".utf8))
    exit(failure.exitCode)
} catch {
    Nodwire.exit(withError: error)
}
