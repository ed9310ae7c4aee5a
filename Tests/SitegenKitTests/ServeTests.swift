import Foundation
@testable import SitegenCore
@testable import SitegenModel
@testable import SitegenServe
import Testing

/// A small output folder: pages, a stylesheet, a calendar, a 404 page, and things outside it
/// that a request must never reach.
final class ServedFolder {
    let site: TemporarySite
    var root: URL { site.root.appendingPathComponent("Output") }

    init() throws {
        site = try TemporarySite()
        try site.write("site.yml", "title: Secret\n")
        try site.write("Output/index.html", "<!DOCTYPE html><html><body><h1>Home</h1></body></html>\n")
        try site.write("Output/404.html", "<html><BODY>Missing</BODY></html>")
        try site.write("Output/polls/ABC234/index.html", "<html><body>Poll</body></html>")
        try site.write("Output/polls/ABC234/results.json", "{}")
        try site.write("Output/trips/T1/calendar.ics", "BEGIN:VCALENDAR")
        try site.write("Output/assets/site.css", "body{}")
        try site.write("Output/empty-folder/.keep", "")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("escape.yml").path,
                                                   withDestinationPath: site.root.appendingPathComponent("site.yml").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("outside").path,
                                                   withDestinationPath: site.root.path)
    }

    func file(_ path: String) -> URL {
        URL(fileURLWithPath: realPath(root.appendingPathComponent(path).path)!)
    }
}

@Suite("sitegen serve: requests, reload hook, watching")
struct ServeTests {
    @Test("Files, folders with index.html and redirects for folders without their slash")
    func resolvesSitePaths() throws {
        let folder = try ServedFolder()
        let resolver = SiteFileResolver(root: folder.root)
        #expect(resolver.resolve(rawPath: "/") == .file(folder.file("index.html"), contentType: "text/html; charset=utf-8"))
        #expect(resolver.resolve(rawPath: "/polls/ABC234/") == .file(folder.file("polls/ABC234/index.html"), contentType: "text/html; charset=utf-8"))
        #expect(resolver.resolve(rawPath: "/polls/ABC234") == .redirect(location: "/polls/ABC234/"))
        #expect(resolver.resolve(rawPath: "/polls/%41BC234") == .redirect(location: "/polls/%41BC234/"))
        #expect(resolver.resolve(rawPath: "/polls/ABC234/results.json") == .file(folder.file("polls/ABC234/results.json"), contentType: "application/json"))
        #expect(resolver.resolve(rawPath: "/trips/T1/calendar.ics") == .file(folder.file("trips/T1/calendar.ics"), contentType: "text/calendar; charset=utf-8"))
        #expect(resolver.resolve(rawPath: "/assets/site.css") == .file(folder.file("assets/site.css"), contentType: "text/css; charset=utf-8"))
        // A file asked for as a folder, a folder without index.html, a missing file.
        #expect(resolver.resolve(rawPath: "/assets/site.css/") == .notFound)
        #expect(resolver.resolve(rawPath: "/empty-folder/") == .notFound)
        #expect(resolver.resolve(rawPath: "/polls/NOPE22/") == .notFound)
    }

    @Test("Traversal, encoded traversal, NUL, backslashes, hidden files and symlinks out of the folder are all 404",
          arguments: ["/../site.yml", "/%2e%2e/site.yml", "/%2E%2E/site.yml", "/assets/..%2f..%2fsite.yml",
                      "/assets/../../site.yml", "/assets/%2e%2e%2f%2e%2e%2fsite.yml", "/..", "/./index.html",
                      "/index.html%00", "/%00", "/assets%5c..%5c..%5csite.yml", "/assets\\..\\site.yml",
                      "/escape.yml", "/outside/site.yml", "/outside/", "/polls//ABC234/", "//etc/passwd",
                      "/%zz", "/index.html%0d%0aX-Injected:%201", "/.keep", "/empty-folder/.keep",
                      "site.yml", "http://example.org/site.yml", "/polls/ABC234/results.json/../../../../site.yml"])
    func refusesEscapes(rawPath: String) throws {
        let folder = try ServedFolder()
        #expect(SiteFileResolver(root: folder.root).resolve(rawPath: rawPath) == .notFound)
    }

