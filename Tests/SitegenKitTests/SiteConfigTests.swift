import Foundation
@testable import SitegenCore
@testable import SitegenInput
@testable import SitegenKit
@testable import SitegenModel
import Testing

@Suite("site.yml (docs/site-config.md)")
struct SiteConfigTests {
    let file = URL(fileURLWithPath: "/sites/trips/site.yml")

    @Test("Only title is required; every default applies and paths resolve against the file's folder")
    func defaults() throws {
        let config = try SiteConfigLoader.parse("title: Trips\n", file: file)
        #expect(config.title == "Trips")
        #expect(config.baseURL == nil)
        #expect(config.language == "en")
        #expect(config.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_781_291_100)) == 0)
        #expect(config.urls == .pretty)
        #expect(config.listPolls)
        #expect(config.numericDates == .reference)
        #expect(config.templates.path == "/sites/trips/Templates")
        #expect(config.output.path == "/sites/trips/Output")
        #expect(config.pages == nil)
        #expect(config.inputs.polls.path == "/sites/trips/Data/polls")
        #expect(config.inputs.convoys.path == "/sites/trips/Data/convoys")
        #expect(config.minBallotsForBreakdown == 3)
        #expect(config.tips.featured == 3)
        #expect(config.tips.rotation == .daily)
        #expect(config.tips.seed == 0)
        #expect(config.tips.file == nil)
    }

    @Test("An empty path is not set, as null is: the default, not the site folder; the paths site.yml gives are noted")
    func emptyPaths() throws {
        let config = try SiteConfigLoader.parse("title: Trips\noutput: \"\"\ntemplates: ''\ninputs:\n  polls: \"\"\n  votes: Ballots\n  trips: ~\n", file: file)
        #expect(config.output.path == "/sites/trips/Output")
        #expect(config.templates.path == "/sites/trips/Templates")
        #expect(config.inputs.polls.path == "/sites/trips/Data/polls")
        #expect(config.inputs.votes.path == "/sites/trips/Ballots")
        #expect(config.inputs.named == ["inputs.votes"])
        // Any setting: a CI template's empty variable is not set.
        let empties = try SiteConfigLoader.parse("title: Trips\nbaseURL: \"\"\nlanguage: ''\ntimeZone: \"\"\nurls: \"\"\nkeep: \"\"\n", file: file)
        #expect(empties.baseURL == nil && empties.language == "en" && empties.urls == .pretty)
        #expect(empties.timeZone.identifier == "Etc/UTC")
        // UTC, the default, reads "UTC" on the pages, as `date +%Z` prints it: Foundation's
        // zone of that name is its "GMT".
        let noon = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(Formatting(timeZone: empties.timeZone).time(noon).hasSuffix(" UTC"))
        let utc = try SiteConfigLoader.parse("title: Trips\ntimeZone: UTC\n", file: file)
        #expect(Formatting(timeZone: utc.timeZone).time(noon).hasSuffix(" UTC"))
        #expect(Formatting(timeZone: try #require(TimeZone.named("GMT"))).time(noon).hasSuffix(" GMT"))
        #expect(empties.keep == SiteConfigLoader.defaultKeep)
    }

