#!/usr/bin/env python3
"""Reads every trips/ID/calendar.ics of a built site back with an independent parser
(icalendar, PyPI) and compares the events with the exports themselves: one event per
catalog game of the trip, at the game's instant. Exit 1 on any mismatch.

Usage: check-calendars.py SITE_DIR OUTPUT_DIR
"""
import datetime, glob, json, os, sys
from icalendar import Calendar

def parse_date(value):
    if isinstance(value, (int, float)):   # seconds since 2001-01-01 (the sample uses the default)
        return datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=value)
    return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))

def records(folder):
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.json"), recursive=True)):
        data = json.load(open(path, encoding="utf-8"))
        yield from (data if isinstance(data, list) else [data])

def main(site, output):
    catalog, trips = {}, []
    for game in records(os.path.join(site, "Data", "games")):
        catalog.setdefault(game["id"], game)
    for record in records(os.path.join(site, "Data", "trips")):
        trip = record.get("trip", record)
        for game in record.get("games", []) if "trip" in record else []:
            catalog.setdefault(game["id"], game)
        trips.append(trip)
    failures, checked = 0, 0
    for trip in trips:
        path = os.path.join(output, "trips", trip["id"].upper(), "calendar.ics")
        raw = open(path, "rb").read()
        if b"\r\n" not in raw or b"\n" in raw.replace(b"\r\n", b""):
            print(f"{path}: lines must end in CRLF"); failures += 1
        if any(len(line) > 75 for line in raw.split(b"\r\n")):
            print(f"{path}: a line is longer than 75 octets"); failures += 1
        events = [c for c in Calendar.from_ical(raw).walk() if c.name == "VEVENT"]
        expected = {}
        for stop in trip["stops"]:
            for game_id in stop.get("games", []):
                if game_id in catalog:
                    expected[game_id] = parse_date(catalog[game_id]["startTime"])
        actual = {str(e["UID"]).split("-" + trip["id"].lower())[0]: e.decoded("DTSTART") for e in events}
        if len(events) != len(expected) or actual != expected:
            print(f"{path}: expected {len(expected)} events {sorted(expected)}, found {len(events)}")
            for key in sorted(set(expected) | set(actual)):
                if expected.get(key) != actual.get(key):
                    print(f"  {key}: expected {expected.get(key)}, found {actual.get(key)}")
            failures += 1
        else:
            print(f"{path}: {len(events)} events, instants match the exports")
        checked += 1
    if checked == 0:
        print("no itinerary calendars found"); return 1
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
