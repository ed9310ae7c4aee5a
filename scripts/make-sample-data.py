#!/usr/bin/env python3
"""Regenerate sitegen's sample data set under Data/.

Usage:  python3 scripts/make-sample-data.py

Rewrites Data/{polls,votes,trips,items,games,options,convoys} from scratch
(nothing else under Data/ is touched), then reads every written file back and
checks it against docs/exports.md and docs/rules.md. Output is byte-for-byte
deterministic: there is no randomness, and every "random-looking" value (UUIDs,
private ids, version hashes, distance factors) is a SHA-256 of a fixed name.
Python 3 standard library only.

What the sample exercises (all on purpose):
  * dates as ISO 8601 with `Z`, with fractional seconds, with an offset, as
    date-only strings (trip preferences and stop dates) and as numbers of
    seconds since 2001-01-01T00:00:00Z (Swift JSONEncoder's default);
  * upper- and lower-case UUIDs, also mixed across references (votes whose
    pollId is lower case while the poll's id is upper case);
  * key aliases: `pollId` for a poll's id, `voteId` / `voterId` in some votes;
  * base64 Data fields: one poll's `tripSnapshots`, one votes file's `rankings`;
  * files holding one object and files holding an array;
  * a vote for a poll that does not exist, a superseded ballot, an invalid
    ballot, a tie for first place, a game id no catalog holds, custom items
    with a vanished anchor and with an anchorDay outside the trip, a vehicle
    that is exactly full, one over capacity, a draft convoy.

Game schedule: the MLB 2026 schedule was not public when this was written, so
the catalog is a plausible, self-consistent one built from series below (no
team plays twice on one date; the All-Star break, July 13-16 2026, is free).
Venues, team codes and local start-time habits are real. Game ids use the
local date: mlb-YYYY-MM-DD-away-home.

Distances: great-circle distance x a per-leg factor in [1.16, 1.26];
durations: that distance at a per-leg average speed in [93, 103] km/h.

Expected Borda points (docs/rules.md; N trips: position p earns N - p + 1 points).
The script recomputes these from the written files and fails if they differ.

  Poll 1 "Midwest Ballpark Swing — June" (share code MW6BPS), 4 trips,
    12 ballots received: 10 counted, 1 invalid (kira: [2,2,0,1] repeats an
    index), 1 superseded (jun's older ballot; his newer one counts).
    trip 1 Wrigley to the Twin Cities        34   <- winner
    trip 2 Rivalry Weekend & the Royals      26
    trip 3 Great Lakes Loop                  19
    trip 4 Brewers, Twins & Royals           21
    (Counting jun's older ballot instead would give 32 / 28 / 20 / 20.)

  Poll 2 "Texas & Southwest Week" (share code TX4SWK), 3 trips,
    12 ballots received: 12 counted, 0 invalid, 0 superseded.
    trip 1 Lone Star Loop                    26   <- tied first (4 first places)
    trip 2 Desert Heat & Mile High           20
    trip 3 Fourth of July in Texas           26   <- tied first (5 first places,
                                                     so it is listed first)

  Poll 3 "Northeast Rivalries" (share code NE8RVZ, written "ne8rvz"), 5 trips,
    13 ballots received: 13 counted, 0 invalid, 0 superseded.
    trip 1 Yankees at Fenway, Then the Bronx  46
    trip 2 I-95 Rivalry Run                   58   <- winner
    trip 3 Beltway & Broad Street             38
    trip 4 Pennsylvania Turnpike              27
    trip 5 Big Apple Weekend                  26

  Plus Data/votes/stale/orphan-ballot.json: its pollId matches no poll
  (sitegen must warn and ignore it).
"""

import base64
import hashlib
import json
import math
import shutil
import sys
import uuid
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "Data"
FOLDERS = ["polls", "votes", "trips", "items", "games", "options", "convoys"]

UTC = timezone.utc
REFERENCE_EPOCH = datetime(2001, 1, 1, tzinfo=UTC)  # Swift's reference date
SITE_TIME_ZONE = "America/Chicago"  # the default site.yml's timeZone
SHARE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
UNKNOWN_GAME_ID = "mlb-2026-06-99-unknown"
YEAR = 2026

# Every date in the sample falls in daylight-saving time (May-August), so a
# fixed summer offset per zone is exact; the check cross-validates with zoneinfo.
SUMMER_UTC_OFFSET_HOURS = {
    "America/New_York": -4,
    "America/Chicago": -5,
    "America/Denver": -6,
    "America/Phoenix": -7,  # Arizona keeps MST all year
    "America/Los_Angeles": -7,
}

PRIVATE = {}  # private string -> what it is (printed at the end)


# --------------------------------------------------------------------------
# Small deterministic helpers
# --------------------------------------------------------------------------

def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def uid(name):
    """A v4-shaped UUID derived from a name, upper case."""
    raw = hashlib.sha256(("sitegen-sample:" + name).encode()).digest()[:16]
    return str(uuid.UUID(bytes=raw, version=4)).upper()


def private(kind, name, what):
    """A private identifier: prefixed `_priv_` so tests can scan for leaks."""
    value = f"_priv_{kind}{sha(kind + ':' + name)[:10]}"
    PRIVATE[value] = what
    return value


def invite_code(name):
    h = int(sha("invite:" + name), 16)
    code = ""
    for _ in range(8):
        h, r = divmod(h, len(SHARE_ALPHABET))
        code += SHARE_ALPHABET[r]
    value = "_priv_inv_" + code
    PRIVATE[value] = f"convoy invitation code ({name})"
    return value


def d(mmdd):
    """'06-12' -> date(2026, 6, 12)."""
    m, dd = mmdd.split("-")
    return date(YEAR, int(m), int(dd))


def local(day, hhmm, tz):
    """Local wall-clock time in `tz` on `day` -> aware UTC datetime."""
    if isinstance(day, str):
        day = d(day)
    h, m = map(int, hhmm.split(":"))
    naive = datetime(day.year, day.month, day.day, h, m)
    return (naive - timedelta(hours=SUMMER_UTC_OFFSET_HOURS[tz])).replace(tzinfo=UTC)


