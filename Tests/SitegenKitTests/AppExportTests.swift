import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
import Testing

/// Exports written the way the app writes them: CloudKit records dumps, the seed models'
/// field names, Swift's JSONEncoder defaults — not shaped for sitegen's own fixtures.
@Suite("Exports as the app writes them (docs/exports.md)")
struct AppExportTests {
    let chicago = TimeZone(identifier: "America/Chicago")!

    func goldenSite() throws -> TemporarySite {
        let site = try TemporarySite()
        try site.copy(from: SiteBuildTests.golden.appendingPathComponent("site"))
        try site.copyTemplates()
        return site
    }

    func build(_ site: TemporarySite, environment: [String: String] = [:]) throws -> (tree: [String: Data], log: DiagnosticLog) {
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.environment = environment
        let log = DiagnosticLog()
        do {
            _ = try SiteBuilder(options: options, log: log).run()
        } catch {
            Issue.record("\(error): \(log.all.map(\.description))")
        }
        return (try fileTree(site.root.appendingPathComponent("Output")), log)
    }

    // MARK: CloudKit dumps

    /// The records of a plain export file as `records/query` would return them: dates as
    /// TIMESTAMP milliseconds, Data fields as BYTES, the poll as a REFERENCE, the id only
    /// as `recordName` (the field is left out, so `recordName` has to stand in).
    func cloudKitDump(of file: URL, type: String, idKeys: [String], dates: Set<String>, bytes: Set<String>,
                      references: Set<String> = []) throws -> String {
        let reader = ExportDateReader(timeZone: chicago, numericDates: .reference)
        var plain = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        if let one = plain as? [String: Any] { plain = [one] }
        var records: [[String: Any]] = []
        for record in plain as! [[String: Any]] {
            let idKey = try #require(idKeys.first { record[$0] != nil })
            var fields: [String: Any] = [:]
            for (key, value) in record where key != idKey {
                if dates.contains(key) {
                    let date = try #require((value as? String).flatMap(reader.parse)
                        ?? (value as? NSNumber).map { Date(timeIntervalSinceReferenceDate: $0.doubleValue) })
                    fields[key] = ["value": Int((date.timeIntervalSince1970 * 1000).rounded()), "type": "TIMESTAMP"]
                } else if bytes.contains(key) {
                    // Some fixtures hold Data fields as base64 already.
                    let base64 = try (value as? String) ?? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]).base64EncodedString()
                    fields[key] = ["value": base64, "type": "BYTES"]
                } else if references.contains(key) {
                    fields[key] = ["value": ["recordName": value, "action": "NONE"], "type": "REFERENCE"]
                } else if value is String {
                    fields[key] = ["value": value, "type": "STRING"]
                } else if let number = value as? NSNumber {
                    fields[key] = ["value": number, "type": number.doubleValue.rounded() == number.doubleValue ? "INT64" : "DOUBLE"]
                } else if value is [String] {
                    fields[key] = ["value": value, "type": "STRING_LIST"]
                } else {
                    Issue.record("no CloudKit type for \(key)")
                }
            }
            records.append(["recordName": record[idKey]!, "recordType": type, "fields": fields,
                            "created": ["timestamp": 1_777_000_000_000, "userRecordName": "_owner"],
                            "modified": ["timestamp": 1_777_000_000_000, "userRecordName": "_owner"],
                            "recordChangeTag": "mxk2f0ab"])
        }
        let dump: [String: Any] = ["records": records]
        return String(decoding: try JSONSerialization.data(withJSONObject: dump, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
    }

    @Test("Polls, votes and items as CloudKit dumps give the same pages and results.json as plain exports")
    func cloudKitDumps() throws {
        let plain = try goldenSite()
        let (expected, plainLog) = try build(plain)
        #expect(plainLog.all.isEmpty)

        let dumped = try goldenSite()
        let data = dumped.root.appendingPathComponent("Data")
        for (folder, type, dates, bytes, references) in [
            ("polls", CloudKitDump.poll, ["createdAt", "modifiedAt"], ["tripSnapshots"], []),
            ("votes", CloudKitDump.vote, ["votedAt", "modifiedAt"], ["rankings"], ["pollId"]),
            ("items", CloudKitDump.customItem, ["createdAt", "modifiedAt"], [], []),
        ] as [(String, CloudKitDump.RecordType, Set<String>, Set<String>, Set<String>)] {
            for name in try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent(folder).path) {
                let url = data.appendingPathComponent(folder).appendingPathComponent(name)
                let dump = try cloudKitDump(of: url, type: type.name, idKeys: type.idKeys, dates: dates, bytes: bytes, references: references)
                try Data(dump.utf8).write(to: url)
            }
        }
        let (actual, log) = try build(dumped)
        #expect(log.all.map(\.description) == [])
        #expect(Set(actual.keys) == Set(expected.keys))
        for path in expected.keys.sorted() where path != "manifest.json" {
            #expect(actual[path] == expected[path], "\(path) differs")
        }
        #expect(actual["polls/X7K9M2/results.json"] != nil)
    }

    func loadVotes(_ json: String, numericDates: NumericDates = .reference) throws -> ([Vote], [String]) {
        let site = try TemporarySite()
        try site.write("Data/votes/v.json", json)
        let log = DiagnosticLog()
        let loader = ExportLoader(siteFolder: site.root,
                                  decoder: ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: numericDates)), log: log)
        let (votes, _) = loader.load(site.root.appendingPathComponent("Data/votes"), cloudKit: CloudKitDump.vote) {
            (decoder, field, source) throws(FieldError) in try decoder.vote(field, source: source)
        }
        let shown = displayPath(site.root) + "/"
        return (votes, (log.all.map(\.description) + log.omissions.map(\.description)).map { $0.replacingOccurrences(of: shown, with: "") })
    }

    @Test("The pages of one query saved together, as an array of responses, are one dump; positions point into their page")
    func cloudKitPagesInOneFile() throws {
        func record(_ id: String, odg: Any) -> String {
            """
            {"recordName": "\(id)", "recordType": "PollVote",
             "fields": {"pollId": {"value": {"recordName": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "action": "DELETE_SELF"}, "type": "REFERENCE"},
                        "odg": {"value": \(odg), "type": "STRING"}, "rankings": {"value": [1, 0], "type": "INT64_LIST"},
                        "votedAt": {"value": 1780000000000, "type": "TIMESTAMP"}, "modifiedAt": {"value": 1780000000000, "type": "TIMESTAMP"}}}
            """
        }
        let (votes, diagnostics) = try loadVotes("""
        [{"records": [\(record("a0000000-0000-0000-0000-00000000000a", odg: "\"_a\""))], "continuationMarker": "AbCd"},
         {"records": [\(record("a0000000-0000-0000-0000-00000000000b", odg: "\"_b\"")),
                      \(record("a0000000-0000-0000-0000-00000000000c", odg: 7))]}]
        """)
        #expect(votes.map(\.id.uuidString) == ["A0000000-0000-0000-0000-00000000000A", "A0000000-0000-0000-0000-00000000000B"])
        #expect(diagnostics == ["Data/votes/v.json:11:30: error: [1].records[1].fields.odg.value: expected a string, found a number"])

        // A file that stops at a page that goes on: its missing ballots would change the standings.
        let (partial, warned) = try loadVotes("""
        {"records": [\(record("a0000000-0000-0000-0000-00000000000a", odg: "\"_a\""))], "continuationMarker": "AbCd"}
        """)
        #expect(partial.count == 1)
        #expect(warned == [#"Data/votes/v.json:4:157: warning: continuationMarker: this dump is not the query's last page: CloudKit returned a continuationMarker, so its records after this page are not in the file; save every page (in this file, as an array of the responses, or in files of their own)"#])
        let (_, lastPage) = try loadVotes("""
        {"records": [\(record("a0000000-0000-0000-0000-00000000000a", odg: "\"_a\""))], "continuationMarker": null}
        """)
        #expect(lastPage == [])
    }

    @Test("A reference written without its type is still its recordName")
    func cloudKitUntypedReference() throws {
        let (votes, diagnostics) = try loadVotes("""
        {"records": [{"recordName": "a0000000-0000-0000-0000-00000000000a", "recordType": "PollVote",
          "fields": {"pollId": {"value": {"recordName": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "action": "DELETE_SELF"}},
                     "odg": {"value": "_a"}, "rankings": {"value": [1, 0]},
                     "votedAt": {"value": 1780000000000, "type": "TIMESTAMP"}, "modifiedAt": {"value": 1780000000000, "type": "TIMESTAMP"}}}]}
        """)
        #expect(diagnostics == [])
        #expect(votes.map(\.pollId.uuidString) == ["6F9619FF-8B86-D011-B42D-00CF4FC964FF"])
    }

    @Test("A dump's TIMESTAMP, BYTES, INT64_LIST and REFERENCE values, recordName as the id, and other record types skipped")
    func cloudKitValues() throws {
        let rankings = Data("[1,0]".utf8).base64EncodedString()
        let (votes, diagnostics) = try loadVotes("""
        {"records": [
          {"recordName": "a0000000-0000-0000-0000-00000000000a", "recordType": "PollVote",
           "fields": {"pollId": {"value": {"recordName": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "action": "DELETE_SELF"}, "type": "REFERENCE"},
                      "odg": {"value": "_voter", "type": "STRING"},
                      "rankings": {"value": "\(rankings)", "type": "BYTES"},
                      "votedAt": {"value": 1780000000123, "type": "TIMESTAMP"},
                      "modifiedAt": {"value": 1780000000123, "type": "TIMESTAMP"}}},
          {"recordName": "b", "recordType": "PollVote",
           "fields": {"voteId": {"value": "a0000000-0000-0000-0000-00000000000b", "type": "STRING"},
                      "pollId": {"value": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "type": "STRING"},
                      "odg": {"value": "_other", "type": "STRING"},
                      "rankings": {"value": [0, 1], "type": "INT64_LIST"}},
           "created": {"timestamp": 1780000001000}, "modified": {"timestamp": 1780000002000}},
          {"recordName": "c", "recordType": "TripPoll", "fields": {}},
          {"recordName": "d", "recordType": "TripPoll", "fields": {}},
          {"recordName": "e", "deleted": true},
          {"recordName": "f", "serverErrorCode": "NOT_FOUND", "reason": "record not found"}
        ]}
        """)
        #expect(votes.count == 2)
        #expect(votes[0].id.uuidString == "A0000000-0000-0000-0000-00000000000A")
        #expect(votes[0].pollId.uuidString == "6F9619FF-8B86-D011-B42D-00CF4FC964FF")
        #expect(votes[0].rankings == [1, 0])
        #expect(votes[0].modifiedAt.timeIntervalSince1970 == 1_780_000_000.123)
        #expect(votes[1].id.uuidString == "A0000000-0000-0000-0000-00000000000B")
        #expect(votes[1].rankings == [0, 1])
        // Without date fields, the record's own created and modified times stand in.
        #expect(votes[1].votedAt.timeIntervalSince1970 == 1_780_000_001)
        #expect(votes[1].modifiedAt.timeIntervalSince1970 == 1_780_000_002)
        #expect(diagnostics == [
            "Data/votes/v.json:14:3: warning: records[2]: 2 TripPoll records skipped: only PollVote records are read here",
            "Data/votes/v.json:17:3: warning: records[5]: CloudKit returned an error instead of this record (NOT_FOUND: record not found); it is skipped",
        ])
    }

    @Test("TIMESTAMPs written in seconds are read as seconds, with one warning a file")
    func cloudKitSecondsTimestamps() throws {
        let (votes, diagnostics) = try loadVotes("""
        {"records": [
          {"recordName": "a0000000-0000-0000-0000-00000000000a", "recordType": "PollVote",
           "fields": {"pollId": {"value": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "type": "STRING"},
                      "odg": {"value": "_voter", "type": "STRING"},
                      "rankings": {"value": [1, 0], "type": "INT64_LIST"},
                      "votedAt": {"value": 1780000000, "type": "TIMESTAMP"},
                      "modifiedAt": {"value": 1780000000.5, "type": "TIMESTAMP"}}},
          {"recordName": "a0000000-0000-0000-0000-00000000000b", "recordType": "PollVote",
           "fields": {"pollId": {"value": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "type": "STRING"},
                      "odg": {"value": "_other", "type": "STRING"},
                      "rankings": {"value": [0, 1], "type": "INT64_LIST"}},
           "created": {"timestamp": 1780000001}, "modified": {"timestamp": 1780000002000}}
        ]}
        """)
        #expect(votes.map(\.votedAt.timeIntervalSince1970) == [1_780_000_000, 1_780_000_001])
        #expect(votes.map(\.modifiedAt.timeIntervalSince1970) == [1_780_000_000.5, 1_780_000_002])
        #expect(diagnostics == [
            "Data/votes/v.json:6:36: warning: records[0].fields.votedAt.value: this TIMESTAMP is in seconds, where CloudKit writes milliseconds since 1970: as milliseconds it would be a day in January or February 1970, so it is read as seconds (2026-05-28) (3 such TIMESTAMPs in this file); check the tool that wrote this dump",
        ])
    }

    @Test("Milliseconds outside the seconds window are read as milliseconds, without a warning")
    func cloudKitMillisecondsKept() throws {
        // 631,151,999 ms is 1970-01-08 as milliseconds and 1989-12-31 as seconds: outside
        // the window of the app's years, so it stays what CloudKit says it is.
        let (votes, diagnostics) = try loadVotes("""
        {"records": [
          {"recordName": "a0000000-0000-0000-0000-00000000000a", "recordType": "PollVote",
           "fields": {"pollId": {"value": "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "type": "STRING"},
                      "odg": {"value": "_voter", "type": "STRING"},
                      "rankings": {"value": [1, 0], "type": "INT64_LIST"},
                      "votedAt": {"value": 631151999, "type": "TIMESTAMP"},
                      "modifiedAt": {"value": 1780000000000, "type": "TIMESTAMP"}}}
        ]}
        """)
        #expect(votes.map { ($0.votedAt.timeIntervalSince1970 * 1000).rounded() } == [631_151_999])
        // Not read as seconds; a time of 1970 is warned about as no app's (it dates nothing).
        #expect(diagnostics == ["Data/votes/v.json:6:36: warning: records[0].fields.votedAt: 1970-01-08T07:19:11Z is outside 2001–2100, not a time the app can have saved; it is shown as it is but does not date the site"])
    }

    @Test("A malformed dump is a positioned error", arguments: [
        (#"{"records": [{"recordName": "x", "recordType": "PollVote", "fields": []}]}"#,
         "Data/votes/v.json:1:70: error: records[0].fields: expected an object, found an array"),
        (#"{"records": [{"recordName": "x", "recordType": "PollVote", "fields": {"odg": "_v"}}]}"#,
         "Data/votes/v.json:1:78: error: records[0].fields.odg: expected an object, found a string"),
        (#"{"records": [{"recordName": "x", "recordType": "PollVote", "fields": {"odg": {"value": 7, "type": "STRING"}}}]}"#,
         "Data/votes/v.json:1:88: error: records[0].fields.odg.value: expected a string, found a number"),
        (#"{"records": [{"recordName": "x", "recordType": "PollVote", "fields": {"votedAt": {"value": "May 1", "type": "TIMESTAMP"}}}]}"#,
         "Data/votes/v.json:1:92: error: records[0].fields.votedAt.value: expected a number, found a string"),
        (#"{"records": [{"recordName": "x", "recordType": "PollVote", "fields": {"odg": {"value": "_v", "type": "TEXT"}}}]}"#,
         #"Data/votes/v.json:1:102: error: records[0].fields.odg.type: unknown CloudKit field type "TEXT"; expected one of ASSET, BYTES, DOUBLE, INT64, LOCATION, REFERENCE, STRING, TIMESTAMP, …_LIST"#),
        (#"{"records": [{"recordName": "x", "fields": {}}]}"#,
         #"Data/votes/v.json:1:14: error: records[0].recordType: required field is missing"#),
        (#"{"records": [{"recordName": "a0000000-0000-0000-0000-00000000000a", "recordType": "PollVote", "fields": {}}]}"#,
         #"Data/votes/v.json:1:105: error: records[0].fields: 5 required fields of the vote are missing: "pollId", "odg" (or "voterId"), "rankings", "votedAt", "modifiedAt""#),
        // A whole request that failed, saved in place of its records.
        (#"{"uuid": "4c3f", "serverErrorCode": "AUTHENTICATION_FAILED", "reason": "no auth method found"}"#,
         "Data/votes/v.json:1:1: error: this file is CloudKit's answer to a request that failed (AUTHENTICATION_FAILED: no auth method found), not records: run the query again and save its records"),
        // An asset as Web Services return it: where to download the file.
        (#"{"records": [{"recordName": "x", "recordType": "PollVote", "fields": {"rankings": {"value": {"fileChecksum": "AQ", "size": 5, "downloadURL": "https://cvws.icloud-content.com/x"}, "type": "ASSET"}}}]}"#,
         "Data/votes/v.json:1:93: error: records[0].fields.rankings.value: a CloudKit asset is a link to its file (downloadURL), not the file: download it and write its contents here as base64, or use the app's JSON export"),
    ])
    func malformedDump(json: String, message: String) throws {
        let (votes, diagnostics) = try loadVotes(json)
        #expect(votes.isEmpty)
        #expect(diagnostics == [message])
    }

    // MARK: Aliases and unknown fields

    @Test("Custom items keyed itemId, as the items design's CloudKit records are")
    func itemIdAlias() throws {
        let json = """
        {"itemId": "item-9", "tripId": "11111111-1111-1111-1111-111111111111", "category": "note", "title": "Bring sunscreen",
         "anchorType": "startOfDay", "anchorDay": 2, "createdAt": 800000000, "modifiedAt": 800000000}
        """
        let item = try ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference))
            .customItem(JSONField(try JSONParser.parse(Array(json.utf8))), source: Sample.source)
        #expect(item.id == "item-9")
        #expect(item.anchor == .startOfDay)
    }

    @Test("An unknown field is a warning at its first place, once per name and file, with a suggestion")
    func unknownFields() throws {
        let vote = #"{"id":"a0000000-0000-0000-0000-00000000000%@","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v%@","rankings":[0,1],"votedAt":0,"modifiedAt":0,"modifedAt":0,"device":"iPhone"}"#
        let json = "[\n" + ["1", "2", "3"].map { vote.replacingOccurrences(of: "%@", with: $0) }.joined(separator: ",\n") + "\n]"
        let (votes, diagnostics) = try loadVotes(json)
        #expect(votes.count == 3)
        #expect(diagnostics == [
            #"Data/votes/v.json:2:162: warning: [0].modifedAt: sitegen does not know the field "modifedAt" of a vote (did you mean "modifiedAt"?); it is ignored (3 times in this file)"#,
            #"Data/votes/v.json:2:173: warning: [0].device: sitegen does not know the field "device" of a vote; it is ignored (3 times in this file)"#,
        ])
    }

    @Test("Past 20 unknown field names in a file, one line counts the rest; long names and numbers are quoted short")
    func manyUnknownFields() throws {
        let base = #""id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v","rankings":[0,1],"votedAt":0,"modifiedAt":0"#
        let names = (0..<30).map { "extra\($0)" }
        let (votes, diagnostics) = try loadVotes("[{" + base + "," + names.map { #""\#($0)":1"# }.joined(separator: ",") + "}]")
        #expect(votes.count == 1)
        #expect(diagnostics.count == 21)
        #expect(diagnostics.prefix(20).map { $0.components(separatedBy: "warning: ")[1] }
            == names.prefix(20).map { #"[0].\#($0): sitegen does not know the field "\#($0)" of a vote; it is ignored"# })
        #expect(diagnostics.last?.hasSuffix("warning: and 10 more field names sitegen does not know in this file; they are ignored (--verbose lists every one)") == true)

        let long = String(repeating: "K", count: 100_000)
        let (_, quoted) = try loadVotes("[{" + base + #","\#(long)":1}]"#)
        #expect(quoted.count == 1)
        #expect(quoted[0].count < 300)
        #expect(quoted[0].contains(#"the field ""# + String(repeating: "K", count: 63) + #"…" of a vote"#))

        let (_, number) = try loadVotes("[{" + base.replacingOccurrences(of: #""votedAt":0"#, with: #""votedAt":"# + String(repeating: "1", count: 5000)) + "}]")
        #expect(number == ["Data/votes/v.json:1:133: error: not valid JSON: number 11111111111111111111… (5000 characters) is out of range"])
    }

    @Test("A record missing three fields names all three")
    func missingFields() throws {
        let (_, diagnostics) = try loadVotes(#"[{"id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v"}]"#)
        #expect(diagnostics == [
            #"Data/votes/v.json:1:2: error: [0]: 3 required fields of the vote are missing: "rankings", "votedAt", "modifiedAt""#,
        ])
    }

    @Test("Game ids no catalog holds: each warning at its id, the first three in file order, the rest counted")
    func unknownGameIdsInFileOrder() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n")
        let ids = (0..<12).map { "\"g\($0)\"" }.joined(separator: ",\n    ")
        try site.write("Data/trips/t.json", ExportDecodingTests.tripJSON.replacingOccurrences(of: #""games":["g1","g2"]"#, with: "\"games\":[\n    \(ids)]"))
        let log = DiagnosticLog()
        var options = BuildOptions(configFile: site.root.appendingPathComponent("site.yml"))
        options.write = false
        _ = try SiteBuilder(options: options, log: log).run()
        let shown = displayPath(site.root) + "/"
        #expect(log.all.map { $0.description.replacingOccurrences(of: shown, with: "") } == (0..<3).map {
            #"Data/trips/t.json:\#(3 + $0):5: warning: stops[0].games[\#($0)]: trip "Loop": no game catalog holds game g\#($0); the page shows its id"#
        })
        #expect(log.omissions.map(\.description) == ["warning: 9 more like these: game ids that no catalog holds; the pages show the ids (--verbose lists every one)"])
    }

    @Test("Every missing field of a record is named, at every level, in one build")
    func missingFieldsAtEveryLevel() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n")
        // A trip lacking its name, its end date, and two fields of its first stop.
        try site.write("Data/trips/t.json", """
            {"id": "14141414-1414-4414-8414-141414141414",
             "preferences": {"startDate": "2026-06-12", "sports": ["mlb"]},
             "stops": [{"city": "Chicago", "state": "IL", "longitude": -87.63, "departureDate": "2026-06-14", "games": []}],
             "travelSegments": [{"id": "s", "fromCity": "Chicago", "toCity": "Milwaukee", "distanceMeters": 1}]}
            """)
        // A poll whose second trip lacks a name and whose third a stop's latitude.
        let trip = ExportDecodingTests.tripJSON
        let nameless = trip.replacingOccurrences(of: #""name":"Loop","#, with: "")
        let noLatitude = trip.replacingOccurrences(of: #""latitude":43.04,"#, with: "")
        #expect(nameless != trip && noLatitude != trip)
        try site.write("Data/polls/p.json", ExportDecodingTests().pollJSON(trips: "[\(trip),\n\(nameless),\n\(noLatitude)]"))
        // A convoy whose origin lacks a name (its checkpoint's coordinate without a longitude
        // is only a warning, as for a flat one).
        try site.write("Data/convoys/c.json", """
            {"id": "c1", "title": "C", "status": "draft", "createdAt": "2026-05-01", "modifiedAt": "2026-05-01",
             "origin": {"latitude": 41.8, "longitude": -87.6},
             "checkpoints": [{"order": 1, "place": {"name": "P", "coordinate": {"latitude": 42}}}]}
            """)
        #expect(try site.checkErrors().sorted() == [
            #"Data/convoys/c.json:2:12: error: origin.name: required field is missing"#,
            #"Data/polls/p.json:12:11: error: tripSnapshots[2].stops[1].latitude: required field is missing"#,
            #"Data/polls/p.json:6:1: error: tripSnapshots[1].name: required field is missing"#,
            #"Data/trips/t.json:1:1: error: name: required field is missing"#,
            #"Data/trips/t.json:2:17: error: preferences.endDate: required field is missing"#,
            #"Data/trips/t.json:3:12: error: stops[0]: 2 required fields of the stop are missing: "latitude", "arrivalDate""#,
            #"Data/trips/t.json:4:21: error: travelSegments[0].durationSeconds: required field is missing"#,
        ])
    }

    @Test("A trip that ends before it starts and a later trip's missing latitude are both found in one build")
    func otherErrorThenMissingField() throws {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n")
        let trip = ExportDecodingTests.tripJSON
        let backwards = trip.replacingOccurrences(of: #""endDate":"2026-06-14""#, with: #""endDate":"2026-06-01""#)
        let noLatitude = trip.replacingOccurrences(of: #""latitude":43.04,"#, with: "")
        #expect(backwards != trip && noLatitude != trip)
        try site.write("Data/polls/p.json", ExportDecodingTests().pollJSON(trips: "[\(backwards),\n\(noLatitude)]"))
        #expect(try site.checkErrors() == [
            #"Data/polls/p.json:2:191: error: tripSnapshots[0].preferences.endDate: the trip ends on 2026-06-01, before it starts (2026-06-12)"#,
            #"Data/polls/p.json:8:11: error: tripSnapshots[1].stops[1].latitude: required field is missing"#,
        ])
    }

    // MARK: Dates and numbers

    @Test("Unix seconds read under numericDates: reference are a warning naming numericDates")
    func unixSecondsUnderReference() throws {
        let site = try goldenSite()
        // The app's own JSONEncoder writes reference seconds; this ballot was written by a
        // script with Unix seconds. 1778000000 is 2026-05-05 since 1970, 2057 since 2001.
        try site.write("Data/votes/script.json", """
        [{"id": "b0000000-0000-0000-0000-0000000000f1", "pollId": "7f9619ff-8b86-d011-b42d-00cf4fc964ff", "odg": "_priv_voter_9",
          "rankings": [0, 1], "votedAt": 1778000000, "modifiedAt": 1778000000}]
        """)
        let (_, log) = try build(site)
        #expect(log.all.map(\.description).map { $0.replacingOccurrences(of: displayPath(site.root) + "/", with: "") } == [
            "Data/votes/script.json:2:34: warning: [0].votedAt: 1778000000 reads as 2057-05-05 under numericDates: reference, "
            + "decades from the site's other dates, but as 2026-05-05 under numericDates: unix; if that is what the app wrote, "
            + "set numericDates: unix in site.yml (2 such dates in this file)",
        ])
    }

    @Test("Numbers beyond any trip are positioned errors, never a crash", arguments: [
        (#""modifiedAt": 1e300"#, "modifiedAt", "1e+300 seconds since 2001 is outside the years 1 to 9999"),
        (#""modifiedAt": -1e15"#, "modifiedAt", "-1e+15 seconds since 2001 is outside the years 1 to 9999"),
        (#""modifiedAt": "0000-01-01""#, "modifiedAt", #"expected a date such as "2026-06-12T19:05:00Z", "2026-06-12" or a number of seconds, found "0000-01-01""#),
    ])
    func hugeVoteNumbers(field: String, path: String, message: String) throws {
        let json = #"[{"id":"a0000000-0000-0000-0000-000000000001","pollId":"6f9619ff-8b86-d011-b42d-00cf4fc964ff","odg":"_v","rankings":[0,1],"votedAt":0,"#
            + field + "}]"
        let (votes, diagnostics) = try loadVotes(json)
        #expect(votes.isEmpty)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.hasSuffix("error: [0].\(path): \(message)") == true, "\(diagnostics)")
    }

    @Test("Trip distances and durations must be finite, not negative and below physical bounds", arguments: [
        ("\"distanceMeters\":1.5e22", "travelSegments[0].distanceMeters", "1.5e+22 meters is beyond any trip; the limit is 100000000"),
        ("\"distanceMeters\":-156000", "travelSegments[0].distanceMeters", "must not be negative, found -156000"),
        ("\"durationSeconds\":1e25", "travelSegments[0].durationSeconds", "1e+25 seconds is beyond any trip; the limit is 10000000"),
    ])
    func tripNumbers(replacement: String, path: String, message: String) throws {
        var json = ExportDecodingTests.tripJSON
        let key = replacement.hasPrefix("\"distance") ? "\"distanceMeters\":148000" : "\"durationSeconds\":5400"
        json = json.replacingOccurrences(of: key, with: replacement)
        let decoder = ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference))
        let error = #expect(throws: FieldError.self) { try decoder.trip(JSONField(try JSONParser.parse(Array(json.utf8)))) }
        #expect(error?.path.description == path)
        #expect(error?.message == message)
    }

    @Test("A count out of range gives both bounds and the value grouped alike")
    func countOutOfRange() throws {
        let json = #"{"id":"i1","tripId":"t1","category":"note","title":"Far","anchorType":"startOfDay","anchorDay":20000,"createdAt":0,"modifiedAt":0}"#
        let decoder = ExportDecoder(dates: ExportDateReader(timeZone: .gmt, numericDates: .reference))
        let error = #expect(throws: FieldError.self) {
            try decoder.customItem(JSONField(try JSONParser.parse(Array(json.utf8))), source: SourceRef(file: "items.json", line: 1, column: 1))
        }
        #expect(error?.path.description == "anchorDay")
        #expect(error?.message == "must be from -10,000 to 10,000, found 20,000")
    }

    // Issue #19: each of these stopped the process with SIGILL, no position, the staging
    // folder left behind; `check` passed the distance and the duration.
    @Test("Numbers that trapped: build and check exit 1 naming the place; the published site stays as it was", arguments: [
        ("Data/polls/polls.json", "\"distanceMeters\": 148000", "\"distanceMeters\": 1.5e22",
         "17:138: error: [0].tripSnapshots[0].travelSegments[0].distanceMeters: 1.5e+22 meters is beyond any trip; the limit is 100000000"),
        ("Data/polls/polls.json", "\"durationSeconds\": 5700", "\"durationSeconds\": 1e25",
         "17:165: error: [0].tripSnapshots[0].travelSegments[0].durationSeconds: 1e+25 seconds is beyond any trip; the limit is 10000000"),
        ("Data/votes/tie.json", "\"modifiedAt\": \"2026-05-05T10:00:00Z\"", "\"modifiedAt\": 1e300",
         "2:193: error: [0].modifiedAt: 1e+300 seconds since 2001 is outside the years 1 to 9999"),
    ])
    func trappingNumbers(file: String, original: String, replacement: String, message: String) throws {
        let site = try goldenSite()
        #expect(try SitegenProcess.run(["build"], in: site.root).status == 0)
        let before = try fileTree(site.root.appendingPathComponent("Output"))
        let text = try site.read(file)
        #expect(text.contains(original))
        try site.write(file, text.replacingOccurrences(of: original, with: replacement))
        for command in ["build", "check"] {
            let result = try SitegenProcess.run([command], in: site.root)
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("\(file):\(message)\n"), "\(command): \(result.stderr)")
        }
        #expect(try fileTree(site.root.appendingPathComponent("Output")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter { $0.contains("staging") } == [])
    }

    // MARK: Diagnostics that scale

    @Test("Many warnings of one kind print as a few examples and a count; --verbose keeps every one")
    func summarisedWarnings() throws {
        let log = DiagnosticLog()
        let verbose = DiagnosticLog(keepsEvery: true)
        for index in (0..<1000).reversed() {
            let diagnostic = Diagnostic(.warning, file: "Data/polls/p\(index / 100).json", line: index % 100 + 1, column: 3,
                                        message: "no game catalog holds game g\(index)", summary: "game ids that no catalog holds")
            log.add(diagnostic)
            verbose.add(diagnostic)
        }
        #expect(log.warningCount == 1000)
        #expect(log.all.map(\.description) == [
            "Data/polls/p0.json:1:3: warning: no game catalog holds game g0",
            "Data/polls/p0.json:2:3: warning: no game catalog holds game g1",
            "Data/polls/p0.json:3:3: warning: no game catalog holds game g2",
        ])
        #expect(log.omissions.map(\.description) == ["warning: 997 more like these: game ids that no catalog holds (--verbose lists every one)"])
        #expect(verbose.all.count == 1000)
        #expect(verbose.omissions.isEmpty)
    }

    @Test("Errors past the cap of a file are counted: a file of 2,000 bad records prints 50 and a count")
    func cappedErrors() throws {
        let bad = Array(repeating: #"{"id": 1}"#, count: 2000).joined(separator: ",\n")
        let (_, diagnostics) = try loadVotes("[\n\(bad)\n]")
        #expect(diagnostics.count == DiagnosticLog.keptPerFile + 1)
        #expect(diagnostics.first == #"Data/votes/v.json:2:1: error: [0]: 5 required fields of the vote are missing: "pollId", "odg" (or "voterId"), "rankings", "votedAt", "modifiedAt""#)
        #expect(diagnostics.last == "Data/votes/v.json: error: and 1,950 more errors in this file (--verbose lists every one)")
    }
}
