import ArgumentParser
import Foundation

/// `nodwire`: head gestures in, switch presses out.
struct Nodwire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodwire",
        abstract: "Turns head gestures seen by a camera into GPIO switch presses.",
        discussion: "Start with `nodwire replay` on a recording to see what Nodwire sees, then `nodwire config defaults`.",
        subcommands: [ReplayCommand.self, FacesCommand.self, ConfigCommand.self, GPIOCommand.self]
    )
}

// Our own failures carry a message for people and a sysexits code (78 for a refused config);
// everything else is argument parsing, which ArgumentParser reports itself.
do {
    var command = try Nodwire.parseAsRoot()
    try command.run()
} catch let failure as Failure {
    FileHandle.standardError.write(Data("nodwire: \(failure.message)\n".utf8))
    exit(failure.exitCode)
} catch {
    Nodwire.exit(withError: error)
}
