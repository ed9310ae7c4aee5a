#!/usr/bin/env python3
"""Accessibility checks of built pages in headless Chromium, in the light and/or dark scheme.

For each page and colour scheme:
  - axe-core, the same rules as browser/axe_check.py (WCAG 2 A and AA, best practice);
  - keyboard, on a 390 px wide phone viewport: the first Tab stop is the skip link and it
    shows on screen; Tab reaches every link and control; each one, when focused from the
    keyboard, draws an outline or a box shadow and is not hidden behind anything (a sticky
    heading), going down the page with Tab and back up with Shift+Tab;
  - headings: exactly one h1, first, and no level skipped on the way down.
The dark scheme is emulated with Emulation.setEmulatedMedia (prefers-color-scheme: dark),
so the page's own @media rules are what is checked.

Usage: check-accessibility.py [--scheme light|dark|both] [--dark] [--no-keyboard] PAGE.html...
Exits 1 when anything is reported.
"""
import argparse, json, pathlib, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "browser"))
from axe_check import make_driver          # noqa: E402  (the vendored checker's browser setup)
from axe_selenium_python import Axe        # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.keys import Keys                    # noqa: E402

AXE_OPTIONS = json.dumps({"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "best-practice"]}})

# Elements a keyboard user must be able to reach; hidden ones (display: none, e.g. print-only) are skipped.
FOCUSABLE_JS = """
const sel = 'a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe, [tabindex]:not([tabindex="-1"])';
return Array.from(document.querySelectorAll(sel)).filter(e => {
  if (e.disabled) return false;
  const s = getComputedStyle(e);
  return s.visibility !== 'hidden' && e.getClientRects().length > 0;
});
"""

# What the focused element looks like: a visible focus indicator is an outline or a box shadow.
FOCUS_STYLE_JS = """
const e = arguments[0], s = getComputedStyle(e), r = e.getBoundingClientRect();
return {
  tag: e.tagName.toLowerCase(), text: (e.textContent || '').trim().slice(0, 40),
  href: e.getAttribute('href'),
  outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0,
  shadow: s.boxShadow !== 'none',
  onScreen: r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 &&
            r.top < window.innerHeight && r.left < window.innerWidth
};
"""

# True when something else covers the focused element entirely (e.g. a sticky heading): no
# point of five across each of its boxes (a link wrapped over two lines has two) hits it.
COVERED_JS = """
const e = arguments[0];
const points = Array.from(e.getClientRects()).flatMap(r => {
  const x0 = r.left + 1, x1 = r.left + r.width / 2, x2 = r.right - 1;
  const y0 = r.top + 1, y1 = r.top + r.height / 2, y2 = r.bottom - 1;
  return [[x1, y1], [x0, y0], [x2, y0], [x0, y2], [x2, y2]];
});
return !points.some(([x, y]) => { const hit = document.elementFromPoint(x, y); return hit && (hit === e || e.contains(hit)); });
"""

# Focus `after` without scrolling, then scroll the page until `before` is at the very top of
# the screen: in view, so the browser does not scroll when it takes focus (unless a
# scroll-margin asks it to), and exactly where a sticky heading would sit over it.
BACK_UP_JS = """
const [after, before] = arguments;
after.focus({preventScroll: true});
window.scrollTo(0, window.scrollY + before.getBoundingClientRect().top);
"""

HEADINGS_JS = """
return Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
  .map(h => [Number(h.tagName[1]), (h.textContent || '').trim().slice(0, 50)]);
"""


def set_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def describe(info):
    return f"<{info['tag']} href={info['href']!r}> {info['text']!r}"


def check_axe(driver):
    axe = Axe(driver)
    axe.inject()
    res = axe.run(options=AXE_OPTIONS)
    problems = []
    for v in res["violations"]:
        targets = [t for n in v["nodes"] for t in n["target"]]
        problems.append(f"[{v['impact']}] {v['id']}: {v['help']} -> {targets}")
    return driver.execute_script("return axe.version"), problems


def check_headings(driver):
    problems = []
    headings = driver.execute_script(HEADINGS_JS)
    if [level for level, _ in headings].count(1) != 1:
        problems.append("headings: the page needs exactly one h1")
    elif headings[0][0] != 1:
        problems.append(f"headings: h{headings[0][0]} {headings[0][1]!r} comes before the h1")
    previous = 0
    for level, text in headings:
        if level > previous + 1:
            problems.append(f"headings: h{level} {text!r} follows h{previous} (a level is skipped)")
        previous = level
    return problems


def check_keyboard(driver):
    """The keyboard path on a phone-sized viewport (390 px), where sticky headings cover the most."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        return keyboard_problems(driver)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def keyboard_problems(driver):
    problems = []
    targets = driver.execute_script(FOCUSABLE_JS)
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    reached, seen_first = [], None
    for step in range(len(targets) + 3):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        element = driver.switch_to.active_element
        if element.tag_name.lower() == "body":
            break
        if seen_first is not None and element == seen_first:
            break                                       # wrapped round to the start
        info = driver.execute_script(FOCUS_STYLE_JS, element)
        if step == 0:
            seen_first = element
            classes = element.get_attribute("class") or ""
            if "skip-link" not in classes.split():
                problems.append(f"keyboard: the first Tab stop is {describe(info)}, not the skip link")
            elif not info["onScreen"]:
                problems.append("keyboard: the skip link stays off screen when focused")
            target = (element.get_attribute("href") or "").rpartition("#")[2]
            if not target or not driver.execute_script("return !!document.getElementById(arguments[0])", target):
                problems.append(f"keyboard: the skip link's target #{target} is missing")
        if not (info["outline"] or info["shadow"]):
            problems.append(f"keyboard: no visible focus indicator on {describe(info)}")
        if driver.execute_script(COVERED_JS, element):
            problems.append(f"keyboard: {describe(info)} is hidden behind something when focused with Tab")
        reached.append(element)
    missed = [t for t in targets if t not in reached]
    for t in missed:
        problems.append(f"keyboard: Tab never reaches {describe(driver.execute_script(FOCUS_STYLE_JS, t))}")
    # Back up the page with Shift+Tab, each stop starting at the screen's top edge.
    for before, after in zip(reached, reached[1:]):
        driver.execute_script(BACK_UP_JS, after, before)
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        element = driver.switch_to.active_element
        if element == before and driver.execute_script(COVERED_JS, element):
            info = driver.execute_script(FOCUS_STYLE_JS, element)
            problems.append(f"keyboard: {describe(info)} is hidden behind something when focused with Shift+Tab")
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scheme", choices=["light", "dark", "both"], default="light")
    parser.add_argument("--dark", action="store_const", const="dark", dest="scheme",
                        help="same as --scheme dark")
    parser.add_argument("--no-keyboard", action="store_true", help="skip the keyboard and heading checks")
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args(argv)
    schemes = ["light", "dark"] if args.scheme == "both" else [args.scheme]

    driver = make_driver()
    failed = 0
    try:
        for scheme in schemes:
            set_scheme(driver, scheme)
            for page in args.pages:
                driver.get(pathlib.Path(page).resolve().as_uri())
                if driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") != (scheme == "dark"):
                    raise SystemExit(f"could not emulate the {scheme} colour scheme")
                remote = driver.execute_script(
                    "return Array.from(document.querySelectorAll('link[rel=stylesheet]'))"
                    ".map(l => l.href).filter(h => !h.startsWith('file:'))")
                version, problems = check_axe(driver)
                axe_count = len(problems)
                if not args.no_keyboard:
                    problems += check_headings(driver)
                    problems += check_keyboard(driver)
                print(f"[{scheme}] {page}: axe-core {version}, {axe_count} violation(s)"
                      + ("" if args.no_keyboard else f", {len(problems) - axe_count} keyboard/heading problem(s)"))
                for href in remote:     # 404.html with a baseURL: absolute links, not followed offline
                    print(f"  note: the stylesheet {href} is not a local file; the page is checked unstyled")
                for p in problems:
                    print(f"  {p}")
                failed += len(problems)
    finally:
        driver.quit()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
