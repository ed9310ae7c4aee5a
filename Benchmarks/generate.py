#!/usr/bin/env python3
"""Generate a benchmark corpus: a sitegen site and an equivalent Hugo site.

    Benchmarks/generate.py N OUT_DIR [--templates DIR] [--seed S]

Writes
  OUT_DIR/sitegen/   site.yml + Data/ with N polls (5 trips, 10 ballots each, ~1.5 KB of
                     Markdown with a GFM table), N/10 itineraries with custom items, a game
                     catalog and N/100 option sets of 20 trips (docs/exports.md);
  OUT_DIR/hugo/      a Hugo site with one content page for every HTML page sitegen makes
                     of the corpus, each holding the Markdown sitegen renders on that page,
                     plus the same results.json / calendar.ics files (Hugo output formats);
  OUT_DIR/corpus.json  what was generated and the expected page and file counts.

Python 3 standard library only. The same N and seed give the same bytes.
"""

import argparse
import base64
import datetime as dt
import hashlib
import json
import math
import os
import random
import shutil
import sys
import uuid
from pathlib import Path

GENERATOR_VERSION = 1

SHARE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
POLLS_PER_FILE = 100
ITINERARIES_PER_FILE = 10
TRIPS_PER_POLL = 5
BALLOTS_PER_POLL = 10
TRIPS_PER_OPTION_SET = 20
# The trip views of docs/rules.md, in sitegen's order (TripView.allCases).
VIEWS = ["recommended", "most-cities", "most-games", "least-games", "most-miles", "least-miles", "best-efficiency"]
REFERENCE_EPOCH = dt.datetime(2001, 1, 1, tzinfo=dt.timezone.utc)

# (city, state, latitude, longitude, team, venue, IANA zone, UTC offset in summer)
CITIES = [
    ("Arlington", "TX", 32.7357, -97.1081, "TEX", "Globe Life Field", "America/Chicago", -5),
    ("Atlanta", "GA", 33.8908, -84.4678, "ATL", "Truist Park", "America/New_York", -4),
    ("Baltimore", "MD", 39.2839, -76.6217, "BAL", "Oriole Park at Camden Yards", "America/New_York", -4),
    ("Boston", "MA", 42.3467, -71.0972, "BOS", "Fenway Park", "America/New_York", -4),
    ("Chicago", "IL", 41.9484, -87.6553, "CHC", "Wrigley Field", "America/Chicago", -5),
    ("Cincinnati", "OH", 39.0974, -84.5066, "CIN", "Great American Ball Park", "America/New_York", -4),
    ("Cleveland", "OH", 41.4962, -81.6852, "CLE", "Progressive Field", "America/New_York", -4),
    ("Denver", "CO", 39.7559, -104.9942, "COL", "Coors Field", "America/Denver", -6),
    ("Detroit", "MI", 42.3390, -83.0485, "DET", "Comerica Park", "America/New_York", -4),
    ("Houston", "TX", 29.7573, -95.3555, "HOU", "Daikin Park", "America/Chicago", -5),
    ("Kansas City", "MO", 39.0517, -94.4803, "KC", "Kauffman Stadium", "America/Chicago", -5),
    ("Anaheim", "CA", 33.8003, -117.8827, "LAA", "Angel Stadium", "America/Los_Angeles", -7),
    ("Los Angeles", "CA", 34.0739, -118.2400, "LAD", "Dodger Stadium", "America/Los_Angeles", -7),
    ("Miami", "FL", 25.7781, -80.2196, "MIA", "loanDepot park", "America/New_York", -4),
    ("Milwaukee", "WI", 43.0280, -87.9712, "MIL", "American Family Field", "America/Chicago", -5),
    ("Minneapolis", "MN", 44.9817, -93.2776, "MIN", "Target Field", "America/Chicago", -5),
    ("New York", "NY", 40.8296, -73.9262, "NYY", "Yankee Stadium", "America/New_York", -4),
    ("Queens", "NY", 40.7571, -73.8458, "NYM", "Citi Field", "America/New_York", -4),
    ("Sacramento", "CA", 38.5803, -121.5138, "ATH", "Sutter Health Park", "America/Los_Angeles", -7),
    ("Philadelphia", "PA", 39.9061, -75.1665, "PHI", "Citizens Bank Park", "America/New_York", -4),
    ("Phoenix", "AZ", 33.4455, -112.0667, "ARI", "Chase Field", "America/Phoenix", -7),
    ("Pittsburgh", "PA", 40.4469, -80.0057, "PIT", "PNC Park", "America/New_York", -4),
    ("San Diego", "CA", 32.7073, -117.1566, "SD", "Petco Park", "America/Los_Angeles", -7),
    ("San Francisco", "CA", 37.7786, -122.3893, "SF", "Oracle Park", "America/Los_Angeles", -7),
    ("Seattle", "WA", 47.5914, -122.3325, "SEA", "T-Mobile Park", "America/Los_Angeles", -7),
    ("St. Louis", "MO", 38.6226, -90.1928, "STL", "Busch Stadium", "America/Chicago", -5),
    ("Tampa", "FL", 27.9759, -82.5033, "TB", "George M. Steinbrenner Field", "America/New_York", -4),
    ("Toronto", "ON", 43.6414, -79.3894, "TOR", "Rogers Centre", "America/Toronto", -4),
    ("Washington", "DC", 38.8730, -77.0074, "WSH", "Nationals Park", "America/New_York", -4),
    ("Chicago South Side", "IL", 41.8299, -87.6338, "CWS", "Rate Field", "America/Chicago", -5),
]
SEASON_START = dt.date(2026, 6, 1)
SEASON_DAYS = 92  # June 1 – August 31

