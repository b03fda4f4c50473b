import Foundation
import Logging

/// Writes `nodwire run`'s log to standard error in one of two shapes:
/// - terminal: `2026-11-22 21:55:01.123 info  message key=value` for a person watching;
/// - journal: `<6>message key=value`, one line an event, no time (journald stamps it) and the syslog
///   level prefix journald turns into the entry's priority.
/// Level and format live in a shared `LogControl`, so a config reload changes every logger at once.
struct NodwireLogHandler: LogHandler {
    let label: String
    let control: LogControl
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { control.level }
        set { control.level = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let line = Self.format(level: event.level, message: "\(event.message)", metadata: merged,
                               format: control.format, date: Date())
        control.write(line)
    }

    /// One log line (with its line end) in the given shape.
    static func format(level: Logger.Level, message: String, metadata: Logger.Metadata, format: LoggingSettings.Format, date: Date) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = (fields.isEmpty ? message : "\(message) \(fields)").replacingOccurrences(of: "\n", with: " ")
        switch format {
        case .journal:
            return "<\(syslogPriority(level))>\(text)\n"
        case .terminal, .auto:
            return "\(timestamp(date)) \(level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))\(text)\n"
        }
    }

    /// syslog(3) priorities, as journald reads them from a `<N>` prefix.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    static func timestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&t, &parts)
        let ms = Int((date.timeIntervalSince1970 - Double(t)) * 1000)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let millis = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)"
    }
}

/// The running log level and format, shared by every logger of the process; writes whole lines to stderr.
final class LogControl: @unchecked Sendable {
    private let lock = NSLock()
    private var _level: Logger.Level
    private var _format: LoggingSettings.Format

    init(_ settings: LoggingSettings, environment: [String: String] = ProcessInfo.processInfo.environment) {
        _level = Logger.Level(settings.level)
        _format = Self.resolve(settings.format, environment: environment)
    }

    var level: Logger.Level {
        get { lock.withLock { _level } }
        set { lock.withLock { _level = newValue } }
    }

    var format: LoggingSettings.Format { lock.withLock { _format } }

    func apply(_ settings: LoggingSettings, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let format = Self.resolve(settings.format, environment: environment)
        lock.withLock {
            _level = Logger.Level(settings.level)
            _format = format
        }
    }

    /// `auto` is journal when systemd started us (it sets $JOURNAL_STREAM when stderr is the journal and
    /// $INVOCATION_ID for every unit), else terminal.
    static func resolve(_ format: LoggingSettings.Format, environment: [String: String]) -> LoggingSettings.Format {
        guard format == .auto else { return format }
        let systemd = environment["JOURNAL_STREAM"].map { !$0.isEmpty } == true || environment["INVOCATION_ID"].map { !$0.isEmpty } == true
        return systemd ? .journal : .terminal
    }

    func write(_ line: String) {
        // One write(2) a line, under the lock, so lines from different threads never interleave.
        lock.withLock {
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let n = Foundation.write(2, buffer.baseAddress! + done, buffer.count - done)
                    if n < 0 { if errno == EINTR { continue }; return }
                    done += n
                }
            }
        }
    }

    /// A logger that writes through this control.
    func logger(_ label: String) -> Logger {
        Logger(label: label) { [self] label in NodwireLogHandler(label: label, control: self) }
    }
}

extension Logger.Level {
    init(_ level: LoggingSettings.Level) { self = Logger.Level(rawValue: level.rawValue) ?? .info }
}
