import Foundation
@testable import SitegenCore
@testable import SitegenKit
import Testing

@Suite("Poll keys gathered for the build record")
struct PollKeysTests {
    @Test("Digests kept as bytes and other keys as text come back exactly as given, sorted")
    func roundTrip() {
        let digests = (0..<50).map { sha256Hex(Array("poll \($0)".utf8)) }
        let others = ["sitemap ctx", String(repeating: "A", count: 64), String(repeating: "g", count: 64), "", "0123"]
        let keys = PollKeys()
        DispatchQueue.concurrentPerform(iterations: digests.count + others.count) { index in
            keys.add(index < digests.count ? digests[index] : others[index - digests.count])
        }
        #expect(keys.sorted == (digests + others).sorted())
        #expect(PollKeys().sorted == [])
    }
}
