import ArgumentParser
import Foundation
import Logging
import Pipeline
import ServiceLifecycle
import UnixSignals

/// `nodwire run`: the appliance. Frames → face and pose → gestures → events (stdout, the event socket),
/// as one service group that shuts down gracefully on SIGTERM or SIGINT and reloads its config on SIGHUP.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Runs Nodwire: watches the camera (or a recording) and reports head gestures.",
        discussion: """
        Events go to stdout as JSON lines (as `nodwire replay` prints them) and, with events.socket_path set, to \
        every program connected to that Unix socket (`nodwire events` shows them). Log lines go to stderr: with \
        time for a terminal, one line an event for the journal under systemd (logging.format).
        Signals: SIGTERM or SIGINT stop it gracefully; SIGHUP reloads the config file (a refused file is logged \
        and the running settings stay).
        Under systemd (Type=notify) it reports READY=1 once frames arrive, STATUS= lines, WATCHDOG=1 while frames \
        keep coming (WatchdogSec=) and STOPPING=1.
        Without --source frames come from the camera (camera.* settings, or --camera). A camera that cannot be \
        opened at start is refused; one lost while running is opened again with growing pauses (0.5 s up to \
        30 s), reported as camera_lost / camera_found events, with every output at its safe value meanwhile.
        Exit codes: 78 refused config, 66 missing recording, 65 broken recording, 69 no camera or source not \
        available or the web address cannot be had, 75 camera or GPIO line busy, 72 landmark model missing, 73 event socket cannot be created, \
        74 an output line failed.
        """
    )

    @Option(help: "The config file (see `nodwire config defaults`); SIGHUP reads it again.")
    var config: String?

    @Option(name: .customLong("source"), help: "Play a YUV4MPEG2 recording at its real rate instead of using the camera.")
    var sourceFile: String?

    @Flag(help: "With --source: start the recording over at its end instead of stopping.")
    var loop = false

    @Flag(help: ArgumentHelp("With --source: process every frame, waiting for a slow loop instead of skipping to the newest.",
                             discussion: "Frames never come before their time in the recording, and neither the active rate nor the CPU budget thins them (battery and heat still pause): on a machine too slow for the recording the run takes longer, but sees what a fast one would (tests)."))
    var everyFrame = false

    @Option(help: "The camera: its number in `nodwire cameras` or its id (instead of camera.id in the config).")
    var camera: String?

    @Flag(help: ArgumentHelp("Keep trying when the camera is missing or busy at start, instead of exiting (for a service).",
                             discussion: "The service is then ready at once: every output safe, the status LED showing its fault pattern, and the status line saying why there are no frames, until the camera is there."))
    var waitForCamera = false

    enum Driver: String, ExpressibleByArgument, CaseIterable { case real, dryRun = "dry-run" }

    @Option(help: "The config's [[outputs]]: real (GPIO lines) or dry-run (no line is opened; changes are logged).")
    var gpio: Driver = .real

    @Option(help: "Seconds between status reports (systemd STATUS=, debug log).")
    var statusInterval = 5.0

    func validate() throws {
        guard statusInterval >= 0.1, statusInterval <= 3600 else { throw ValidationError("--status-interval must be from 0.1 to 3600 seconds") }
        if loop && sourceFile == nil { throw ValidationError("--loop needs --source FILE.y4m") }
        if everyFrame && sourceFile == nil { throw ValidationError("--every-frame needs --source FILE.y4m (a camera always gives the newest frame)") }
        if camera != nil && sourceFile != nil { throw ValidationError("--camera and --source exclude each other: frames come from one of them") }
        if waitForCamera && sourceFile != nil { throw ValidationError("--wait-for-camera is for the camera, not a --source recording") }
    }

    func run() async throws {
        // A reader that hangs up must not kill us (writes report EPIPE instead), and a SIGHUP that arrives
        // before the reload service listens must not end the process.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        var settings = try loadConfig(config)
        if let camera { settings.camera.camera = CameraSelector(parsing: camera) }
        let logControl = LogControl(settings.logging)
        let logger = logControl.logger("nodwire")
        do {
            try await Self.serve(settings: settings, configPath: config, source: makeSource(settings), gpio: gpio,
                                 waitForSource: waitForCamera, statusInterval: statusInterval, logControl: logControl, logger: logger)
        } catch let error as RunError {
            throw error.failure
        }
    }

    private func makeSource(_ settings: NodwireConfig) throws(RunError) -> any LiveFrameSource {
        if let sourceFile { return PacedRecording(path: sourceFile, loop: loop, everyFrame: everyFrame) }
        do { try settings.camera.validate() } catch { throw .source("\(error)", exitCode: ConfigError.exitCode) }
        return CameraSource(settings: settings.camera)
    }

    static func serve(settings: NodwireConfig, configPath: String?, source: any LiveFrameSource, gpio: Driver = .real,
                      waitForSource: Bool = false, statusInterval: Double, logControl: LogControl, logger: Logger) async throws {
        // Everything that can be refused is opened before the group starts, so it fails with a clear
        // message and its own exit code, and systemd never hears READY=1. The model comes first (the
        // slowest to fail), the outputs last: once requested they are released on every way out.
        let processor: FaceProcessor
        do { processor = try ConfigReload.processor(settings.vision) } catch { throw Failure(message: "\(error)", exitCode: 72) }
        let notifier = try SystemdNotifier()
        do throws(RunError) { try source.open() } catch {
            guard waitForSource else { throw error }
            // The loop reports it (camera_lost, status, fault LED) and the source keeps trying.
            logger.warning("no camera yet, waiting for it: \(error)")
        }
        let webToken = try WebSetup.token(settings.web)
        let mqtt: MQTTLink?
        do { mqtt = settings.mqtt.enabled ? try MQTTLink(settings: settings.mqtt, logger: logger) : nil } catch {
            throw Failure(message: "\(error)", exitCode: ConfigError.exitCode)
        }
        var changed: (@Sendable (String, Bool) -> Void)?
        if let mqtt { changed = { name, value in mqtt.publishState(topic: mqtt.outputTopic(name), payload: value ? "1" : "0") } }
        let outputs = try makeOutputs(settings, gpio: gpio, logger: logger, changed: changed)
        if let warning = settings.noOutputsWarning { logger.warning("\(warning)") }
        let server: EventSocketServer?
        do {
            server = settings.events.socketPath.isEmpty ? nil
                : try EventSocketServer(path: settings.events.socketPath, clientBufferBytes: settings.events.clientBufferBytes, logger: logger)
        } catch {
            _ = outputs?.shutdown()
            throw error
        }
        let stdout = settings.events.stdout ? StdoutEventWriter(logger: logger) : nil
        let hub = settings.web.enable ? WebHub(capacity: settings.web.clientBufferBytes, logger: logger) : nil
        let sinks: [any EventSink] = [stdout as (any EventSink)?, server, mqtt, hub].compactMap { $0 }
        let loop = FrameLoop(source: source, processor: processor, gestures: settings.gestures, budget: settings.budget,
                             outputs: outputs, sinks: sinks, notifier: notifier, logger: logger)
        let pulsable = settings.outputs.pulsable
        let recordingPath = (source as? PacedRecording)?.path
        // A first guess for a kept fit session's clip; its header gets the rate its frames came at when it ends.
        let sessionRate = recordingPath.flatMap { try? Y4MReader(path: $0).frameRate } ?? (settings.camera.fps > 0 ? settings.camera.fps : 15)
        let fit = WebFit(loop: loop, configPath: configPath, sourcePath: recordingPath, config: settings, frameRate: sessionRate, logger: logger)
        let web = hub.map { WebSetup.service(settings.web, token: webToken, hub: $0, loop: loop, outputs: outputs, pulsable: pulsable,
                                             sourceName: source.name, fit: fit, logger: logger) }
        if let server { logger.info("serving events on \(server.path)") }
        if let mqtt {
            mqtt.announce = { type, reason in loop.note(type, reason: reason) }
            let handler = MQTTCommands(enabled: settings.mqtt.commands, loop: loop, outputs: outputs, pulsable: pulsable,
                                       configPath: configPath, logger: logger)
            mqtt.commands = { kind, payload, retained in MQTTCommands.json(kind: kind, handler.handle(kind: kind, payload: payload, retained: retained)) }
            let kinds = settings.mqtt.commands.enabled
            logger.notice("mqtt: commands accepted on \(mqtt.commandTopic)/…: \(kinds.isEmpty ? "none (every [mqtt.commands] setting is off)" : kinds.joined(separator: ", "))")
            if settings.mqtt.homeAssistant.discovery {
                mqtt.onConnect = HomeAssistant.documents(discoveryPrefix: settings.mqtt.homeAssistant.prefix, prefix: mqtt.prefix, clientID: mqtt.clientID,
                                                         outputs: settings.outputs.outputs.map(\.name))
                    .map { MQTTOutbox.Message(topic: $0.topic, payload: $0.payload, retain: true, queuedAt: 0) }
            }
            logger.info("mqtt: publishing to \(mqtt.endpoint.description) under \(mqtt.prefix)/ (client id \(mqtt.clientID))")
        }

        // Shutdown runs in reverse order: the frame loop stops first, the event outputs flush last.
        let group = ServiceGroup(configuration: .init(
            services: [
                .init(service: EventOutputService(server: server, stdout: stdout)),
                mqtt.map { ServiceGroupConfiguration.ServiceConfiguration(service: MQTTService(link: $0, loop: loop, logger: logger)) },
                web.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                .init(service: StatusService(loop: loop, notifier: notifier, sourceName: source.name, interval: statusInterval, logger: logger,
                                             note: mqtt.map { link in { @Sendable in link.statusNote } }, warning: settings.noOutputsWarning)),
                .init(service: ReloadService(hangups: await UnixSignalsSequence(trapping: .sighup), configPath: configPath, initial: settings, loop: loop, logControl: logControl, logger: logger)),
                .init(service: FrameLoopService(loop: loop, notifier: notifier, logger: logger),
                      successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
            ].compactMap { $0 },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: Logger(label: "nodwire.services") { GatedLogHandler(inner: NodwireLogHandler(label: $0, control: logControl), floor: .warning) }
        ))
        try await group.run()
    }
}

