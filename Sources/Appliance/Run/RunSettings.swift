import Gestures

/// How `nodwire run` logs. Defaults here; the config keys are in Schema+Logging.swift.
struct LoggingSettings: Equatable {
    enum Format: String, CaseIterable {
        /// journal under systemd ($JOURNAL_STREAM or $INVOCATION_ID set), else terminal.
        case auto
        /// Time, level, message: for a person at a terminal.
        case terminal
        /// One line an event, no time (the journal adds it), syslog level prefix `<N>` that journald reads.
        case journal
    }

    /// swift-log's levels, spelt as in the config file (kept apart from swift-log so the config stays pure).
    enum Level: String, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    /// Least severe level written.
    var level = Level.info
    var format = Format.auto
}

/// Where `nodwire run` publishes gesture events (JSON Lines, as `replay` prints them).
struct EventSettings: Equatable {
    /// A Unix stream socket that many programs (a kiosk app) may connect to and read event lines from;
    /// empty: no socket.
    var socketPath = ""
    /// Also print every event line on standard output.
    var stdout = true
    /// Bytes of unsent lines a socket client may fall behind before it is disconnected (the loop never waits).
    var clientBufferBytes = 65_536

    /// Longest path a Unix socket address holds (sun_path, with its terminating zero).
    static let maxSocketPathBytes = 107

    func problems() -> [SettingProblem] {
        socketPath.utf8.count > Self.maxSocketPathBytes
            ? [SettingProblem(key: "events.socket_path", message: "is \(socketPath.utf8.count) bytes long; a Unix socket path may have at most \(Self.maxSocketPathBytes)")]
            : []
    }
}
