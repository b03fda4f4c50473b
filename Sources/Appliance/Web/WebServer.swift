import Foundation
import Hummingbird
import Logging
import NIOCore
import Pipeline
import ServiceLifecycle

/// What a request handler knows of its connection: who sent it (for the log), and a small body limit
/// (the API takes nothing larger than a form with a token).
struct WebContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remote: String
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        let address = source.channel.remoteAddress
        remote = address.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "unknown"
    }

    var maxUploadSize: Int { 16_384 }
}

/// The setup page's HTTP side (Hummingbird): the page itself, `GET /api/status`, `GET /api/events`
/// (Server-Sent Events: the event stream's lines, plus `status` and `pose` messages while a page watches)
/// and `POST /api/outputs/<name>/pulse`. Every handler only reads snapshots or queues a pulse on the
/// output runner's own thread: nothing here can make the frame loop or the outputs wait.
enum WebServer {
    static let pulseMs = 500

    static func router(hub: WebHub, status: WebStatus, auth: WebAuth, fit: WebFit? = nil, logger: Logger) -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        let refusals = RefusalLog(logger: logger)
        @Sendable func headers(_ request: Request) -> [String: String] {
            var h: [String: String] = [:]
            for field in request.headers { h[field.name.canonicalName] = field.value }
            // HTTP/1.1's Host arrives as the request's authority, not as a header field.
            h["host"] = request.head.authority
            return h
        }
        /// nil when allowed, else the refusal (logged, rate-limited by `auth`).
        @Sendable func gate(_ request: Request, _ context: WebContext, post: Bool, formToken: String? = nil) -> Response? {
            let verdict = auth.check(headers: headers(request), post: post, formToken: formToken)
            let (code, why): (HTTPResponse.Status, String)
            switch verdict {
            case .allowed: return nil
            case let .unauthorized(w): (code, why) = (.unauthorized, w)
            case let .forbidden(w): (code, why) = (.forbidden, w)
            case .limited: (code, why) = (.tooManyRequests, "too many refused requests; try again in a minute")
            }
            refusals.note("\(request.method) \(request.uri.path) from \(context.remote): \(code.code) \(why)", limited: verdict == .limited)
            return json(code, "{\"ok\":false,\"message\":\(EventJSON.quoted(why))}")
        }

        router.get("/") { _, _ in asset(WebPage.html, "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in asset(WebPage.script, "text/javascript; charset=utf-8") }
        router.get("/app.css") { _, _ in asset(WebPage.style, "text/css; charset=utf-8") }

        router.get("/api/status") { request, context in
            gate(request, context, post: false) ?? json(.ok, status.json())
        }

        // The newest frame as JPEG, with what was seen in it in the X-Nodwire-Face header (JSON: box,
        // landmarks, pointer; null without a face). Asking starts the loop keeping frames for 3 s.
        router.get("/api/picture.jpg") { request, context in
            if let refused = gate(request, context, post: false) { return refused }
            guard let picture = status.loop.watchPicture(for: 3) else {
                return json(.serviceUnavailable, "{\"ok\":false,\"message\":\"no picture yet: ask again in a moment\"}")
            }
            guard let jpeg = JPEG.encode(picture.frame) else { return json(.internalServerError, "{\"ok\":false,\"message\":\"the frame could not be encoded\"}") }
            var head = HTTPFields()
            head[.contentType] = "image/jpeg"
            head[.cacheControl] = "no-store"
            head[HTTPFields.Element.Name("X-Nodwire-Face")!] = WebStatus.faceJSON(picture)
            return Response(status: .ok, headers: head, body: .init(byteBuffer: ByteBuffer(bytes: jpeg)))
        }

        router.get("/api/events") { request, context in
            if let refused = gate(request, context, post: false) { return refused }
            // Small buffers under the stream: a page that stops reading fills them within seconds and
            // is dropped, instead of the kernel holding megabytes for it.
            try? await context.channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 8192).get()
            try? await context.channel.setOption(ChannelOptions.writeBufferWaterMark, value: .init(low: 4096, high: 8192)).get()
            let client = hub.connect()
            let first = "retry: 2000\n\nevent: status\ndata: \(status.json())\n\n"
            var head = HTTPFields()
            head[.contentType] = "text/event-stream"
            head[.cacheControl] = "no-store"
            return Response(status: .ok, headers: head, body: ResponseBody { writer in
                defer { hub.disconnect(client) }
                try await client.cancellable {
                    try await writer.write(ByteBuffer(string: first))
                    while let batch = await client.next() { try await writer.write(ByteBuffer(string: batch)) }
                }
                try await writer.finish(nil)
            })
        }

        router.post("/api/outputs/:name/pulse") { request, context in
            var request = request
            let form = try await request.collectBody(upTo: context.maxUploadSize)
            let formToken = Self.formField("token", in: String(buffer: form))
            if let refused = gate(request, context, post: true, formToken: formToken) { return refused }
            let name = context.parameters.get("name") ?? ""
            let reply = status.pulse(name, ms: pulseMs)
            if reply.ok { logger.notice("web: \(reply.message) (from \(context.remote))") } else { logger.warning("web: pulse refused: \(reply.message)") }
            return json(reply.ok ? .ok : .notFound, "{\"ok\":\(reply.ok),\"message\":\(EventJSON.quoted(reply.message))}")
        }
        if let fit {
            WebFit.routes(router, fit: fit) { gate($0, $1, post: $2, formToken: $3) }
            WebTuning.routes(router, tuning: fit.tuning) { gate($0, $1, post: $2, formToken: $3) }
        }
        return router
    }

