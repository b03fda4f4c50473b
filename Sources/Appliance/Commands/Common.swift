import ArgumentParser
import Foundation
import Pipeline

/// An error that ends the command with a message for people and a sysexits-style code.
struct Failure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32
    var description: String { message }
}

extension ParsableCommand {
    /// Loads the config file (or the defaults); a refused file ends the program with exit code 78.
    func loadConfig(_ path: String?) throws -> NodwireConfig {
        guard let path else { return NodwireConfig() }
        do { return try ConfigLoader.load(file: path) } catch {
            throw Failure(message: "\(error)", exitCode: ConfigError.exitCode)
        }
    }

    func makeProcessor(_ settings: VisionSettings) throws -> FaceProcessor {
        var settings = settings
        settings.modelPath = ModelLocator.resolve(settings.modelPath)
        do { return try FaceProcessor(settings: settings) } catch { throw Failure(message: "\(error)", exitCode: 72) }
    }
}

/// Finds the landmark model: as configured, else beside the program (an install puts it in
/// ../share/nodwire/), else in the source tree's Models/ (a development build in .build/release).
enum ModelLocator {
    static func resolve(_ configured: String) -> String {
        if configured.hasPrefix("/") || FileManager.default.fileExists(atPath: configured) { return configured }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bin = URL(fileURLWithPath: exe).deletingLastPathComponent()
        let name = URL(fileURLWithPath: configured).lastPathComponent
        let candidates = [
            bin.appendingPathComponent("../share/nodwire/\(name)").path,
            bin.appendingPathComponent("../../../\(configured)").path,
            bin.appendingPathComponent("../../\(configured)").path,
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? configured
    }
}

/// A `--start` option's value (`nodwire evaluate`, `nodwire replay`): seconds from 0, else refused (exit 64).
func checkStart(_ start: Double) throws {
    guard start.isFinite, start >= 0 else {
        throw Failure(message: "--start \(start) is not allowed; allowed: seconds from 0 (where the replay begins)", exitCode: 64)
    }
}

/// A `--rate` option's value (`nodwire evaluate`, `nodwire replay`): refused (exit 64), saying what is allowed,
/// unless it is a rate `budget.active_rate` could be.
func checkRate(_ rate: Double) throws {
    let allowed = ConfigSchema.activeRates
    guard allowed.contains(rate), rate.isFinite else {
        throw Failure(message: "--rate \(rate) is not allowed; allowed: a number from \(allowed.lowerBound) to \(allowed.upperBound) (frames a second)", exitCode: 64)
    }
}
