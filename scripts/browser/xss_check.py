#!/usr/bin/env python3
# Vendored from the team's shared check tools so the repository is self-contained.
"""Open local HTML files in headless Chromium and report any injected script that runs.

A page fails when a planted payload executes (it sets window.__xss = 1 or calls
alert/confirm/prompt/print), or when the DOM holds a live vector: an on* attribute,
a javascript:/vbscript:/data:text/html URL, or a <script> element.
Usage: xss_check.py PAGE.html ...   exit 0 clean, 1 otherwise.
"""
import pathlib, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

HOOK = """
window.__xss_hits = [];
for (const f of ['alert', 'confirm', 'prompt', 'print'])
  window[f] = function (m) { window.__xss_hits.push(f + ':' + String(m)); };
"""
STATIC_SCAN = """
const bad = [];
for (const el of document.querySelectorAll('*')) {
  for (const a of el.attributes) {
    const n = a.name.toLowerCase();
    const v = a.value.replace(/[\\s\\u0000-\\u001f]/g, '').toLowerCase();
    if (n.startsWith('on')) bad.push(el.tagName + '[' + n + ']');
    if (['href','src','action','formaction','xlink:href','data','srcdoc'].includes(n) &&
        /^(javascript|vbscript):|^data:text\\/html/.test(v)) bad.push(el.tagName + '[' + n + ']');
  }
}
for (const s of document.querySelectorAll('script')) bad.push('SCRIPT');
return bad;
"""

def make_driver():
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    # runs before any page script, in every new document (also after navigation)
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HOOK})
    return d

def check(d, path):
    d.get(pathlib.Path(path).resolve().as_uri())
    WebDriverWait(d, 5).until(lambda x: x.execute_script("return document.readyState") == "complete")
    time.sleep(0.3)   # grace for ontoggle/timers
    ran = d.execute_script("return {flag: window.__xss === 1, hits: window.__xss_hits || []}")
    static = d.execute_script(STATIC_SCAN)
    n = d.execute_script("return [...document.links].filter(a => a.protocol === 'javascript:').length")
    for i in range(n):   # javascript: links only run when followed
        d.execute_script("[...document.links].filter(a => a.protocol === 'javascript:')[arguments[0]].click()", i)
        time.sleep(0.1)
        if d.execute_script("return window.__xss === 1"):
            ran["flag"] = True; ran["hits"].append(f"javascript: link #{i}")
    return ran, static

if __name__ == "__main__":
    d = make_driver(); rc = 0
    try:
        for p in sys.argv[1:]:
            ran, static = check(d, p)
            executed = ran["flag"] or bool(ran["hits"])
            print(f"{p}: executed={executed} hits={ran['hits']} static_vectors={static}")
            rc |= executed or bool(static)
    finally:
        d.quit()
    sys.exit(1 if rc else 0)
