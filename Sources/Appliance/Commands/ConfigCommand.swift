import ArgumentParser
import Foundation

/// `nodwire config defaults|check`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Prints the default settings or checks a config file.",
        subcommands: [Defaults.self, Check.self]
    )

    struct Defaults: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints a complete, commented config file with every default.")
        func run() { print(ConfigSchema.defaultsFile(), terminator: "") }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Checks a config file; exit code 78 and the reason if it is refused.")
        @Argument(help: "The TOML file to check.") var file: String
        func run() throws {
            let config = try loadConfig(file)
            print("\(file): ok")
            // Valid (replay and faces need no outputs), but `run` would drive nothing: say it here first.
            if let warning = config.noOutputsWarning { FileHandle.standardError.write(Data("note: \(warning)\n".utf8)) }
        }
    }
}

extension ConfigSchema {
    /// Every setting with its default and meaning, grouped in TOML sections.
    static func defaultsFile() -> String {
        let defaults = NodwireConfig()
        var out = "# Nodwire settings. Every value below is the default; delete what you do not change.\n"
        var section = ""
        for spec in all {
            if spec.section != section {
                section = spec.section
                out += "\n[\(section)]\n"
            }
            out += "# \(spec.doc) Allowed: \(spec.kind.allowed).\n"
            out += "\(spec.name) = \(spec.get(defaults).text)\n"
        }
        return out + "\n" + outputsExample.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty || $0.hasPrefix("#") ? "\($0)\n" : "#\($0)\n" }.joined()
    }
}
