import ArgumentParser
import Foundation

/// `nodwire web-url`: where to open the setup page, token included, so a person can type it into a phone.
struct WebURLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-url",
        abstract: "Prints the address to open the setup page at, with its token.",
        discussion: """
        One URL a line, from the config's [web]: web.listen as it is, or for 0.0.0.0 / :: one line for each \
        of this machine's network addresses and its .local name. With web.token_file the token is in the part \
        after #, which the page keeps and the browser never sends to the server.
        Exit codes: 78 the config is refused or [web] is not enabled or the token file is missing or empty, \
        77 this user may not read the token file (root and group nodwire may), 69 no network address at all.
        """
    )

    /// Where deploy/install.sh puts the config (deploy/paths.sh).
    static let installedConfig = "/etc/nodwire/nodwire.toml"

    @Option(help: "The config file.")
    var config = Self.installedConfig

    func run() throws {
        if config == Self.installedConfig, !FileManager.default.fileExists(atPath: config) {
            throw Failure(message: "\(config) does not exist (deploy/install.sh puts it there): give --config FILE", exitCode: ConfigError.exitCode)
        }
        let web = try loadConfig(config).web
        guard web.enable else {
            throw Failure(message: "\(config): the setup page is off: add [web] with enable = true to it (docs/web.md), then restart nodwire",
                          exitCode: ConfigError.exitCode)
        }
        // The loader has checked the address.
        guard let listen = WebSettings.address(web.listen).address else { preconditionFailure("web.listen was checked at load") }
        let token = try WebURL.token(web)
        let urls = WebURL.urls(listen: listen, token: token, addresses: HostAddress.current(), hostname: HostAddress.hostname())
        if listen.loopback {
            note("web.listen \(listen.description) is reachable from this machine only; from another, "
                + "ssh -L \(listen.port):\(listen.description) USER@THIS-MACHINE and open the same address there")
        } else if listen.wildcard != nil, urls.count <= 1 {
            guard !urls.isEmpty else { throw Failure(message: "this machine has no network address up and no name to reach it by", exitCode: 69) }
            note("this machine has no network address up; only its .local name is printed")
        }
        print(urls.joined(separator: "\n"))
    }

    private func note(_ text: String) { FileHandle.standardError.write(Data("nodwire: \(text)\n".utf8)) }
}