def utc(text):
    """'2026-05-02 14:03:11.482' -> aware UTC datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def enc(moment, style, tz=SITE_TIME_ZONE):
    """Encode an instant the way one of the app's exporters does.

    z   -> "2026-06-12T19:05:00Z"
    ms  -> "2026-05-02T14:03:11.482Z"
    off -> "2026-06-12T19:05:00-05:00" (local time in tz with its offset)
    ref -> 802015391.482 (seconds since 2001-01-01T00:00:00Z)
    """
    moment = moment.astimezone(UTC)
    if style == "z":
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    if style == "ms":
        return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"
    if style == "off":
        hours = SUMMER_UTC_OFFSET_HOURS[tz]
        wall = moment + timedelta(hours=hours)
        return wall.strftime("%Y-%m-%dT%H:%M:%S") + f"{'-' if hours < 0 else '+'}{abs(hours):02d}:00"
    if style == "ref":
        seconds = (moment - REFERENCE_EPOCH).total_seconds()
        return int(seconds) if seconds == int(seconds) else round(seconds, 3)
    raise ValueError(style)


def day_string(day):
    return day.isoformat()


def haversine_km(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(h))


def drive(a, b):
    """(meters, seconds) for a road leg between two (lat, lon) points."""
    key = "|".join(sorted([f"{a[0]:.4f},{a[1]:.4f}", f"{b[0]:.4f},{b[1]:.4f}"]))
    h = int(sha("leg:" + key), 16)
    factor = 1.16 + (h % 1000) / 1000 * 0.10
    speed_kmh = 93 + ((h // 1000) % 1000) / 1000 * 10
    meters = round(haversine_km(a, b) * factor * 1000)
    seconds = round(meters / (speed_kmh / 3.6))
    return meters, seconds


# --------------------------------------------------------------------------
# Places and teams
# --------------------------------------------------------------------------

# key: (city, state, latitude, longitude, IANA zone)
CITIES = {
    "CHI": ("Chicago", "IL", 41.8781, -87.6298, "America/Chicago"),
    "MKE": ("Milwaukee", "WI", 43.0389, -87.9065, "America/Chicago"),
    "MSP": ("Minneapolis", "MN", 44.9778, -93.2650, "America/Chicago"),
    "STL": ("St. Louis", "MO", 38.6270, -90.1994, "America/Chicago"),
    "MKC": ("Kansas City", "MO", 39.0997, -94.5786, "America/Chicago"),
    "DSM": ("Des Moines", "IA", 41.5868, -93.6250, "America/Chicago"),
    "OMA": ("Omaha", "NE", 41.2565, -95.9345, "America/Chicago"),
    "SPI": ("Springfield", "IL", 39.7817, -89.6501, "America/Chicago"),
    "OKC": ("Oklahoma City", "OK", 35.4676, -97.5164, "America/Chicago"),
    "ARL": ("Arlington", "TX", 32.7357, -97.1081, "America/Chicago"),
    "AUS": ("Austin", "TX", 30.2672, -97.7431, "America/Chicago"),
    "SAT": ("San Antonio", "TX", 29.4241, -98.4936, "America/Chicago"),
    "HOU": ("Houston", "TX", 29.7604, -95.3698, "America/Chicago"),
    "DEN": ("Denver", "CO", 39.7392, -104.9903, "America/Denver"),
    "ABQ": ("Albuquerque", "NM", 35.0844, -106.6504, "America/Denver"),
    "SLC": ("Salt Lake City", "UT", 40.7608, -111.8910, "America/Denver"),
    "PHX": ("Phoenix", "AZ", 33.4484, -112.0740, "America/Phoenix"),
    "SEA": ("Seattle", "WA", 47.6062, -122.3321, "America/Los_Angeles"),
    "PDX": ("Portland", "OR", 45.5152, -122.6784, "America/Los_Angeles"),
    "SFO": ("San Francisco", "CA", 37.7749, -122.4194, "America/Los_Angeles"),
    "LAX": ("Los Angeles", "CA", 34.0522, -118.2437, "America/Los_Angeles"),
    # Detroit's own zone is America/Detroit; its rules equal New York's.
    "DTW": ("Detroit", "MI", 42.3314, -83.0458, "America/New_York"),
    "IND": ("Indianapolis", "IN", 39.7684, -86.1581, "America/New_York"),
    "CLE": ("Cleveland", "OH", 41.4993, -81.6944, "America/New_York"),
    "CVG": ("Cincinnati", "OH", 39.1031, -84.5120, "America/New_York"),
    "PIT": ("Pittsburgh", "PA", 40.4406, -79.9959, "America/New_York"),
    "PHL": ("Philadelphia", "PA", 39.9526, -75.1652, "America/New_York"),
    "NYC": ("New York", "NY", 40.7128, -74.0060, "America/New_York"),
    "BOS": ("Boston", "MA", 42.3601, -71.0589, "America/New_York"),
    "BAL": ("Baltimore", "MD", 39.2904, -76.6122, "America/New_York"),
    "WAS": ("Washington", "DC", 38.9072, -77.0369, "America/New_York"),
    "COO": ("Cooperstown", "NY", 42.7006, -74.9243, "America/New_York"),
    "BUF": ("Buffalo", "NY", 42.8864, -78.8784, "America/New_York"),
}

# Home teams: city, venue, local first-pitch habits
# (weeknight, Friday, Saturday, Sunday, weekday getaway day game).
TEAMS = {
    "CHC": ("CHI", "Wrigley Field", "18:40", "13:20", "13:20", "13:20", "13:20"),
    "CWS": ("CHI", "Rate Field", "18:40", "18:40", "18:10", "13:10", "13:10"),
    "MIL": ("MKE", "American Family Field", "18:40", "19:10", "18:10", "13:10", "12:40"),
    "MIN": ("MSP", "Target Field", "18:40", "19:10", "18:10", "13:10", "12:10"),
    "STL": ("STL", "Busch Stadium", "18:45", "19:15", "18:15", "13:15", "12:15"),
    "KC": ("MKC", "Kauffman Stadium", "19:10", "19:10", "18:10", "13:10", "13:10"),
    "CLE": ("CLE", "Progressive Field", "18:40", "19:10", "18:10", "13:40", "13:10"),
    "DET": ("DTW", "Comerica Park", "18:40", "18:40", "18:10", "13:40", "13:10"),
    "CIN": ("CVG", "Great American Ball Park", "18:40", "19:10", "16:10", "13:40", "12:35"),
    "PIT": ("PIT", "PNC Park", "18:40", "18:40", "16:05", "13:35", "12:35"),
    "PHI": ("PHL", "Citizens Bank Park", "18:45", "19:05", "16:05", "13:35", "13:05"),
    "NYY": ("NYC", "Yankee Stadium", "19:05", "19:05", "13:05", "13:35", "13:05"),
    "NYM": ("NYC", "Citi Field", "19:10", "19:10", "16:10", "13:40", "13:10"),
    "BOS": ("BOS", "Fenway Park", "19:10", "19:10", "16:10", "13:35", "13:35"),
    "BAL": ("BAL", "Oriole Park at Camden Yards", "18:35", "19:05", "16:05", "13:35", "12:35"),
    "WSH": ("WAS", "Nationals Park", "18:45", "18:45", "16:05", "13:35", "13:05"),
    "TEX": ("ARL", "Globe Life Field", "19:05", "19:05", "18:05", "13:35", "13:35"),
    "HOU": ("HOU", "Daikin Park", "19:10", "19:10", "18:10", "13:10", "13:10"),
    "ARI": ("PHX", "Chase Field", "18:40", "18:40", "17:10", "13:10", "12:40"),
    "COL": ("DEN", "Coors Field", "18:40", "18:40", "18:10", "13:10", "13:10"),
    "SEA": ("SEA", "T-Mobile Park", "18:40", "19:10", "18:40", "13:10", "12:40"),
    "SFG": ("SFO", "Oracle Park", "18:45", "19:15", "13:05", "13:05", "12:45"),
    "LAD": ("LAX", "Dodger Stadium", "19:10", "19:10", "18:10", "13:10", "13:10"),
}

# Series: (home, away, first local date, games, last game is a getaway day game)
SERIES = [
    # June 12-18: Midwest (poll 1)
    ("CHC", "STL", "06-12", 3, False), ("CWS", "TB", "06-12", 3, False),
    ("MIL", "PIT", "06-12", 3, False), ("MIN", "BOS", "06-12", 3, False),
    ("CLE", "HOU", "06-12", 3, False), ("DET", "SEA", "06-12", 3, False),
    ("KC", "TEX", "06-12", 3, False), ("MIN", "CLE", "06-15", 3, True),
    ("KC", "NYY", "06-15", 3, False), ("CIN", "ATL", "06-15", 3, True),
    ("STL", "MIL", "06-15", 3, False),
    # June 19-28: Chicago to Denver (itinerary)
    ("CHC", "LAD", "06-19", 3, False), ("MIL", "CIN", "06-19", 3, False),
    ("MIN", "DET", "06-22", 3, True), ("KC", "CWS", "06-22", 3, True),
    ("COL", "SFG", "06-26", 3, False),
    # June 26 - July 5: Texas and the Southwest (poll 2)
    ("TEX", "SEA", "06-26", 3, False), ("TEX", "LAA", "06-29", 3, False),
    ("HOU", "ATH", "06-29", 3, False), ("ARI", "LAD", "06-29", 3, False),
    ("COL", "MIA", "06-30", 3, False), ("HOU", "TB", "07-03", 3, False),
    # July 17-29: after the All-Star break, out of Chicago (option set)
    ("CHC", "MIL", "07-17", 3, False), ("CWS", "MIN", "07-17", 3, False),
    ("STL", "CIN", "07-17", 3, False), ("KC", "DET", "07-17", 3, False),
    ("CLE", "TEX", "07-17", 3, False), ("PIT", "SFG", "07-17", 3, False),
    ("NYY", "ATL", "07-17", 3, False), ("PHI", "SD", "07-17", 3, False),
    ("COL", "ARI", "07-17", 3, False), ("HOU", "SEA", "07-17", 3, False),
    ("LAD", "BOS", "07-17", 3, False),
    ("MIL", "CHC", "07-20", 3, False), ("MIN", "KC", "07-20", 3, False),
    ("CWS", "CLE", "07-20", 3, False), ("DET", "CIN", "07-20", 3, False),
    ("STL", "PIT", "07-20", 3, True), ("COL", "HOU", "07-20", 3, True),
    ("ARI", "SEA", "07-20", 3, False), ("TEX", "SFG", "07-20", 3, False),
    ("PHI", "NYM", "07-20", 3, False), ("NYY", "TB", "07-20", 3, False),
    ("BOS", "TOR", "07-21", 3, True),
    ("CHC", "STL", "07-24", 3, False), ("MIL", "MIN", "07-24", 3, False),
    ("KC", "CWS", "07-24", 3, False), ("CLE", "DET", "07-24", 3, False),
    ("CIN", "PIT", "07-24", 3, False), ("SEA", "TEX", "07-24", 3, False),
    ("SFG", "ARI", "07-24", 3, False), ("HOU", "ATH", "07-24", 3, False),
    ("LAD", "SD", "07-27", 3, False),
    # July 31 - August 9: the Northeast (poll 3 and an itinerary)
    ("BOS", "NYY", "07-31", 3, False), ("NYM", "PHI", "07-31", 3, False),
    ("BAL", "WSH", "07-31", 3, False), ("PIT", "CLE", "07-31", 3, False),
    ("NYY", "TOR", "08-03", 3, False), ("BOS", "TB", "08-03", 3, False),
    ("WSH", "BAL", "08-03", 3, False), ("PHI", "ATL", "08-04", 3, False),
    ("BOS", "DET", "08-06", 4, True), ("NYY", "HOU", "08-07", 3, False),
    ("PHI", "MIA", "08-07", 3, False),
]


class Game:
    def __init__(self, home, away, day, hhmm):
        city_key, venue = TEAMS[home][0], TEAMS[home][1]
        city, _, _, _, tz = CITIES[city_key]
        self.home, self.away, self.day, self.hhmm = home, away, day, hhmm
        self.city_key, self.venue, self.city, self.tz = city_key, venue, city, tz
        self.id = f"mlb-{day.isoformat()}-{away.lower()}-{home.lower()}"
        self.start = local(day, hhmm, tz)

    def json(self, style):
        return {
            "id": self.id,
            "sport": "mlb",
            "awayTeam": self.away,
            "homeTeam": self.home,
            "startTime": enc(self.start, style, self.tz),
            "venue": self.venue,
            "city": self.city,
            "timeZone": self.tz,
        }


def build_schedule():
    games = {}
    by_home_day = {}
    for home, away, first, count, getaway in SERIES:
        _, _, wk, fri, sat, sun, get = TEAMS[home]
        for i in range(count):
            day = d(first) + timedelta(days=i)
            weekday = day.weekday()  # Monday = 0
            hhmm = {4: fri, 5: sat, 6: sun}.get(weekday, wk)
            if getaway and i == count - 1 and weekday < 4:
                hhmm = get
            game = Game(home, away, day, hhmm)
            assert game.id not in games, game.id
            games[game.id] = game
            by_home_day[(home, day)] = game
    return games, by_home_day


GAMES, GAME_BY_HOME_DAY = build_schedule()


def game_id(home, mmdd):
    game = GAME_BY_HOME_DAY.get((home, d(mmdd)))
    assert game, f"no {home} home game on {mmdd}"
    return game.id


# --------------------------------------------------------------------------
# Trips
# --------------------------------------------------------------------------

def build_trip(key, name, stops, departures, notes=None, sports=("mlb",),
               start=None, end=None):
    """stops: [(city key, arrival 'MM-DD', departure 'MM-DD', [game spec])],
    a game spec being (home team, 'MM-DD') or a raw game id.
    departures: per segment, None (no departureDate) or (local 'HH:MM', style)
    on the from-stop's departure date."""
    trip_id = uid("trip:" + key)
    stop_objs, segments = [], []
    for city_key, arrive, leave, specs in stops:
        city, state, lat, lon, _ = CITIES[city_key]
        ids = [s if isinstance(s, str) else game_id(*s) for s in specs]
        stop_objs.append({
            "city": city, "state": state, "latitude": lat, "longitude": lon,
            "arrivalDate": day_string(d(arrive)), "departureDate": day_string(d(leave)),
            "games": ids,
        })
    assert len(departures) == len(stops) - 1, key
    for i in range(len(stops) - 1):
        a, b = CITIES[stops[i][0]], CITIES[stops[i + 1][0]]
        meters, seconds = drive((a[2], a[3]), (b[2], b[3]))
        seg = {"id": uid(f"segment:{key}:{i}"), "fromCity": a[0], "toCity": b[0],
               "distanceMeters": meters, "durationSeconds": seconds}
        if departures[i] is not None:
            hhmm, style = departures[i]
            seg["departureDate"] = enc(local(stops[i][2], hhmm, a[4]), style, a[4])
        segments.append(seg)
    trip = {
        "id": trip_id,
        "name": name,
        "preferences": {
            "startDate": day_string(d(start or stops[0][1])),
            "endDate": day_string(d(end or stops[-1][2])),
            "sports": list(sports),
        },
        "stops": stop_objs,
        "travelSegments": segments,
        "totalGames": sum(len(s["games"]) for s in stop_objs),
        "totalDistanceMeters": sum(s["distanceMeters"] for s in segments),
        "totalDrivingSeconds": sum(s["durationSeconds"] for s in segments),
    }
    if notes:
        trip["notes"] = notes
    check_trip_plausible(trip, stops, departures)
    return trip


def check_trip_plausible(trip, stops, departures):
    """Generation-time sanity: games are at the stop's city within its dates,
    and each drive fits between the games around it (a game lasts ~3 h; be in
    town an hour before first pitch)."""
    name = trip["name"]
    for (city_key, arrive, leave, _), stop in zip(stops, trip["stops"]):
        for gid in stop["games"]:
            if gid == UNKNOWN_GAME_ID:
                continue
            g = GAMES[gid]
            assert g.city_key == city_key, (name, gid)
            assert d(arrive) <= g.day <= d(leave), (name, gid)
        assert d(arrive) <= d(leave), name
    for i, seg in enumerate(trip["travelSegments"]):
        frm, to = stops[i], stops[i + 1]
        assert d(frm[2]) == d(to[1]), (name, "segment dates", i)
        day = d(frm[2])
        tz_from = CITIES[frm[0]][4]
        games_from = [GAMES[g] for g in trip["stops"][i]["games"]
                      if g in GAMES and GAMES[g].day == day]
        games_to = [GAMES[g] for g in trip["stops"][i + 1]["games"]
                    if g in GAMES and GAMES[g].day == day]
        if departures[i] is not None:
            depart = local(day, departures[i][0], tz_from)
        else:
            depart = max([g.start + timedelta(hours=3) for g in games_from],
                         default=local(day, "09:00", tz_from))
        for g in games_from:
            assert depart >= g.start + timedelta(hours=3), (name, "leaves during", g.id)
        arrive = depart + timedelta(seconds=seg["durationSeconds"])
        for g in games_to:
            assert arrive <= g.start - timedelta(hours=1), (name, "arrives late for", g.id, arrive)
        assert seg["durationSeconds"] <= 14 * 3600, (name, "drive too long", i)