    @Test("Content types by extension")
    func contentTypes() {
        #expect(ContentType.forFileName("index.html") == "text/html; charset=utf-8")
        #expect(ContentType.forFileName("site.CSS") == "text/css; charset=utf-8")
        #expect(ContentType.forFileName("results.json") == "application/json")
        #expect(ContentType.forFileName("calendar.ics") == "text/calendar; charset=utf-8")
        #expect(ContentType.forFileName("sitemap.xml") == "application/xml")
        #expect(ContentType.forFileName("robots.txt") == "text/plain; charset=utf-8")
        #expect(ContentType.forFileName("route.svg") == "image/svg+xml")
        #expect(ContentType.forFileName("screenshot.png") == "image/png")
        #expect(ContentType.forFileName("README") == "application/octet-stream")
    }

    @Test("The reload script goes before the last </body>, in any case, or at the end")
    func injectsReloadHook() {
        let script = ReloadHook.script(token: "t-1")
        #expect(script.hasPrefix("<script data-sitegen-serve>"))
        #expect(script.contains(#"var served = "t-1";"#))
        #expect(script.contains(#"fetch("/__sitegen/build", { cache: "no-store" })"#))
        let page = Data("<p>a</body> <p>b</BODY>\n</html>".utf8)
        #expect(String(decoding: ReloadHook.inject(into: page, token: "t-1"), as: UTF8.self) == "<p>a</body> <p>b\(script)</BODY>\n</html>")
        #expect(String(decoding: ReloadHook.inject(into: Data("<p>x".utf8), token: "t-1"), as: UTF8.self) == "<p>x\(script)")
    }

    @Test("The 404 page is served with its relative links read from the site's root")
    func notFoundBase() {
        func based(_ html: String) -> String { String(decoding: PreviewResponder.baseAtRoot(Data(html.utf8)), as: UTF8.self) }
        #expect(based("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">") == "<!DOCTYPE html>\n<html>\n<head>\n<base href=\"/\">\n<meta charset=\"utf-8\">")
        #expect(based("<HEAD lang=x><title>t</title>") == "<HEAD lang=x>\n<base href=\"/\"><title>t</title>")
        // No head, a header element, a base of its own, a head cut short: as it is.
        for page in ["<html><BODY>Missing</BODY></html>", "<header>x</header>", "<head><base href=\"/x/\">", "<head"] {
            #expect(based(page) == page)
        }
    }

