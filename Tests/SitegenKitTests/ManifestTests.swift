import Foundation
import Testing
@testable import SitegenKit

@Suite("manifest.json")
struct ManifestTests {
    static let inputs = [InputFile(path: "site.yml", sha256: String(repeating: "a", count: 64)),
                         InputFile(path: "Data/polls/p.json", sha256: String(repeating: "b", count: 64))]
    static let outputs = [Manifest.Entry(path: "polls/ABC234/index.html", sha256: String(repeating: "1", count: 64)),
                          Manifest.Entry(path: "index.html", sha256: String(repeating: "2", count: 64)),
                          Manifest.Entry(path: "trips/<odd> \"name\"/index.html", sha256: String(repeating: "3", count: 64))]

    @Test("The streamed bytes equal the JSON tree's serialization", arguments: [nil, "polls/"] as [String?])
    func streamedEqualsTree(_ hiddenPrefix: String?) {
        for outputs in [Self.outputs, []] {
            for inputs in [Self.inputs, []] {
                let manifest = Manifest(buildTime: Date(timeIntervalSince1970: 1_781_291_100), inputs: inputs, outputs: outputs,
                                        hiddenPrefix: hiddenPrefix)
                #expect(String(decoding: manifest.bytes(), as: UTF8.self) == manifest.json.serialized())
            }
        }
    }

    @Test("Exact layout: sorted outputs, two-space indentation, escaped paths")
    func layout() {
        let manifest = Manifest(buildTime: Date(timeIntervalSince1970: 1_781_291_100), inputs: [Self.inputs[0]],
                                outputs: Array(Self.outputs.prefix(2)) + [Manifest.Entry(path: "a<b>&c", sha256: "00")])
        #expect(String(decoding: manifest.bytes(), as: UTF8.self) == """
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
              "sha256": "00"
            },
            {
              "path": "index.html",
              "sha256": "\(String(repeating: "2", count: 64))"
            },
            {
              "path": "polls/ABC234/index.html",
              "sha256": "\(String(repeating: "1", count: 64))"
            }
          ]
        }

        """)
    }
}
