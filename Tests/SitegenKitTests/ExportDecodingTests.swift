import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
import Testing

@Suite("Reading exports (docs/exports.md)")
struct ExportDecodingTests {
    let chicago = TimeZone(identifier: "America/Chicago")!

    func reader(_ numeric: NumericDates = .reference) -> ExportDateReader {
        ExportDateReader(timeZone: chicago, numericDates: numeric)
    }

    func field(_ json: String) throws -> JSONField {
        JSONField(try JSONParser.parse(Array(json.utf8)))
    }

    @Test("Dates in every encoding the app produces", arguments: [
        ("\"2026-06-12T19:05:00Z\"", 1_781_291_100.0),
        ("\"2026-06-12T19:05:00.482Z\"", 1_781_291_100.482),
        ("\"2026-06-12T14:05:00-05:00\"", 1_781_291_100.0),
        ("\"2026-06-12T14:05:00-0500\"", 1_781_291_100.0),
        ("\"2026-06-12T14:05:00\"", 1_781_291_100.0),          // no zone: site zone (CDT, UTC-5)
        ("\"2026-06-12\"", 1_781_240_400.0),                   // midnight CDT
        ("\"2026-01-12\"", 1_768_197_600.0),                   // midnight CST (UTC-6)
        ("803_042_700".replacingOccurrences(of: "_", with: ""), 1_781_349_900.0), // seconds since 2001
        ("803042700.25", 1_781_349_900.25),
    ])
    func dates(json: String, unix: Double) throws {
        let date = try reader().date(try field(json))
        #expect(abs(date.timeIntervalSince1970 - unix) < 0.0005)
    }

    @Test("numericDates: unix reads numbers as seconds since 1970")
    func unixNumbers() throws {
        #expect(try reader(.unix).date(try field("1781291100")).timeIntervalSince1970 == 1_781_291_100)
    }

    @Test("Bad dates name what was expected", arguments: ["\"2026-13-01\"", "\"2026-02-30\"", "\"June 12\"", "\"2026-06-12T25:00Z\"", "true"])
    func badDates(json: String) throws {
        #expect(throws: FieldError.self) { try reader().date(try field(json)) }
    }

    @Test("A date whose offset carries it past 9999 in UTC is an error: calendars cannot hold year 10000")
    func pastYear9999() throws {
        let error = #expect(throws: FieldError.self) { try reader().date(try field(#""9999-12-31T23:00:00-05:00""#)) }
        #expect(error?.message == #""9999-12-31T23:00:00-05:00" is outside the years 1 to 9999 in UTC"#)
        #expect(throws: FieldError.self) { try reader().date(try field(#""0001-01-01T00:30:00+01:00""#)) }
        #expect(try reader().date(try field(#""9999-12-31T23:00:00Z""#)) == Date(timeIntervalSince1970: 253_402_297_200))
    }

    static let tripJSON = """
    {"id":"11111111-1111-1111-1111-11111111111a","name":"Loop","preferences":{"startDate":"2026-06-12","endDate":"2026-06-14","sports":["mlb"]},
     "stops":[{"city":"Chicago","state":"IL","latitude":41.88,"longitude":-87.63,"arrivalDate":"2026-06-12","departureDate":"2026-06-13","games":["g1","g2"]},
              {"city":"Milwaukee","state":"WI","latitude":43.04,"longitude":-87.91,"arrivalDate":"2026-06-13","departureDate":"2026-06-14","games":[]}],
     "travelSegments":[{"id":"aaaaaaaa-1111-1111-1111-111111111111","fromCity":"Chicago","toCity":"Milwaukee","distanceMeters":148000,"durationSeconds":5400}]}
    """

    func pollJSON(id: String = "\"id\": \"6f9619ff-8b86-d011-b42d-00cf4fc964ff\"", code: String = "x7k9m2", trips: String? = nil) -> String {
        let trips = trips ?? "[\(Self.tripJSON), \(Self.tripJSON)]"
        return """
        {\(id), "title": "Poll", "shareCode": "\(code)", "ownerId": "_secret",
         "createdAt": "2026-05-01T12:00:00Z", "modifiedAt": 800000000, "tripSnapshots": \(trips)}
        """
    }