    @Test("Responses: HTML gets the hook, other files are sent as they are, 404 is the site's page")
    func responses() throws {
        let folder = try ServedFolder()
        let served = ServedSite(root: folder.root)
        let responder = PreviewResponder(site: served, address: try ListenAddress(host: "127.0.0.1", port: 0))
        let token = served.buildToken

        let home = responder.respond(method: "GET", rawPath: "/", host: "127.0.0.1:8080")
        #expect(home.status == 200)
        #expect(home.headers == ["Content-Type": "text/html; charset=utf-8", "Content-Length": String(home.body.count),
                                 "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"])
        #expect(String(decoding: home.body, as: UTF8.self)
                == "<!DOCTYPE html><html><body><h1>Home</h1>\(ReloadHook.script(token: token))</body></html>\n")

        let css = responder.respond(method: "GET", rawPath: "/assets/site.css", host: "localhost:8080")
        #expect(css.status == 200)
        #expect(css.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(css.body == Data("body{}".utf8))

        let missing = responder.respond(method: "GET", rawPath: "/../site.yml", host: nil)
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self) == "<html><BODY>Missing\(ReloadHook.script(token: token))</BODY></html>")

        let redirect = responder.respond(method: "GET", rawPath: "/polls/ABC234", host: "[::1]:8080")
        #expect(redirect.status == 301)
        #expect(redirect.headers["Location"] == "/polls/ABC234/")

        let head = responder.respond(method: "HEAD", rawPath: "/assets/site.css", host: nil)
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == "6")
        #expect(head.body.isEmpty)

        #expect(responder.respond(method: "POST", rawPath: "/", host: nil).status == 405)
        #expect(responder.respond(method: "GET", rawPath: ReloadHook.endpoint, host: nil).body == Data(token.utf8))
    }

    @Test("A loopback server answers only requests addressed to localhost (DNS rebinding)")
    func hostCheck() throws {
        let folder = try ServedFolder()
        let loopback = PreviewResponder(site: ServedSite(root: folder.root), address: try ListenAddress(host: "127.0.0.1", port: 0))
        #expect(loopback.respond(method: "GET", rawPath: "/", host: "evil.example:8080").status == 403)
        #expect(loopback.respond(method: "GET", rawPath: "/", host: "LOCALHOST").status == 200)
        let everywhere = PreviewResponder(site: ServedSite(root: folder.root), address: try ListenAddress(host: "0.0.0.0", port: 0))
        #expect(everywhere.respond(method: "GET", rawPath: "/", host: "laptop.local:8080").status == 200)
    }

    @Test("A rebuild changes the build token; the output folder can move")
    func publish() throws {
        let served = ServedSite(root: URL(fileURLWithPath: "/tmp/a/../b"))
        let before = served.buildToken
        served.publish(root: URL(fileURLWithPath: "/tmp/c"))
        #expect(served.buildToken != before)
        #expect(served.buildToken.hasSuffix("-1"))
        #expect(served.root.path == "/tmp/c")
    }

    @Test("--host takes numeric addresses and localhost only")
    func listenAddresses() throws {
        let loopback = try ListenAddress(host: "127.0.0.1", port: 0)
        #expect(loopback.isLoopback && !loopback.isEveryInterface)
        #expect(loopback.url(port: 8080) == "http://127.0.0.1:8080/")
        #expect(try ListenAddress(host: "localhost", port: 1).host == "127.0.0.1")
        let ipv6 = try ListenAddress(host: "::1", port: 0)
        #expect(ipv6.isLoopback)
        #expect(ipv6.url(port: 9) == "http://[::1]:9/")
        #expect(try ListenAddress(host: "[::1]", port: 0) == ipv6)
        #expect(try ListenAddress(host: "0.0.0.0", port: 0).isEveryInterface)
        #expect(try ListenAddress(host: "::", port: 0).isEveryInterface)
        #expect(try !ListenAddress(host: "192.168.1.20", port: 0).isLoopback)
        #expect(throws: ListenAddress.Invalid(description: "--host must be a numeric IP address such as 127.0.0.1, ::1 or 0.0.0.0, found \"example.org\"")) {
            try ListenAddress(host: "example.org", port: 0)
        }
    }

    @Test("Snapshots see added, changed and removed inputs, and skip hidden files and the output folder")
    func snapshots() throws {
        let site = try TemporarySite()
        try site.write("site.yml", "title: T\n")
        try site.write("Data/polls/a.json", "[]")
        try site.write("Data/Output/index.html", "built")
        let inputs = WatchedInputs(roots: [site.root.appendingPathComponent("site.yml"), site.root.appendingPathComponent("Data"),
                                           site.root.appendingPathComponent("Templates")],
                                   excluded: [site.root.appendingPathComponent("Data/Output")])
        let first = InputSnapshot.scan(inputs)
        #expect(first.stamps.keys.sorted() == [site.root.appendingPathComponent("Data/polls/a.json").path,
                                               site.root.appendingPathComponent("site.yml").path])
        try site.write("Data/polls/.a.json.swp", "editor")
        try site.write("Data/Output/index.html", "rebuilt")
        #expect(InputSnapshot.scan(inputs) == first)

        try site.write("Data/polls/a.json", "[ ]")
        try site.write("Templates/home.mustache", "x")
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("site.yml"))
        #expect(InputSnapshot.scan(inputs).changes(since: first) == [
            site.root.appendingPathComponent("Data/polls/a.json").path,
            site.root.appendingPathComponent("Templates/home.mustache").path,
            site.root.appendingPathComponent("site.yml").path,
        ])
    }
}

extension ServeTests {
    @Test("The watcher follows a linked input folder, as the build does (issue #19)")
    func watchesLinkedFolders() throws {
        let site = try TemporarySite()
        try site.write("shared/v.json", "[]")
        try FileManager.default.createDirectory(at: site.root.appendingPathComponent("Data"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.root.appendingPathComponent("Data/votes").path,
                                                   withDestinationPath: site.root.appendingPathComponent("shared").path)
        let inputs = WatchedInputs(roots: [site.root.appendingPathComponent("Data/votes")])
        let before = InputSnapshot.scan(inputs)
        #expect(before.stamps.keys.map { URL(fileURLWithPath: $0).lastPathComponent } == ["v.json"])
        try site.write("shared/v.json", "[ ]")
        #expect(InputSnapshot.scan(inputs).changes(since: before).count == 1)
    }
}