ADJECTIVES = ["Summer", "Late-Summer", "Midsummer", "Holiday", "Long-Weekend", "Rivalry", "Ballpark",
              "Road-Trip", "Family", "Alumni", "Work-Crew", "Birthday", "Reunion", "Doubleheader"]
NOUNS = ["Swing", "Loop", "Run", "Circuit", "Getaway", "Tour", "Crawl", "Sprint", "Marathon", "Trek"]
WORDS = ("ballpark hot dog bleacher seats sunscreen scorecard seventh-inning stretch rain delay "
         "day game night game doubleheader rivalry pennant race bobblehead giveaway fireworks "
         "tailgate parking shuttle hotel block breakfast diner brewery museum riverwalk skyline "
         "gas budget playlist cooler road snacks rest stop souvenir cap jersey foam finger").split()
ITEM_TITLES = {
    "restaurant": ["Pregame barbecue", "Late dinner downtown", "Brewery lunch", "Breakfast diner"],
    "hotel": ["Hotel near the park", "Motel off the interstate", "Downtown hotel"],
    "activity": ["Stadium tour", "Hall of fame visit", "River walk", "Batting cages"],
    "note": ["Buy parking ahead", "Rain plan", "Meet at gate C", "Tickets in the group chat"],
}


def rng_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()


def iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def haversine_m(a, b) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a[2], a[3], b[2], b[3]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371000 * math.asin(math.sqrt(h))


def sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(words))
    return text[0].upper() + text[1:] + "."