def H(home, mmdd):
    return (home, mmdd)


# ---- Poll 1: Midwest Ballpark Swing — June (4 trips) ----------------------
POLL1_TRIPS = [
    build_trip("p1-wrigley-twin-cities", "Wrigley to the Twin Cities", [
        ("CHI", "06-12", "06-14", [H("CHC", "06-12"), H("CWS", "06-13")]),
        ("MKE", "06-14", "06-15", [H("MIL", "06-14")]),
        ("MSP", "06-15", "06-17", [H("MIN", "06-15"), H("MIN", "06-16")]),
    ], [("09:00", "z"), ("10:00", "off")],
        notes="Both Chicago parks on day one and two, then north.\n\n"
              "- Cubs **Friday day game** at Wrigley\n- Sox under the lights\n"
              "- Two nights at Target Field"),
    build_trip("p1-rivalry-royals", "Rivalry Weekend & the Royals", [
        ("CHI", "06-12", "06-14", [H("CHC", "06-12"), H("CHC", "06-13")]),
        ("STL", "06-14", "06-17", [H("STL", "06-15"), H("STL", "06-16")]),
        ("MKC", "06-17", "06-18", [H("KC", "06-17")]),
    ], [("10:30", "z"), ("08:30", "z")],
        notes="Cardinals at Cubs, then the return series in St. Louis. "
              "Ends with *barbecue* in Kansas City."),
    build_trip("p1-great-lakes-loop", "Great Lakes Loop", [
        ("CHI", "06-12", "06-13", [H("CHC", "06-12")]),
        ("DTW", "06-13", "06-14", [H("DET", "06-13")]),
        ("CLE", "06-14", "06-15", [H("CLE", "06-14")]),
        ("CVG", "06-15", "06-17", [H("CIN", "06-16")]),
        ("CHI", "06-17", "06-17", []),
    ], [("08:00", "z"), ("09:00", "off"), ("10:00", "z"), None]),
    build_trip("p1-brewers-twins-royals", "Brewers, Twins & Royals", [
        ("MKE", "06-12", "06-13", [H("MIL", "06-12")]),
        ("MSP", "06-13", "06-15", [H("MIN", "06-13"), H("MIN", "06-14")]),
        ("MKC", "06-15", "06-17", [H("KC", "06-16")]),
    ], [("08:30", "z"), ("09:00", "z")],
        notes="Starts in Milwaukee, so the Chicago crew takes the *Hiawatha* train up Friday."),
]

# ---- Poll 2: Texas & Southwest Week (3 trips) -----------------------------
POLL2_TRIPS = [
    build_trip("p2-lone-star-loop", "Lone Star Loop", [
        ("ARL", "06-27", "06-29", [H("TEX", "06-27"), H("TEX", "06-28")]),
        ("AUS", "06-29", "06-30", []),
        ("HOU", "06-30", "07-02", [H("HOU", "06-30"), H("HOU", "07-01")]),
    ], [("10:00", "z"), ("09:30", "z")],
        notes="Globe Life Field and Daikin Park both have roofs: **no rainouts**, "
              "and air conditioning in July."),
    build_trip("p2-desert-mile-high", "Desert Heat & Mile High", [
        ("PHX", "06-28", "07-01", [H("ARI", "06-29"), H("ARI", "06-30")]),
        ("ABQ", "07-01", "07-02", []),
        ("DEN", "07-02", "07-03", [H("COL", "07-02")]),
    ], [("07:00", "off"), ("08:00", "off")],
        notes="Dodgers at Chase Field, a night on Route 66 in Albuquerque, "
              "then Coors Field.\n\n> Drink water. Then drink more water."),
    build_trip("p2-fourth-of-july-texas", "Fourth of July in Texas", [
        ("ARL", "07-01", "07-02", [H("TEX", "07-01")]),
        ("SAT", "07-02", "07-03", []),
        ("HOU", "07-03", "07-05", [H("HOU", "07-03"), H("HOU", "07-04"), H("HOU", "07-05")]),
    ], [("09:00", "z"), ("10:00", "z")],
        notes="The Riverwalk on the 2nd, then **Independence Day fireworks** "
              "after the Saturday game in Houston."),
]

# ---- Poll 3: Northeast Rivalries (5 trips) --------------------------------
POLL3_TRIPS = [
    build_trip("p3-fenway-bronx", "Yankees at Fenway, Then the Bronx", [
        ("BOS", "07-31", "08-02", [H("BOS", "07-31"), H("BOS", "08-01")]),
        ("NYC", "08-02", "08-05", [H("NYY", "08-03"), H("NYY", "08-04")]),
    ], [("10:00", "z")],
        notes="The rivalry at Fenway, then the Blue Jays in the Bronx."),
    build_trip("p3-i95-rivalry-run", "I-95 Rivalry Run", [
        ("BOS", "08-01", "08-02", [H("BOS", "08-01")]),
        ("NYC", "08-02", "08-03", [H("NYM", "08-02")]),
        ("PHL", "08-03", "08-05", [H("PHI", "08-04")]),
        ("WAS", "08-05", "08-06", [H("WSH", "08-05")]),
    ], [("07:30", "z"), ("11:00", "z"), ("10:00", "off")],
        notes="Four cities, four parks, one *very* long weekend on I-95."),
    build_trip("p3-beltway-broad-street", "Beltway & Broad Street", [
        ("BAL", "07-31", "08-03", [H("BAL", "07-31"), H("BAL", "08-01")]),
        ("WAS", "08-03", "08-04", [H("WSH", "08-03")]),
        ("PHL", "08-04", "08-06", [H("PHI", "08-04"), H("PHI", "08-05")]),
    ], [("11:00", "z"), ("10:00", "z")]),
    build_trip("p3-pennsylvania-turnpike", "Pennsylvania Turnpike", [
        ("PIT", "07-31", "08-03", [H("PIT", "07-31"), H("PIT", "08-01"), H("PIT", "08-02")]),
        ("PHL", "08-03", "08-05", [H("PHI", "08-04")]),
    ], [("09:00", "z")],
        notes="PNC Park's view of the Roberto Clemente Bridge, then Philly."),
    build_trip("p3-big-apple-weekend", "Big Apple Weekend", [
        ("NYC", "07-31", "08-04", [H("NYM", "07-31"), H("NYM", "08-01"), H("NYY", "08-03")]),
    ], [],
        notes="No car needed: the **7 train** to Citi Field, the **4** to Yankee Stadium."),
]

# ---- Itinerary A: Chicago to Denver, June 19-26 (wrapper form) -------------
ITIN_A = build_trip("itinerary-plains-rockies", "Great Plains & Rockies Run", [
    ("CHI", "06-19", "06-20", [H("CHC", "06-19")]),
    ("MKE", "06-20", "06-21", [H("MIL", "06-20"), H("MIL", "06-21")]),
    ("MSP", "06-21", "06-23", [H("MIN", "06-22")]),
    ("MKC", "06-23", "06-25", [H("KC", "06-23"), UNKNOWN_GAME_ID]),
    ("DEN", "06-25", "06-26", [H("COL", "06-26")]),
], [("10:00", "off"), None, ("08:00", "z"), ("07:00", "ms")],
    notes="Eight days, five ballparks, one time-zone change (Kansas City to Denver).\n\n"
          "**Tickets:** Wrigley and Coors are bought; the rest are *day-of*.\n\n"
          "Schedules: [mlb.com/schedule](https://www.mlb.com/schedule)")
# The Royals' June 24 day game was dropped from the plan (a custom item still
# points at it: the "vanished anchor" case).
DROPPED_GAME_A = game_id("KC", "06-24")

# ---- Itinerary B: Northeast, August 6-10 (bare trip) ------------------------
ITIN_B = build_trip("itinerary-northeast-hof", "Fenway, Cooperstown & the Bronx", [
    ("BOS", "08-06", "08-07", [H("BOS", "08-06")]),
    ("COO", "08-07", "08-08", []),
    ("NYC", "08-08", "08-09", [H("NYY", "08-08")]),
    ("PHL", "08-09", "08-10", [H("PHI", "08-09")]),
], [("10:00", "z"), ("08:00", "off"), ("09:00", "z")],
    notes="A detour to the **Hall of Fame** between two American League parks.")


