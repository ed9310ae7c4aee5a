#!/usr/bin/env python3
"""Summaries, the table and comparisons for Benchmarks/run.sh (python3 stdlib only).

    report.py summarize --n N --raw DIR ...   one size's numbers as JSON (run.sh calls it)
    report.py table RESULTS_DIR               the Markdown table of one run
    report.py compare OLD_DIR NEW_DIR         two runs side by side, per N
"""

import argparse
import json
import re
import sys
from pathlib import Path

# Issue #8's targets.
TARGET_RATIO = 2.0          # Hugo time ÷ sitegen time, i.e. sitegen pages/s ≥ 2× Hugo's
TARGET_PEAK_MB = 200        # at 10,000 polls
TARGET_REBUILD_SHARE = 0.10  # no-change rebuild ÷ full build
TARGET_FLOOR_FACTOR = 2.0   # full build ÷ cp -r of its output
# Issue #17's budget for link preview images, at 10,000 polls.
TARGET_PREVIEWS_ADDED = 0.30  # cold build with previews ÷ without, minus one
TARGET_PREVIEWS_PEAK_MB = 200


def hyperfine(path: Path):
    """{command name: result} from a hyperfine --export-json file, or {} when absent."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    return {result["command"]: result for result in data["results"]}


def time_v(path: Path):
    """Peak RSS (MiB) and wall seconds from a /usr/bin/time -v report."""
    if not path.exists():
        return None
    text = path.read_text()
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text)
    seconds = None
    if wall:
        seconds = 0.0
        for part in wall.group(1).split(":"):
            seconds = seconds * 60 + float(part)
    return {"peakMB": int(rss.group(1)) / 1024 if rss else None, "wallSeconds": seconds}


def read_snapshot(prefix: Path):
    stats, hashes = {}, {}
    for line in Path(f"{prefix}.stat").read_text().splitlines():
        path, size, mtime = line.split("\t")
        stats[path] = (size, mtime)
    for line in Path(f"{prefix}.sha256").read_text().splitlines():
        digest, path = line.split("  ", 1)
        hashes[path.removeprefix("./")] = digest
    return stats, hashes


def compare_snapshots(before: Path, after: Path):
    if not Path(f"{after}.stat").exists():
        return None  # ONLY=previews: no rebuild was run
    stats_before, hashes_before = read_snapshot(before)
    stats_after, hashes_after = read_snapshot(after)
    common = stats_before.keys() & stats_after.keys()
    result = {
        "files": len(stats_after),
        "added": len(stats_after.keys() - stats_before.keys()),
        "removed": len(stats_before.keys() - stats_after.keys()),
        "contentChanged": sum(hashes_before.get(p) != hashes_after.get(p) for p in common),
        "mtimeChanged": sum(stats_before[p][1] != stats_after[p][1] for p in common),
    }
    result["unchanged"] = not (result["added"] or result["removed"] or result["contentChanged"] or result["mtimeChanged"])
    return result


def line_count(path: Path):
    return len(path.read_text().splitlines()) if path.exists() else None


def warned_count(path: Path):
    """Warnings the build found: the lines shown plus those counted in "N more like these"."""
    if not path.exists():
        return None
    total = 0
    for line in path.read_text().splitlines():
        more = re.match(r"warning: ([\d,]+) more like these", line)
        total += int(more.group(1).replace(",", "")) if more else (": warning: " in line)
    return total


def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def previews(tsv: Path, card_sizes: Path):
    """Cold builds without and with link preview images (run.sh step 7): every run, the
    medians of wall and CPU time (user + system) and peak memory, and the cards' sizes."""
    if not tsv.exists():
        return None
    lines = tsv.read_text().splitlines()
    columns = lines[0].split("\t")
    runs = [dict(zip(columns, line.split("\t"))) for line in lines[1:] if line]
    summary = {"runs": runs}
    for site in ("off", "on"):
        mine = [r for r in runs if r["site"] == site]
        if not mine:
            return None
        summary[site] = {
            "runs": len(mine),
            "wallMedian": median([float(r["wall_s"]) for r in mine]),
            "cpuMedian": median([float(r["user_s"]) + float(r["sys_s"]) for r in mine]),
            "userMedian": median([float(r["user_s"]) for r in mine]),
            "systemMedian": median([float(r["sys_s"]) for r in mine]),
            "peakMBMedian": median([int(r["peak_kb"]) / 1024 for r in mine]),
            "peakMBMax": max(int(r["peak_kb"]) / 1024 for r in mine),
        }
    if card_sizes and card_sizes.exists():
        sizes = [int(line) for line in card_sizes.read_text().split()]
        if sizes:
            summary["cards"] = {"count": len(sizes), "bytes": sum(sizes), "meanBytes": sum(sizes) / len(sizes),
                                "medianBytes": median(sizes), "maxBytes": max(sizes)}
    return summary


