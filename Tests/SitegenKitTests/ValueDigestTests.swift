import Foundation
@testable import SitegenCore
import Testing

/// A poll's key is the digest of its whole structure (ValueDigest): any change to what a
/// page shows must change it, and nothing that is not shown may.
@Suite("Value digests")
struct ValueDigestTests {
    enum Status: Equatable, Encodable { case open, closed(reason: String) }

    struct Leaf: Equatable, Encodable {
        var name: String
        var count: Int
        var score: Double
        var flag: Bool
        var when: Date
        var id: UUID
        var small: UInt8
    }

    struct Tree: Equatable, Encodable {
        var title: String
        var leaves: [Leaf]
        var note: String?
        var status: Status
        var tags: [String: Int]
        var codes: Set<String>
        var byID: [UUID: Int]
        var source: SourceRef
    }

    func tree() -> Tree {
        let leaf = Leaf(name: "Lone Star Loop", count: 26, score: 0.5, flag: true,
                        when: Date(timeIntervalSinceReferenceDate: 800_000_000.25),
                        id: UUID(uuidString: "7F9619FF-8B86-D011-B42D-00CF4FC964FF")!, small: 3)
        return Tree(title: "Texas & Southwest", leaves: [leaf, leaf], note: nil, status: .open,
                    tags: ["a": 1, "b": 2, "c": 3], codes: ["TX4SWK", "MW6BPS", "NE8RVZ"],
                    byID: [leaf.id: 1, UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: 2],
                    source: SourceRef(file: "polls/a.json", line: 3, column: 5))
    }

    func digest(_ value: some Encodable, context: String = "c") -> String { ValueDigest.of(value, context: context) }

    @Test("Equal values have equal digests; the context and where a record was read")
    func equal() {
        #expect(digest(tree()) == digest(tree()))
        #expect(digest(tree()) != digest(tree(), context: "d"))
        var moved = tree()
        moved.source = SourceRef(file: "polls/b.json", line: 90, column: 1)
        #expect(digest(moved) == digest(tree()))
        // Dictionaries iterate in no fixed order.
        var rebuilt = tree()
        rebuilt.tags = [:]
        for (key, value) in [("c", 3), ("a", 1), ("b", 2)] { rebuilt.tags[key] = value }
        // Nor do sets, and dictionaries keyed by other types (written as key, value, key, …).
        // Swift seeds each table's order with the address of its storage, so build the same
        // members into new tables, all kept alive, until one iterates in another order.
        let codes = tree().codes, byID = tree().byID
        var codeTables: [Set<String>] = [], idTables: [[UUID: Int]] = []
        for _ in 0..<64 where codeTables.last.map({ Array($0) == Array(codes) }) ?? true {
            var set = Set<String>(minimumCapacity: 64)
            set.formUnion(["NE8RVZ", "TX4SWK", "MW6BPS"])
            codeTables.append(set)
        }
        for _ in 0..<64 where idTables.last.map({ Array($0.keys) == Array(byID.keys) }) ?? true {
            var dictionary = [UUID: Int](minimumCapacity: 64)
            for (key, value) in byID.reversed() { dictionary[key] = value }
            idTables.append(dictionary)
        }
        rebuilt.codes = codeTables.last!
        rebuilt.byID = idTables.last!
        #expect(Array(rebuilt.codes) != Array(codes) && Array(rebuilt.byID.keys) != Array(byID.keys),
                "one of 64 tables should iterate in another order")
        #expect(digest(rebuilt) == digest(tree()))
    }

    /// The keys are kept in the build state and compared by the next build, another process,
    /// whose sets and dictionaries iterate in another order (Swift seeds hashing per process).
    @Test("The same value has the same digest in every process")
    func pinned() {
        #expect(digest(tree()) == "a3292fcb0f91258273399043b95a7cba1704ea7f4b3ed35846cefe41ac4d37c9")
    }

    @Test("Any change anywhere changes the digest")
    func changes() {
        let base = digest(tree())
        let edits: [(inout Tree) -> Void] = [
            { $0.title += " " },
            { $0.leaves[1].name = "Lone Star Loop." },
            { $0.leaves[0].count = 27 },
            { $0.leaves[0].count = -26 },
            { $0.leaves[1].score = -0.5 },
            { $0.leaves[1].score = 0.5000000000000001 },
            { $0.leaves[0].flag = false },
            { $0.leaves[0].when = Date(timeIntervalSinceReferenceDate: 800_000_000.5) },
            { $0.leaves[0].id = UUID(uuidString: "7F9619FF-8B86-D011-B42D-00CF4FC96400")! },
            { $0.leaves[0].small = 4 },
            { $0.leaves.removeLast() },
            { $0.note = "" },
            { $0.status = .closed(reason: "") },
            { $0.tags["a"] = 4 },
            { $0.tags["d"] = 1 },
            { $0.codes.remove("TX4SWK") },
            { $0.codes.insert("TX4SWL") },
            { $0.byID[$0.leaves[0].id] = 3 },
            { $0.byID = [:] },
        ]
        var seen: Set<String> = [base]
        for (index, edit) in edits.enumerated() {
            var edited = tree()
            edit(&edited)
            #expect(seen.insert(digest(edited)).inserted, "edit \(index) gave a digest already seen")
        }
    }

    @Test("Values that print alike are told apart")
    func unambiguous() {
        #expect(digest(["ab", "c"]) != digest(["a", "bc"]))
        #expect(digest(1) != digest(1.0))
        #expect(digest(1) != digest(true))
        #expect(digest(1) != digest(UInt8(1)))
        #expect(digest(String?.none) != digest(""))
        #expect(digest(0.0) != digest(-0.0))
        #expect(digest(["k": "v"]) != digest([["k", "v"]]))
        #expect(digest(Int8(1)) != digest(UInt8(1)))
        #expect(digest(Float(1)) != digest(Double(1)))
        #expect(digest(["a", "b"]) != digest(["a"]))
    }
}
