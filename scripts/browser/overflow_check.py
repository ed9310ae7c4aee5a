#!/usr/bin/env python3
"""Open local HTML files in headless Chromium at a small phone's width and report any page
wider than the screen: friends would have to scroll sideways, and the parts past the edge
are cut off. A long word from the exports (a trip name without spaces, a 58-letter town)
must wrap; a box that scrolls on its own (the ballots table) may be wider than the screen.

Usage: overflow_check.py [--width PX] PAGE.html ...   exit 0 when every page fits, 1 otherwise.
"""
import pathlib, sys
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# The elements that stick out past the right edge of the screen, outermost first,
# not counting those inside a box that scrolls sideways.
WIDEST = """
const limit = document.documentElement.clientWidth;
const out = [];
for (const el of document.body.querySelectorAll('*')) {
  if (el.getBoundingClientRect().right <= limit + 0.5) continue;
  let scrolls = false;
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const x = getComputedStyle(p).overflowX;
    if (x === 'auto' || x === 'scroll' || x === 'hidden') { scrolls = true; break; }
  }
  if (scrolls) continue;
  if (out.some(o => o.contains(el))) continue;
  out.push(el);
}
return out.slice(0, 3).map(el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '')
  + ' right=' + Math.round(el.getBoundingClientRect().right) + ': ' + (el.textContent || '').trim().slice(0, 60));
"""

def make_driver(width):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    # The layout viewport of a phone this wide, as a phone's browser lays a page out.
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": True})
    return d

if __name__ == "__main__":
    args = sys.argv[1:]
    width = 360
    if args[:1] == ["--width"]:
        width, args = int(args[1]), args[2:]
    d = make_driver(width); bad = 0
    try:
        for p in args:
            d.get(pathlib.Path(p).resolve().as_uri())
            scroll, client = d.execute_script(
                "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            if scroll > client:
                bad += 1
                print(f"{p}: {scroll} px wide on a {client} px screen; sticking out: {d.execute_script(WIDEST)}")
    finally:
        d.quit()
    print(f"{len(args) - bad} of {len(args)} pages fit a {width} px screen")
    sys.exit(1 if bad else 0)
