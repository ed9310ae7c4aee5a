import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import SitegenKit
import SitegenOutput

/// The output folder being served and the token of its latest successful build.
public final class ServedSite: @unchecked Sendable {
    private let lock = NSLock()
    private var currentRoot: URL
    private var builds = 0
    /// Differs between runs of `sitegen serve`, so a page left open across a restart reloads too.
    private let session = String(UUID().uuidString.prefix(8))

    public init(root: URL) {
        currentRoot = root.standardizedFileURL
    }

    public var root: URL { lock.withLock { currentRoot } }

    public var buildToken: String { lock.withLock { "\(session)-\(builds)" } }

    /// Called after each successful build: open pages reload; the output folder may have moved (site.yml `output`).
    public func publish(root: URL) {
        lock.withLock {
            currentRoot = root.standardizedFileURL
            builds += 1
        }
    }
}

/// One HTTP answer, independent of the server library so it can be tested directly.
public struct PreviewResponse: Equatable, Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
}

/// Answers requests from the served output folder. Only GET and HEAD; nothing is ever written.
public struct PreviewResponder: Sendable {
    public let site: ServedSite
    /// For a loopback server: the Host names it answers to. A web page elsewhere can point its
    /// own host name at 127.0.0.1 (DNS rebinding); checking Host keeps it from reading the site.
    public let allowedHosts: Set<String>?

    public init(site: ServedSite, address: ListenAddress) {
        self.site = site
        allowedHosts = address.isLoopback ? ["localhost", "127.0.0.1", "[::1]", address.urlHost.lowercased()] : nil
    }

    public func respond(method: String, rawPath: String, host: String?) -> PreviewResponse {
        var response = answer(method: method, rawPath: rawPath, host: host)
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Content-Length"] = String(response.body.count)
        if method == "HEAD" { response.body = Data() }
        return response
    }

    private func answer(method: String, rawPath: String, host: String?) -> PreviewResponse {
        guard method == "GET" || method == "HEAD" else {
            return PreviewResponse(status: 405, headers: ["Allow": "GET, HEAD", "Content-Type": ContentType.plainText],
                                   body: Data("Method not allowed: sitegen serve only reads the site.\n".utf8))
        }
        if let allowedHosts, let host, !allowedHosts.contains(Self.hostName(host)) {
            return PreviewResponse(status: 403, headers: ["Content-Type": ContentType.plainText],
                                   body: Data("sitegen serve answers requests for localhost only.\n".utf8))
        }
        let token = site.buildToken
        if rawPath == ReloadHook.endpoint {
            return PreviewResponse(status: 200, headers: ["Content-Type": ContentType.plainText], body: Data(token.utf8))
        }
        let resolver = SiteFileResolver(root: site.root)
        switch resolver.resolve(rawPath: rawPath) {
        case .file(let url, let contentType):
            // Unreadable, or swapped away by a rebuild between resolving and reading.
            guard let bytes = try? Data(contentsOf: url) else { return notFound(resolver, token: token) }
            let body = contentType == ContentType.html ? ReloadHook.inject(into: bytes, token: token) : bytes
            return PreviewResponse(status: 200, headers: ["Content-Type": contentType], body: body)
        case .redirect(let location):
            return PreviewResponse(status: 301, headers: ["Location": location, "Content-Type": ContentType.plainText],
                                   body: Data("Moved to \(location)\n".utf8))
        case .notFound:
            return notFound(resolver, token: token)
        }
    }

    /// The site's own 404.html, as a static host would send it, its relative links read from
    /// the root (`baseAtRoot`).
    private func notFound(_ resolver: SiteFileResolver, token: String) -> PreviewResponse {
        if case .file(let url, let contentType) = resolver.resolve(rawPath: "/404.html"), let bytes = try? Data(contentsOf: url) {
            return PreviewResponse(status: 404, headers: ["Content-Type": contentType],
                                   body: ReloadHook.inject(into: Self.baseAtRoot(bytes), token: token))
        }
        return PreviewResponse(status: 404, headers: ["Content-Type": ContentType.plainText], body: Data("Not found\n".utf8))
    }

    /// `<base href="/">` first in the page's head. With `urls: files` and no baseURL the 404
    /// page's links are relative to the root (it is meant to be opened from disk), so
    /// served at /polls/ZZZZZZ/ its "Home" led to /polls/ZZZZZZ/index.html, another 404. The
    /// preview serves the site at its root, so links read from there are right in every
    /// URL style; absolute and root-relative ones are unchanged by it. A page without a
    /// `<head>`, or with a base of its own, is sent as it is.
    static func baseAtRoot(_ html: Data) -> Data {
        let bytes = [UInt8](html)
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        func find(_ needle: String, from start: Int = 0) -> Int? {
            let needle = Array(needle.utf8)
            guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
            return (start...(bytes.count - needle.count)).first { at in needle.indices.allSatisfy { lower[at + $0] == needle[$0] } }
        }
        guard find("<base") == nil, let head = find("<head"), head + 5 < bytes.count,
              [UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t")].contains(bytes[head + 5]),
              let close = find(">", from: head) else { return html }
        return Data(bytes[...close] + Array("\n<base href=\"/\">".utf8) + bytes[(close + 1)...])
    }

    /// `Host: 127.0.0.1:8080` → `127.0.0.1`; `[::1]:8080` → `[::1]`.
    static func hostName(_ header: String) -> String {
        let value = header.lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[...end]) }
        return String(value.prefix { $0 != ":" })
    }
}

