import Foundation
import Pipeline

/// What a SIGHUP does with the config file: read and check it with the same loader as at start, and
/// work out what changes.
enum ConfigReload {
    enum Outcome {
        case refused(String)
        /// `update` is nil when nothing the frame loop uses changed.
        case accepted(NodwireConfig, update: LoopUpdate?, changes: [String], restartNeeded: [String])
    }

    static func prepare(path: String, running: NodwireConfig,
                        makeProcessor: (VisionSettings) throws -> FaceProcessor = Self.processor) -> Outcome {
        let config: NodwireConfig
        do { config = try ConfigLoader.load(file: path) } catch { return .refused("\(error)") }
        var processor: FaceProcessor?
        if config.vision != running.vision {
            do { processor = try makeProcessor(config.vision) } catch { return .refused("\(path): \(error)") }
        }
        let changed = changes(from: running, to: config)
        let update = processor != nil || config.gestures != running.gestures || config.budget != running.budget
            ? LoopUpdate(gestures: config.gestures, processor: processor, budget: config.budget) : nil
        // The event socket, the camera, the MQTT connection, the web server and the output lines are opened once, at start.
        var restart = changed.filter { $0.hasPrefix("events.") || $0.hasPrefix("camera.") || $0.hasPrefix("mqtt.") || $0.hasPrefix("web.") }.map { String($0.prefix { $0 != " " }) }
        if config.outputs != running.outputs { restart.append("outputs") }
        return .accepted(config, update: update, changes: changed + (config.outputs != running.outputs ? ["outputs"] : []),
                         restartNeeded: restart)
    }

    /// "key (old → new)" for every setting that differs.
    static func changes(from old: NodwireConfig, to new: NodwireConfig) -> [String] {
        ConfigSchema.all.compactMap { spec in
            let (a, b) = (spec.get(old), spec.get(new))
            return a == b ? nil : "\(spec.key) (\(a.text) → \(b.text))"
        }
    }

    static func processor(_ settings: VisionSettings) throws -> FaceProcessor {
        var settings = settings
        settings.modelPath = ModelLocator.resolve(settings.modelPath)
        return try FaceProcessor(settings: settings)
    }
}