def summarize(args):
    raw = Path(args.raw)
    n = args.n
    cold = hyperfine(raw / f"n{n}-cold-sitegen.json") | hyperfine(raw / f"n{n}-cold-hugo.json")
    floor = hyperfine(raw / f"n{n}-floor.json")
    rebuild = hyperfine(raw / f"n{n}-rebuild.json")
    incremental = hyperfine(raw / f"n{n}-incremental.json")
    warnings = hyperfine(raw / f"n{n}-warnings.json")
    corpus = json.loads((raw / f"n{n}-corpus.json").read_text())

    def stats(result):
        if not result:
            return None
        times = result["times"]
        return {"median": result["median"], "mean": result["mean"], "stddev": result.get("stddev"),
                "min": result["min"], "max": result["max"], "user": result.get("user"),
                "system": result.get("system"), "times": times}

    summary = {
        "n": n,
        "corpus": corpus,
        "sitegenPages": args.sitegen_pages,
        "hugoPages": args.hugo_pages,
        "sitegenFiles": args.sitegen_files,
        "hugoFiles": args.hugo_files,
        "outputBytes": args.output_bytes,
        "sitegenWarnings": args.warnings,
        "sitegen": stats(cold.get("sitegen build")),
        "hugo": stats(cold.get("hugo")),
        "rebuild": stats(rebuild.get("sitegen rebuild")),
        "floor": stats(floor.get("cp -r")),
        "sitegenPeak": time_v(raw / f"n{n}-sitegen.time"),
        "hugoPeak": time_v(raw / f"n{n}-hugo.time"),
        "rebuildPeak": time_v(raw / f"n{n}-rebuild.time"),
        "incremental": stats(incremental.get("sitegen rebuild, one ballot changed")),
        "incrementalPeak": time_v(raw / f"n{n}-incremental.time"),
        "rebuildKept": compare_snapshots(Path(args.snapshots) / "before", Path(args.snapshots) / "after"),
        "withoutWarnings": stats(warnings.get("sitegen build")),
        "withWarnings": stats(warnings.get("sitegen build, a warning per game id")),
        "withWarningsPeak": time_v(raw / f"n{n}-warned.time"),
        "withWarningsCounted": warned_count(raw / f"n{n}-warned.time.stderr"),
        "withWarningsLines": line_count(raw / f"n{n}-warned.time.stderr"),
        "previews": previews(raw / f"n{n}-previews.tsv", Path(args.card_sizes) if args.card_sizes else None),
    }
    json.dump(summary, sys.stdout, indent=2)
    print()


def load_run(folder: Path):
    runs = [json.loads(p.read_text()) for p in folder.glob("n*.json") if re.fullmatch(r"n\d+\.json", p.name)]
    return sorted(runs, key=lambda s: s["n"])


def fmt_int(value):
    return f"{value:,}" if value is not None else "—"


def fmt_s(value):
    if value is None:
        return "—"
    return f"{value:.3f}" if value < 10 else f"{value:.2f}"


def fmt_mb(peak):
    return f"{peak['peakMB']:,.0f}" if peak and peak.get("peakMB") is not None else "—"