    @Test("A poll: lower-case UUID and share code, pollId alias, base64 tripSnapshots")
    func poll() throws {
        let decoder = ExportDecoder(dates: reader())
        let plain = try decoder.poll(try field(pollJSON()), source: Sample.source)
        #expect(plain.id.uuidString == "6F9619FF-8B86-D011-B42D-00CF4FC964FF")
        #expect(plain.shareCode.value == "X7K9M2")
        #expect(plain.trips.count == 2)
        #expect(plain.trips[0].stops.map(\.city) == ["Chicago", "Milwaukee"])
        #expect(plain.trips[0].travelSegments[0].id == "AAAAAAAA-1111-1111-1111-111111111111")
        // Totals absent: derived from stops and segments.
        #expect(plain.trips[0].totalGames == 2)
        #expect(plain.trips[0].totalDistanceMeters == 148_000)
        #expect(plain.modifiedAt == Date(timeIntervalSinceReferenceDate: 800_000_000))

        let base64 = Data("[\(Self.tripJSON), \(Self.tripJSON)]".utf8).base64EncodedString()
        let aliased = try decoder.poll(try field(pollJSON(id: "\"pollId\": \"6F9619FF-8B86-D011-B42D-00CF4FC964FF\"", trips: "\"\(base64)\"")),
                                       source: Sample.source)
        #expect(aliased.id == plain.id)
        #expect(aliased.trips == plain.trips)
    }

    @Test("Share codes outside the alphabet, and trip counts outside 2–10, are errors")
    func pollErrors() throws {
        let decoder = ExportDecoder(dates: reader())
        for code in ["X7K9M", "X7K9M2Q", "X7K9M0", "../../x", "X7K9I2"] {
            let error = #expect(throws: FieldError.self) { try decoder.poll(try field(pollJSON(code: code)), source: Sample.source) }
            #expect(error?.path.description == "shareCode")
        }
        let one = #expect(throws: FieldError.self) {
            try decoder.poll(try field(pollJSON(trips: "[\(Self.tripJSON)]")), source: Sample.source)
        }
        #expect(one?.message == "a poll holds 2 to 10 trips, found 1")
        let eleven = "[" + Array(repeating: Self.tripJSON, count: 11).joined(separator: ",") + "]"
        #expect(throws: FieldError.self) { try decoder.poll(try field(pollJSON(trips: eleven)), source: Sample.source) }
    }

    @Test("Votes: voteId/voterId aliases, base64 rankings, lower-case pollId")
    func votes() throws {
        let decoder = ExportDecoder(dates: reader())
        let plain = try decoder.vote(try field("""
        {"id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v1",
         "rankings":[2,0,1],"votedAt":"2026-05-02T10:00:00Z","modifiedAt":"2026-05-02T10:00:00.5Z"}
        """), source: Sample.source)
        #expect(plain.pollId == Sample.pollId)
        #expect(plain.rankings == [2, 0, 1])
        #expect(plain.voterId == "_v1")
        let aliased = try decoder.vote(try field("""
        {"voteId":"A0000000-0000-0000-0000-000000000001","pollId":"6F9619FF-8B86-D011-B42D-00CF4FC964FF","voterId":"_v1",
         "rankings":"WzIsMCwxXQ==","votedAt":"2026-05-02T10:00:00Z","modifiedAt":"2026-05-02T10:00:00.5Z"}
        """), source: Sample.source)
        #expect(aliased == plain)
    }

    @Test("Wrong rankings type gives the message README.md shows")
    func rankingsMessage() throws {
        let decoder = ExportDecoder(dates: reader())
        let error = #expect(throws: FieldError.self) {
            try decoder.vote(try field("""
            {"id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v1",
             "rankings":[1,"2"],"votedAt":0,"modifiedAt":0}
            """), source: Sample.source)
        }
        #expect(error?.path.description == "rankings")
        #expect(error?.message == "expected an array of integers")
    }

    @Test("A ranking index too large for an Int makes an invalid ballot, like any index past the trips, not an error; a fraction is still one")
    func hugeRankingIndex() throws {
        let decoder = ExportDecoder(dates: reader())
        func vote(_ rankings: String) throws -> Vote {
            try decoder.vote(try field("""
            {"id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v1",
             "rankings":\(rankings),"votedAt":0,"modifiedAt":0}
            """), source: Sample.source)
        }
        #expect(try vote("[0,1,9223372036854775807]").rankings == [0, 1, -1])
        #expect(try vote("[0,1,-1e30]").rankings == [0, 1, -1])
        #expect(try vote("[0,1,9007199254740993]").rankings == [0, 1, 9_007_199_254_740_992])
        let poll = Sample.poll(["A", "B", "C"])
        var huge = try vote("[0,1,9223372036854775807]")
        huge.pollId = poll.id
        #expect(BordaTally.tally(poll: poll, votes: [huge], minBallotsForBreakdown: 1).ballots.invalid == 1)
        #expect(throws: FieldError.self) { try vote("[0,1,1.5]") }
    }

    @Test("An integer field given a number too large for one says so; a fraction is a fraction")
    func integerMessages() throws {
        func message(_ json: String) -> String? {
            do { _ = try JSONField(try JSONParser.parse(Array(json.utf8))).int(); return nil } catch { return (error as? FieldError)?.message }
        }
        #expect(message("1e20") == "expected an integer, found 1e+20, too large for one")
        #expect(message("9223372036854775808") == "expected an integer, found 9.223372036854776e+18, too large for one")
        #expect(message("2.5") == "expected an integer, found a fraction")
        #expect(message("\"3\"") == "expected an integer, found a string")
        #expect(message("42") == nil)
    }
}

