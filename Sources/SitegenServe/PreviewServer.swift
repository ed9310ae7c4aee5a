import FlyingFox
import FlyingSocks
import Foundation
import SitegenKit

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

    /// The site's own 404.html, as a static host would send it.
    private func notFound(_ resolver: SiteFileResolver, token: String) -> PreviewResponse {
        if case .file(let url, let contentType) = resolver.resolve(rawPath: "/404.html"), let bytes = try? Data(contentsOf: url) {
            return PreviewResponse(status: 404, headers: ["Content-Type": contentType],
                                   body: ReloadHook.inject(into: bytes, token: token))
        }
        return PreviewResponse(status: 404, headers: ["Content-Type": ContentType.plainText], body: Data("Not found\n".utf8))
    }

    /// `Host: 127.0.0.1:8080` → `127.0.0.1`; `[::1]:8080` → `[::1]`.
    static func hostName(_ header: String) -> String {
        let value = header.lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[...end]) }
        return String(value.prefix { $0 != ":" })
    }
}

struct PreviewHTTPHandler: HTTPHandler {
    let responder: PreviewResponder

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer = responder.respond(method: request.method.rawValue, rawPath: request.target.path(),
                                       host: request.headers[.host])
        var headers = HTTPHeaders()
        for (name, value) in answer.headers { headers[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: Self.phrase(answer.status)),
                            headers: headers, body: answer.body)
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 301: return "Moved Permanently"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        default: return "Error"
        }
    }
}

/// The HTTP server of `sitegen serve` (FlyingFox: Swift concurrency over plain sockets).
public final class PreviewServer: Sendable {
    public let site: ServedSite
    public let address: ListenAddress
    private let server: HTTPServer

    public struct StartFailure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(address: ListenAddress, site: ServedSite) throws(StartFailure) {
        self.site = site
        self.address = address
        let handler = PreviewHTTPHandler(responder: PreviewResponder(site: site, address: address))
        do {
            switch address.family {
            case .ipv4:
                server = HTTPServer(address: try sockaddr_in.inet(ip4: address.host, port: address.port),
                                    logger: .disabled, handler: handler)
            case .ipv6:
                server = HTTPServer(address: try sockaddr_in6.inet6(ip6: address.host, port: address.port),
                                    logger: .disabled, handler: handler)
            }
        } catch {
            throw StartFailure(description: "cannot listen on \(address.urlHost): \(error.localizedDescription)")
        }
    }

    /// Starts listening and returns the port (the chosen one when `address.port` is 0).
    public func start(timeout: Duration = .seconds(10)) async throws(StartFailure) -> UInt16 {
        let failure = ServerRunFailure()
        let server = self.server
        Task {
            do { try await server.run() } catch { failure.record(error) }
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if let error = failure.error {
                throw StartFailure(description: "cannot listen on \(address.urlHost):\(address.port): \(error.localizedDescription)")
            }
            switch await server.listeningAddress {
            case .ip4(_, let port)?, .ip6(_, let port)?:
                return port
            default:
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        throw StartFailure(description: "the server did not start listening on \(address.urlHost):\(address.port)")
    }

    public func stop() async {
        await server.stop(timeout: 1)
    }
}

/// The error that ended the server task, read by the task that waits for it to listen.
private final class ServerRunFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: (any Error)?

    var error: (any Error)? { lock.withLock { recorded } }

    func record(_ error: any Error) { lock.withLock { recorded = error } }
}
