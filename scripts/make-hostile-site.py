#!/usr/bin/env python3
"""Writes a site whose every free-text field, in every export kind and in site.yml,
carries an injection payload, and whose every private field carries a marker that must
never reach the output. Used by the tests (Fixtures/hostile) and by CI, which builds it
and runs the browser XSS check over every page (docs/robustness.md).

Usage: make-hostile-site.py OUTPUT_DIR
"""
import json, os, sys

PAYLOADS = [
    '<img src=x onerror="window.__xss=1">',
    '"><script>window.__xss=1</script>',
    "'><svg onload=window.__xss=1>",
    '</title><script>window.__xss=1</script>',
    '</style><script>window.__xss=1</script>',
    'javascript:window.__xss=1',
    ' jav&#x09;ascript:window.__xss=1',
    'JaVaScRiPt:window.__xss=1',
    'data:text/html,<script>window.__xss=1</script>',
    '{{layout.title}}{{{descriptionHTML}}}{{>layout}}{{=<% %>=}}',
    ']]><!-- --><x onclick=window.__xss=1>',
    '\u2028\u2029 \u001b[31mred\u001b[0m \u0007 &amp; &lt;b&gt; %3Cscript%3E',
    # Right to left, an override left open and a stray end of an isolate: each must stay in
    # its own name (BidiIsolation) and never put text where HTML allows none.
    'מי בא? \u202eoverride \u2069stray \u2067open',
]
MARKDOWN = (
    "Hi <script>window.__xss=1</script> [click](javascript:window.__xss=1) "
    "[x](jav&#x09;ascript:window.__xss=1) [d](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==) "
    "![img](https://evil.example/x.png) <img src=x onerror=window.__xss=1> "
    "<a href=\"javascript:window.__xss=1\">a</a> {{layout.title}} www.example.org\n\n"
    "| <b onmouseover=window.__xss=1>t</b> |\n|---|\n| <iframe src=javascript:window.__xss=1> |\n\n"
    "שלום! \u202eoverride in a paragraph\n"
)
PRIVATE = "_priv_hostile_"

# A word longer than a phone's screen is wide: a real town's name, run on. Pages must wrap it
# (scripts/browser/overflow_check.py), not widen past the screen.
LONG_WORD = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"

def text(i):
    """A payload with some readable text, cycling through all payloads; every third text
    also ends with a word too long for a phone's screen."""
    long = f" {LONG_WORD}{i}" if i % 3 == 0 else ""
    return f"Name {i} {PAYLOADS[i % len(PAYLOADS)]}{long}"

counter = [0]
def t():
    counter[0] += 1
    return text(counter[0])

def uuid(n):
    return f"{n:08X}-0000-4000-8000-{n:012X}"

def trip(n, with_games=True):
    games = [f"hostile-game-{n}-{k} {PAYLOADS[k]}" for k in range(2)] if with_games else []
    return {
        "id": uuid(1000 + n), "name": t(), "notes": MARKDOWN,
        "preferences": {"startDate": "2026-06-12", "endDate": "2026-06-14", "sports": [t(), "mlb"]},
        "stops": [
            {"city": t(), "state": t(), "latitude": 41.9, "longitude": -87.6,
             "arrivalDate": "2026-06-12", "departureDate": "2026-06-13", "games": games},
            {"city": t(), "state": "WI", "latitude": 43.0, "longitude": -87.9,
             "arrivalDate": "2026-06-13", "departureDate": "2026-06-14", "games": []},
        ],
        "travelSegments": [{"id": uuid(2000 + n), "fromCity": t(), "toCity": t(),
                            "distanceMeters": 148000, "durationSeconds": 5400}],
    }

def write(root, path, value):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)
        f.write("\n")

