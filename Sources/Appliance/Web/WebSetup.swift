import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// Puts the web side together from `[web]`, for `nodwire run` and `nodwire replay --realtime`.
enum WebSetup {
    /// The token from web.token_file (nil without one), read before anything is opened so a missing or
    /// unreadable file is refused like a bad config (exit 78). Never logged.
    static func token(_ settings: WebSettings) throws(Failure) -> String? {
        guard settings.enable, !settings.tokenFile.isEmpty else { return nil }
        do { return try SecretFile.firstLine(settings.tokenFile) } catch {
            throw Failure(message: "web.token_file \(settings.tokenFile): \(error.why)", exitCode: ConfigError.exitCode)
        }
    }

    /// `onRunning`: called once the address is had and the page is served. `fit`: the guided fit (run only).
    static func service(_ settings: WebSettings, token: String?, hub: WebHub, loop: any LoopView, outputs: OutputRunner?,
                        pulsable: [String], sourceName: String, fit: WebFit? = nil, logger: Logger,
                        onRunning: @escaping @Sendable () -> Void = {}) -> any Service {
        // The config loader has checked the address.
        guard case let .success(address) = WebSettings.address(settings.listen) else { preconditionFailure("web.listen was checked at load") }
        let auth = WebAuth(token: token)
        let status = WebStatus(loop: loop, outputs: outputs, pulsable: pulsable, sourceName: sourceName, hub: hub, auth: auth)
        let router = WebServer.router(hub: hub, status: status, auth: auth, fit: fit, logger: logger)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "nodwire",
                                 availableConnectionsDelegate: MaximumAvailableConnections(settings.maxConnections)),
            onServerRunning: { _ in
                logger.notice("web: serving the setup page on http://\(address.description)/\(token == nil ? " (loopback, no token)" : " (token required)")")
                onRunning()
            },
            logger: logger)
        return WebService(app: app, hub: hub, status: status, address: address)
    }
}
