/// Why `nodwire run` (or `nodwire events`) cannot start or go on, worded for the installer, with the
/// sysexits code the process ends with.
enum RunError: Error, Equatable, CustomStringConvertible {
    /// The frame source cannot be opened or failed while running.
    case source(String, exitCode: Int32)
    /// The source named on the command line is not available in this build.
    case sourceUnavailable(String)
    /// The event socket cannot be created (path in use, directory missing, permissions).
    case eventSocket(path: String, reason: String)
    /// $NOTIFY_SOCKET is unusable.
    case notify(String)
    /// An output line could not be written (every output was set to its safe value first).
    case outputs(String, exitCode: Int32)

    var description: String {
        switch self {
        case let .source(message, _): return message
        case let .sourceUnavailable(message): return message
        case let .eventSocket(path, reason): return "\(path): cannot serve events on this socket: \(reason)"
        case let .notify(message): return message
        case let .outputs(message, _): return "outputs: \(message)"
        }
    }

    /// sysexits(3): 66 no input, 65 bad data, 69 unavailable, 73 cannot create, 71 OS error.
    var exitCode: Int32 {
        switch self {
        case let .source(_, code): return code
        case .sourceUnavailable: return 69
        case .eventSocket: return 73
        case .notify: return 71
        case let .outputs(_, code): return code
        }
    }

    var failure: Failure { Failure(message: description, exitCode: exitCode) }
}