def row(s):
    sitegen = s["sitegen"]["median"]
    hugo = s["hugo"]["median"] if s.get("hugo") else None
    pages = s["sitegenPages"]
    rebuild = s["rebuild"]["median"] if s.get("rebuild") else None
    floor = s["floor"]["median"] if s.get("floor") else None
    kept = s["rebuildKept"]
    if kept["unchanged"]:
        kept_text = "yes"
    else:
        parts = []
        if kept["mtimeChanged"]:
            parts.append(f"{kept['mtimeChanged']:,}/{kept['files']:,} mtimes changed")
        if kept["contentChanged"]:
            parts.append(f"{kept['contentChanged']:,} contents changed")
        if kept["added"] or kept["removed"]:
            parts.append(f"+{kept['added']:,}/−{kept['removed']:,} files")
        kept_text = "no (" + ", ".join(parts) + ")"
    return "| " + " | ".join([
        fmt_int(s["n"]),
        f"{fmt_int(pages)} / {fmt_int(s['hugoPages']) if hugo is not None else '—'}",
        fmt_s(sitegen),
        fmt_s(hugo),
        f"{hugo / sitegen:.2f}×" if hugo else "—",
        fmt_int(round(pages / sitegen)),
        fmt_int(round(s["hugoPages"] / hugo)) if hugo else "—",
        fmt_mb(s["sitegenPeak"]),
        fmt_mb(s["hugoPeak"]) if hugo else "—",
        f"{fmt_s(rebuild)} ({rebuild / sitegen:.0%})" if rebuild is not None else "—",
        f"{fmt_s(s['incremental']['median'])} ({fmt_mb(s.get('incrementalPeak'))} MB)" if s.get("incremental") else "—",
        f"{fmt_s(floor)} ({sitegen / floor:.2f}×)" if floor else "—",
        kept_text,
    ]) + " |"