extension RunCommand {
    /// The config's outputs, requested at their safe values and started (the status LED says "searching"),
    /// or nil when there are none. Each line change is logged (debug; info for a dry run).
    static func makeOutputs(_ settings: NodwireConfig, gpio: Driver, logger: Logger,
                            changed: (@Sendable (String, Bool) -> Void)? = nil) throws -> OutputRunner? {
        guard !settings.outputs.isEmpty else { return nil }
        let driver: LineDriver
        do {
            driver = gpio == .real ? try GPIOLineDriver(settings.outputs) : DryRunDriver(settings.outputs)
        } catch let e as GPIOError {
            throw Failure(message: e.description, exitCode: e.exitCode)
        }
        let start = MonotonicClock.now()
        let level: Logger.Level = gpio == .real ? .debug : .info
        let runner = OutputRunner(
            planner: OutputPlanner(config: settings.outputs, recalibrateAfterLoss: settings.gestures.calibration.recalibrateAfterLoss),
            driver: driver, clock: { MonotonicClock.now() - start }, log: { logger.log(level: level, "\($0)") })
        runner.changed = changed
        do { try runner.start() } catch {
            _ = runner.shutdown()
            throw error
        }
        let names = (0..<settings.outputs.outputs.count).map { "\(settings.outputs.outputs[$0].name) = \(driver.describe($0))" }
        logger.info("outputs\(gpio == .dryRun ? " (dry run)" : ""): \(names.joined(separator: ", "))")
        return runner
    }
}

/// Passes on only messages at or above `floor` (and at or above the shared level).
private struct GatedLogHandler: LogHandler {
    var inner: any LogHandler
    let floor: Logger.Level
    var metadata: Logger.Metadata { get { inner.metadata } set { inner.metadata = newValue } }
    var logLevel: Logger.Level { get { max(inner.logLevel, floor) } set {} }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? { get { inner[metadataKey: key] } set { inner[metadataKey: key] = newValue } }
    func log(event: LogEvent) { if event.level >= floor { inner.log(event: event) } }
}