# ---- Option set: July 17-27 out of Chicago ---------------------------------
def option_trips():
    T = build_trip
    return [
        T("o-rivalry-week", "Cubs, Sox, Brewers & Royals", [
            ("CHI", "07-17", "07-20", [H("CHC", "07-17"), H("CWS", "07-18")]),
            ("MKE", "07-20", "07-23", [H("MIL", "07-20"), H("MIL", "07-21"), H("MIL", "07-22")]),
            ("MKC", "07-23", "07-26", [H("KC", "07-24"), H("KC", "07-25")]),
        ], [("10:00", "z"), ("08:00", "z")]),
        T("o-heartland-hat-trick", "Heartland Hat Trick", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("STL", "07-18", "07-19", [H("STL", "07-18")]),
            ("MKC", "07-19", "07-20", [H("KC", "07-19")]),
        ], [("08:00", "z"), ("07:00", "z")]),
        T("o-chicago-weekend", "Chicago Two-Ballpark Weekend", [
            ("CHI", "07-17", "07-19", [H("CHC", "07-17"), H("CWS", "07-18"), H("CHC", "07-19")]),
        ], []),
        T("o-great-lakes-loop", "Great Lakes Loop", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("CLE", "07-18", "07-20", [H("CLE", "07-18"), H("CLE", "07-19")]),
            ("DTW", "07-20", "07-22", [H("DET", "07-20"), H("DET", "07-21")]),
            ("CHI", "07-22", "07-22", [H("CWS", "07-22")]),
        ], [("07:00", "z"), ("10:00", "z"), ("09:00", "z")]),
        T("o-grand-midwest-ten", "Grand Midwest Ten", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("STL", "07-18", "07-19", [H("STL", "07-18")]),
            ("MKC", "07-19", "07-20", [H("KC", "07-19")]),
            ("DSM", "07-20", "07-21", []),
            ("MSP", "07-21", "07-22", [H("MIN", "07-21")]),
            ("MKE", "07-22", "07-23", [H("MIL", "07-22")]),
            ("DTW", "07-23", "07-24", []),
            ("CLE", "07-24", "07-25", [H("CLE", "07-24")]),
            ("CVG", "07-25", "07-27", [H("CIN", "07-25"), H("CIN", "07-26")]),
            ("IND", "07-27", "07-27", []),
        ], [("08:00", "z"), ("07:00", "z"), ("10:00", "z"), ("09:00", "z"), ("08:00", "z"),
            ("09:00", "z"), ("09:00", "z"), ("08:00", "z"), ("10:00", "z")],
            notes="Ten cities in eleven days. **Eight games.** Not for the faint of heart."),
        T("o-wrigley-friday", "Wrigley Friday", [
            ("CHI", "07-17", "07-17", [H("CHC", "07-17")]),
        ], []),
        T("o-rockies-run", "Rockies Run", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("MKC", "07-18", "07-19", [H("KC", "07-18")]),
            ("DEN", "07-19", "07-22", [H("COL", "07-20"), H("COL", "07-21")]),
        ], [("07:00", "z"), ("08:00", "z")]),
        T("o-west-coast-epic", "West Coast Epic", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("OMA", "07-18", "07-19", []),
            ("DEN", "07-19", "07-21", [H("COL", "07-20")]),
            ("SLC", "07-21", "07-23", []),
            ("SEA", "07-23", "07-25", [H("SEA", "07-24")]),
            ("PDX", "07-25", "07-26", []),
            ("SFO", "07-26", "07-27", []),
            ("LAX", "07-27", "07-27", [H("LAD", "07-27")]),
        ], [("08:00", "z"), ("08:00", "z"), ("09:00", "z"), ("07:00", "z"), ("10:00", "z"),
            ("07:00", "z"), ("09:00", "z")],
            notes="Fly home from LAX. Over 5,800 km of driving: share the wheel."),
        T("o-north-woods", "North Woods", [
            ("CHI", "07-17", "07-20", [H("CHC", "07-17")]),
            ("MKE", "07-20", "07-21", [H("MIL", "07-20")]),
            ("MSP", "07-21", "07-23", [H("MIN", "07-21"), H("MIN", "07-22")]),
        ], [("11:00", "z"), ("09:00", "z")]),
        T("o-texas-two-step", "Texas Two-Step", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("STL", "07-18", "07-19", [H("STL", "07-18")]),
            ("ARL", "07-19", "07-22", [H("TEX", "07-20"), H("TEX", "07-21")]),
            ("AUS", "07-22", "07-23", []),
            ("HOU", "07-23", "07-25", [H("HOU", "07-24"), H("HOU", "07-25")]),
        ], [("08:00", "z"), ("07:00", "z"), ("10:00", "z"), ("10:00", "z")]),
        T("o-route-66-scenic", "Route 66 Scenic Drive", [
            ("CHI", "07-18", "07-19", []),
            ("SPI", "07-19", "07-20", []),
            ("STL", "07-20", "07-21", []),
        ], [("09:00", "z"), ("10:00", "z")],
            notes="No tickets needed: Lincoln sites in Springfield and the Gateway Arch."),
        T("o-four-corners-sprint", "Four Corners Sprint", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("MKC", "07-18", "07-19", [H("KC", "07-18")]),
            ("DEN", "07-19", "07-21", [H("COL", "07-20")]),
            ("PHX", "07-21", "07-23", [H("ARI", "07-22")]),
        ], [("07:00", "z"), ("08:00", "z"), ("07:00", "z")]),
        T("o-i94-rivalry", "I-94 Rivalry", [
            ("CHI", "07-17", "07-20", [H("CHC", "07-17"), H("CHC", "07-19")]),
            ("MKE", "07-20", "07-21", [H("MIL", "07-20")]),
        ], [("12:00", "z")]),
        T("o-southern-loop", "Southern Loop", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("STL", "07-18", "07-19", [H("STL", "07-18")]),
            ("MKC", "07-19", "07-20", [H("KC", "07-19")]),
            ("OKC", "07-20", "07-21", []),
            ("ARL", "07-21", "07-22", [H("TEX", "07-21")]),
            ("AUS", "07-22", "07-23", []),
            ("HOU", "07-23", "07-25", [H("HOU", "07-24"), H("HOU", "07-25")]),
        ], [("08:00", "z"), ("07:00", "z"), ("09:00", "z"), ("09:00", "z"), ("10:00", "z"),
            ("10:00", "z")]),
        T("o-milwaukee-and-back", "Milwaukee and Back", [
            ("CHI", "07-17", "07-20", [H("CHC", "07-17"), H("CWS", "07-18")]),
            ("MKE", "07-20", "07-22", [H("MIL", "07-20"), H("MIL", "07-21")]),
            ("CHI", "07-22", "07-22", [H("CWS", "07-22")]),
        ], [("11:00", "z"), ("10:00", "z")],
            notes="Home to Chicago between series: sleep in your own bed twice."),
        T("o-east-to-the-bronx", "East to the Bronx", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("PIT", "07-18", "07-20", [H("PIT", "07-19")]),
            ("PHL", "07-20", "07-21", [H("PHI", "07-20")]),
            ("NYC", "07-21", "07-23", [H("NYY", "07-21"), H("NYY", "07-22")]),
        ], [("08:00", "z"), ("08:00", "z"), ("10:00", "z")]),
        T("o-chicago-homestand", "Chicago Homestand Week", [
            ("CHI", "07-17", "07-26", [H("CHC", "07-17"), H("CWS", "07-18"), H("CHC", "07-19"),
                                       H("CWS", "07-20"), H("CWS", "07-21"), H("CHC", "07-24"),
                                       H("CHC", "07-25"), H("CHC", "07-26")]),
        ], [],
            notes="Eight games, zero miles: the **L** goes to both parks."),
        T("o-six-pack-midwest", "Six-Pack Midwest", [
            ("CHI", "07-17", "07-20", [H("CHC", "07-17")]),
            ("MKE", "07-20", "07-21", [H("MIL", "07-20")]),
            ("MSP", "07-21", "07-22", [H("MIN", "07-21")]),
            ("DSM", "07-22", "07-23", []),
            ("OMA", "07-23", "07-24", []),
            ("MKC", "07-24", "07-26", [H("KC", "07-24"), H("KC", "07-25"), H("KC", "07-26")]),
        ], [("11:00", "z"), ("09:00", "z"), ("09:00", "z"), ("10:00", "z"), ("09:00", "z")]),
        T("o-cardinals-country", "Cardinals Country", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("STL", "07-18", "07-20", [H("STL", "07-18"), H("STL", "07-19")]),
        ], [("09:00", "z")]),
        T("o-atlantic-grand-tour", "Atlantic Grand Tour", [
            ("CHI", "07-17", "07-18", [H("CHC", "07-17")]),
            ("CLE", "07-18", "07-19", [H("CLE", "07-18")]),
            ("PIT", "07-19", "07-20", [H("PIT", "07-19")]),
            ("PHL", "07-20", "07-21", [H("PHI", "07-20")]),
            ("NYC", "07-21", "07-22", [H("NYY", "07-21")]),
            ("BOS", "07-22", "07-23", [H("BOS", "07-22")]),
            ("COO", "07-23", "07-24", []),
            ("BUF", "07-24", "07-25", []),
            ("DTW", "07-25", "07-25", []),
        ], [("07:00", "z"), ("09:00", "z"), ("09:00", "z"), ("10:00", "z"), ("09:00", "z"),
            ("10:00", "z"), ("10:00", "z"), ("10:00", "z")],
            notes="Niagara Falls from Buffalo, then fly home from Detroit."),
        T("o-twins-royals-express", "Twins & Royals Express", [
            ("CHI", "07-20", "07-21", []),
            ("MSP", "07-21", "07-22", [H("MIN", "07-21")]),
            ("DSM", "07-22", "07-24", []),
            ("MKC", "07-24", "07-25", [H("KC", "07-24")]),
        ], [("07:30", "z"), ("10:00", "z"), ("10:00", "z")]),
        T("o-ohio-valley", "Ohio Valley Triangle", [
            ("CHI", "07-22", "07-23", [H("CWS", "07-22")]),
            ("IND", "07-23", "07-24", []),
            ("CVG", "07-24", "07-25", [H("CIN", "07-24")]),
            ("CLE", "07-25", "07-26", [H("CLE", "07-25"), H("CLE", "07-26")]),
        ], [("10:00", "z"), ("10:00", "z"), ("08:00", "z")]),
        T("o-mile-high-dash", "Mile High Dash", [
            ("CHI", "07-18", "07-19", []),
            ("OMA", "07-19", "07-20", []),
            ("DEN", "07-20", "07-21", [H("COL", "07-20")]),
        ], [("07:00", "z"), ("06:00", "z")],
            notes="One game, a lot of corn. Good if you only care about Coors."),
    ]


OPTION_TRIPS = option_trips()


# --------------------------------------------------------------------------
# People (all identifiers private; display names are public)
# --------------------------------------------------------------------------

FRIENDS = ["alex", "bea", "carlos", "dana", "eli", "fatima", "gus", "hana", "ivan",
           "jun", "kira", "leo", "mona", "nate", "omar", "priya", "quinn", "rosa", "sam"]
VOTER = {name: private("u", name, f"voter id ({name})") for name in FRIENDS}
OWNER_MAYA = private("o", "maya", "poll owner id (maya)")
OWNER_THEO = private("o", "theo", "poll owner id (theo)")


# --------------------------------------------------------------------------
# Polls
# --------------------------------------------------------------------------

def trip_version(trip):
    return sha(json.dumps(trip, sort_keys=True, ensure_ascii=False))[:8]


POLL1_ID = uid("poll:midwest-june")
POLL2_ID = uid("poll:texas-southwest")
POLL3_ID = uid("poll:northeast-rivalries")
DELETED_POLL_ID = uid("poll:deleted-cooperstown-weekend")

POLL_META = [  # (id, share code, title, trips)
    (POLL1_ID, "MW6BPS", "Midwest Ballpark Swing — June", POLL1_TRIPS),
    (POLL2_ID, "TX4SWK", "Texas & Southwest Week", POLL2_TRIPS),
    (POLL3_ID, "NE8RVZ", "Northeast Rivalries", POLL3_TRIPS),
]

poll1 = {
    "id": POLL1_ID,
    "title": "Midwest Ballpark Swing — June",
    "shareCode": "MW6BPS",
    "description": (
        "Four ways to spend **June 12–18** in the Midwest. Rank them all, favourite first.\n\n"
        "- Every option starts the weekend of the 12th\n"
        "- *Tickets are not bought yet* — vote by **May 20**\n"
        "- Drives are under six hours a day\n\n"
        "Check the [MLB schedule](https://www.mlb.com/schedule) for rainouts."),
    "ownerId": OWNER_MAYA,
    "tripSnapshots": POLL1_TRIPS,
    "tripVersions": [trip_version(t) for t in POLL1_TRIPS],
    "createdAt": enc(utc("2026-05-02 14:03:11.482"), "ms"),
    "modifiedAt": enc(utc("2026-05-09 18:20:45"), "z"),
}

