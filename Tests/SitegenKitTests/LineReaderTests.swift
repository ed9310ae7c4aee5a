import Foundation
@testable import SitegenOutput
import Testing

/// The build state's file list is read in parts, one per core: the parts together must be
/// exactly the lines after the first, each whole, in order.
@Suite("Lines read in parts")
struct LineReaderTests {
    func lines(_ path: String, from start: Int = 0, to end: Int = .max) throws -> [String] {
        let reader = try LineReader(path: path, from: start, to: end)
        var found: [String] = []
        while let line = try reader.next() { found.append(String(decoding: line, as: UTF8.self)) }
        return found
    }

    @Test("Parts cut only at line breaks and give back every line after the first", arguments: [1, 2, 3, 4, 7, 64])
    func parts(count: Int) throws {
        let site = try TemporarySite()
        // A first line longer than a read, lines longer than the search for a break, short
        // ones, an empty one, and no break at the end.
        let first = String(repeating: "h", count: 1_500_000)
        var rest = (0..<500).map { "line \($0) " + String(repeating: "x", count: $0 % 7 == 0 ? 70_000 : $0) }
        rest.insert("", at: 250)
        try site.write("state", ([first] + rest).joined(separator: "\n"))
        let path = site.root.appendingPathComponent("state").path

        let parts = try LineReader.parts(of: path, count: count)
        #expect(parts.count <= count && !parts.isEmpty)
        #expect(parts.first?.lowerBound == first.utf8.count + 1)
        #expect(parts.last?.upperBound == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        for (a, b) in zip(parts, parts.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
        var read: [String] = []
        for part in parts { read += try lines(path, from: part.lowerBound, to: part.upperBound) }
        #expect(read == rest)
        #expect(try lines(path) == [first] + rest)
    }

    @Test("A file of one line, with or without its break, has no parts")
    func oneLine() throws {
        let site = try TemporarySite()
        for text in ["head", "head\n", ""] {
            try site.write("state", text)
            #expect(try LineReader.parts(of: site.root.appendingPathComponent("state").path, count: 2) == [])
        }
    }
}