def main(root):
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "site.yml"), "w", encoding="utf-8") as f:
        f.write("title: " + json.dumps("Trips " + PAYLOADS[1] + PAYLOADS[9], ensure_ascii=False) + "\n")
        f.write("description: " + json.dumps(MARKDOWN, ensure_ascii=False) + "\n")
        f.write("baseURL: https://example.org/trips/\n")
        f.write("timeZone: America/Chicago\n")
    polls = []
    for p in range(2):
        polls.append({
            "id": uuid(1 + p), "title": t(), "shareCode": ["HSTK22", "xss333"][p], "ownerId": PRIVATE + f"owner{p}",
            "createdAt": "2026-05-01T00:00:00Z", "modifiedAt": "2026-05-02T00:00:00Z", "description": MARKDOWN,
            "tripVersions": [t(), t(), t()], "tripSnapshots": [trip(p * 10 + k) for k in range(3)],
        })
    write(root, "Data/polls/polls.json", polls)
    votes = []
    for p in range(2):
        for v in range(4):
            votes.append({"id": uuid(3000 + p * 10 + v), "pollId": uuid(1 + p), "odg": PRIVATE + f"voter{p}{v}",
                          "rankings": [[0, 1, 2], [1, 0, 2], [2, 1, 0], [0, 2, 1]][v],
                          "votedAt": "2026-05-03T00:00:00Z", "modifiedAt": "2026-05-03T00:00:00Z"})
    write(root, "Data/votes/votes.json", votes)
    itinerary_trip = trip(50)
    game_ids = itinerary_trip["stops"][0]["games"]
    games = [{"id": game_ids[0], "sport": t(), "awayTeam": t(), "homeTeam": t(), "startTime": "2026-06-12T23:05:00Z",
              "venue": t(), "city": t(), "timeZone": "America/Chicago"}]
    items = [
        {"id": t(), "tripId": itinerary_trip["id"].lower(), "category": cat, "title": t(),
         "anchorType": anchor, "anchorId": anchor_id, "anchorDay": day,
         "createdAt": "2026-05-01T00:00:00Z", "modifiedAt": "2026-05-01T00:00:00Z", "notes": MARKDOWN}
        for cat, anchor, anchor_id, day in [
            ("restaurant", "afterGame", game_ids[0], 1), ("hotel", "afterTravel", itinerary_trip["travelSegments"][0]["id"], 1),
            ("activity", "startOfDay", None, 2), ("note", "afterGame", "missing " + PAYLOADS[0], 2),
            ("note", "startOfDay", None, 9)]
    ]
    for item in items:
        if item["anchorId"] is None:
            del item["anchorId"]
    write(root, "Data/trips/itinerary.json", {"trip": itinerary_trip, "games": games, "customItems": items[:2]})
    write(root, "Data/trips/bare.json", trip(60, with_games=False))
    write(root, "Data/items/items.json", items[2:])
    write(root, "Data/games/catalog.json", [dict(games[0], id="unused " + PAYLOADS[2])])
    write(root, "Data/options/options.json", [
        {"id": "../../" + PAYLOADS[1], "title": t(), "generatedAt": "2026-05-01T00:00:00Z", "options": [trip(70), trip(71)]},
        {"title": PAYLOADS[0], "options": [trip(72)]},
    ])
    people = [{"id": PRIVATE + f"person{k}", "displayName": t(), "role": role, "status": status}
              for k, (role, status) in enumerate([("owner", "joined"), ("driver", "joined"), ("passenger", "invited"),
                                                  ("viewer", "declined"), ("passenger", "joined")])]
    place = lambda: {"name": t(), "address": t(), "latitude": 41.9, "longitude": -87.6}
    write(root, "Data/convoys/convoys.json", [
        {"id": uuid(4000), "title": t(), "notes": MARKDOWN, "status": "active", "origin": place(), "destination": place(),
         "checkpoints": [{"id": PRIVATE + "checkpoint", "place": place(), "order": 1, "notes": MARKDOWN}],
         "route": {"distanceMeters": 150000, "durationSeconds": 6000},
         "vehicles": [{"id": PRIVATE + "vehicle1", "label": t(), "driverId": PRIVATE + "person1", "capacity": 2,
                       "passengerIds": [PRIVATE + "person2", PRIVATE + "person4", PRIVATE + "nobody"], "notes": MARKDOWN}],
         "leaderVehicleId": PRIVATE + "vehicle1", "participants": people,
         "invitations": [{"code": PRIVATE + "invite", "email": "_priv_hostile_mail@example.com"}],
         "createdAt": "2026-05-01T00:00:00Z", "modifiedAt": "2026-05-01T00:00:00Z"},
        {"id": uuid(4001), "title": t(), "notes": MARKDOWN, "status": "draft", "origin": place(), "destination": None,
         "route": None, "vehicles": [], "participants": people[:1],
         "createdAt": "2026-05-01T00:00:00Z", "modifiedAt": "2026-05-01T00:00:00Z"},
    ])
    with open(os.path.join(root, "tips.json"), "w", encoding="utf-8") as f:
        json.dump([{"category": "budget", "icon": "💵", "title": t(), "subtitle": t()},
                   {"category": "regional", "icon": PAYLOADS[0][:30], "title": t(), "subtitle": t()}], f, ensure_ascii=False)
    os.makedirs(os.path.join(root, "Pages"), exist_ok=True)
    with open(os.path.join(root, "Pages", "notes.md"), "w", encoding="utf-8") as f:
        f.write("---\ntitle: " + json.dumps(t(), ensure_ascii=False) + "\ndescription: " + json.dumps(t(), ensure_ascii=False)
                + "\nmenu: 1\n---\n" + MARKDOWN)
    # A right-to-left title under the home page's "More pages" (no menu:): its list item
    # once took that direction, and its bullet hung past a phone's right edge.
    with open(os.path.join(root, "Pages", "rtl.md"), "w", encoding="utf-8") as f:
        f.write("---\ntitle: \"מידע לנוסעים\"\n---\nשימו לב: הכרטיסים נמכרים מהר. Bring cash.\n")
    with open(os.path.join(root, "site.yml"), "a", encoding="utf-8") as f:
        f.write("tips:\n  file: tips.json\n  featured: 2\npages: Pages\n")

if __name__ == "__main__":
    main(sys.argv[1])
