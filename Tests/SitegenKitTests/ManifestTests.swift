import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenOutput
import Testing

@Suite("manifest.json")
struct ManifestTests {
    static let inputs = [InputFile(path: "site.yml", sha256: String(repeating: "a", count: 64)),
                         InputFile(path: "Data/polls/p.json", sha256: String(repeating: "b", count: 64))]
    static let one = ContentHash(of: [1]), two = ContentHash(of: [2]), three = ContentHash(of: [3])
    static let outputs = [Manifest.Entry(path: "polls/ABC234/index.html", hash: one),
                          Manifest.Entry(path: "index.html", hash: two),
                          Manifest.Entry(path: "trips/<odd> \"name\"/index.html", hash: three)]

    @Test("The streamed bytes equal the JSON tree's serialization", arguments: [nil, "polls/"] as [String?])
    func streamedEqualsTree(_ hiddenPrefix: String?) {
        for outputs in [Self.outputs, []] {
            for inputs in [Self.inputs, []] {
                let manifest = Manifest(buildTime: Date(timeIntervalSince1970: 1_781_291_100), inputs: inputs, hiddenPrefix: hiddenPrefix)
                #expect(String(decoding: manifest.bytes(outputs: outputs), as: UTF8.self) == manifest.json(outputs: outputs).serialized())
            }
        }
    }

    @Test("A path's bytes are written as its string is: copied when plain, else escaped")
    func pathBytes() {
        let paths = ["polls/ABC234/index.html", "", "a<b>&c", "q\"uote\\", "tab\there\n", "line\u{2028}sep\u{2029}",
                     "trips/é/index.html", "\u{1}\u{1f}", "~ !#$%'()*+,-./:;=?@[]^_`{|}"]
        for path in paths {
            var bytes: [UInt8] = [], string: [UInt8] = []
            JSONOutput.appendString(utf8: Array(path.utf8), to: &bytes)
            JSONOutput.appendString(path, to: &string)
            #expect(bytes == string, "\(path)")
        }
        // SHA-256 of "abc" (FIPS 180-2's example), after what was there.
        var hex: [UInt8] = [0x7B]
        ContentHash(of: Array("abc".utf8)).appendHex(to: &hex)
        #expect(hex == [0x7B] + Array("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".utf8))
    }

    @Test("Exact layout: sorted outputs, two-space indentation, escaped paths")
    func layout() {
        let manifest = Manifest(buildTime: Date(timeIntervalSince1970: 1_781_291_100), inputs: [Self.inputs[0]])
        let outputs = Array(Self.outputs.prefix(2)) + [Manifest.Entry(path: "a<b>&c", hash: Self.three)]
        #expect(String(decoding: manifest.bytes(outputs: outputs), as: UTF8.self) == """
        {
          "generator": "sitegen \(SitegenVersion.current)",
          "buildTime": "2026-06-12T19:05:00Z",
          "inputs": [
            {
              "path": "site.yml",
              "sha256": "\(String(repeating: "a", count: 64))"
            }
          ],
          "outputs": [
            {
              "path": "a\\u003cb\\u003e\\u0026c",
              "sha256": "\(Self.three.hex)"
            },
            {
              "path": "index.html",
              "sha256": "\(Self.two.hex)"
            },
            {
              "path": "polls/ABC234/index.html",
              "sha256": "\(Self.one.hex)"
            }
          ]
        }

        """)
    }
}

@Suite("Input paths in manifest.json")
struct InputPathTests {
    @Test("Relative to the site folder, with ../ for templates kept outside it: never the absolute path it was built at",
          arguments: [("/home/ann/trip/Data/polls/p.json", "Data/polls/p.json"), ("/home/ann/trip/site.yml", "site.yml"),
                      ("/home/ann/shared/Templates/layout.mustache", "../shared/Templates/layout.mustache"),
                      ("/srv/templates/a.mustache", "../../../srv/templates/a.mustache"),
                      ("/home/ann/trip/../trip2/x.json", "../trip2/x.json")])
    func relative(_ path: String, _ expected: String) {
        let loader = ExportLoader(siteFolder: URL(fileURLWithPath: "/home/ann/trip"),
                                  decoder: ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference)), log: DiagnosticLog())
        #expect(loader.relativePath(of: URL(fileURLWithPath: path)) == expected)
    }
}

@Suite("Content hashes")
struct ContentHashTests {
    @Test("SHA-256 of bytes, as the hex of manifest.json; hex parses back, in either case")
    func roundTrip() {
        let hash = ContentHash(of: Array("abc".utf8))
        #expect(hash.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hash.hex == sha256Hex(Array("abc".utf8)))
        #expect(ContentHash(hex: hash.hex) == hash)
        #expect(ContentHash(hex: hash.hex.uppercased()) == hash)
        #expect(ContentHash(of: []) != hash)
    }

    @Test("Anything but 64 hex digits is refused",
          arguments: ["", "abc", String(repeating: "g", count: 64), String(repeating: "0", count: 63),
                      String(repeating: "0", count: 63) + ":", String(repeating: "0", count: 63) + "/", "G" + String(repeating: "0", count: 63)])
    func refused(_ text: String) {
        #expect(ContentHash(hex: text) == nil)
    }

    @Test("Upper- and lower-case digits read alike")
    func cases() throws {
        let hash = ContentHash(of: Array("x".utf8))
        #expect(ContentHash(hex: hash.hex.uppercased()) == hash && ContentHash(hex: hash.hex) == hash)
        let all = try #require(ContentHash(hex: String(repeating: "0123456789abcdefABCDEF", count: 3).prefix(64).description))
        #expect(all.hex == String(repeating: "0123456789abcdefabcdef", count: 3).prefix(64).description)
    }
}

@Suite("JSON output")
struct JSONOutputTests {
    @Test("Whole numbers are written as String(_:) writes them", arguments: [0, 7, 10, 99, 1_795_000_000_123_456_789, -45, Int.max, Int.min])
    func decimal(_ value: Int) {
        var bytes: [UInt8] = Array("x".utf8)
        JSONOutput.appendDecimal(value, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x\(value)")
    }
}

@Suite("What manifest.json names")
struct ManifestNamesTests {
    @Test("Convoy files, and poll files of an unlisted site, are named by their hash: a private convoy's file name or a share code is not published")
    func hashNamedInputs() throws {
        let site = try CommandLineTests().goldenSite()
        var convoy = ConvoyExample()
        convoy["visibility"] = "private"
        convoy["title"] = "Surprise party for Dana"
        try site.write("Data/convoys/surprise-party-for-dana.json", convoy.json)
        try site.write("Data/polls/x7k9m2.json", try site.read("Data/polls/polls.json"))
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("Data/polls/polls.json"))
        func manifest() throws -> String {
            _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
            return try site.read("Output/manifest.json")
        }
        let convoyHash = sha256Hex(Array(convoy.json.utf8))
        let listed = try manifest()
        #expect(!listed.contains("surprise") && !listed.contains("Dana"))
        #expect(listed.contains("\"path\": \"Data/convoys/\(convoyHash.prefix(16)).json\""))
        // A listed site's poll files keep their names.
        #expect(listed.contains("\"path\": \"Data/polls/x7k9m2.json\""))
        try site.write("site.yml", try site.read("site.yml") + "listPolls: false\n")
        let unlisted = try manifest()
        #expect(!unlisted.lowercased().contains("x7k9m2"))
        #expect(unlisted.contains("\"path\": \"Data/polls/"))
    }
}