HEADER = ("| N polls | HTML pages sitegen / Hugo | sitegen s | Hugo s | ratio Hugo ÷ sitegen "
          "| sitegen pages/s | Hugo pages/s | sitegen peak MB | Hugo peak MB "
          "| no-change rebuild s (% of full) | one-ballot rebuild s (peak) | cp -r floor s (sitegen ÷ floor) "
          "| rebuild kept every file |\n"
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def warnings_table(runs):
    rows = [s for s in runs if s.get("withWarnings")]
    if not rows:
        return ""
    lines = ["", "A warning per game id (the same site, its poll trips naming only games no catalog holds,",
             "issue #14): cold builds of both, interleaved in one hyperfine call.", "",
             "| N polls | warnings found | stderr lines | without s | with s | time ratio | peak MB without | peak MB with | memory ratio |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in rows:
        without, warned = s["withoutWarnings"]["median"], s["withWarnings"]["median"]
        peak, warned_peak = (s.get("sitegenPeak") or {}).get("peakMB"), (s.get("withWarningsPeak") or {}).get("peakMB")
        lines.append("| " + " | ".join([
            fmt_int(s["n"]), fmt_int(s.get("withWarningsCounted")), fmt_int(s.get("withWarningsLines")),
            fmt_s(without), fmt_s(warned), f"{warned / without:.2f}×",
            fmt_mb(s.get("sitegenPeak")), fmt_mb(s.get("withWarningsPeak")),
            f"{warned_peak / peak:.2f}×" if peak and warned_peak else "—",
        ]) + " |")
    return "\n".join(lines)


def previews_table(runs):
    rows = [s for s in runs if s.get("previews")]
    if not rows:
        return ""
    lines = ["", "Link preview images (issue #17): cold builds of the site without and with its cards",
             "(`site-previews.yml`), alternating, each run a whole process; medians. CPU is user + system;",
             "system CPU follows the disk's state (file creation), so user CPU is the steadier figure.", "",
             "| N polls | cards | card KB mean / max | wall s off → on | added | CPU s off → on | added CPU "
             "| user CPU s off → on | added user CPU | peak MB off → on (max) | user CPU ms per card |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in rows:
        p = s["previews"]
        off, on, cards = p["off"], p["on"], p.get("cards")
        lines.append("| " + " | ".join([
            fmt_int(s["n"]),
            fmt_int(cards["count"]) if cards else "—",
            f"{cards['meanBytes'] / 1024:.1f} / {cards['maxBytes'] / 1024:.1f}" if cards else "—",
            f"{fmt_s(off['wallMedian'])} → {fmt_s(on['wallMedian'])}",
            f"{on['wallMedian'] / off['wallMedian'] - 1:+.0%}",
            f"{fmt_s(off['cpuMedian'])} → {fmt_s(on['cpuMedian'])}",
            f"{on['cpuMedian'] / off['cpuMedian'] - 1:+.0%}",
            f"{fmt_s(off['userMedian'])} → {fmt_s(on['userMedian'])}",
            f"{on['userMedian'] / off['userMedian'] - 1:+.0%}",
            f"{off['peakMBMax']:,.0f} → {on['peakMBMax']:,.0f}",
            f"{(on['userMedian'] - off['userMedian']) / cards['count'] * 1000:.2f}" if cards else "—",
        ]) + " |")
    for s in rows:
        if s["n"] != 10000:
            continue
        p = s["previews"]
        added = p["on"]["wallMedian"] / p["off"]["wallMedian"] - 1
        peak = p["on"]["peakMBMax"]
        lines.append(f"- N=10,000: {'✓' if added <= TARGET_PREVIEWS_ADDED else '✗'} previews add ≤ {TARGET_PREVIEWS_ADDED:.0%} "
                     f"({added:+.0%}); {'✓' if peak <= TARGET_PREVIEWS_PEAK_MB else '✗'} peak with previews ≤ "
                     f"{TARGET_PREVIEWS_PEAK_MB} MB ({peak:,.0f} MB)")
    return "\n".join(lines)


def targets(runs):
    lines = ["", "Targets (issue #8):"]
    for s in runs:
        sitegen = s["sitegen"]["median"]
        checks = []
        if s.get("hugo"):
            ratio = s["hugo"]["median"] / sitegen
            checks.append(f"{'✓' if ratio >= TARGET_RATIO else '✗'} ≥ {TARGET_RATIO:g}× Hugo's pages/s ({ratio:.2f}×)")
        peak = (s.get("sitegenPeak") or {}).get("peakMB")
        if peak is not None:
            checks.append(f"{'✓' if peak <= TARGET_PEAK_MB else '✗'} peak ≤ {TARGET_PEAK_MB} MB ({peak:,.0f} MB"
                          + ("" if s["n"] == 10000 else "; the target is for N=10,000") + ")")
        if s.get("rebuild"):
            share = s["rebuild"]["median"] / sitegen
            checks.append(f"{'✓' if share <= TARGET_REBUILD_SHARE else '✗'} rebuild ≤ {TARGET_REBUILD_SHARE:.0%} of full ({share:.0%})")
        checks.append(f"{'✓' if s['rebuildKept']['unchanged'] else '✗'} rebuild leaves contents and mtimes unchanged")
        if s.get("floor"):
            factor = sitegen / s["floor"]["median"]
            checks.append(f"{'✓' if factor <= TARGET_FLOOR_FACTOR else '✗'} within {TARGET_FLOOR_FACTOR:g}× of cp -r ({factor:.2f}×)")
        lines.append(f"- N={s['n']:,}: " + "; ".join(checks))
    if len(runs) > 1:
        per_page = [(s["n"], s["sitegen"]["median"] / s["sitegenPages"] * 1e6) for s in runs]
        spread = max(p for _, p in per_page) / min(p for _, p in per_page)
        lines.append("- time per page (flat is the target): "
                     + ", ".join(f"N={n:,}: {p:.0f} µs" for n, p in per_page)
                     + f" (max ÷ min {spread:.2f})")
    return "\n".join(lines)


def table(args):
    folder = Path(args.folder)
    runs = load_run(folder)
    if not runs:
        sys.exit(f"report.py: no n*.json summaries in {folder}")
    header = (folder / "header.md").read_text() if (folder / "header.md").exists() else ""
    print("# sitegen vs Hugo: cold builds, medians\n")
    print(header.rstrip() + "\n")
    timed = [s for s in runs if s.get("sitegen")]
    if timed:
        print(HEADER)
        for s in timed:
            print(row(s))
        print(targets(timed))
    print(warnings_table(runs))
    print(previews_table(runs))
    notes = []
    for s in runs:
        corpus = s["corpus"]
        if s["sitegenPages"] != corpus["sitegenHtmlPages"]:
            notes.append(f"- N={s['n']}: sitegen wrote {s['sitegenPages']} HTML pages, generate.py expected "
                         f"{corpus['sitegenHtmlPages']} (sitegen's page rules changed?)")
        if s.get("sitegenWarnings"):
            notes.append(f"- N={s['n']}: sitegen reported {s['sitegenWarnings']} warnings on the corpus")
        notes.append(f"- N={s['n']}: {corpus['polls']:,} polls, {corpus['ballots']:,} ballots, "
                     f"{corpus['itineraries']:,} itineraries, {corpus['optionSets']:,} option set{'' if corpus['optionSets'] == 1 else 's'}; "
                     f"files written: sitegen {s['sitegenFiles']:,}, Hugo {s['hugoFiles']:,}; "
                     f"Markdown rendered: sitegen {corpus['sitegenMarkdownBytes'] / 1e6:.1f} MB, "
                     f"Hugo {corpus['hugoMarkdownBytes'] / 1e6:.1f} MB; output {s['outputBytes'] / 1e6:.0f} MB")
    print("\n" + "\n".join(notes))


def compare(args):
    old = {s["n"]: s for s in load_run(Path(args.old))}
    new = {s["n"]: s for s in load_run(Path(args.new))}
    common = sorted(old.keys() & new.keys())
    if not common:
        sys.exit("report.py: the two runs share no N")

    def change(a, b):
        return f"{a:.3f} → {b:.3f} ({(b - a) / a:+.0%})" if a and b else "—"

    def median(s, key):
        return s[key]["median"] if s.get(key) else None

    print(f"Comparing {args.old} → {args.new} (seconds are medians; compare ratios across machines)\n")
    print("| N | sitegen s | Hugo s | ratio Hugo ÷ sitegen | sitegen peak MB | rebuild s | cp -r floor s |")
    print("|---:|---|---|---|---|---|---|")
    for n in common:
        a, b = old[n], new[n]
        ratio_a = median(a, "hugo") / median(a, "sitegen") if median(a, "hugo") else None
        ratio_b = median(b, "hugo") / median(b, "sitegen") if median(b, "hugo") else None
        peak_a = (a.get("sitegenPeak") or {}).get("peakMB")
        peak_b = (b.get("sitegenPeak") or {}).get("peakMB")
        print("| " + " | ".join([
            f"{n:,}",
            change(median(a, "sitegen"), median(b, "sitegen")),
            change(median(a, "hugo"), median(b, "hugo")),
            f"{ratio_a:.2f}× → {ratio_b:.2f}×" if ratio_a and ratio_b else "—",
            f"{peak_a:,.0f} → {peak_b:,.0f}" if peak_a and peak_b else "—",
            change(median(a, "rebuild"), median(b, "rebuild")),
            change(median(a, "floor"), median(b, "floor")),
        ]) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("summarize")
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--raw", required=True)
    p.add_argument("--snapshots", required=True)
    for name in ("sitegen-pages", "hugo-pages", "sitegen-files", "hugo-files", "output-bytes", "warnings"):
        p.add_argument(f"--{name}", type=int, default=0)
    p.add_argument("--card-sizes", help="a file of the preview cards' sizes in bytes, one a line")
    p.set_defaults(func=summarize)
    p = sub.add_parser("table")
    p.add_argument("folder")
    p.set_defaults(func=table)
    p = sub.add_parser("compare")
    p.add_argument("old")
    p.add_argument("new")
    p.set_defaults(func=compare)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
