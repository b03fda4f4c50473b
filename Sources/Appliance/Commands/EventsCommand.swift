import ArgumentParser
import Foundation

/// `nodwire events`: connects to a running `nodwire run`'s event socket and prints the lines.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Prints the gesture events of a running `nodwire run`, one JSON line each.",
        discussion: """
        Reads the Unix socket set by events.socket_path (from --socket, else from --config). Ends when nodwire \
        run stops (exit 0). A reader that falls too far behind is disconnected by nodwire run (exit 0 as well).
        """
    )

    @Option(help: "The event socket (events.socket_path of the running nodwire).")
    var socket: String?

    @Option(help: "A config file to take events.socket_path from.")
    var config: String?

    func run() throws {
        var path = socket ?? ""
        if path.isEmpty, config != nil { path = try loadConfig(config).events.socketPath }
        guard !path.isEmpty else {
            throw Failure(message: "no event socket: give --socket PATH, or --config FILE with events.socket_path set", exitCode: 64)
        }
        let fd: Int32
        do { fd = try UnixSocket.connect(path: path) } catch {
            throw Failure(message: "\(path): cannot connect (\(error.reason)); is nodwire run running with events.socket_path = \"\(path)\"?", exitCode: 69)
        }
        defer { close(fd) }
        signal(SIGPIPE, SIG_IGN)
        // Lines pass through unchanged; flushed as they come so a pipe reader sees each event at once.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n == 0 { return }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "\(path): reading failed (\(String(cString: strerror(errno))))", exitCode: 74)
            }
            var done = 0
            while done < n {
                let w = buffer.withUnsafeBytes { write(1, $0.baseAddress! + done, n - done) }
                if w < 0 {
                    if errno == EINTR { continue }
                    return   // stdout closed (e.g. `| head`): nothing more to do
                }
                done += w
            }
        }
    }
}