/// HTTP/1.1 with `RequestHeadGuard` in front of HummingbirdCore's parser.
struct GuardedHTTP1Channel: ServerChildChannel {
    let http: HTTP1Channel
    let limits: RequestLimits

    init(responder: PreviewResponder, limits: RequestLimits) {
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        // Behind the guard's limits, so the guard's clearer answers come first.
        decoder.maxHeaderListSize = limits.requestLine + limits.headers + 1024
        decoder.maxHeaderFieldSize = decoder.maxHeaderListSize
        decoder.maxHeaderFieldCount = limits.headers / 4   // "A:1\r\n" is the smallest field
        let configuration = HTTP1Channel.Configuration(idleTimeout: limits.idleTimeout, httpDecoderConfiguration: decoder)
        http = HTTP1Channel(responder: { request, writer, _ in
            try await Self.answer(request, with: responder, writer: writer)
        }, configuration: configuration)
        self.limits = limits
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        let limits = self.limits
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(limits: limits), position: .first)
        }.flatMap { http.setup(channel: channel, logger: logger) }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http.handle(value: value, logger: logger)
    }

    static func answer(_ request: Request, with responder: PreviewResponder, writer: consuming ResponseWriter) async throws {
        // The raw request target, still percent-encoded; the query plays no part in a static site.
        let target = request.head.path ?? "/"
        let rawPath = String(target.prefix { $0 != "?" })
        let answer = responder.respond(method: request.method.rawValue, rawPath: rawPath, host: request.head.authority)
        var fields = HTTPFields()
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        let head = HTTPResponse(status: .init(code: answer.status), headerFields: fields)
        try await writer.write(response: head, body: ResponseBody(byteBuffer: NIOCore.ByteBuffer(bytes: answer.body)))
    }
}

/// The HTTP server of `sitegen serve` (HummingbirdCore on SwiftNIO), with `RequestLimits`.
public final class PreviewServer: Sendable {
    public let site: ServedSite
    public let address: ListenAddress
    private let server: Server<GuardedHTTP1Channel>
    private let listening = ListeningPort()

    public struct StartFailure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(address: ListenAddress, site: ServedSite, limits: RequestLimits = RequestLimits()) throws(StartFailure) {
        self.site = site
        self.address = address
        let channel = GuardedHTTP1Channel(responder: PreviewResponder(site: site, address: address), limits: limits)
        let configuration = ServerConfiguration(
            address: .hostname(address.host, port: Int(address.port)),
            // Past the cap, clients wait in the listen backlog; the listener itself stays open.
            availableConnectionsDelegate: MaximumAvailableConnections(limits.connections)
        )
        let listening = self.listening
        server = Server(childChannelSetup: channel, configuration: configuration,
                        onServerRunning: { listening.record($0.localAddress?.port) },
                        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
                        logger: Logger(label: "sitegen.serve", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Starts listening and returns the port (the chosen one when `address.port` is 0).
    /// Accept failures (too many open files) do not end the server: NIO backs off and retries.
    /// A bind that fails says so at once; the timeout only ends a start that hangs, so it is
    /// generous: on a machine busy with two large builds, 10 s was once not enough.
    public func start(timeout: Duration = .seconds(60)) async throws(StartFailure) -> UInt16 {
        let server = self.server
        let listening = self.listening
        Task(executorPreference: ServerExecutor.shared) {
            do { try await server.run() } catch { listening.fail(error) }
        }
        return try await listening.port(by: ContinuousClock.now + timeout, address: address)
    }

    public func stop() async {
        try? await server.shutdownGracefully()
    }

    /// NIO's bind errors read "bind(descriptor:ptr:bytes:): Address already in use (errno: 98)".
    static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        return "\(error)"
    }
}

/// The port the server listens on, or the error that ended it before it could.
final class ListeningPort: @unchecked Sendable {
    enum State { case starting, listening(UInt16), failed(any Error) }

    /// Waits for the port until `deadline`. The state is read once more after the deadline:
    /// the waiting task may wake long after the server started listening (Swift's shared
    /// pool held by other work), and that is a start, not a failure.
    func port(by deadline: ContinuousClock.Instant, address: ListenAddress) async throws(PreviewServer.StartFailure) -> UInt16 {
        while true {
            switch state {
            case .failed(let error):
                throw .init(description: "cannot listen on \(address.urlHost):\(address.port): \(PreviewServer.describe(error))")
            case .listening(let port):
                return port
            case .starting:
                guard ContinuousClock.now < deadline else {
                    throw .init(description: "the server did not start listening on \(address.urlHost):\(address.port)")
                }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    private let lock = NSLock()
    private var current = State.starting

    var state: State { lock.withLock { current } }

    func record(_ port: Int?) {
        lock.withLock { current = port.flatMap { UInt16(exactly: $0) }.map(State.listening) ?? .failed(Unlistened()) }
    }

    func fail(_ error: any Error) { lock.withLock { current = .failed(error) } }

    struct Unlistened: Error, CustomStringConvertible {
        var description: String { "no local address" }
    }
}

/// Runs the server's task on a queue of its own instead of Swift's shared pool of threads,
/// one a core: work that blocks those threads (the test suite's tests on a 2-core machine
/// kept a server from listening for over a minute) would otherwise keep it from starting.
/// A queue of our own gets threads even when every core is busy; it is concurrent, so
/// requests are still answered side by side.
private final class ServerExecutor: TaskExecutor {
    static let shared = ServerExecutor()
    private let queue = DispatchQueue(label: "sitegen.serve", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