poll2 = {  # the exporter that writes `pollId` and base64 Data fields
    "pollId": POLL2_ID,
    "title": "Texas & Southwest Week",
    "shareCode": "TX4SWK",
    "description": (
        "Heat, roofs and *barbecue*. Pick the week around the **Fourth of July**:\n\n"
        "1. Lone Star Loop\n2. Desert Heat & Mile High\n3. Fourth of July in Texas\n\n"
        "Game times: [mlb.com/schedule](https://www.mlb.com/schedule)"),
    "ownerId": OWNER_THEO,
    "tripSnapshots": base64.b64encode(
        json.dumps(POLL2_TRIPS, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    ).decode("ascii"),
    "tripVersions": [trip_version(t) for t in POLL2_TRIPS],
    "createdAt": enc(utc("2026-05-14 21:47:02.250"), "ref"),
    "modifiedAt": enc(utc("2026-05-16 01:12:30"), "off"),
}

poll3 = {
    "id": POLL3_ID,
    "title": "Northeast Rivalries",
    "shareCode": "ne8rvz",  # lower case in the export; sitegen upper-cases it
    "description": (
        "Yankees–Red Sox, Mets–Phillies, the *Beltway Series*: where do we go the "
        "first week of August?\n\n"
        "- Trains work for the **Big Apple Weekend**\n"
        "- Everything else needs one car\n\n"
        "[Full schedule](https://www.mlb.com/schedule)"),
    "ownerId": OWNER_MAYA,
    "tripSnapshots": POLL3_TRIPS,
    "tripVersions": [trip_version(t) for t in POLL3_TRIPS],
    "createdAt": enc(utc("2026-06-20 16:30:00"), "z"),
    "modifiedAt": enc(utc("2026-06-22 09:05:41.118"), "ref"),
}


# --------------------------------------------------------------------------
# Votes
# --------------------------------------------------------------------------
# Each ballot: (vote key, voter, rankings, votedAt, modifiedAt)

POLL1_BALLOTS = [
    ("p1-alex", "alex", [0, 1, 3, 2], "2026-05-02 15:10:04.120", "2026-05-02 15:10:04.120"),
    ("p1-bea", "bea", [1, 0, 2, 3], "2026-05-02 16:41:55", "2026-05-02 16:41:55"),
    ("p1-carlos", "carlos", [0, 2, 1, 3], "2026-05-03 02:05:19.907", "2026-05-03 02:05:19.907"),
    # jun's newer ballot, listed before the older one on purpose: it counts.
    ("p1-jun-2", "jun", [0, 2, 3, 1], "2026-05-11 23:40:12.375", "2026-05-11 23:40:12.375"),
    ("p1-dana", "dana", [3, 0, 1, 2], "2026-05-03 13:22:40", "2026-05-04 08:00:00"),
    ("p1-eli", "eli", [0, 1, 2, 3], "2026-05-04 19:03:33.001", "2026-05-04 19:03:33.001"),
    ("p1-fatima", "fatima", [1, 3, 0, 2], "2026-05-05 12:30:00", "2026-05-05 12:30:00"),
    # jun's first ballot: superseded by the one above (later modifiedAt).
    ("p1-jun-1", "jun", [2, 1, 0, 3], "2026-05-03 20:15:00", "2026-05-03 20:15:00"),
    ("p1-gus", "gus", [2, 0, 3, 1], "2026-05-06 01:58:47.660", "2026-05-06 01:58:47.660"),
    ("p1-hana", "hana", [0, 3, 1, 2], "2026-05-07 17:45:10", "2026-05-07 17:45:10"),
    # kira's ballot repeats trip 3 and never ranks trip 4: invalid, set aside.
    ("p1-kira", "kira", [2, 2, 0, 1], "2026-05-08 11:11:11", "2026-05-08 11:11:11"),
    ("p1-ivan", "ivan", [1, 0, 3, 2], "2026-05-09 14:20:05.250", "2026-05-09 14:20:05.250"),
]

POLL2_BALLOTS = [
    ("p2-leo", "leo", [0, 2, 1], "2026-05-16 02:00:00", "2026-05-16 02:00:00"),
    ("p2-mona", "mona", [2, 0, 1], "2026-05-16 03:14:15.926", "2026-05-16 03:14:15.926"),
    ("p2-nate", "nate", [1, 0, 2], "2026-05-16 14:08:00", "2026-05-16 14:08:00"),
    ("p2-omar", "omar", [0, 2, 1], "2026-05-17 00:30:45", "2026-05-17 00:30:45"),
    ("p2-priya", "priya", [2, 1, 0], "2026-05-17 15:55:10.500", "2026-05-17 15:55:10.500"),
    ("p2-quinn", "quinn", [2, 0, 1], "2026-05-18 22:01:00", "2026-05-18 22:01:00"),
    ("p2-rosa", "rosa", [1, 0, 2], "2026-05-19 13:13:13", "2026-05-19 13:13:13"),
    ("p2-alex", "alex", [0, 2, 1], "2026-05-20 18:44:29.004", "2026-05-20 18:44:29.004"),
    ("p2-bea", "bea", [2, 1, 0], "2026-05-21 07:06:05", "2026-05-21 07:06:05"),
    ("p2-carlos", "carlos", [1, 0, 2], "2026-05-21 20:20:20", "2026-05-22 09:00:00"),
    ("p2-dana", "dana", [0, 2, 1], "2026-05-23 16:00:00.750", "2026-05-23 16:00:00.750"),
    ("p2-eli", "eli", [2, 0, 1], "2026-05-24 12:34:56", "2026-05-24 12:34:56"),
]

POLL3_BALLOTS = [
    ("p3-fatima", "fatima", [1, 0, 2, 4, 3], "2026-06-20 18:02:11", "2026-06-20 18:02:11"),
    ("p3-gus", "gus", [1, 2, 0, 3, 4], "2026-06-20 19:45:00", "2026-06-20 19:45:00"),
    ("p3-hana", "hana", [0, 1, 3, 2, 4], "2026-06-21 01:15:37", "2026-06-21 01:15:37"),
    ("p3-ivan", "ivan", [1, 0, 4, 2, 3], "2026-06-21 12:00:00", "2026-06-21 12:00:00"),
    ("p3-jun", "jun", [2, 1, 0, 4, 3], "2026-06-21 14:27:53", "2026-06-21 14:27:53"),
    ("p3-kira", "kira", [1, 4, 0, 2, 3], "2026-06-22 03:33:03", "2026-06-22 03:33:03"),
    ("p3-leo", "leo", [0, 1, 2, 3, 4], "2026-06-22 16:48:20", "2026-06-22 16:48:20"),
    ("p3-mona", "mona", [1, 2, 3, 0, 4], "2026-06-23 10:10:10", "2026-06-23 10:10:10"),
    ("p3-nate", "nate", [4, 1, 0, 2, 3], "2026-06-23 23:59:59", "2026-06-23 23:59:59"),
    ("p3-omar", "omar", [1, 0, 2, 3, 4], "2026-06-24 17:21:42", "2026-06-24 17:21:42"),
    ("p3-priya", "priya", [3, 1, 0, 2, 4], "2026-06-25 08:08:08", "2026-06-25 08:08:08"),
    ("p3-quinn", "quinn", [1, 3, 0, 4, 2], "2026-06-26 19:30:00", "2026-06-26 19:30:00"),
]
POLL3_LATE_BALLOT = ("p3-rosa", "rosa", [2, 0, 1, 4, 3], "2026-07-01 04:12:09.333",
                     "2026-07-02 15:45:00.100")

ORPHAN_BALLOT = ("orphan-sam", "sam", [1, 0, 2], "2026-04-28 20:00:00", "2026-04-28 20:00:00")


def votes_poll1():
    out = []
    for i, (key, voter, ranks, voted, modified) in enumerate(POLL1_BALLOTS):
        voted_style = "ms" if "." in voted else "z"
        # Every third ballot came through the exporter that writes numbers.
        modified_style = "ref" if i % 3 == 0 else voted_style
        if key == "p1-jun-1":
            modified_style = "off"
        out.append({
            "id": uid("vote:" + key),
            "pollId": POLL1_ID,
            "odg": VOTER[voter],
            "rankings": ranks,
            "votedAt": enc(utc(voted), voted_style),
            "modifiedAt": enc(utc(modified), modified_style),
        })
    return out


def votes_poll2():
    """Lower-case UUIDs throughout (pollId too); some records use the
    voteId / voterId aliases."""
    out = []
    for i, (key, voter, ranks, voted, modified) in enumerate(POLL2_BALLOTS):
        alias = i % 2 == 1
        vote = {
            ("voteId" if alias else "id"): uid("vote:" + key).lower(),
            "pollId": POLL2_ID.lower(),
            ("voterId" if alias else "odg"): VOTER[voter],
            "rankings": ranks,
            "votedAt": enc(utc(voted), "ref" if i % 4 == 2 else "off"),
            "modifiedAt": enc(utc(modified), "off"),
        }
        out.append(vote)
    return out


def b64_json(value):
    return base64.b64encode(json.dumps(value, separators=(",", ":")).encode()).decode("ascii")


def votes_poll3():
    """Rankings as base64 strings of their JSON (CloudKit Data fields)."""
    return [{
        "id": uid("vote:" + key),
        "pollId": POLL3_ID,
        "odg": VOTER[voter],
        "rankings": b64_json(ranks),
        "votedAt": enc(utc(voted), "z"),
        "modifiedAt": enc(utc(modified), "z"),
    } for key, voter, ranks, voted, modified in POLL3_BALLOTS]


# The names each record type's id has in plain exports; a dump holds it as recordName.
CLOUDKIT_ID_KEYS = {"TripPoll": ("id", "pollId"), "PollVote": ("id", "voteId"), "CustomItineraryItem": ("id", "itemId")}


def cloudkit_dump(records, record_type, dates=(), data=(), references=()):
    """Records as CloudKit Web Services' records/query returns them (docs/exports.md): each field
    as {value, type}; dates as TIMESTAMP milliseconds; Data fields as BYTES (base64);
    references as REFERENCE; the id only as recordName (sitegen reads it as the id)."""
    id_keys = CLOUDKIT_ID_KEYS[record_type]
    out = []
    for record in records:
        record_id = next(record[k] for k in id_keys if k in record)
        fields = {}
        for key, value in record.items():
            if key in id_keys:
                continue
            if key in dates:
                millis = round(parse_date(value).timestamp() * 1000)
                fields[key] = {"value": millis, "type": "TIMESTAMP"}
            elif key in data:
                fields[key] = {"value": value if isinstance(value, str) else b64_json(value), "type": "BYTES"}
            elif key in references:
                fields[key] = {"value": {"recordName": value, "action": "DELETE_SELF"}, "type": "REFERENCE"}
            elif isinstance(value, list):
                fields[key] = {"value": value, "type": "STRING_LIST"}
            else:
                fields[key] = {"value": value, "type": "INT64" if isinstance(value, int) else "STRING"}
        created = round(parse_date(record.get("createdAt", record.get("votedAt"))).timestamp() * 1000)
        modified = round(parse_date(record["modifiedAt"]).timestamp() * 1000)
        out.append({
            "recordName": record_id,
            "recordType": record_type,
            "fields": fields,
            "recordChangeTag": sha(record_id)[:8],
            "created": {"timestamp": created, "userRecordName": "_defaultOwner", "deviceID": "2"},
            "modified": {"timestamp": modified, "userRecordName": "_defaultOwner", "deviceID": "2"},
            "zoneID": {"zoneName": "_defaultZone", "ownerRecordName": "_defaultOwner", "zoneType": "DEFAULT_ZONE"},
        })
    return {"records": out}


def from_cloudkit(doc):
    """A records dump read back as the plain records it holds (the checker's view)."""
    if not (isinstance(doc, dict) and isinstance(doc.get("records"), list)):
        return doc
    plain = []
    for record in doc["records"]:
        values = {}
        for key, field in record["fields"].items():
            value = field["value"]
            if field["type"] == "TIMESTAMP":
                value = (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=value)).isoformat()
            elif field["type"] == "REFERENCE":
                value = value["recordName"]
            values[key] = value
        values.setdefault(CLOUDKIT_ID_KEYS[record["recordType"]][0], record["recordName"])
        plain.append(values)
    return plain