    static func json(_ code: HTTPResponse.Status, _ body: String) -> Response {
        var head = HTTPFields()
        head[.contentType] = "application/json"
        head[.cacheControl] = "no-store"
        return Response(status: code, headers: head, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// The page's files: only this origin's scripts and styles may run, and no other site may frame it.
    static func asset(_ text: String, _ type: String) -> Response {
        var head = HTTPFields()
        head[.contentType] = type
        head[.cacheControl] = "no-cache"
        head[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
        head[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: head, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A field of an application/x-www-form-urlencoded body.
    static func formField(_ name: String, in body: String) -> String? {
        for pair in body.split(separator: "&") where pair.hasPrefix(name + "=") {
            return String(pair.dropFirst(name.count + 1)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}

/// Refused requests go to the log; while the limiter is refusing everything, one line in ten seconds.
final class RefusalLog: @unchecked Sendable {
    private let logger: Logger
    private let lock = NSLock()
    private var lastLimited = -Double.infinity
    private var quiet = 0

    init(logger: Logger) { self.logger = logger }

    func note(_ what: String, limited: Bool) {
        guard limited else { logger.warning("web: refused \(what)"); return }
        let now = MonotonicClock.now()
        let skipped: Int? = lock.withLock {
            if now - lastLimited < 10 { quiet += 1; return nil }
            defer { lastLimited = now; quiet = 0 }
            return quiet
        }
        if let skipped { logger.warning("web: refused \(what)\(skipped > 0 ? " (and \(skipped) more like it)" : "")") }
    }
}

/// The web server as a service of `nodwire run`: Hummingbird's application, plus a ticker that, while a
/// page watches, sends the head's pose (10 a second) and the status (each second) down the event streams.
/// On shutdown every stream ends, so no page holds the process.
struct WebService<App: ApplicationProtocol>: Service {
    let app: App
    let hub: WebHub
    let status: WebStatus
    let address: WebSettings.Address

    func run() async throws {
        let (hub, status) = (self.hub, self.status)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do { try await app.run() } catch {
                    throw Failure(message: "web.listen \(address.description): cannot serve the setup page: \(error)", exitCode: 69)
                }
            }
            group.addTask {
                try? await cancelWhenGracefulShutdown {
                    var lastFrame = -1
                    var tick = 0
                    while true {
                        if tick % 10 == 0 { status.tick() }
                        guard hub.hasClients else {
                            // Nobody watching: only the rates' baseline, once a second.
                            tick = 0
                            try await Task.sleep(nanoseconds: 1_000_000_000)
                            continue
                        }
                        let s = status.loop.current
                        if s.frames != lastFrame {
                            lastFrame = s.frames
                            hub.send(event: "pose", data: WebStatus.poseJSON(s))
                        }
                        if tick % 10 == 0 { hub.send(event: "status", data: status.json()) }
                        tick += 1
                        try await Task.sleep(nanoseconds: 100_000_000)
                    }
                }
                hub.closeAll()
            }
            // The first failure (the address cannot be had) ends the rest; else both end on shutdown.
            for try await _ in group {}
        }
    }
}