@Suite("Loading export files")
struct ExportLoaderTests {
    /// Loads `folder` of `site` with `decode`; the records and every diagnostic, with the
    /// site's path shown as `Data/…`.
    func load<Record: Sendable>(_ folder: String, of site: TemporarySite, schema: RecordSchema.OfRecord? = nil,
                                _ decode: @escaping @Sendable (ExportDecoder, JSONField, SourceRef) throws(FieldError) -> Record) -> (records: [Record], files: [String], diagnostics: [String]) {
        let log = DiagnosticLog()
        let loader = ExportLoader(siteFolder: site.root, decoder: ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference)), log: log)
        let (records, files) = loader.load(site.root.appendingPathComponent(folder), schema: schema, record: decode)
        let shown = displayPath(site.root) + "/"
        return (records, files, log.all.map { String($0.description.dropFirst($0.description.hasPrefix(shown) ? shown.count : 0)) })
    }

    @Test("A file name with a line break or another control character is an error, spelled out: it would split a line of the --changes list")
    func controlCharacterInName() throws {
        let site = try TemporarySite()
        try site.write("Templates/assets/nl\nx.css", "p {}")
        try site.write("Templates/assets/plain.css", "p {}")
        let listing = InputFolder.list(site.root.appendingPathComponent("Templates"))
        #expect(listing.files.map(\.lastPathComponent) == ["plain.css"])
        #expect(listing.problems.map(\.message) == [#"a name with a control character (nl\u{A}x.css) cannot be listed or published as it is: rename it"#])
    }

    @Test("Two files whose names differ only in Unicode normalization are an error naming both; files are never merged")
    func namesDifferingInNormalization() throws {
        let site = try TemporarySite()
        let composed = "caf\u{E9}.json", decomposed = "cafe\u{301}.json"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8), "Swift holds them equal, the disk apart")
        try site.write("Data/votes/" + composed, "[]")
        try site.write("Data/votes/" + decomposed, "[]")
        let listing = InputFolder.list(site.root.appendingPathComponent("Data/votes"))
        #expect(listing.files.count == 1)
        #expect(listing.problems.map(\.severity) == [.error])
        #expect(listing.problems.first?.message == #"this name (caf\u{E9}.json) and "café.json" (cafe\u{301}.json) differ only in how an accent is written (Unicode normalization); sitegen cannot tell them apart: rename one"#)
    }

    @Test("A malformed export is reported with file, line, column and JSON path")
    func malformedFiles() throws {
        let site = try TemporarySite()
        try site.write("Data/votes/v1.json", """
        [
          {"id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v1","rankings":[0,1],"votedAt":0,"modifiedAt":0},
          {"id":"a0000000-0000-0000-0000-000000000002","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v2","rankings":[0,1],"votedAt":0,"modifiedAt":0},
          {"id":"a0000000-0000-0000-0000-000000000003","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v3",
           "rankings": {"first": 1}, "votedAt":0,"modifiedAt":0}
        ]
        """)
        try site.write("Data/votes/v2.json", "{\"id\": \"a0000000-0000-0000-0000-000000000004\",\n  \"pollId\": tru }")
        try site.write("Data/votes/v3.json", "{\"id\": 12, \"pollId\": \"6f9619ff-8b86-d011-b42d-00cf4fc964ff\"}")
        let (votes, files, diagnostics) = load("Data/votes", of: site) { (decoder, field, source) throws(FieldError) in
            try decoder.vote(field, source: source)
        }
        #expect(votes.count == 2)
        #expect(files == ["Data/votes/v1.json", "Data/votes/v2.json", "Data/votes/v3.json"])
        #expect(diagnostics == [
            "Data/votes/v1.json:5:16: error: [2].rankings: expected an array of integers",
            "Data/votes/v2.json:2:13: error: not valid JSON: unexpected character 't'; expected a value",
            "Data/votes/v3.json:1:1: error: 4 required fields of the vote are missing: \"odg\" (or \"voterId\"), \"rankings\", \"votedAt\", \"modifiedAt\"",
        ])
    }

    @Test("Every problem of a record is reported in one build, not only the first decoding meets")
    func everyProblemOfARecord() throws {
        let site = try TemporarySite()
        try site.write("Data/trips/t.json", """
            {"id": "11111111-1111-1111-1111-111111111111", "name": "Loop", "notes": 7,
             "preferences": {"startDate": "2026-06-01", "endDate": "2026-06-02"},
             "stops": [{"city": "Chicago", "latitude": 41.9, "longitude": -87.6, "arrivalDate": "2026-06-01", "departureDate": "2026-06-02", "games": "g1"}],
             "travelSegments": [{"id": "s", "fromCity": "A", "toCity": "B", "distanceMeters": -5, "durationSeconds": 60}]}
            """)
        let (trips, _, diagnostics) = load("Data/trips", of: site) { (decoder, field, _) throws(FieldError) in try decoder.trip(field) }
        #expect(trips.isEmpty)
        // Each took a build of its own before. A segment's distance must be there, so the
        // segments (which need not) are taken out with it.
        #expect(diagnostics == [
            "Data/trips/t.json:1:73: error: notes: expected a string, found a number",
            "Data/trips/t.json:3:139: error: stops[0].games: expected an array, found a string",
            "Data/trips/t.json:4:83: error: travelSegments[0].distanceMeters: must not be negative, found -5",
        ])
    }

    @Test("An itinerary {trip, games} with one bad value in its trip reports that value only, never the trip as \"missing\" (audit 2, item 1)")
    func wrappedItineraryReportsOnlyTheRealError() throws {
        let site = try TemporarySite()
        func itinerary(end: String = "2026-06-02", city: String = "Chicago", departure: String = #""2026-06-01""#) -> String {
            """
            {"trip": {"id": "11111111-1111-1111-1111-111111111111", "name": "Loop",
              "preferences": {"startDate": "2026-06-01", "endDate": "\(end)"},
              "stops": [{"city": "\(city)", "latitude": 41.9, "longitude": -87.6, "arrivalDate": "2026-06-01", "departureDate": "2026-06-02"}],
              "travelSegments": [{"id": "s", "fromCity": "A", "toCity": "B", "distanceMeters": 5, "durationSeconds": 60, "departureDate": \(departure)}]},
             "games": []}
            """
        }
        // Checks made after decoding (an end before the start, a city over 1 KiB), a wrong
        // type, and a trip that is not an object: before, taking the trip's member out to
        // look for more problems left a file without "trip", read as a bare trip.
        try site.write("Data/trips/a-end.json", itinerary(end: "2026-05-30"))
        try site.write("Data/trips/b-city.json", itinerary(city: String(repeating: "M", count: 1100)))
        try site.write("Data/trips/c-type.json", itinerary(departure: "true"))
        try site.write("Data/trips/d-trip.json", #"{"trip": 5, "games": []}"#)
        let (itineraries, _, diagnostics) = load("Data/trips", of: site, schema: RecordSchema.itineraryFile) { (decoder, field, source) throws(FieldError) in
            try decoder.itinerary(field, source: source)
        }
        #expect(itineraries.isEmpty)
        #expect(diagnostics == [
            "Data/trips/a-end.json:2:57: error: trip.preferences.endDate: the trip ends on 2026-05-30, before it starts (2026-06-01)",
            "Data/trips/b-city.json:3:22: error: trip.stops[0].city: is 1100 bytes long; the limit is 1024",
            "Data/trips/c-type.json:4:127: error: trip.travelSegments[0].departureDate: expected a date (a string or a number), found a boolean",
            "Data/trips/d-trip.json:1:10: error: trip: expected an object, found a number",
        ])
    }

    @Test("A field under two of its names with different values is a warning at the one ignored; the same value twice is not")
    func conflictingNames() throws {
        let site = try TemporarySite()
        try site.write("Data/votes/v.json", """
            [{"id": "a0000000-0000-0000-0000-000000000001", "voteId": "A0000000-0000-0000-0000-000000000001",
              "pollId": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "v1", "voterId": "v3", "rankings": [0, 1], "votedAt": 0, "modifiedAt": 0}]
            """)
        let (votes, _, diagnostics) = load("Data/votes", of: site) { (decoder, field, source) throws(FieldError) in
            try decoder.vote(field, source: source)
        }
        #expect(votes.map(\.voterId) == ["v1"])
        #expect(diagnostics == [
            "Data/votes/v.json:2:77: warning: [0].voterId: the vote has both \"odg\" and \"voterId\", with different values; \"odg\" is read and \"voterId\" ignored",
        ])
    }

    @Test("A byte order mark is not a column, and a UTF-16 or UTF-32 file is named as such")
    func encodings() throws {
        let site = try TemporarySite()
        // `x` is the ninth character an editor shows; the mark before it is invisible.
        try site.write("Data/votes/bom.json", "\u{FEFF}[{\"id\": x}]")
        try Data([0xEF, 0xBB, 0xBF] + Array("[1,\n 2, @]".utf8)).write(to: site.root.appendingPathComponent("Data/votes/bom2.json"))
        let text = "[{\"id\": 1}]"
        try Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: site.root.appendingPathComponent("Data/votes/le.json"))
        try Data(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }).write(to: site.root.appendingPathComponent("Data/votes/no-mark.json"))
        try Data(text.unicodeScalars.flatMap { [0, 0, 0, UInt8($0.value)] }).write(to: site.root.appendingPathComponent("Data/votes/wide.json"))
        let (_, _, diagnostics) = load("Data/votes", of: site) { (decoder, field, source) throws(FieldError) in
            try decoder.vote(field, source: source)
        }
        #expect(diagnostics == [
            "Data/votes/bom.json:1:9: error: not valid JSON: unexpected character 'x'; expected a value",
            "Data/votes/bom2.json:2:5: error: not valid JSON: unexpected character '@'; expected a value",
            "Data/votes/le.json:1:1: error: not valid JSON: the file is UTF-16, not UTF-8: save it as UTF-8",
            "Data/votes/no-mark.json:1:1: error: not valid JSON: the file is UTF-16, not UTF-8: save it as UTF-8",
            "Data/votes/wide.json:1:1: error: not valid JSON: the file is UTF-32, not UTF-8: save it as UTF-8",
        ])
    }

    @Test("A trip that ends before it starts is an error at its end date; one that ends the day it starts is not")
    func endBeforeStart() throws {
        let decoder = ExportDecoder(dates: ExportDateReader(timeZone: TimeZone(identifier: "America/Chicago")!, numericDates: .reference))
        func json(start: String, end: String) -> String {
            """
            {"id": "11111111-1111-1111-1111-111111111111", "name": "Backwards",
             "preferences": {"startDate": "\(start)", "endDate": "\(end)"},
             "stops": [{"city": "Chicago", "state": "IL", "latitude": 41.9, "longitude": -87.6,
                        "arrivalDate": "\(start)", "departureDate": "\(end)", "games": []}]}
            """
        }
        func trip(start: String, end: String) throws -> JSONField { JSONField(try JSONParser.parse(Array(json(start: start, end: end).utf8))) }
        do {
            _ = try decoder.trip(try trip(start: "2026-06-13", end: "2026-06-01"))
            Issue.record("a trip ending before it starts was accepted")
        } catch let error as FieldError {
            #expect(error.path.description == "preferences.endDate")
            #expect(error.message == "the trip ends on 2026-06-01, before it starts (2026-06-13)")
            let text = json(start: "2026-06-13", end: "2026-06-01")
            let value = try #require(text.range(of: "\"endDate\": ")).upperBound
            #expect(error.offset == text.utf8.distance(from: text.startIndex, to: value), "the error points at the end date's value")
        }
        // The same day, even an hour earlier than the start time: a one-day trip.
        let oneDay = try decoder.trip(try trip(start: "2026-06-13T15:00:00Z", end: "2026-06-13"))
        #expect(oneDay.name == "Backwards")
    }
}