def single_vote(ballot, poll_id):
    key, voter, ranks, voted, modified = ballot
    return {
        "id": uid("vote:" + key),
        "pollId": poll_id,
        "odg": VOTER[voter],
        "rankings": ranks,
        "votedAt": enc(utc(voted), "ref"),
        "modifiedAt": enc(utc(modified), "ref"),
    }


# --------------------------------------------------------------------------
# Custom itinerary items
# --------------------------------------------------------------------------

def seg_id(trip, from_city, to_city):
    for s in trip["travelSegments"]:
        if s["fromCity"] == from_city and s["toCity"] == to_city:
            return s["id"]
    raise KeyError((from_city, to_city))


def item(key, trip, category, title, anchor_type, anchor_id, day, created, modified,
         created_style, modified_style, notes=None, lower=False):
    obj = {
        "id": uid("item:" + key).lower() if lower else uid("item:" + key),
        "tripId": trip["id"].lower() if lower else trip["id"],
        "category": category,
        "title": title,
        "anchorType": anchor_type,
    }
    if anchor_id is not None:
        obj["anchorId"] = anchor_id
    obj["anchorDay"] = day
    obj["createdAt"] = enc(utc(created), created_style)
    obj["modifiedAt"] = enc(utc(modified), modified_style)
    if notes:
        obj["notes"] = notes
    return obj


A = ITIN_A
ITEMS_A = [
    item("a-lou-mitchells", A, "restaurant", "Breakfast at Lou Mitchell's", "startOfDay", None, 1,
         "2026-05-20 13:00:00", "2026-05-20 13:00:00", "z", "z",
         notes="565 W Jackson Blvd. Free **Milk Duds** at the door; cash is faster."),
    item("a-pfister", A, "hotel", "Check in: The Pfister Hotel", "afterTravel",
         seg_id(A, "Chicago", "Milwaukee"), 2,
         "2026-05-21 02:14:09.512", "2026-05-28 17:00:00", "ms", "ref"),
    # Same afterGame anchor, listed newest first: the page must show the older
    # one (Uecker statue, created May 18) before the custard (created June 2).
    item("a-kopps", A, "restaurant", "Frozen custard at Kopp's", "afterGame",
         game_id("MIL", "06-20"), 2,
         "2026-06-02 22:31:00", "2026-06-02 22:31:00", "ref", "ref",
         notes="Flavor of the day is posted at *kopps.com*."),
    item("a-uecker", A, "activity", "Group photo at the Bob Uecker statue", "afterGame",
         game_id("MIL", "06-20"), 2,
         "2026-05-18 15:45:30.250", "2026-05-18 15:45:30.250", "ms", "ms"),
    item("a-matts-bar", A, "restaurant", "Jucy Lucy at Matt's Bar", "afterTravel",
         seg_id(A, "Milwaukee", "Minneapolis"), 3,
         "2026-05-22 19:05:00", "2026-05-22 19:05:00", "z", "ref",
         notes="Let it cool. **Really.**"),
    item("a-negro-leagues-museum", A, "activity", "Negro Leagues Baseball Museum", "startOfDay",
         None, 6, "2026-05-19 10:00:00", "2026-06-01 12:00:00", "z", "z",
         notes="18th & Vine. Opens at 10 AM; allow two hours.\n\n"
               "- Field of Legends\n- Buck O'Neil Education Center next door"),
    # Anchored to the Royals' June 24 game, which was dropped from the trip:
    # the anchor has vanished, so it falls back to the start of day 6.
    item("a-arthur-bryants", A, "restaurant", "Arthur Bryant's after the day game", "afterGame",
         DROPPED_GAME_A, 6, "2026-05-23 18:00:00", "2026-05-23 18:00:00", "ref", "ref"),
    item("a-maven", A, "hotel", "Check in: The Maven at Dairy Block", "afterTravel",
         seg_id(A, "Kansas City", "Denver"), 7,
         "2026-05-24 09:30:00", "2026-05-24 09:30:00", "z", "z"),
    # Day 10 of an 8-day trip: goes to "Unscheduled".
    item("a-rental-return", A, "note", "Return the rental car at DEN", "startOfDay", None, 10,
         "2026-05-25 11:00:00.001", "2026-05-25 11:00:00.001", "ms", "ms",
         notes="Drop-off is at the *rental car center*, not the terminal."),
]

B = ITIN_B
ITEMS_B = [  # lower-case UUIDs, tripId included
    item("b-cask-n-flagon", B, "restaurant", "Cask 'n Flagon", "afterGame",
         game_id("BOS", "08-06"), 1,
         "2026-07-10 20:00:00", "2026-07-10 20:00:00", "ref", "ref", lower=True,
         notes="Across Lansdowne Street from the Green Monster."),
    item("b-hall-of-fame", B, "activity", "National Baseball Hall of Fame and Museum", "startOfDay",
         None, 2, "2026-07-10 20:05:00", "2026-07-12 09:00:00", "z", "z", lower=True,
         notes="25 Main Street, Cooperstown. Doors at **9 AM**; the *Plaque Gallery* last."),
    item("b-doubleday-field", B, "activity", "Walk to Doubleday Field", "afterTravel",
         seg_id(B, "Boston", "Cooperstown").lower(), 2,
         "2026-07-11 15:20:00.640", "2026-07-11 15:20:00.640", "ms", "ms", lower=True),
    item("b-hotel-edison", B, "hotel", "Check in: Hotel Edison", "afterTravel",
         seg_id(B, "Cooperstown", "New York"), 3,
         "2026-07-11 16:00:00", "2026-07-11 16:00:00", "off", "off", lower=True),
    item("b-tony-lukes", B, "restaurant", "Cheesesteaks at Tony Luke's", "afterGame",
         game_id("PHI", "08-09"), 4,
         "2026-07-12 18:30:00", "2026-07-12 18:30:00", "z", "ref", lower=True),
    item("b-drive-home", B, "note", "Drive home", "startOfDay", None, 5,
         "2026-07-12 18:35:00", "2026-07-12 18:35:00", "z", "z", lower=True,
         notes="Leave by **10 AM** to beat the Turnpike traffic."),
]


# --------------------------------------------------------------------------
# Convoys
# --------------------------------------------------------------------------

def place(name, address, lat, lon):
    return {"name": name, "address": address, "latitude": lat, "longitude": lon}


def participant(key, display, role, status):
    return {"id": private("p", key, f"convoy participant id ({display})"),
            "displayName": display, "role": role, "status": status}


P = {  # Cubs at Brewers convoy
    "maya": participant("maya", "Maya R.", "owner", "joined"),
    "dev": participant("dev", "Dev P.", "driver", "joined"),
    "sam": participant("sam", "Sam O.", "driver", "joined"),
    "alex": participant("alex", "Alex K.", "passenger", "joined"),
    "bea": participant("bea", "Bea L.", "passenger", "joined"),
    "carlos": participant("carlos", "Carlos M.", "passenger", "joined"),
    "dana": participant("dana", "Dana W.", "passenger", "joined"),
    "eli": participant("eli", "Eli S.", "passenger", "invited"),
    "fatima": participant("fatima", "Fatima H.", "passenger", "joined"),
    "gus": participant("gus", "Gus T.", "passenger", "joined"),
    "hana": participant("hana", "Hana Y.", "passenger", "joined"),
    "ivan": participant("ivan", "Ivan D.", "passenger", "invited"),
    "riley": participant("riley", "Riley B.", "passenger", "joined"),  # in no vehicle
    "joe": participant("joe", "Grandpa Joe", "viewer", "joined"),
    "chris": participant("chris", "Chris N.", "passenger", "declined"),
}

ORIGIN = place("Chicago Union Station", "225 S Canal St, Chicago, IL 60606", 41.8787, -87.6403)
CHECKPOINTS = [  # (order, place) — written out of order below
    (1, place("Wrigley Field (pick-up)", "1060 W Addison St, Chicago, IL 60613", 41.9484, -87.6553)),
    (2, place("Mars Cheese Castle", "2800 W Frontage Rd, Kenosha, WI 53144", 42.6147, -87.9543)),
    (3, place("Milwaukee Public Market", "400 N Water St, Milwaukee, WI 53202", 43.0346, -87.9090)),
]
DESTINATION = place("American Family Field", "1 Brewers Way, Milwaukee, WI 53214", 43.0280, -87.9712)


def route_over(points):
    meters = seconds = 0
    for a, b in zip(points, points[1:]):
        m, s = drive((a["latitude"], a["longitude"]), (b["latitude"], b["longitude"]))
        meters, seconds = meters + m, seconds + s
    return {"distanceMeters": meters, "durationSeconds": seconds}


def email(name):
    value = f"{name}@example.com"
    PRIVATE[value] = f"convoy invitee email ({name})"
    return value


V_MINIVAN, V_CIVIC, V_OUTBACK = (uid("vehicle:" + k) for k in ("minivan", "civic", "outback"))

CONVOY_ACTIVE = {
    "id": uid("convoy:cubs-at-brewers"),
    "title": "Cubs at Brewers — I-94 Convoy",
    "notes": ("Game is **6:40 PM** on Monday, July 20. Wheels up from Union Station at *2:00 PM*.\n\n"
              "- Cheese stop is mandatory\n- Tailgate in the Helfaer lot\n\n"
              "Tickets: [mlb.com/schedule](https://www.mlb.com/schedule)"),
    "status": "active",
    "origin": ORIGIN,
    "destination": DESTINATION,
    "checkpoints": [
        {"id": uid("checkpoint:cheese"), "place": CHECKPOINTS[1][1], "order": 2,
         "notes": "Twenty minutes, *tops*."},
        {"id": uid("checkpoint:market"), "place": CHECKPOINTS[2][1], "order": 3,
         "notes": "Sandwiches for the tailgate."},
        {"id": uid("checkpoint:wrigley"), "place": CHECKPOINTS[0][1], "order": 1,
         "notes": "Pick up Dev's car by the marquee."},
    ],
    "route": route_over([ORIGIN] + [p for _, p in CHECKPOINTS] + [DESTINATION]),
    "vehicles": [
        {"id": V_MINIVAN, "label": "Maya's Odyssey", "driverId": P["maya"]["id"], "capacity": 4,
         "passengerIds": [P[k]["id"] for k in ("alex", "bea", "carlos")],
         "notes": "Exactly full. **No** coolers inside; roof box only."},
        {"id": V_CIVIC, "label": "Dev's Civic", "driverId": P["dev"]["id"], "capacity": 5,
         "passengerIds": [P[k]["id"] for k in ("dana", "eli", "fatima", "gus", "hana")],
         "notes": "One passenger too many: someone moves to *Sam's Outback*."},
        {"id": V_OUTBACK, "label": "Sam's Outback", "driverId": P["sam"]["id"], "capacity": 5,
         "passengerIds": [P["ivan"]["id"]],
         "notes": "Room for three more. Has the bike rack."},
    ],
    "leaderVehicleId": V_MINIVAN,
    "participants": list(P.values()),
    "invitations": [
        {"id": uid("invitation:eli"), "code": invite_code("eli"), "email": email("eli.s"),
         "participantId": P["eli"]["id"], "sentAt": enc(utc("2026-07-01 15:00:00"), "z")},
        {"id": uid("invitation:ivan"), "code": invite_code("ivan"), "email": email("ivan.d"),
         "participantId": P["ivan"]["id"], "sentAt": enc(utc("2026-07-01 15:00:05"), "z")},
        {"id": uid("invitation:chris"), "code": invite_code("chris"), "email": email("chris.n"),
         "participantId": P["chris"]["id"], "sentAt": enc(utc("2026-07-02 09:30:00"), "z")},
    ],
    "createdAt": enc(utc("2026-07-01 14:55:12.034"), "ms"),
    "modifiedAt": enc(utc("2026-07-20 19:05:40"), "ref"),
}

