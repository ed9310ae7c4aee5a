#!/usr/bin/env python3
# Vendored from the team's shared check tools so the repository is self-contained.
"""Run axe-core on local HTML files in headless Chromium; exit 1 on violations."""
import json, pathlib, sys
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from axe_selenium_python import Axe

def make_driver():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"          # Debian package
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1280,800"):
        opts.add_argument(a)
    # explicit driver path => Selenium Manager is skipped (no download attempt)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)

def main(paths):
    d = make_driver(); failed = 0
    try:
        for p in paths:
            d.get(pathlib.Path(p).resolve().as_uri())   # file:///...
            axe = Axe(d); axe.inject()
            # options must be a JS/JSON *string*: the wrapper %s-formats it into JS
            res = axe.run(options=json.dumps({"runOnly": {"type": "tag",
                          "values": ["wcag2a", "wcag2aa", "best-practice"]}}))
            print(f"{p}: axe-core {d.execute_script('return axe.version')}, "
                  f"{len(res['violations'])} violation(s)")
            for v in res["violations"]:
                targets = [t for n in v["nodes"] for t in n["target"]]
                print(f"  [{v['impact']}] {v['id']}: {v['help']} -> {targets}")
            failed += len(res["violations"])
    finally:
        d.quit()
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