    @Test("keep: paths written with ./, a trailing slash or a doubled slash name what they would without; sitemap.xml may be kept without a baseURL")
    func keepPaths() throws {
        let config = try SiteConfigLoader.parse("title: T\nkeep: [./downloads, docs/, a//b.pdf, sitemap.xml]\n", file: file)
        #expect(config.keep == SiteConfigLoader.defaultKeep + ["downloads", "docs", "a/b.pdf", "sitemap.xml"])
        #expect(message("title: T\nbaseURL: https://example.org/\nkeep: [sitemap.xml]\n")
                == "/sites/trips/site.yml:3:8: error: keep: sitegen writes \"sitemap.xml\" itself; keep lists only what it does not write, such as CNAME or downloads")
        #expect(message("title: T\nkeep: [../x]\n") != nil)
    }

    @Test("Every key of docs/site-config.md is read")
    func fullExample() throws {
        let config = try SiteConfigLoader.parse("""
        title: Summer 2026 Road Trips
        description: "Vote on our *summer* options"
        baseURL: https://example.org/trips
        language: en-US
        timeZone: America/Chicago
        urls: files
        listPolls: false
        numericDates: unix
        templates: ../shared-templates
        output: public
        pages: Pages
        inputs:
          polls: exports/polls
          votes: exports/votes
        privacy:
          minBallotsForBreakdown: 5
        tips:
          file: tips.json
          featured: 4
          rotation: fixed
          seed: 7
        """, file: file)
        #expect(config.description == "Vote on our *summer* options")
        #expect(config.baseURL?.absoluteString == "https://example.org/trips/")
        #expect(config.language == "en-US")
        #expect(config.timeZone.identifier == "America/Chicago")
        #expect(config.urls == .files)
        #expect(!config.listPolls)
        #expect(config.numericDates == .unix)
        #expect(config.templates.path == "/sites/shared-templates")
        #expect(config.output.path == "/sites/trips/public")
        #expect(config.pages?.path == "/sites/trips/Pages")
        #expect(config.inputs.polls.path == "/sites/trips/exports/polls")
        #expect(config.inputs.trips.path == "/sites/trips/Data/trips")
        #expect(config.minBallotsForBreakdown == 5)
        #expect(config.tips.file?.path == "/sites/trips/tips.json")
        #expect(config.tips.featured == 4)
        #expect(config.tips.rotation == .fixed)
        #expect(config.tips.seed == 7)
    }

    func message(_ yaml: String) -> String? {
        do {
            _ = try SiteConfigLoader.parse(yaml, file: file)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("Unknown keys are errors naming the key, its line and column")
    func unknownKeys() {
        #expect(message("title: Trips\ntitel: Oops\n") ==
                "/sites/trips/site.yml:2:1: error: titel: unknown key (did you mean \"title\"?); expected one of: title, description, baseURL, language, timeZone, urls, listPolls, numericDates, templates, output, keep, pages, inputs, privacy, tips, previews")
        #expect(message("title: Trips\ninputs:\n  poll: x\n") ==
                "/sites/trips/site.yml:3:3: error: inputs.poll: unknown key (did you mean \"polls\"?); expected one of: polls, votes, trips, items, games, options, convoys")
        #expect(message("title: Trips\nprivacy:\n  minBallots: 2\n") ==
                "/sites/trips/site.yml:3:3: error: privacy.minBallots: unknown key (did you mean \"minBallotsForBreakdown\"?); expected one of: minBallotsForBreakdown")
    }

    @Test("A title of zero-width characters or fillers is empty; a control character in the title or description is refused")
    func invisibleAndControlText() {
        #expect(message("title: \"\\u200B\\u200D \"\n") == "/sites/trips/site.yml:1:8: error: title: must not be empty")
        #expect(message("title: \"\\u3164\\u3164\"\n") == "/sites/trips/site.yml:1:8: error: title: must not be empty")
        #expect(message("title: \"Trips\\u0007\"\n") == "/sites/trips/site.yml:1:8: error: title: contains the control character U+0007, which a page cannot show; remove it")
        #expect(message("title: T\ndescription: \"a\\u001Bb\"\n") == "/sites/trips/site.yml:2:14: error: description: contains the control character U+001B, which a page cannot show; remove it")
        // Lines and tabs in a description are text; a title with a joiner inside is a title.
        #expect(message("title: \"👨\\u200D👩\"\ndescription: |\n  One\n  \ttwo\n") == nil)
    }

    @Test("A suggestion is offered only for a close spelling: two edits make any two-letter name any other")
    func closeSpellings() {
        #expect(isCloseSpelling("title", "titel") && isCloseSpelling("main", "mian") && isCloseSpelling("id", "od"))
        #expect(!isCloseSpelling("id", "zz") && !isCloseSpelling("id", "x") && !isCloseSpelling("odg", "zzz"))
        #expect(didYouMean("zz", among: ["id", "odg", "pollId"]) == nil)
        #expect(didYouMean("pollid", among: ["id", "odg", "pollId"]) == " (did you mean \"pollId\"?)")
        // site.yml: a key's start counts when it is one letter off, not two ("items" was asked
        // whether it meant "templates"); a section's key written at the top is pointed there.
        let top = "expected one of: title, description, baseURL, language, timeZone, urls, listPolls, numericDates, templates, output, keep, pages, inputs, privacy, tips, previews"
        #expect(message("title: T\nnote: x\n") == "/sites/trips/site.yml:2:1: error: note: unknown key; \(top)")
        #expect(message("title: T\nitems: Data/x\n") == "/sites/trips/site.yml:2:1: error: items: unknown key (did you mean \"inputs.items\", under inputs:?); \(top)")
        #expect(message("title: T\nseed: 4\n") == "/sites/trips/site.yml:2:1: error: seed: unknown key (did you mean \"tips.seed\", under tips:?); \(top)")
    }

    @Test("Every problem of the file is reported in one run, in file order")
    func everyProblemAtOnce() {
        // A misspelt key used to hide the rest: `titel` alone, then the missing title, …
        #expect(message("titel: X\nurls: fancy\nlisPolls: true\nprivacy:\n  minBallotsForBreakdown: 0\n  minBalots: 2\ntimeZone: Mars/Base\n") == """
            /sites/trips/site.yml:1:1: error: titel: unknown key (did you mean "title"?); expected one of: title, description, baseURL, language, timeZone, urls, listPolls, numericDates, templates, output, keep, pages, inputs, privacy, tips, previews
            /sites/trips/site.yml:1:1: error: title: required setting is missing
            /sites/trips/site.yml:2:7: error: urls: expected pretty or files, found "fancy"
            /sites/trips/site.yml:3:1: error: lisPolls: unknown key (did you mean "listPolls"?); expected one of: title, description, baseURL, language, timeZone, urls, listPolls, numericDates, templates, output, keep, pages, inputs, privacy, tips, previews
            /sites/trips/site.yml:5:27: error: privacy.minBallotsForBreakdown: must be at least 1
            /sites/trips/site.yml:6:3: error: privacy.minBalots: unknown key (did you mean "minBallotsForBreakdown"?); expected one of: minBallotsForBreakdown
            /sites/trips/site.yml:7:11: error: timeZone: unknown time zone "Mars/Base"; use an IANA name such as America/Chicago
            """)
        // A mapping expected and a scalar found is one problem; the rest are still read.
        #expect(message("title: T\ninputs: Data\ntips:\n  featured: 0\n") == """
            /sites/trips/site.yml:2:9: error: inputs: expected a mapping with keys polls, votes, trips, items, games, options, convoys
            /sites/trips/site.yml:4:13: error: tips.featured: must be at least 1
            """)
    }

    @Test("Wrong values are errors with positions")
    func wrongValues() throws {
        #expect(message("description: x\n") == "/sites/trips/site.yml:1:1: error: title: required setting is missing")
        #expect(message("title: T\nurls: fancy\n") == "/sites/trips/site.yml:2:7: error: urls: expected pretty or files, found \"fancy\"")
        #expect(message("title: T\ntimeZone: Mars/Base\n") ==
                "/sites/trips/site.yml:2:11: error: timeZone: unknown time zone \"Mars/Base\"; use an IANA name such as America/Chicago")
        #expect(message("title: T\nbaseURL: example.org\n") ==
                "/sites/trips/site.yml:2:10: error: baseURL: expected an http or https URL with a host and an optional path, such as https://example.org/trips/ (no user name, password, query or fragment: it is printed on every page)")
        #expect(message("title: T\nlistPolls: maybe\n") == "/sites/trips/site.yml:2:12: error: listPolls: expected true or false")
        #expect(message("title: T\nprivacy:\n  minBallotsForBreakdown: 0\n") ==
                "/sites/trips/site.yml:3:27: error: privacy.minBallotsForBreakdown: must be at least 1")
        #expect(message("title: [unclosed\n")?.hasPrefix("/sites/trips/site.yml:2:1: error: not valid YAML") == true)
        // At the repeated key, not the mapping's start; a nested one too.
        #expect(message("title: T\nurls: files\nurls: pretty\n") == "/sites/trips/site.yml:3:1: error: key \"urls\" appears more than once")
        #expect(message("title: T\nprivacy:\n  minBallotsForBreakdown: 2\n  minBallotsForBreakdown: 3\n")
            == "/sites/trips/site.yml:4:3: error: key \"minBallotsForBreakdown\" appears more than once")
        #expect(message("- a list\n") == "/sites/trips/site.yml:1:1: error: expected a mapping of settings such as `title: My trips`")
        // YAML's null is not a title; quoted, "~" is.
        #expect(message("title: ~\n") == #"/sites/trips/site.yml:1:8: error: title: expected text, found YAML's null ("~"); quote it to mean the characters"#)
        #expect(message("title:\nurls: files\n") == "/sites/trips/site.yml:1:7: error: title: must not be empty")
        #expect(message("title: \"~\"\n") == nil)
        // A seed is any value --seed takes: 0 to 2^64 - 1.
        #expect(try SiteConfigLoader.parse("title: T\ntips:\n  seed: 18446744073709551615\n", file: file).tips.seed == UInt64.max)
        #expect(message("title: T\ntips:\n  seed: 18446744073709551616\n") ==
                "/sites/trips/site.yml:3:9: error: tips.seed: expected a whole number from 0 to 18446744073709551615")
        #expect(message("title: T\nprivacy:\n  minBalots: 2\n")?.contains(#"unknown key (did you mean "minBallotsForBreakdown"?)"#) == true)
        #expect(message("title: T\ntips:\n  seed: -1\n") == "/sites/trips/site.yml:3:9: error: tips.seed: must not be negative")
        #expect(message("title: T\ntips:\n  seed: 1.5\n") ==
                "/sites/trips/site.yml:3:9: error: tips.seed: expected a whole number from 0 to 18446744073709551615")
        // A port no URL can have, and a folder that is ".." however spelt.
        let badURL = "error: baseURL: expected an http or https URL with a host and an optional path"
        for url in ["https://ex.org:99999/", "https://ex.org:0/", "https://ex.org/%2e%2e/", "https://ex.org/a/%2E/b/", "https://ex.org/../"] {
            #expect(message("title: T\nbaseURL: \(url)\n")?.contains(badURL) == true, "\(url)")
        }
        #expect(message("title: T\nbaseURL: https://ex.org:8443/trips%20and%20more/\n") == nil)
    }
}
