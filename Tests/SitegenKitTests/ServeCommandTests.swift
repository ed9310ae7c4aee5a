import Foundation
import Glibc
@testable import SitegenKit
@testable import SitegenServe
import Testing
#if canImport(Glibc)
#endif

/// A running `sitegen serve` process, its output collected as it arrives.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var stdoutText = ""
    private var stderrText = ""

    /// `fileLimit`: the process's limit of open files (`ulimit -n`), to starve `accept`.
    init(_ arguments: [String], in folder: URL, fileLimit: Int? = nil) throws {
        guard let executable = SitegenProcess.executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "sitegen executable not found next to the tests"])
        }
        if let fileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(fileLimit) && exec \"$0\" serve \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = ["serve"] + arguments
        }
        process.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            guard let text = Self.take(handle) else { return }
            self?.lock.withLock { self?.stdoutText += text }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            guard let text = Self.take(handle) else { return }
            self?.lock.withLock { self?.stderrText += text }
        }
        try process.run()
    }

    /// What arrived, or nil at end of file, where the handler is removed (it would keep firing).
    private static func take(_ handle: FileHandle) -> String? {
        let data = handle.availableData
        guard !data.isEmpty else {
            handle.readabilityHandler = nil
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }

    var stdout: String { lock.withLock { stdoutText } }
    var stderr: String { lock.withLock { stderrText } }

    /// Polls `condition` every 100 ms until it holds or `seconds` pass.
    static func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    /// The port from `Serving http://127.0.0.1:PORT/ — press Ctrl-C to stop`.
    func waitForPort(within seconds: Double = 60) -> UInt16? {
        var port: UInt16?
        _ = Self.eventually(within: seconds) {
            guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("Serving http://127.0.0.1:") }) else {
                return !process.isRunning
            }
            port = UInt16(line.dropFirst("Serving http://127.0.0.1:".count).prefix { $0.isNumber })
            return true
        }
        return port
    }

    /// SIGTERM, then SIGKILL if it has not ended within 10 s; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            if !Self.eventually(within: 10, { !process.isRunning }) {
                kill(process.processIdentifier, SIGKILL)
            }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { stop() }
}

