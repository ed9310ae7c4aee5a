#!/usr/bin/env python3
"""Checks the links of a built site as a visitor would follow them (docs/pages.md, "Every page"): every
internal link and resource of every page leads to a file of the site, every "#anchor"
names an element of its page, and every file can be reached from index.html by
following links. Python's standard library only.

Usage: check-links.py SITE_DIR [--base-url URL] [--unlisted PREFIX]...
  --base-url URL     absolute links starting with URL (the site's baseURL) are internal
  --unlisted PREFIX  files under PREFIX need not be reachable (polls with listPolls: false)

404.html may link from the domain's root ("/tips/") when there is no --base-url: a host serves
it at any address. Files that no page links to by design are not required to be reachable: 404.html,
robots.txt, sitemap.xml and sitemaps/, manifest.json. Exit status 1 lists every problem.
"""
import argparse, os, posixpath, sys
from collections import deque
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

NOT_LINKED_BY_DESIGN = ("404.html", "robots.txt", "sitemap.xml", "sitemaps/", "manifest.json")
# (tag, attribute) pairs that load or lead to another file.
LINK_ATTRIBUTES = {("a", "href"), ("area", "href"), ("link", "href"), ("img", "src"), ("script", "src"),
                   ("iframe", "src"), ("source", "src"), ("video", "src"), ("audio", "src"), ("image", "href")}


class Page(HTMLParser):
    """The links and element ids of one HTML file."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        # A page's link-preview image is a file the page names, so it is checked like a link.
        if tag == "meta" and ("property", "og:image") in attrs:
            self.links.extend((tag, value) for name, value in attrs if name == "content" and value)
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            if (tag, name) in LINK_ATTRIBUTES:
                self.links.append((tag, value))

    handle_startendtag = handle_starttag


class Site:
    def __init__(self, root, base_url):
        self.root, self.base_url = os.path.abspath(root), base_url
        self.files = set()
        for folder, _, names in os.walk(self.root):
            for name in names:
                self.files.add(os.path.relpath(os.path.join(folder, name), self.root).replace(os.sep, "/"))
        self.pages = {}

    def page(self, path):
        if path not in self.pages:
            parser = Page()
            with open(os.path.join(self.root, path), encoding="utf-8") as f:
                parser.feed(f.read())
            self.pages[path] = parser
        return self.pages[path]

    def resolve(self, page, href):
        """(file, fragment, problem): the file of the site `href` leads to from `page`; file
        is None for links that leave the site (other sites, other schemes)."""
        if self.base_url and href.startswith(self.base_url):
            parts, folder, here = urlsplit(href[len(self.base_url):]), "", "index.html"
        else:
            parts, folder, here = urlsplit(href), posixpath.dirname(page), page
            if parts.scheme or parts.netloc:
                return None, None, None
            if parts.path.startswith("/"):
                # 404.html alone is served at whatever address was mistyped: without baseURL its
                # links start at the domain's root (docs/publishing.md, "baseURL"); checked as
                # links from the site's root.
                if page != "404.html" or self.base_url:
                    return None, None, "a root-relative link breaks when the site is published in a sub-folder or opened from disk"
                parts, folder, here = urlsplit(href[1:]), "", "index.html"
        fragment = unquote(parts.fragment) if "#" in href else None
        if not parts.path:
            return here, fragment, None
        joined = posixpath.normpath(posixpath.join(folder, unquote(parts.path)))
        if joined == ".." or joined.startswith("../"):
            return None, None, "leads outside the site"
        if parts.path.endswith("/") or joined == ".":
            target = "index.html" if joined == "." else joined + "/index.html"
        elif joined + "/index.html" in self.files:
            return None, None, "leads to a folder without its trailing slash"
        else:
            target = joined
        if target not in self.files:
            return None, None, f"no such file: {target}"
        return target, fragment, None


def main():
    arguments = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arguments.add_argument("site")
    arguments.add_argument("--base-url")
    arguments.add_argument("--unlisted", action="append", default=[])
    options = arguments.parse_args()
    site = Site(options.site, options.base_url)
    if "index.html" not in site.files:
        print(f"{options.site}: no index.html")
        return 1

    problems, links, anchors = [], 0, 0
    edges = {}
    for page in sorted(f for f in site.files if f.endswith(".html")):
        targets = set()
        for tag, href in site.page(page).links:
            links += 1
            target, fragment, problem = site.resolve(page, href)
            if problem:
                problems.append(f"{page}: <{tag}> {href!r}: {problem}")
                continue
            if target is None:
                continue
            targets.add(target)
            if fragment:
                anchors += 1
                if not target.endswith(".html"):
                    problems.append(f"{page}: <{tag}> {href!r}: #{fragment} points into {target}, which is not a page")
                elif fragment not in site.page(target).ids:
                    problems.append(f"{page}: <{tag}> {href!r}: {target} has no element with id \"{fragment}\"")
        edges[page] = targets

    reached, queue = {"index.html"}, deque(["index.html"])
    while queue:
        for target in sorted(edges.get(queue.popleft(), ())):
            if target not in reached:
                reached.add(target)
                queue.append(target)
    exempt = NOT_LINKED_BY_DESIGN + tuple(options.unlisted)
    for path in sorted(site.files - reached):
        if not path.startswith(exempt):
            problems.append(f"{path}: not reachable from index.html by following links")

    for problem in problems:
        print(problem)
    pages = len(edges)
    if problems:
        print(f"Link check of {options.site}: {len(problems)} problems in {pages} pages ({links} links, {anchors} anchors)")
        return 1
    print(f"Link check of {options.site}: {pages} pages, {links} links, {anchors} anchors, "
          f"{len(reached)} of {len(site.files)} files reachable from index.html: no problem")
    return 0


if __name__ == "__main__":
    sys.exit(main())