Q = {  # draft convoy
    "theo": participant("theo", "Theo A.", "owner", "joined"),
    "priya": participant("priya", "Priya V.", "passenger", "invited"),
    "quinn": participant("quinn", "Quinn F.", "passenger", "invited"),
}
V_DRAFT = uid("vehicle:draft-van").lower()

CONVOY_DRAFT = {  # lower-case UUIDs
    "id": uid("convoy:august-draft").lower(),
    "title": "August Cubs Caravan (planning)",
    "notes": "Still deciding between **St. Louis** and *Cincinnati*. No route yet.",
    "status": "draft",
    "origin": place("Millennium Park", "201 E Randolph St, Chicago, IL 60602", 41.8826, -87.6226),
    "destination": None,
    "checkpoints": [],
    "route": None,
    "vehicles": [
        {"id": V_DRAFT, "label": "Rental van (15 seats)", "driverId": None, "capacity": 15,
         "passengerIds": [Q["priya"]["id"], Q["quinn"]["id"]],
         "notes": "Needs a driver over 25."},
    ],
    "leaderVehicleId": None,
    "participants": list(Q.values()),
    "invitations": [
        {"id": uid("invitation:priya").lower(), "code": invite_code("priya"),
         "email": email("priya.v"), "participantId": Q["priya"]["id"],
         "sentAt": enc(utc("2026-07-05 18:00:00"), "off")},
        {"id": uid("invitation:quinn").lower(), "code": invite_code("quinn"),
         "email": email("quinn.f"), "participantId": Q["quinn"]["id"],
         "sentAt": enc(utc("2026-07-05 18:00:30"), "off")},
    ],
    "createdAt": enc(utc("2026-07-05 17:48:00"), "off"),
    "modifiedAt": enc(utc("2026-07-05 18:02:13"), "off"),
}


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------

def games_for(trip):
    return [GAMES[g] for s in trip["stops"] for g in s["games"] if g in GAMES]


def write_all():
    DATA.mkdir(exist_ok=True)
    for folder in FOLDERS:
        shutil.rmtree(DATA / folder, ignore_errors=True)
    files = {}

    def put(rel, value):
        files[rel] = value

    # Games: June in UTC `Z`, July/August with the venue's local offset.
    ordered = sorted(GAMES.values(), key=lambda g: (g.start, g.id))
    put("games/mlb-2026-june.json", [g.json("z") for g in ordered if g.day.month == 6])
    put("games/mlb-2026-july-august.json", [g.json("off") for g in ordered if g.day.month != 6])

    # One poll and its ballots as a CloudKit records dump, the way a CI job fetches them.
    put("polls/midwest-ballpark-swing.json",
        cloudkit_dump([poll1], "TripPoll", dates=("createdAt", "modifiedAt"), data=("tripSnapshots",)))
    put("polls/summer-2026-polls.json", [poll2, poll3])

    put("votes/midwest-ballpark-swing-votes.json",
        cloudkit_dump(votes_poll1(), "PollVote", dates=("votedAt", "modifiedAt"), data=("rankings",), references=("pollId",)))
    put("votes/texas-southwest.json", votes_poll2())
    put("votes/northeast-rivalries.json", votes_poll3())
    put("votes/northeast-late-ballot.json", single_vote(POLL3_LATE_BALLOT, POLL3_ID))
    put("votes/stale/orphan-ballot.json", single_vote(ORPHAN_BALLOT, DELETED_POLL_ID))

    put("trips/great-plains-rockies-run.json", {
        "trip": ITIN_A,
        "games": [g.json("ms") for g in games_for(ITIN_A)],
        "customItems": ITEMS_A,
    })
    put("trips/fenway-cooperstown-bronx.json", ITIN_B)
    put("items/fenway-cooperstown-bronx-items.json", ITEMS_B)

    put("options/july-2026-from-chicago.json", {
        "id": "july-2026-from-chicago",
        "title": "July 2026 from Chicago",
        "generatedAt": enc(utc("2026-07-01 12:00:03.517"), "ms"),
        "options": OPTION_TRIPS,
    })

    put("convoys/cubs-at-brewers.json", CONVOY_ACTIVE)
    put("convoys/drafts.json", [CONVOY_DRAFT])

    for rel, value in sorted(files.items()):
        path = DATA / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return sorted(files)


# --------------------------------------------------------------------------
# Checking: read everything back from disk, independently of the generator
# --------------------------------------------------------------------------

class Check:
    def __init__(self):
        self.failures = []

    def __call__(self, ok, message):
        if not ok:
            self.failures.append(message)


def parse_date(value, tz=SITE_TIME_ZONE):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return REFERENCE_EPOCH + timedelta(seconds=value)
    if isinstance(value, str):
        if len(value) == 10:
            return local(date.fromisoformat(value), "00:00", tz)
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        assert parsed.tzinfo is not None, value
        return parsed.astimezone(UTC)
    raise ValueError(f"not a date: {value!r}")


def decode_data(value):
    return json.loads(base64.b64decode(value)) if isinstance(value, str) else value


def as_list(value):
    return value if isinstance(value, list) else [value]


def borda(n, ballots):
    """docs/rules.md, "Ballots". ballots: [{id, voter, rankings, votedAt, modifiedAt}]."""
    latest = {}
    for b in ballots:
        key = (b["modifiedAt"], b["votedAt"], b["id"].upper())
        if b["voter"] not in latest or key > latest[b["voter"]][0]:
            latest[b["voter"]] = (key, b)
    chosen = [b for _, b in latest.values()]
    superseded = len(ballots) - len(chosen)
    counted = [b for b in chosen if sorted(b["rankings"]) == list(range(n))]
    invalid = len(chosen) - len(counted)
    points = [0] * n
    for b in counted:
        for p, t in enumerate(b["rankings"]):
            points[t] += n - p
    return points, len(counted), invalid, superseded


def check_trip(check, where, trip, catalog, allow_unknown=()):
    for field in ("id", "name", "preferences", "stops", "travelSegments", "totalGames",
                  "totalDistanceMeters", "totalDrivingSeconds"):
        check(field in trip, f"{where}: missing {field}")
    uuid.UUID(trip["id"])
    stops, segs = trip["stops"], trip["travelSegments"]
    check(trip["totalGames"] == sum(len(s["games"]) for s in stops), f"{where}: totalGames")
    check(trip["totalDistanceMeters"] == sum(s["distanceMeters"] for s in segs),
          f"{where}: totalDistanceMeters")
    check(trip["totalDrivingSeconds"] == sum(s["durationSeconds"] for s in segs),
          f"{where}: totalDrivingSeconds")
    check(len(segs) == max(0, len(stops) - 1), f"{where}: one segment between stops")
    start = date.fromisoformat(trip["preferences"]["startDate"])
    end = date.fromisoformat(trip["preferences"]["endDate"])
    check(start <= end, f"{where}: preferences dates")
    check(set(trip["preferences"]["sports"]) <= {"mlb", "nba", "nhl", "nfl", "mls"},
          f"{where}: sports")
    for i, s in enumerate(stops):
        for f in ("city", "state", "latitude", "longitude", "arrivalDate", "departureDate", "games"):
            check(f in s, f"{where}: stop {i} missing {f}")
        a, b = date.fromisoformat(s["arrivalDate"]), date.fromisoformat(s["departureDate"])
        check(start <= a <= b <= end, f"{where}: stop {i} dates outside the trip")
        if i:
            check(a == date.fromisoformat(stops[i - 1]["departureDate"]),
                  f"{where}: stop {i} arrives the day the previous stop is left")
        for g in s["games"]:
            if g in allow_unknown:
                continue
            check(g in catalog, f"{where}: game {g} not in the catalog")
            if g in catalog:
                game = catalog[g]
                check(game["city"] == s["city"], f"{where}: game {g} is not in {s['city']}")
                tz = game["timeZone"]
                local_day = (parse_date(game["startTime"]) +
                             timedelta(hours=SUMMER_UTC_OFFSET_HOURS[tz])).date()
                check(a <= local_day <= b, f"{where}: game {g} outside the stop's dates")
                check(g.startswith(f"mlb-{local_day.isoformat()}-"),
                      f"{where}: game id date {g} vs local date {local_day}")
    for i, seg in enumerate(segs):
        uuid.UUID(seg["id"])
        check(seg["fromCity"] == stops[i]["city"] and seg["toCity"] == stops[i + 1]["city"],
              f"{where}: segment {i} cities")
        gc = haversine_km((stops[i]["latitude"], stops[i]["longitude"]),
                          (stops[i + 1]["latitude"], stops[i + 1]["longitude"])) * 1000
        ratio = seg["distanceMeters"] / gc
        check(1.15 <= ratio <= 1.27, f"{where}: segment {i} distance ratio {ratio:.3f}")
        kmh = seg["distanceMeters"] / seg["durationSeconds"] * 3.6
        check(90 <= kmh <= 105, f"{where}: segment {i} speed {kmh:.1f}")
        if "departureDate" in seg:
            dep = parse_date(seg["departureDate"])
            check(dep >= parse_date(stops[i]["departureDate"]) - timedelta(hours=6),
                  f"{where}: segment {i} departs before its stop's departure day")


