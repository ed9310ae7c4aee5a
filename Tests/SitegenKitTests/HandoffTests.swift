import Foundation
@testable import SitegenCore
@testable import SitegenKit
@testable import SitegenModel
@testable import SitegenRender
import Testing

/// Seven places in a row: more than one Google Maps link takes.
private let sevenPoints = (0..<7).map { RoutePoint(name: "P\($0)", latitude: 40 + Double($0) / 10, longitude: -90 - Double($0) / 100) }

@Suite("Directions links (docs/rules.md)")
struct RouteHandoffTests {
    @Test("Coordinates are plain decimals of at most 6 places, never an exponent or a negative zero",
          arguments: [(41.95, "41.95"), (-87.66, "-87.66"), (0, "0"), (0.0000004, "0"), (-0.0000004, "0"),
                      (-0.0000006, "-0.000001"), (1e-5, "0.00001"), (90, "90"), (-179.9999999, "-180"), (43.0389123, "43.038912")])
    func decimals(value: Double, text: String) {
        #expect(RoutePoint.decimal(value) == text)
    }

    @Test("One drive: one link per service, origin to destination by coordinates, every value percent-encoded")
    func oneDrive() {
        let points = Array(sevenPoints.prefix(2))
        #expect(RouteHandoff.links(points, service: .google).map(\.url) == [
            "https://www.google.com/maps/dir/?api=1&origin=40%2C-90&destination=40.1%2C-90.01&travelmode=driving",
        ])
        #expect(RouteHandoff.links(points, service: .apple).map(\.url) == [
            "https://maps.apple.com/?saddr=40%2C-90&daddr=40.1%2C-90.01&dirflg=d",
        ])
        #expect(RouteHandoff.links(Array(points.prefix(1)), service: .google).isEmpty)
        #expect(RouteHandoff.links([], service: .apple).isEmpty)
    }

    @Test("A place listed again where the route already is is passed once; a drive from a place to itself has no directions")
    func samePlaceAgain() {
        let chicago = RoutePoint(name: "Chicago", latitude: 41.88, longitude: -87.63)
        let again = RoutePoint(name: "Chicago (hotel)", latitude: 41.8800001, longitude: -87.63)
        let milwaukee = RoutePoint(name: "Milwaukee", latitude: 43.04, longitude: -87.91)
        #expect(RouteHandoff.links([chicago, again], service: .google).isEmpty)
        #expect(HandoffLinks.directions([chicago, chicago], label: "Directions") == nil)
        #expect(RouteHandoff.links([chicago, again, milwaukee, milwaukee], service: .google).map(\.url) == [
            "https://www.google.com/maps/dir/?api=1&origin=41.88%2C-87.63&destination=43.04%2C-87.91&travelmode=driving",
        ])
        // Back to a place left earlier is a drive.
        #expect(RouteHandoff.links([chicago, milwaukee, chicago], service: .apple).count == 2)
    }

    @Test("Waypoints beyond a service's limit: consecutive links, each starting where the last ended")
    func beyondTheLimit() {
        let google = RouteHandoff.links(sevenPoints, service: .google)
        #expect(google.map(\.url) == [
            "https://www.google.com/maps/dir/?api=1&origin=40%2C-90&destination=40.4%2C-90.04"
                + "&waypoints=40.1%2C-90.01%7C40.2%2C-90.02%7C40.3%2C-90.03&travelmode=driving",
            "https://www.google.com/maps/dir/?api=1&origin=40.4%2C-90.04&destination=40.6%2C-90.06"
                + "&waypoints=40.5%2C-90.05&travelmode=driving",
        ])
        #expect(google.map { "\($0.from) → \($0.to)" } == ["P0 → P4", "P4 → P6"])
        // Google documents 3 waypoints for mobile browsers; Apple's map links take two points.
        for link in google {
            let waypoints = link.url.components(separatedBy: "&").first { $0.hasPrefix("waypoints=") }
            #expect((waypoints?.components(separatedBy: "%7C").count ?? 0) <= RouteHandoff.googleMaxWaypoints)
        }
        let apple = RouteHandoff.links(sevenPoints, service: .apple)
        #expect(apple.count == 6)
        #expect(apple.first?.url == "https://maps.apple.com/?saddr=40%2C-90&daddr=40.1%2C-90.01&dirflg=d")
        #expect(apple.last?.url == "https://maps.apple.com/?saddr=40.5%2C-90.05&daddr=40.6%2C-90.06&dirflg=d")
        #expect(apple.map(\.from) == ["P0", "P1", "P2", "P3", "P4", "P5"])
        #expect(apple.map(\.to) == ["P1", "P2", "P3", "P4", "P5", "P6"])

        let directions = HandoffLinks.directions(sevenPoints, label: "Directions")!
        let texts = directions.mapsLinks.map(\.mapsText)
        #expect(texts == ["Google Maps: P0 → P4", "Google Maps: P4 → P6", "Apple Maps: P0 → P1", "Apple Maps: P1 → P2",
                          "Apple Maps: P2 → P3", "Apple Maps: P3 → P4", "Apple Maps: P4 → P5", "Apple Maps: P5 → P6"])
        #expect(directions.directionsNote == "Google Maps opens up to 5 places at a time, Apple Maps one stretch at a time.")
    }

    @Test("Exactly the limit: one Google link with 3 waypoints")
    func atTheLimit() {
        let google = RouteHandoff.links(Array(sevenPoints.prefix(5)), service: .google)
        #expect(google.count == 1)
        #expect(google[0].url.contains("&waypoints=40.1%2C-90.01%7C40.2%2C-90.02%7C40.3%2C-90.03&"))
    }

    @Test("A value can carry nothing that ends or changes it: only unreserved characters stay")
    func percentEncoding() {
        #expect(RouteHandoff.percentEncoded("a&b=c|d,e #f/g?h é\"<>'") == "a%26b%3Dc%7Cd%2Ce%20%23f%2Fg%3Fh%20%C3%A9%22%3C%3E%27")
        #expect(RouteHandoff.percentEncoded("AZaz09-._~") == "AZaz09-._~")
    }

    @Test("A day with two drives: its directions go through the middle stop; Apple's come in two stretches")
    func dayOfTwoDrives() throws {
        let s = ItinerarySample.self
        var trip = s.trip()
        trip.stops[1].departureDate = s.date("2026-06-13")
        trip.stops.append(Stop(city: "Madison", state: "WI", latitude: 43.0731, longitude: -89.4012, arrivalDate: s.date("2026-06-13"),
                               departureDate: s.date("2026-06-14"), games: []))
        trip.travelSegments.append(TravelSegment(id: "SEG-2", fromCity: "Milwaukee", toCity: "Madison", distanceMeters: 127_000,
                                                 durationSeconds: 4_800, departureDate: nil))
        let timeline = ItineraryTimeline.build(trip: trip, catalog: s.catalog, items: [], timeZone: s.chicago)
        let legs = TripRoute.legs(trip)
        #expect(legs == [s.segmentId: TripRoute.Leg(from: 0, to: 1), "SEG-2": TripRoute.Leg(from: 1, to: 2)])
        #expect(TripRoute.points(of: timeline.days[0], legs: legs, trip: trip) == nil)
        let points = try #require(TripRoute.points(of: timeline.days[1], legs: legs, trip: trip))
        #expect(points.map(\.name) == ["Chicago, IL", "Milwaukee, WI", "Madison, WI"])

        let directions = try #require(HandoffLinks.directions(points, label: "Directions for the drive"))
        let links = directions.mapsLinks
        #expect(links.map(\.mapsText) == ["Open in Google Maps", "Apple Maps: Chicago, IL → Milwaukee, WI",
                                                            "Apple Maps: Milwaukee, WI → Madison, WI"])
        #expect(links[0].mapsHref
            == "https://www.google.com/maps/dir/?api=1&origin=41.95%2C-87.66&destination=43.0731%2C-89.4012&waypoints=43.03%2C-87.97&travelmode=driving")
        #expect(directions.directionsNote == "Apple Maps opens one stretch at a time.")
    }

    @Test("A drive whose cities match no stop has no directions: its coordinates are unknown")
    func unmatchedDrive() {
        var trip = ItinerarySample.trip()
        trip.travelSegments[0].toCity = "Green Bay"
        #expect(TripRoute.legs(trip).isEmpty)
    }
}

