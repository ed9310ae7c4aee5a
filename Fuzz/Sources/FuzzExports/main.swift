import Foundation
import SitegenKit

/// Every export decoder over arbitrary bytes: parse errors and field errors are fine,
/// crashes, hangs and leaks are not.
let decoder = ExportDecoder(dates: ExportDateReader(timeZone: TimeZone(identifier: "America/Chicago")!, numericDates: .reference))
let source = SourceRef(file: "fuzz.json", line: 1, column: 1)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExports(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let root = try? JSONParser.parse(bytes) else { return 0 }
    var fields = [JSONField(root)]
    if let elements = try? JSONField(root).elements() { fields += elements }
    for field in fields {
        _ = try? decoder.poll(field, source: source)
        _ = try? decoder.vote(field, source: source)
        _ = try? decoder.trip(field)
        _ = try? decoder.itinerary(field, source: source)
        _ = try? decoder.game(field, source: source)
        _ = try? decoder.customItem(field, source: source)
        _ = try? decoder.optionSet(field, source: source)
        _ = try? decoder.convoy(field, source: source)
    }
    // Positions must be computable for any offset the parser reports.
    if case .failure(let error) = Result(catching: { try JSONParser.parse(bytes) }), let failure = error as? JSONParser.Failure {
        _ = SourcePosition(offset: failure.offset, in: bytes)
    }
    return 0
}