class Corpus:
    def __init__(self, n: int, seed: int):
        self.n = n
        self.rng = random.Random(seed)
        self.share_codes = set()
        self.games = self.make_catalog()
        # (team, date) -> game
        self.game_on = {(g["homeTeam"], g["date"]): g for g in self.games}

    # ---- game catalog (docs/exports.md) ----

    def make_catalog(self):
        rng = self.rng
        games = []
        teams = [c[4] for c in CITIES]
        for day in range(SEASON_DAYS):
            date = SEASON_START + dt.timedelta(days=day)
            for index, city in enumerate(CITIES):
                away = teams[(index + 1 + day * 7) % len(teams)]
                if away == city[4]:
                    away = teams[(index + 2) % len(teams)]
                hour = 13 if date.weekday() == 6 else rng.choice([18, 19, 19, 19])
                minute = rng.choice([5, 10, 10, 35, 40])
                local = dt.datetime(date.year, date.month, date.day, hour, minute,
                                    tzinfo=dt.timezone(dt.timedelta(hours=city[7])))
                games.append({
                    "id": f"mlb-{date.isoformat()}-{away.lower()}-{city[4].lower()}",
                    "sport": "mlb",
                    "awayTeam": away,
                    "homeTeam": city[4],
                    "startTime": iso(local),
                    "venue": city[5],
                    "city": city[0],
                    "timeZone": city[6],
                    "date": date,  # removed before writing
                })
        return games

    @staticmethod
    def public_game(game):
        return {k: v for k, v in game.items() if k != "date"}

    # ---- trips (docs/exports.md) ----

    def make_trip(self, name_hint: str, with_notes: bool):
        rng = self.rng
        stop_count = rng.randint(2, 4)
        start = SEASON_START + dt.timedelta(days=rng.randint(0, SEASON_DAYS - 14))
        first = rng.randrange(len(CITIES))
        route = [first]
        while len(route) < stop_count:
            here = CITIES[route[-1]]
            candidates = sorted((haversine_m(here, c), i) for i, c in enumerate(CITIES) if i not in route)
            route.append(rng.choice(candidates[:4])[1])
        stops, segments = [], []
        date = start
        total_games = 0
        total_distance = 0
        total_seconds = 0
        for position, city_index in enumerate(route):
            city = CITIES[city_index]
            nights = rng.randint(1, 3)
            departure = date + dt.timedelta(days=nights)
            game_ids = []
            if rng.random() > 0.15:
                for offset in range(nights):
                    game = self.game_on.get((city[4], date + dt.timedelta(days=offset)))
                    if game and len(game_ids) < 2:
                        game_ids.append(game["id"])
            total_games += len(game_ids)
            stops.append({
                "city": city[0], "state": city[1], "latitude": city[2], "longitude": city[3],
                "arrivalDate": date.isoformat(), "departureDate": departure.isoformat(),
                "games": game_ids,
            })
            if position + 1 < len(route):
                target = CITIES[route[position + 1]]
                meters = round(haversine_m(city, target) * 1.22)
                seconds = round(meters / 27.5)
                segment = {"id": rng_uuid(rng), "fromCity": city[0], "toCity": target[0],
                           "distanceMeters": meters, "durationSeconds": seconds}
                if rng.random() < 0.7:
                    segment["departureDate"] = f"{departure.isoformat()}T15:00:00Z"
                segments.append(segment)
                total_distance += meters
                total_seconds += seconds
            date = departure
        trip = {
            "id": rng_uuid(rng),
            "name": f"{name_hint} via {stops[-1]['city']}",
            "preferences": {"startDate": start.isoformat(), "endDate": date.isoformat(), "sports": ["mlb"]},
            "stops": stops,
            "travelSegments": segments,
            "totalGames": total_games,
            "totalDistanceMeters": total_distance,
            "totalDrivingSeconds": total_seconds,
        }
        if with_notes:
            trip["notes"] = (f"A **{rng.choice(['day', 'night', 'twilight'])} game** in {stops[0]['city']}, then "
                             f"an easy drive to {stops[1]['city']}. {sentence(rng, 8)} "
                             f"See the [ballpark guide](https://example.org/parks/{stops[0]['city'].lower().replace(' ', '-')}).")
        return trip

    def trip_name(self) -> str:
        return f"{self.rng.choice(ADJECTIVES)} {self.rng.choice(NOUNS)}"

    # ---- polls and ballots (docs/exports.md) ----

    def share_code(self) -> str:
        while True:
            code = "".join(self.rng.choice(SHARE_ALPHABET) for _ in range(6))
            if code not in self.share_codes:
                self.share_codes.add(code)
                return code

    def description(self, title: str, trips) -> str:
        rng = self.rng
        rows = []
        for index, trip in enumerate(trips, 1):
            cities = " → ".join(stop["city"] for stop in trip["stops"])
            miles = round(trip["totalDistanceMeters"] / 1609.344)
            rows.append(f"| {index} | {trip['name']} | {trip['preferences']['startDate']} | {cities} | "
                        f"{trip['totalGames']} | {miles} |")
        parts = [
            f"Vote for the **{title}**! Rank all {len(trips)} options in the app; the organiser books "
            f"hotels once the poll closes on *{trips[0]['preferences']['startDate']}*. {sentence(rng, 10)}",
            "## The options",
            "| # | Trip | Starts | Cities | Games | Miles |\n|---|---|---|---|---:|---:|\n" + "\n".join(rows),
            "## Before you vote",
            "\n".join([
                "- Check the [schedule](https://www.mlb.com/schedule) for day games.",
                f"- Budget roughly **${rng.randint(3, 9) * 50}** per person for tickets, plus gas split {rng.randint(3, 8)} ways.",
                "- ~~Flights~~ Driving only: everyone fits in two cars.",
                f"- {sentence(rng, 7)}",
            ]),
            f"> Tip: {sentence(rng, 12)}",
        ]
        text = "\n\n".join(parts)
        # Pad with plain paragraphs to about 1.5 KB.
        while len(text.encode()) < 1400:
            text += "\n\n" + " ".join(sentence(rng, rng.randint(8, 14)) for _ in range(3))
        return text

    def make_poll(self, index: int):
        rng = self.rng
        title = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} #{index + 1}"
        trips = [self.make_trip(self.trip_name(), with_notes=rng.random() < 0.5) for _ in range(TRIPS_PER_POLL)]
        created = dt.datetime(2026, 4, 1, tzinfo=dt.timezone.utc) + dt.timedelta(minutes=rng.randint(0, 60 * 24 * 50))
        modified = created + dt.timedelta(minutes=rng.randint(0, 60 * 24 * 5))
        poll_id = rng_uuid(rng)
        snapshots = trips
        if index % 2 == 1:  # CloudKit stores Data fields as base64 bytes (docs/exports.md)
            snapshots = base64.b64encode(json.dumps(trips, separators=(",", ":")).encode()).decode()
        poll = {
            "id": poll_id,
            "title": title,
            "shareCode": self.share_code(),
            "ownerId": f"_priv_o{rng.getrandbits(40):010x}",
            "createdAt": iso(created),
            "modifiedAt": iso(modified),
            "description": self.description(title, trips),
            "tripSnapshots": snapshots,
        }
        votes = []
        for ballot in range(BALLOTS_PER_POLL):
            ranking = list(range(TRIPS_PER_POLL))
            rng.shuffle(ranking)
            voted = modified + dt.timedelta(minutes=rng.randint(1, 60 * 24 * 10))
            rankings = ranking
            if ballot % 2 == 1:
                rankings = base64.b64encode(json.dumps(ranking, separators=(",", ":")).encode()).decode()
            votes.append({
                "id": rng_uuid(rng),
                "pollId": poll_id,
                "odg": f"_priv_u{rng.getrandbits(40):010x}",
                "rankings": rankings,
                "votedAt": iso(voted),
                "modifiedAt": iso(voted),
            })
        return poll, trips, votes

    # ---- itineraries: {trip, games, customItems} (docs/exports.md) ----

    def make_itinerary(self):
        rng = self.rng
        trip = self.make_trip(self.trip_name(), with_notes=rng.random() < 0.7)
        start = dt.date.fromisoformat(trip["preferences"]["startDate"])
        games = []
        anchors = []  # (anchorType, anchorId, day)
        for stop in trip["stops"]:
            for game_id in stop["games"]:
                game = self.game_by_id[game_id]
                games.append(self.public_game(game))
                anchors.append(("afterGame", game_id, (game["date"] - start).days + 1))
        for segment, stop in zip(trip["travelSegments"], trip["stops"]):
            anchors.append(("afterTravel", segment["id"], (dt.date.fromisoformat(stop["departureDate"]) - start).days + 1))
        days = (dt.date.fromisoformat(trip["preferences"]["endDate"]) - start).days + 1
        items = []
        for _ in range(rng.randint(0, 3)):
            category = rng.choice(list(ITEM_TITLES))
            created = dt.datetime(2026, 5, 1, tzinfo=dt.timezone.utc) + dt.timedelta(minutes=rng.randint(0, 60 * 24 * 30))
            item = {
                "id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                "tripId": trip["id"].lower(),
                "category": category,
                "title": rng.choice(ITEM_TITLES[category]),
                "createdAt": iso(created),
                "modifiedAt": iso(created + dt.timedelta(hours=rng.randint(0, 48))),
            }
            if anchors and rng.random() < 0.6:
                kind, anchor_id, day = rng.choice(anchors)
                item.update({"anchorType": kind, "anchorId": anchor_id, "anchorDay": day})
            else:
                item.update({"anchorType": "startOfDay", "anchorDay": rng.randint(1, days)})
            if rng.random() < 0.6:
                item["notes"] = f"{sentence(rng, 6)} Ask for **{rng.choice(WORDS)}**."
            items.append(item)
        return {"trip": trip, "games": games, "customItems": items}

    def make_option_set(self, index: int):
        trips = [self.make_trip(self.trip_name(), with_notes=self.rng.random() < 0.5) for _ in range(TRIPS_PER_OPTION_SET)]
        return {
            "id": f"bench-options-{index + 1:05d}",
            "title": f"Options batch {index + 1}",
            "generatedAt": f"2026-05-{1 + index % 28:02d}T12:00:03.517Z",
            "options": trips,
        }

    def build(self):
        self.game_by_id = {g["id"]: g for g in self.games}
        self.polls = [self.make_poll(i) for i in range(self.n)]
        self.itineraries = [self.make_itinerary() for _ in range(self.n // 10)]
        self.option_sets = [self.make_option_set(i) for i in range(self.n // 100)]


def write_json(path: Path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2, ensure_ascii=False)
        handle.write("\n")


def yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid YAML scalar


SITE_DESCRIPTION = ("Benchmark corpus: *synthetic* polls, itineraries and trip options. "
                    "Generated by `Benchmarks/generate.py`; see [the README](https://example.org/bench).")
BASE_URL = "https://bench.example.org/"


def with_unlisted_games(poll, trips):
    """The poll with every game id of its trips changed to one no catalog holds, as when
    the app's trips name games the export's catalog lacks (issue #14): a warning each."""
    unlisted = json.loads(json.dumps(trips))
    for trip in unlisted:
        for stop in trip["stops"]:
            stop["games"] = [game_id + "-unlisted" for game_id in stop["games"]]
    snapshots = unlisted
    if isinstance(poll["tripSnapshots"], str):
        snapshots = base64.b64encode(json.dumps(unlisted, separators=(",", ":")).encode()).decode()
    return dict(poll, tripSnapshots=snapshots)


def write_sitegen(corpus: Corpus, root: Path, templates: Path):
    data = root / "Data"
    root.mkdir(parents=True, exist_ok=True)
    # Relative when the corpus lives inside the repository (Benchmarks/work/), so the
    # folder can move with it; absolute otherwise.
    repository = templates.parent
    if root.is_relative_to(repository):
        site_templates = os.path.relpath(templates, root)
    else:
        site_templates = str(templates)
    (root / "site.yml").write_text("\n".join([
        "# Generated by Benchmarks/generate.py: do not edit.",
        f"title: {yaml_string(f'sitegen benchmark ({corpus.n} polls)')}",
        f"description: {yaml_string(SITE_DESCRIPTION)}",
        f"baseURL: {BASE_URL}",
        "language: en",
        "timeZone: America/Chicago",
        "urls: pretty",
        "listPolls: true",
        "numericDates: reference",
        # The Hugo twin draws no link preview images, so neither does the corpus: the
        # cold builds compare the same work. Their cost is measured on its own
        # (docs/performance.md, "Link preview images").
        "previews: false",
        f"templates: {yaml_string(site_templates)}",
        "output: Output",
        "inputs:",
        "  polls: Data/polls",
        "  votes: Data/votes",
        "  trips: Data/trips",
        "  games: Data/games",
        "  options: Data/options",
        "privacy:",
        "  minBallotsForBreakdown: 3",
        "tips:",
        "  featured: 3",
        "  rotation: fixed",
        "  seed: 0",
        "",
    ]))
    # The same site whose poll trips name only games no catalog holds (Benchmarks/run.sh
    # times it beside the site itself).
    site = (root / "site.yml").read_text()
    (root / "site-unlisted-games.yml").write_text(
        site.replace("  polls: Data/polls\n", "  polls: Data/polls-unlisted-games\n"))
    # The same site with its link preview images: run.sh times it beside the site itself,
    # which is what the cards cost.
    (root / "site-previews.yml").write_text(site.replace("previews: false\n", "previews: true\n"))
    for start in range(0, len(corpus.polls), POLLS_PER_FILE):
        chunk = corpus.polls[start:start + POLLS_PER_FILE]
        number = start // POLLS_PER_FILE + 1
        write_json(data / "polls" / f"polls-{number:04d}.json", [poll for poll, _, _ in chunk])
        write_json(data / "polls-unlisted-games" / f"polls-{number:04d}.json",
                   [with_unlisted_games(poll, trips) for poll, trips, _ in chunk])
        write_json(data / "votes" / f"votes-{number:04d}.json", [vote for _, _, votes in chunk for vote in votes])
    for start in range(0, len(corpus.itineraries), ITINERARIES_PER_FILE):
        write_json(data / "trips" / f"itineraries-{start // ITINERARIES_PER_FILE + 1:04d}.json",
                   corpus.itineraries[start:start + ITINERARIES_PER_FILE])
    by_month = {}
    for game in corpus.games:
        by_month.setdefault(game["date"].strftime("%Y-%m"), []).append(Corpus.public_game(game))
    for month, games in sorted(by_month.items()):
        write_json(data / "games" / f"mlb-{month}.json", games)
    for option_set in corpus.option_sets:
        write_json(data / "options" / f"{option_set['id']}.json", option_set)


# ---- Hugo ----

HUGO_CONFIG = """\
# Generated by Benchmarks/generate.py: the Hugo twin of the sitegen corpus.
baseURL = "{base}"
languageCode = "en"
title = "{title}"
publishDir = "public"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "section"]
enableRobotsTXT = false

[outputs]
home = ["html"]
page = ["html"]

[mediaTypes."text/calendar"]
suffixes = ["ics"]

# sitegen writes polls/CODE/results.json and …/calendar.ics beside the pages: so does this site.
[outputFormats.results]
mediaType = "application/json"
baseName = "results"
isPlainText = true
notAlternative = true

[outputFormats.ical]
mediaType = "text/calendar"
baseName = "calendar"
isPlainText = true
notAlternative = true

[params]
description = "{description}"
"""

LAYOUTS = {
    "_default/baseof.html": """\
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if .IsHome }}{{ .Site.Title }}{{ else }}{{ .Title }} · {{ .Site.Title }}{{ end }}</title>
<meta name="description" content="{{ with .Params.summary }}{{ . }}{{ else }}{{ .Site.Params.description }}{{ end }}">
<meta property="og:title" content="{{ .Title }}">
<meta property="og:type" content="website">
<meta property="og:url" content="{{ .Permalink }}">
<link rel="canonical" href="{{ .Permalink }}">
<link rel="stylesheet" href="{{ "assets/site.css" | relURL }}">
</head>
<body>
<header class="site-header"><a href="{{ "/" | relURL }}">{{ .Site.Title }}</a>
<nav><a href="{{ "/" | relURL }}">Home</a> <a href="{{ "/tips/" | relURL }}">Tips</a></nav></header>
<main>
{{ block "main" . }}{{ end }}
</main>
<footer><p>Built with Hugo for the sitegen benchmark.</p></footer>
</body>
</html>
""",
    "_default/single.html": """\
{{ define "main" }}
{{ with .Params.eyebrow }}<p class="eyebrow">{{ . }}</p>{{ end }}
<h1>{{ .Title }}</h1>
{{ with .Params.tabs }}<nav class="tabs">{{ range . }}<a href="{{ .href }}">{{ .label }}</a> {{ end }}</nav>{{ end }}
{{ with .Params.standings }}<ol class="results">{{ range . }}<li><span class="rank">{{ .rank }}</span> {{ .name }} <span class="points">{{ .points }} points</span><span class="bar" style="width: {{ .share }}%"></span></li>{{ end }}</ol>{{ end }}
{{ with .Params.days }}<ol class="days">{{ range . }}<li><h2>Day {{ .number }}: {{ .city }}</h2><ul>{{ range .entries }}<li>{{ . }}</li>{{ end }}</ul></li>{{ end }}</ol>{{ end }}
<div class="markdown">{{ .Content }}</div>
{{ with .Params.cards }}<ul class="trip-cards">{{ range . }}<li class="card"><h3>{{ .name }}</h3><p>{{ .dates }} · {{ .route }}</p><p>{{ .games }} games · {{ .miles }} mi</p></li>{{ end }}</ul>{{ end }}
{{ end }}
""",
    "index.html": """\
{{ define "main" }}
<h1>{{ .Site.Title }}</h1>
<div class="markdown">{{ .Content }}</div>
<h2>Polls</h2>
<ul class="polls">{{ range where .Site.RegularPages "Params.kind" "poll" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> · {{ .Params.tripCount }} trips · {{ .Params.voters }} voters · {{ .Params.leader }}</li>{{ end }}</ul>
<h2>Itineraries</h2>
<ul>{{ range where .Site.RegularPages "Params.kind" "itinerary" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
<h2>Trip options</h2>
<ul>{{ range where .Site.RegularPages "Params.kind" "options" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
{{ end }}
""",
    "404.html": """\
{{ define "main" }}<h1>Page not found</h1><p>This page does not exist. <a href="{{ "/" | absURL }}">Home</a></p>{{ end }}
""",
    "_default/single.results.json": """\
{"shareCode": {{ .Params.shareCode | jsonify }}, "title": {{ .Title | jsonify }}, "tripCount": {{ .Params.tripCount }}, "voters": {{ .Params.voters }}, "results": {{ .Params.standings | jsonify }}}
""",
    "_default/single.ical.ics": """\
BEGIN:VCALENDAR{{ "\\r\\n" }}VERSION:2.0{{ "\\r\\n" }}PRODID:-//sitegen benchmark//EN{{ "\\r\\n" }}{{ range .Params.games }}BEGIN:VEVENT{{ "\\r\\n" }}UID:{{ .id }}{{ "\\r\\n" }}DTSTART:{{ .start }}{{ "\\r\\n" }}SUMMARY:{{ .title }}{{ "\\r\\n" }}LOCATION:{{ .venue }}{{ "\\r\\n" }}END:VEVENT{{ "\\r\\n" }}{{ end }}END:VCALENDAR{{ "\\r\\n" }}
""",
}


def borda(trips, votes):
    points = [0] * len(trips)
    for vote in votes:
        ranking = vote["rankings"]
        if isinstance(ranking, str):
            ranking = json.loads(base64.b64decode(ranking))
        for position, trip in enumerate(ranking):
            points[trip] += len(trips) - position
    order = sorted(range(len(trips)), key=lambda t: -points[t])
    top = max(points) or 1
    return [{"trip": t + 1, "name": trips[t]["name"], "points": points[t], "rank": 1 + sum(p > points[t] for p in points),
             "share": round(points[t] * 100 / top, 1)} for t in order]


def card(trip):
    return {"name": trip["name"],
            "dates": f"{trip['preferences']['startDate']} – {trip['preferences']['endDate']}",
            "route": " → ".join(stop["city"] for stop in trip["stops"]),
            "games": trip["totalGames"], "miles": round(trip["totalDistanceMeters"] / 1609.344)}


def calendar_games(corpus, trip):
    games = []
    for stop in trip["stops"]:
        for game_id in stop["games"]:
            game = corpus.game_by_id[game_id]
            games.append({"id": game_id, "start": game["startTime"].replace("-", "").replace(":", ""),
                          "title": f"{game['awayTeam']} at {game['homeTeam']}", "venue": game["venue"]})
    return games


def days(trip):
    start = dt.date.fromisoformat(trip["preferences"]["startDate"])
    out = []
    for stop in trip["stops"]:
        arrival = dt.date.fromisoformat(stop["arrivalDate"])
        out.append({"number": (arrival - start).days + 1, "city": stop["city"], "entries": stop["games"]})
    return out


def join_markdown(pieces):
    return "\n\n".join(piece for piece in pieces if piece)


class HugoWriter:
    def __init__(self, root: Path):
        self.root = root
        self.html_pages = 0
        self.other_files = 0
        self.markdown_bytes = 0

    def page(self, rel: str, front: dict, markdown: str, outputs=("html",)):
        self.html_pages += 1
        self.other_files += len(outputs) - 1
        self.markdown_bytes += len(markdown.encode())
        if list(outputs) != ["html"]:
            front = dict(front, outputs=list(outputs))
        path = self.root / "content" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(front, handle, ensure_ascii=False, indent=1)  # JSON front matter
            handle.write("\n\n")
            handle.write(markdown)
            handle.write("\n")


def write_hugo(corpus: Corpus, root: Path, templates: Path):
    root.mkdir(parents=True, exist_ok=True)
    (root / "config.toml").write_text(HUGO_CONFIG.format(
        base=BASE_URL, title=f"sitegen benchmark ({corpus.n} polls)",
        description="Benchmark corpus of synthetic polls, itineraries and trip options."))
    for rel, text in LAYOUTS.items():
        path = root / "layouts" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    css = templates / "assets" / "site.css"
    (root / "static" / "assets").mkdir(parents=True, exist_ok=True)
    if css.exists():
        shutil.copyfile(css, root / "static" / "assets" / "site.css")
    else:
        (root / "static" / "assets" / "site.css").write_text("body { font-family: system-ui; }\n")

    hugo = HugoWriter(root)
    # The home page (kind home) and 404.html (kind 404) are pages too.
    hugo.html_pages += 2
    hugo.markdown_bytes += len(SITE_DESCRIPTION.encode())
    (root / "content").mkdir(parents=True, exist_ok=True)
    (root / "content" / "_index.md").write_text(json.dumps({"title": "Home"}) + "\n\n" + SITE_DESCRIPTION + "\n")
    hugo.page("tips.md", {"title": "Planning tips", "url": "/tips/"}, "")

    for poll, trips, votes in corpus.polls:
        code = poll["shareCode"]
        base = f"/polls/{code}/"
        notes = [trip.get("notes") for trip in trips]
        standings = borda(trips, votes)
        cards = [card(trip) for trip in trips]
        tabs = [{"label": view, "href": f"{base}{view}/"} for view in VIEWS]
        leader = standings[0]["name"]
        hugo.page(f"polls/{code}/poll.md", {
            "title": poll["title"], "url": base, "kind": "poll", "shareCode": code, "tripCount": len(trips),
            "voters": len(votes), "leader": leader, "summary": f"{leader} leads.", "standings": standings,
            "cards": cards, "tabs": tabs,
        }, join_markdown([poll["description"]] + notes), outputs=("html", "results"))
        for number, trip in enumerate(trips, 1):
            hugo.page(f"polls/{code}/trip-{number}.md", {
                "title": trip["name"], "url": f"{base}trips/{number}/", "eyebrow": f"{poll['title']} · trip {number}",
                "days": days(trip), "games": calendar_games(corpus, trip),
            }, join_markdown([trip.get("notes")]), outputs=("html", "ical"))
        for view in VIEWS:
            hugo.page(f"polls/{code}/{view}.md", {
                "title": f"{poll['title']}: {view}", "url": f"{base}{view}/", "eyebrow": f"Poll · share code {code}",
                "tabs": tabs, "cards": cards,
            }, join_markdown(notes))

    for itinerary in corpus.itineraries:
        trip = itinerary["trip"]
        item_notes = [item.get("notes") for item in itinerary["customItems"]]
        hugo.page(f"trips/{trip['id']}.md", {
            "title": trip["name"], "url": f"/trips/{trip['id']}/", "kind": "itinerary", "eyebrow": "Itinerary",
            "days": days(trip), "games": calendar_games(corpus, trip),
        }, join_markdown([trip.get("notes")] + item_notes), outputs=("html", "ical"))

    for option_set in corpus.option_sets:
        slug = option_set["id"]
        trips = option_set["options"]
        notes = join_markdown([trip.get("notes") for trip in trips])
        cards = [card(trip) for trip in trips]
        tabs = [{"label": view, "href": f"/options/{slug}/{view}/"} for view in VIEWS]
        hugo.page(f"options/{slug}/index-page.md", {
            "title": option_set["title"], "url": f"/options/{slug}/", "kind": "options", "eyebrow": "Trip options",
            "tabs": tabs, "cards": cards,
        }, notes)
        for view in VIEWS:
            hugo.page(f"options/{slug}/{view}.md", {
                "title": f"{option_set['title']}: {view}", "url": f"/options/{slug}/{view}/", "eyebrow": "Trip options",
                "tabs": tabs, "cards": cards,
            }, notes)
    return hugo


def expected_sitegen(corpus: Corpus):
    """sitegen's page rules (Sources/SitegenRender/Pages/SitePlan.swift and the page files)."""
    n, itineraries, option_sets = len(corpus.polls), len(corpus.itineraries), len(corpus.option_sets)
    html = (2                                   # home, tips
            + n * (1 + TRIPS_PER_POLL + len(VIEWS))  # poll page, its trip pages, its 7 views
            + itineraries                       # /trips/ID/
            + option_sets * (1 + len(VIEWS))    # /options/SLUG/ and its 7 views
            + 1)                                # 404.html
    other = (n                                  # results.json
             + n * TRIPS_PER_POLL + itineraries  # calendar.ics
             + 3)                                # robots.txt, sitemap.xml, manifest.json
    # Markdown sitegen renders, page by page.
    markdown = len(SITE_DESCRIPTION.encode())
    for poll, trips, _ in corpus.polls:
        notes = sum(len(t.get("notes", "").encode()) for t in trips)
        markdown += len(poll["description"].encode()) + notes + len(VIEWS) * notes + notes
    for itinerary in corpus.itineraries:
        markdown += len(itinerary["trip"].get("notes", "").encode())
        markdown += sum(len(item.get("notes", "").encode()) for item in itinerary["customItems"])
    for option_set in corpus.option_sets:
        markdown += (1 + len(VIEWS)) * sum(len(t.get("notes", "").encode()) for t in option_set["options"])
    return html, other, markdown


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="number of polls")
    parser.add_argument("out", type=Path, help="output folder (replaced)")
    parser.add_argument("--templates", type=Path,
                        default=Path(__file__).resolve().parent.parent / "Templates",
                        help="sitegen's Templates folder (default: the repository's)")
    parser.add_argument("--seed", type=int, default=20260611)
    args = parser.parse_args()
    if args.n < 1:
        parser.error("N must be at least 1")
    templates = args.templates.resolve()
    if not (templates / "layout.mustache").exists():
        parser.error(f"{templates}: not a sitegen Templates folder (no layout.mustache)")

    out = args.out.resolve()
    for sub in ("sitegen", "hugo"):
        if (out / sub).exists():
            shutil.rmtree(out / sub)
    out.mkdir(parents=True, exist_ok=True)

    corpus = Corpus(args.n, args.seed)
    corpus.build()
    write_sitegen(corpus, out / "sitegen", templates)
    hugo = write_hugo(corpus, out / "hugo", templates)
    html, other, markdown = expected_sitegen(corpus)
    if hugo.html_pages != html:
        sys.exit(f"generate.py: internal error: Hugo site has {hugo.html_pages} pages, sitegen will make {html}")
    summary = {
        "generatorVersion": GENERATOR_VERSION,
        "n": args.n,
        "seed": args.seed,
        "polls": len(corpus.polls),
        "ballots": len(corpus.polls) * BALLOTS_PER_POLL,
        "itineraries": len(corpus.itineraries),
        "optionSets": len(corpus.option_sets),
        "games": len(corpus.games),
        "templates": str(templates),
        "sitegenHtmlPages": html,
        "sitegenOtherFiles": other,
        "sitegenMarkdownBytes": markdown,
        "hugoHtmlPages": hugo.html_pages,
        "hugoOtherFiles": hugo.other_files,
        "hugoMarkdownBytes": hugo.markdown_bytes,
    }
    (out / "corpus.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"generated N={args.n}: {html} HTML pages expected from each generator, "
          f"{markdown / 1e6:.1f} MB of Markdown rendered (sitegen) / {hugo.markdown_bytes / 1e6:.1f} MB (Hugo) → {out}")


if __name__ == "__main__":
    main()