/// HTTP/1.1 over a plain socket to 127.0.0.1: the request line goes out byte for byte
/// (URLSession would normalise `/../` away before sending), and nothing can reach a proxy.
enum LoopbackHTTP {
    struct Response {
        let status: Int
        /// Lowercased names.
        let headers: [String: String]
        let body: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func get(_ rawPath: String, port: UInt16, method: String = "GET", host: String = "127.0.0.1",
                    extraHeaders: String = "") throws -> Response {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(descriptor) }
        // Bounded: a server that never answers fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to 127.0.0.1:\(port)") }
        let request = Array("\(method) \(rawPath) HTTP/1.1\r\nHost: \(host):\(port)\r\n\(extraHeaders)Connection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw Failure(description: "cannot send the request")
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                if count < 0 { throw Failure(description: "no complete answer to \(rawPath)") }
                break
            }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no header in: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(description: "bad status line: \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}

@Suite("sitegen serve (the real executable)", .serialized)
struct ServeCommandTests {
    @Test("Serves the built site on loopback, refuses traversal, reloads after a rebuild, keeps the old site when a rebuild fails")
    func serveAndRebuild() throws {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        let server = try ServeProcess(["--port", "0"], in: site.root)
        defer { server.stop() }

        let port = try #require(server.waitForPort(), "no Serving line; stdout: \(server.stdout) stderr: \(server.stderr)")
        #expect(server.stdout.hasPrefix("Built 25 pages (36 files) from 2 polls and 8 ballots for \"Golden Trips\" in "))
        #expect(server.stdout.hasSuffix("Serving http://127.0.0.1:\(port)/ — press Ctrl-C to stop\n"))

        // Pages, with the reload hook added only as they are served.
        let poll = try LoopbackHTTP.get("/polls/X7K9M2/", port: port)
        #expect(poll.status == 200)
        #expect(poll.headers["content-type"] == "text/html; charset=utf-8")
        #expect(poll.headers["cache-control"] == "no-store")
        #expect(poll.body.contains("<h1 dir=\"auto\">Spec example &lt;3 trips&gt;"))
        #expect(poll.body.contains("<script \(ReloadHook.marker)>"))
        let builtPoll = try site.read("Output/polls/X7K9M2/index.html")
        let builtToken = try LoopbackHTTP.get(ReloadHook.endpoint, port: port).body
        #expect(poll.body == String(decoding: ReloadHook.inject(into: Data(builtPoll.utf8), token: builtToken), as: UTF8.self))
        let written = try fileTree(site.root.appendingPathComponent("Output"))
        #expect(written.count == 36)
        #expect(written.values.allSatisfy { !String(decoding: $0, as: UTF8.self).contains(ReloadHook.marker) })
        #expect(written.values.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("<script") })

        let home = try LoopbackHTTP.get("/", port: port)
        #expect(home.status == 200)
        #expect(home.body.contains("<script \(ReloadHook.marker)>"))

        let redirect = try LoopbackHTTP.get("/polls/X7K9M2", port: port)
        #expect(redirect.status == 301)
        #expect(redirect.headers["location"] == "/polls/X7K9M2/")

        let results = try LoopbackHTTP.get("/polls/X7K9M2/results.json", port: port)
        #expect(results.status == 200)
        #expect(results.headers["content-type"] == "application/json")
        #expect(results.body == (try site.read("Output/polls/X7K9M2/results.json")))
        #expect(try LoopbackHTTP.get("/assets/site.css", port: port).headers["content-type"] == "text/css; charset=utf-8")
        #expect(try LoopbackHTTP.get("/sitemap.xml", port: port).headers["content-type"] == "application/xml")
        #expect(try LoopbackHTTP.get("/robots.txt", port: port).headers["content-type"] == "text/plain; charset=utf-8")

        // Traversal, raw and encoded: the site's 404 page, never site.yml.
        let notFoundPage = String(decoding: PreviewResponder.baseAtRoot(Data(try site.read("Output/404.html").utf8)), as: UTF8.self)
        #expect(notFoundPage.contains("<head>\n<base href=\"/\">\n"))
        for path in ["/../site.yml", "/%2e%2e/site.yml", "/assets/..%2f..%2fsite.yml", "/assets/../../site.yml",
                     "/%2e%2e%2fsite.yml", "/..%5csite.yml", "/site.yml%00", "/polls/NOPE22/"] {
            let response = try LoopbackHTTP.get(path, port: port)
            #expect(response.status == 404, "\(path)")
            #expect(response.body.hasPrefix(String(notFoundPage.prefix(200))), "\(path)")
            #expect(!response.body.contains("title: Golden Trips"), "\(path)")
        }
        #expect(try LoopbackHTTP.get("/", port: port, host: "attacker.example").status == 403)

        // Change an input: the rebuilt page is served within a bounded time, with a new build token.
        let pollsFile = "Data/polls/polls.json"
        try site.write(pollsFile, try site.read(pollsFile).replacingOccurrences(of: "Spec example <3 trips>", with: "Renamed by the test"))
        // The token changes just after the new files are swapped in: waiting for it means both happened.
        let rebuilt = try ServeProcess.eventually(within: 20) {
            try LoopbackHTTP.get(ReloadHook.endpoint, port: port).body != builtToken
        }
        #expect(rebuilt, "stdout: \(server.stdout) stderr: \(server.stderr)")
        let rebuiltToken = try LoopbackHTTP.get(ReloadHook.endpoint, port: port).body
        let rebuiltPoll = try LoopbackHTTP.get("/polls/X7K9M2/", port: port).body
        #expect(rebuiltPoll.contains("<h1 dir=\"auto\">Renamed by the test"))
        #expect(rebuiltPoll.contains("var served = \"\(rebuiltToken)\";"))
        #expect(server.stdout.contains("\(pollsFile) changed; rebuilding\nBuilt 25 pages"))

        // A failed rebuild prints its diagnostics and keeps serving the previous site.
        try site.write("Data/votes/broken.json", "[\n  {\"id\": \"not-a-uuid\"}\n]\n")
        let reported = ServeProcess.eventually(within: 20) { server.stdout.contains("The rebuild failed; still serving the previous site.") }
        #expect(reported, "stdout: \(server.stdout) stderr: \(server.stderr)")
        #expect(server.stderr.contains("Data/votes/broken.json:2:3: error: [0]: 5 required fields of the vote are missing"))
        let afterFailure = try LoopbackHTTP.get("/polls/X7K9M2/", port: port)
        #expect(afterFailure.status == 200)
        #expect(afterFailure.body.contains("<h1 dir=\"auto\">Renamed by the test"))
        #expect(try LoopbackHTTP.get(ReloadHook.endpoint, port: port).body == rebuiltToken)

        // SIGTERM ends it cleanly: status 0, no staging folder left behind.
        #expect(server.stop() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") } == [])
    }

    // Issue #19: with a low file limit, 300 slow clients once left serve alive but no longer
    // listening, for good. Now accept failures back off and retry, and the listener stays.
    @Test("Out of file descriptors, serve keeps listening and answers again once the clients leave")
    func acceptRecovers() throws {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        let server = try ServeProcess(["--port", "0"], in: site.root, fileLimit: 64)
        defer { server.stop() }
        let port = try #require(server.waitForPort(), "stdout: \(server.stdout) stderr: \(server.stderr)")
        // More clients than the process has descriptors: accept fails with EMFILE while they stay.
        var clients = try (0..<120).map { _ in try RawClient(port: port) }
        Thread.sleep(forTimeInterval: 1)
        #expect(server.process.isRunning)
        // Every descriptor is taken: the starvation this test is about really happened.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.process.processIdentifier)/fd").count
        #expect(open >= 60, "\(open) descriptors open")
        clients.removeAll()
        let answered = ServeProcess.eventually(within: 30) { (try? LoopbackHTTP.get("/", port: port).status) == 200 }
        #expect(answered, "stdout: \(server.stdout) stderr: \(server.stderr)")
        #expect(server.process.isRunning)
    }

    @Test("--host refuses host names; a port in use is an I/O failure")
    func badAddresses() throws {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        let named = try SitegenProcess.run(["serve", "--host", "example.org"], in: site.root)
        #expect(named.status == 2)
        #expect(named.stderr.hasPrefix("Error: --host must be a numeric IP address such as 127.0.0.1, ::1 or 0.0.0.0, found \"example.org\""))

        let first = try ServeProcess(["--port", "0"], in: site.root)
        defer { first.stop() }
        let port = try #require(first.waitForPort())
        let busy = try ServeProcess(["--port", String(port)], in: site.root)
        defer { busy.stop() }
        #expect(ServeProcess.eventually(within: 60) { !busy.process.isRunning })
        #expect(busy.stop() == 3)
        #expect(busy.stderr.hasPrefix("error: cannot listen on 127.0.0.1:\(port): "))
    }
}