def check_all(written):
    check = Check()
    docs = {}
    for rel in written:
        text = (DATA / rel).read_text(encoding="utf-8")
        docs[rel] = from_cloudkit(json.loads(text))
    check(sorted(str(p.relative_to(DATA)) for f in FOLDERS for p in (DATA / f).rglob("*.json"))
          == sorted(written), "unexpected files under Data/")

    # Zone offsets agree with the tz database when it is available.
    try:
        from zoneinfo import ZoneInfo
        for tz, hours in SUMMER_UTC_OFFSET_HOURS.items():
            for month in (5, 6, 7, 8):
                off = datetime(YEAR, month, 15, 12, tzinfo=ZoneInfo(tz)).utcoffset()
                check(off == timedelta(hours=hours), f"offset {tz} {month}")
    except ImportError:
        pass

    # Game catalog.
    catalog = {}
    for rel, doc in docs.items():
        if rel.startswith("games/"):
            for g in as_list(doc):
                check(g["id"] not in catalog, f"duplicate game {g['id']}")
                catalog[g["id"]] = g
    team_days = set()
    for g in catalog.values():
        start = parse_date(g["startTime"])
        tz = g["timeZone"]
        wall = start + timedelta(hours=SUMMER_UTC_OFFSET_HOURS[tz])
        check(date(YEAR, 5, 31) < wall.date() < date(YEAR, 9, 1), f"{g['id']}: summer")
        check(not (date(YEAR, 7, 13) <= wall.date() <= date(YEAR, 7, 16)), f"{g['id']}: ASB")
        check(11 <= wall.hour <= 19, f"{g['id']}: local start {wall:%H:%M}")
        for team in (g["homeTeam"], g["awayTeam"]):
            check((team, wall.date()) not in team_days, f"{team} plays twice on {wall.date()}")
            team_days.add((team, wall.date()))
    check(UNKNOWN_GAME_ID not in catalog, "the unknown game id must stay unknown")

    # Polls.
    polls, codes = {}, set()
    for rel, doc in docs.items():
        if not rel.startswith("polls/"):
            continue
        for p in as_list(doc):
            pid = (p.get("id") or p.get("pollId")).upper()
            code = p["shareCode"].upper()
            check(len(code) == 6 and all(c in SHARE_ALPHABET for c in code), f"share code {code}")
            check(code not in codes and pid not in polls, f"duplicate poll {pid} / {code}")
            codes.add(code)
            trips = decode_data(p["tripSnapshots"])
            check(2 <= len(trips) <= 10, f"poll {code}: trip count")
            check(len(p.get("tripVersions", trips)) == len(trips), f"poll {code}: tripVersions")
            check(p["ownerId"].startswith("_priv_"), f"poll {code}: ownerId")
            for f in ("title", "createdAt", "modifiedAt"):
                check(f in p, f"poll {code}: {f}")
            check("https://www.mlb.com/schedule" in p.get("description", ""), f"poll {code}: link")
            for i, t in enumerate(trips):
                check_trip(check, f"poll {code} trip {i + 1}", t, catalog)
            polls[pid] = {"code": code, "title": p["title"], "trips": trips, "ballots": []}

    # Votes.
    orphans = 0
    for rel, doc in docs.items():
        if not rel.startswith("votes/"):
            continue
        for v in as_list(doc):
            vid = v.get("id") or v.get("voteId")
            voter = v.get("odg") or v.get("voterId")
            uuid.UUID(vid)
            check(voter.startswith("_priv_"), f"{rel}: voter id")
            ranks = decode_data(v["rankings"])
            check(all(isinstance(r, int) for r in ranks), f"{rel}: rankings")
            poll = polls.get(v["pollId"].upper())
            if poll is None:
                orphans += 1
                continue
            poll["ballots"].append({"id": vid, "voter": voter, "rankings": ranks,
                                    "votedAt": parse_date(v["votedAt"]),
                                    "modifiedAt": parse_date(v["modifiedAt"])})
    check(orphans == 1, f"exactly one orphan vote, found {orphans}")

    results = {}
    for pid, poll in polls.items():
        n = len(poll["trips"])
        check(10 <= len(poll["ballots"]) <= 14, f"poll {poll['code']}: ballot count")
        results[poll["code"]] = (poll, borda(n, poll["ballots"]))
        check(sum(results[poll["code"]][1][0]) == results[poll["code"]][1][1] * n * (n + 1) // 2,
              f"poll {poll['code']}: points total")
    expected = {
        "MW6BPS": ([34, 26, 19, 21], 10, 1, 1),
        "TX4SWK": ([26, 20, 26], 12, 0, 0),
        "NE8RVZ": ([46, 58, 38, 27, 26], 13, 0, 0),
    }
    for code, want in expected.items():
        got = results[code][1]
        check(tuple(got) == want, f"poll {code}: Borda {got} != expected {want}")
    p2 = results["TX4SWK"]
    firsts = [sum(1 for b in p2[0]["ballots"] if b["rankings"][0] == t) for t in range(3)]
    check(firsts == [4, 3, 5], f"poll TX4SWK first places {firsts}")

    # Itineraries and custom items.
    itineraries, items = [], []
    for rel, doc in docs.items():
        if rel.startswith("trips/"):
            for entry in as_list(doc):
                if "trip" in entry:
                    embedded = {g["id"]: g for g in entry.get("games", [])}
                    for gid, g in embedded.items():
                        check(gid in catalog and parse_date(g["startTime"]) ==
                              parse_date(catalog[gid]["startTime"]), f"embedded game {gid}")
                    itineraries.append(entry["trip"])
                    items.extend(entry.get("customItems", []))
                else:
                    itineraries.append(entry)
        if rel.startswith("items/"):
            items.extend(as_list(doc))
    check(len(itineraries) == 2, "two itineraries")
    by_trip = {t["id"].upper(): t for t in itineraries}
    for t in itineraries:
        check_trip(check, f"itinerary {t['name']}", t, catalog, allow_unknown=(UNKNOWN_GAME_ID,))
    unknown_refs = sum(g == UNKNOWN_GAME_ID for t in itineraries for s in t["stops"] for g in s["games"])
    check(unknown_refs == 1, "one reference to the unknown game")
    vanished = outside = 0
    for it in items:
        trip = by_trip.get(it["tripId"].upper())
        check(trip is not None, f"item {it['id']}: trip")
        check(it["category"] in ("restaurant", "hotel", "activity", "note"), "item category")
        check(it["anchorType"] in ("startOfDay", "afterGame", "afterTravel"), "item anchorType")
        check((it["anchorType"] == "startOfDay") == ("anchorId" not in it), "item anchorId")
        start = date.fromisoformat(trip["preferences"]["startDate"])
        days = (date.fromisoformat(trip["preferences"]["endDate"]) - start).days + 1
        if not 1 <= it["anchorDay"] <= days:
            outside += 1
            continue
        day = start + timedelta(days=it["anchorDay"] - 1)
        if it["anchorType"] == "afterGame":
            gid = it["anchorId"]
            on_trip = any(gid in s["games"] for s in trip["stops"])
            if not on_trip:
                vanished += 1
            else:
                g = catalog[gid]
                wall = parse_date(g["startTime"]) + timedelta(hours=SUMMER_UTC_OFFSET_HOURS[g["timeZone"]])
                check(wall.date() == day, f"item {it['title']}: anchor day")
        elif it["anchorType"] == "afterTravel":
            seg = [s for s in trip["travelSegments"] if s["id"].upper() == it["anchorId"].upper()]
            if not seg:
                vanished += 1
            else:
                i = trip["travelSegments"].index(seg[0])
                check(date.fromisoformat(trip["stops"][i]["departureDate"]) == day,
                      f"item {it['title']}: segment day")
    check(vanished == 1 and outside == 1, f"vanished {vanished}, outside {outside}")
    shared = {}
    for it in items:
        if it.get("anchorType") == "afterGame":
            shared.setdefault(it["anchorId"], []).append(parse_date(it["createdAt"]))
    check(any(len(v) == 2 and v != sorted(v) for v in shared.values()),
          "two items share an anchor, listed out of createdAt order")

    # Option set.
    opt = docs["options/july-2026-from-chicago.json"]
    trips = opt["options"]
    check(len(trips) >= 22, "option count")
    cities, games, buckets = set(), set(), set()
    for i, t in enumerate(trips):
        check_trip(check, f"option {i + 1} {t['name']}", t, catalog)
        cities.add(len({(s["city"], s["state"]) for s in t["stops"]}))
        games.add(t["totalGames"])
        miles = t["totalDistanceMeters"] / 1609.344
        buckets.add(next(label for lo, label in ((2000, "2000+"), (1500, "1500-2000"),
                                                (1000, "1000-1500"), (500, "500-1000"),
                                                (0, "0-500")) if miles >= lo))
    check(cities == set(range(1, 11)), f"option city counts {sorted(cities)}")
    check(games == set(range(0, 9)), f"option game counts {sorted(games)}")
    check(len(buckets) == 5, f"option mile buckets {sorted(buckets)}")
    check(any(len(t["stops"]) > len({(s["city"], s["state"]) for s in t["stops"]}) for t in trips),
          "an option visits a city twice")

    # Convoys.
    convoys = [c for rel, doc in docs.items() if rel.startswith("convoys/") for c in as_list(doc)]
    statuses = sorted(c["status"] for c in convoys)
    check(statuses == ["active", "draft"], f"convoy statuses {statuses}")
    for c in convoys:
        people = {p["id"]: p for p in c["participants"]}
        seated = set()
        for v in c["vehicles"]:
            for pid in ([v["driverId"]] if v["driverId"] else []) + v["passengerIds"]:
                check(pid in people, f"convoy {c['title']}: unknown person in {v['label']}")
                check(pid not in seated, f"convoy {c['title']}: person in two vehicles")
                seated.add(pid)
        orders = [cp["order"] for cp in c["checkpoints"]]
        check(sorted(orders) == list(range(1, len(orders) + 1)), "checkpoint orders")
        if c["status"] == "active":
            loads = [(1 if v["driverId"] else 0) + len(v["passengerIds"]) - v["capacity"]
                     for v in c["vehicles"]]
            check(sorted(loads) == [-3, 0, 1], f"vehicle loads {loads}")
            check(orders != sorted(orders), "checkpoints written out of order")
            check({p["role"] for p in c["participants"]} == {"owner", "driver", "passenger", "viewer"},
                  "roles")
            check({p["status"] for p in c["participants"]} == {"invited", "joined", "declined"},
                  "statuses")
            unseated = [p for p in c["participants"] if p["id"] not in seated
                        and p["role"] != "viewer" and p["status"] != "declined"]
            check(len(unseated) == 1, "one participant in no vehicle")
            check(c["leaderVehicleId"] in {v["id"] for v in c["vehicles"]}, "leader vehicle")
        else:
            check(c["destination"] is None and c["route"] is None and not c["checkpoints"]
                  and all(v["driverId"] is None for v in c["vehicles"]), "draft readiness")

    # Private strings appear only where the exports keep private values.
    allowed = {"ownerId", "odg", "voterId", "driverId", "passengerIds", "id", "participantId",
               "code", "email"}

    def walk(value, path, rel):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + [k], rel)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + [i], rel)
        elif isinstance(value, str):
            leak = [p for p in PRIVATE if p in value]
            if leak:
                keys = [k for k in path if isinstance(k, str)]
                ok = keys[-1] in allowed and (keys[-1] != "id" or "participants" in keys
                                              or "invitations" in keys)
                if keys[-1] in ("code", "email", "participantId"):
                    ok = "invitations" in keys
                check(ok, f"{rel}: private value at {path}")

    for rel, doc in docs.items():
        walk(doc, [], rel)
    return check.failures, results


def main():
    written = write_all()
    failures, results = check_all(written)

    print("Wrote Data/ :")
    for rel in written:
        print(f"  Data/{rel}")
    print()
    for code, (poll, (points, counted, invalid, superseded)) in results.items():
        print(f"Poll {code}  {poll['title']}  ({len(poll['trips'])} trips)")
        print(f"  ballots received {len(poll['ballots'])}: counted {counted}, "
              f"invalid {invalid}, superseded {superseded}")
        for i, (trip, pts) in enumerate(zip(poll["trips"], points)):
            print(f"  trip {i + 1}  {pts:3d} points  {trip['name']}")
    print("\nPrivate values (must never appear in sitegen's output):")
    for value in sorted(PRIVATE):
        print(f"  {value}  {PRIVATE[value]}")
    if failures:
        print(f"\n{len(failures)} check(s) FAILED:", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print(f"\nAll checks passed ({len(written)} files).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