@Suite("GPX route files (docs/rules.md)")
struct GPXFileTests {
    @Test("A small trip's route.gpx, byte for byte")
    func smallTrip() {
        let trip = ItinerarySample.trip()
        #expect(GPXFile.route(name: trip.name, points: TripRoute.points(trip)) == """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="sitegen \(SitegenVersion.current)" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata>
                <name>Lakefront</name>
              </metadata>
              <rte>
                <name>Lakefront</name>
                <rtept lat="41.95" lon="-87.66">
                  <name>Chicago, IL</name>
                </rtept>
                <rtept lat="43.03" lon="-87.97">
                  <name>Milwaukee, WI</name>
                </rtept>
              </rte>
            </gpx>

            """)
    }

    @Test("Hostile names are escaped, characters XML cannot hold part words with a space, the antimeridian is -180")
    func hostileNames() throws {
        let gpx = try #require(GPXFile.route(name: "<script>alert(\"x\")</script> & 'co' \u{1b}[31m\u{7}\u{FFFE}", points: [
            RoutePoint(name: "]]><x onclick=a()>\u{0}", latitude: -90, longitude: 180),
            RoutePoint(name: "Tab\tand\u{2028}line", latitude: 90, longitude: -180),
            // Rounded to the millionths written, 180: written -180, as the schema has it.
            RoutePoint(name: "Ctl\u{b}trip", latitude: -16.8, longitude: 179.9999996),
        ]))
        #expect(gpx.contains("<name>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39; [31m</name>"))
        #expect(gpx.contains("<rtept lat=\"-90\" lon=\"-180\">\n      <name>]]&gt;&lt;x onclick=a()&gt;</name>"))
        #expect(gpx.contains("<rtept lat=\"90\" lon=\"-180\">\n      <name>Tab\tand\u{2028}line</name>"))
        #expect(gpx.contains("<rtept lat=\"-16.8\" lon=\"-180\">\n      <name>Ctl trip</name>"))
        #expect(!gpx.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
    }

    @Test("A stop at the coordinates of the one before it is one route point")
    func samePlaceOnce() throws {
        let chicago = RoutePoint(name: "Chicago", latitude: 41.88, longitude: -87.63)
        let hotel = RoutePoint(name: "Chicago hotel", latitude: 41.8800001, longitude: -87.63)
        let milwaukee = RoutePoint(name: "Milwaukee", latitude: 43.04, longitude: -87.91)
        let gpx = try #require(GPXFile.route(name: "T", points: [chicago, hotel, milwaukee, milwaukee]))
        #expect(gpx.components(separatedBy: "<rtept").count - 1 == 2)
        #expect(gpx.contains("<name>Chicago</name>") && !gpx.contains("Chicago hotel"))
        // Two stops at one place keep their two points: the page links the file.
        #expect(try #require(GPXFile.route(name: "T", points: [chicago, hotel])).components(separatedBy: "<rtept").count - 1 == 2)
    }

    @Test("Fewer than two points make no route")
    func tooShort() {
        #expect(GPXFile.route(name: "One", points: Array(sevenPoints.prefix(1))) == nil)
        #expect(GPXFile.route(name: "None", points: []) == nil)
    }
}

@Suite("Calendar subscriptions (docs/rules.md)")
struct CalendarSubscriptionTests {
    @Test("webcal:// is the file's address under another scheme; Google's link carries it percent-encoded")
    func links() throws {
        let https = try #require(CalendarSubscription(fileURL: "https://example.org/tr%20ips/trips/ID/calendar.ics"))
        #expect(https.webcal == "webcal://example.org/tr%20ips/trips/ID/calendar.ics")
        #expect(https.google == "https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Fexample.org%2Ftr%2520ips%2Ftrips%2FID%2Fcalendar.ics")
        // Google Calendar fetches calendars over https only: a plain http site gets no Google link.
        let http = try #require(CalendarSubscription(fileURL: "http://lan.example/c.ics"))
        #expect(http.webcal == "webcal://lan.example/c.ics")
        #expect(http.google == nil)
        #expect(CalendarSubscription(fileURL: "file:///tmp/c.ics") == nil)
    }

    /// g1 of the Loop itinerary (which names g1 and g2).
    static let catalog = #"[{"id": "g1", "sport": "mlb", "awayTeam": "STL", "homeTeam": "CHC", "startTime": "2026-06-12T18:20:00Z"}]"#
    static let loop = "trips/11111111-1111-1111-1111-11111111111A/"

    /// The Loop itinerary's site, built with `baseURL` (or none).
    /// With `poll`, a poll whose two trips are the Loop too.
    func itinerarySite(baseURL: String?, trip: String = ExportDecodingTests.tripJSON, catalog: String? = catalog,
                       poll: Bool = false) throws -> TemporarySite {
        let site = try TemporarySite()
        try site.copyTemplates()
        try site.write("site.yml", "title: T\n" + (baseURL.map { "baseURL: \($0)\n" } ?? ""))
        try site.write("Data/trips/loop.json", trip)
        if poll { try site.write("Data/polls/p.json", ExportDecodingTests().pollJSON()) }
        if let catalog { try site.write("Data/games/mlb.json", catalog) }
        _ = try SiteBuilder(options: BuildOptions(configFile: site.root.appendingPathComponent("site.yml")), log: DiagnosticLog()).run()
        return site
    }

    func itineraryPage(baseURL: String?) throws -> String {
        try itinerarySite(baseURL: baseURL).read("Output/\(Self.loop)index.html")
    }

    @Test("A trip without a game the catalog holds has no calendar file and offers none")
    func noGamesNoCalendar() throws {
        for catalog in [Self.catalog, nil] {
            let site = try itinerarySite(baseURL: "https://example.org/", catalog: catalog, poll: true)
            #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("Output/\(Self.loop)calendar.ics").path) == (catalog != nil))
            // The itinerary's page, and the poll's copy of the trip, which links to its calendar.
            for page in [Self.loop, "polls/X7K9M2/trips/1/"] {
                let html = try site.read("Output/\(page)index.html")
                #expect(html.contains("calendar.ics") == (catalog != nil), "\(page)")
                #expect(html.contains("Subscribe in Google Calendar") == (catalog != nil), "\(page)")
                #expect(html.contains("route.gpx"), "\(page)")
            }
        }
    }

    @Test("A game a trip lists twice is one event: UIDs stay unique")
    func repeatedGameOnce() throws {
        let twice = ExportDecodingTests.tripJSON.replacingOccurrences(of: #""games":[]"#, with: #""games":["g1"]"#)
        #expect(twice != ExportDecodingTests.tripJSON)
        let ics = try itinerarySite(baseURL: nil, trip: twice).read("Output/\(Self.loop)calendar.ics")
        #expect(ics.components(separatedBy: "BEGIN:VEVENT").count == 2)
        #expect(ics.contains("\r\nUID:g1-11111111-1111-1111-1111-11111111111a@sitegen\r\n"))
    }

    @Test("Without baseURL the page offers only the download; with it, the subscriptions too")
    func onThePage() throws {
        let download = #"<a class="button" href="../../trips/11111111-1111-1111-1111-11111111111A/calendar.ics">Add the games to your calendar</a>"#
        let relative = try itineraryPage(baseURL: nil)
        #expect(relative.contains(download))
        #expect(!relative.contains("webcal"))
        #expect(!relative.contains("calendar.google.com"))
        #expect(!relative.contains("A subscription stays up to date"))

        let published = try itineraryPage(baseURL: "https://example.org/summer/")
        #expect(published.contains(download))
        #expect(published.contains(#"<a class="button button-secondary" href="webcal://example.org/summer/trips/11111111-1111-1111-1111-11111111111A/calendar.ics">Subscribe in your calendar app</a>"#))
        #expect(published.contains(#"<a class="button button-secondary" href="https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Fexample.org%2Fsummer%2Ftrips%2F11111111-1111-1111-1111-11111111111A%2Fcalendar.ics">Subscribe in Google Calendar</a>"#))
        #expect(published.contains(#"<p class="route-file"><a href="../../trips/11111111-1111-1111-1111-11111111111A/route.gpx" download>The route for navigation apps (GPX)</a></p>"#))
        #expect(published.contains(#"<li><a href="https://www.google.com/maps/dir/?api=1&amp;origin=41.88%2C-87.63&amp;destination=43.04%2C-87.91&amp;travelmode=driving">Open in Google Maps</a></li>"#))
        #expect(published.contains(#"<li><a href="https://maps.apple.com/?saddr=41.88%2C-87.63&amp;daddr=43.04%2C-87.91&amp;dirflg=d">Apple Maps</a></li>"#))
    }
}

@Suite("Convoy directions and GPX (docs/rules.md)")
struct ConvoyHandoffTests {
    /// The example with coordinates on its checkpoints (one nested, as the app writes them).
    static func routed(checkpointNames: (String, String) = ("Wrigley Field", "Cheese Castle")) -> ConvoyExample {
        var example = ConvoyExample()
        example["checkpoints"] = [
            ["id": "c2", "place": ["name": checkpointNames.1, "latitude": 42.6147, "longitude": -87.9543], "order": 2],
            ["id": "c1", "place": ["name": checkpointNames.0, "coordinate": ["latitude": 41.9484, "longitude": -87.6553]], "order": 1],
        ]
        return example
    }

    @Test("Origin → checkpoints by order → destination: one Google link, Apple in stretches, and route.gpx")
    func routedConvoy() throws {
        let built = try ConvoySite(example: Self.routed())
        #expect(built.failure == nil)
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains(#"<li><a href="https://www.google.com/maps/dir/?api=1&amp;origin=41.8787%2C-87.6403&amp;destination=43.028%2C-87.9712&amp;waypoints=41.9484%2C-87.6553%7C42.6147%2C-87.9543&amp;travelmode=driving">Open in Google Maps</a></li>"#))
        #expect(page.contains(#"<li><a href="https://maps.apple.com/?saddr=41.8787%2C-87.6403&amp;daddr=41.9484%2C-87.6553&amp;dirflg=d">Apple Maps: Union Station → Wrigley Field</a></li>"#))
        #expect(page.contains(#"<li><a href="https://maps.apple.com/?saddr=42.6147%2C-87.9543&amp;daddr=43.028%2C-87.9712&amp;dirflg=d">Apple Maps: Cheese Castle → American Family Field</a></li>"#))
        #expect(page.contains(#"<p class="route-file"><a href="../../convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/route.gpx" download>The route for navigation apps (GPX)</a></p>"#))
        let gpx = try built.page("convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/route.gpx")
        #expect(gpx.hasSuffix("""
              <rte>
                <name>Cubs at Brewers</name>
                <rtept lat="41.8787" lon="-87.6403">
                  <name>Union Station</name>
                </rtept>
                <rtept lat="41.9484" lon="-87.6553">
                  <name>Wrigley Field</name>
                </rtept>
                <rtept lat="42.6147" lon="-87.9543">
                  <name>Cheese Castle</name>
                </rtept>
                <rtept lat="43.028" lon="-87.9712">
                  <name>American Family Field</name>
                </rtept>
              </rte>
            </gpx>

            """))
    }

    @Test("Places without coordinates are left out; with fewer than two left, no file, no link, no directions")
    func withoutCoordinates() throws {
        let partial = try ConvoySite(example: ConvoyExample())
        let gpx = try partial.page("convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/route.gpx")
        #expect(gpx.components(separatedBy: "<rtept ").count - 1 == 2)
        #expect(!gpx.contains("Wrigley"))
        // The directions say which stops they pass by, in the convoy's order.
        let directions = try partial.page(ConvoySite.examplePage)
        #expect(directions.contains(#"<p class="note">Not in these directions, as they have no coordinates: Wrigley Field and Cheese Castle.</p>"#))
        #expect(!(try ConvoySite(example: Self.routed()).page(ConvoySite.examplePage)).contains("Not in these directions"))

        var lone = ConvoyExample()
        lone["destination"] = NSNull()
        let built = try ConvoySite(example: lone)
        #expect(built.failure == nil)
        let page = try built.page(ConvoySite.examplePage)
        #expect(!page.contains("route.gpx"))
        #expect(!page.contains("maps.apple.com"))
        #expect(!page.contains("google.com/maps"))
        #expect(!FileManager.default.fileExists(atPath: built.site.root.appendingPathComponent("Output/convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/route.gpx").path))
    }

    @Test("Hostile place names are escaped in the link texts and the GPX file")
    func hostileNames() throws {
        let built = try ConvoySite(example: Self.routed(checkpointNames: ("<b onclick=x()>Lot</b>", "Mars & \"Cheese\"")))
        let page = try built.page(ConvoySite.examplePage)
        #expect(page.contains("Apple Maps: Union Station → &lt;b onclick=x()&gt;Lot&lt;/b&gt;</a>"))
        #expect(page.contains("Apple Maps: &lt;b onclick=x()&gt;Lot&lt;/b&gt; → Mars &amp; &quot;Cheese&quot;</a>"))
        #expect(!page.contains("<b onclick"))
        let gpx = try built.page("convoys/B5CA4696-6BF2-40BF-A868-B5C5B2AE78D0/route.gpx")
        #expect(gpx.contains("<name>&lt;b onclick=x()&gt;Lot&lt;/b&gt;</name>"))
        #expect(gpx.contains("<name>Mars &amp; &quot;Cheese&quot;</name>"))
    }
}

@Suite("Link preview metadata within what chat apps and X take")
struct PreviewMetadataTests {
    @Test("Long text is cut at a space with an ellipsis, isolates closed; short text is kept")
    func shortenedText() {
        #expect(shortened("Short enough.", toAtMost: 200) == "Short enough.")
        let cities = (1...60).map { "City \($0)" }.joined(separator: " → ")
        let cut = shortened("Jun 12 – 20, 2026: \(cities).", toAtMost: 60)
        #expect(cut == "Jun 12 – 20, 2026: City 1 → City 2 → City 3 → City 4…")
        #expect(cut.count <= 60)
        // A cut inside an isolated name closes it.
        let hebrew = "\u{2068}" + String(repeating: "שלום ", count: 30) + "\u{2069}"
        let closed = shortened(hebrew, toAtMost: 40)
        #expect(closed.hasSuffix("…\u{2069}"))
        #expect(closed.count <= 41)
    }

    @Test("A trip of 60 stops: its description and image alt text are cut, the page keeps every stop")
    func longTrip() throws {
        let stops = (0..<60).map { index in
            #"{"city":"Town \#(index)","state":"IL","latitude":\#(40 + Double(index) / 100),"longitude":-88,"arrivalDate":"2026-06-12","departureDate":"2026-06-12","games":[]}"#
        }
        let trip = #"{"id":"11111111-1111-1111-1111-11111111111a","name":"Long","preferences":{"startDate":"2026-06-12","endDate":"2026-06-14","sports":["mlb"]},"stops":[\#(stops.joined(separator: ","))],"travelSegments":[]}"#
        let site = try CalendarSubscriptionTests().itinerarySite(baseURL: "https://example.org/", trip: trip, catalog: nil)
        let page = try site.read("Output/\(CalendarSubscriptionTests.loop)index.html")
        func content(_ name: String) throws -> String {
            let start = try #require(page.range(of: "<meta \(name)=\"")?.upperBound ?? nil)
            return String(page[start...].prefix { $0 != "\"" })
        }
        let description = try content("property=\"og:description\" content")
        #expect(description.count <= 200 && description.hasSuffix("…"))
        #expect(description.hasPrefix("Jun 12 – 14, 2026: Town 0 → Town 1 → "))
        #expect(try content("name=\"twitter:description\" content") == description)
        #expect(try content("name=\"description\" content") == description)
        let alt = try content("property=\"og:image:alt\" content")
        #expect(alt.count <= 420 && alt.hasSuffix("…"))
        #expect(page.contains("Town 59"))
    }
}
