#!/usr/bin/env python3
"""Checks an rtcuda explain report as a browser rendered it (chromium --dump-dom) against the
passes rtcuda translate recorded for each kernel (manifest.json): every pass that changed a
kernel has its step, with an IR diff that adds or removes lines and a link to its page in
docs/passes/ that exists; no other pass claims a change; the sections of each kernel are there.
Usage: check_explain_dom.py DOM.html MANIFEST.json REPORT_DIR
Prints the problems and exits 1 when there are any."""
import json
import os
import sys
from html.parser import HTMLParser


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, dict(attrs), parent, [], ""

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find_all(self, tag=None, cls=None, **attrs):
        return [n for n in self.walk() if (tag is None or n.tag == tag)
                and (cls is None or cls in n.classes())
                and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())]


VOID = {"meta", "link", "br", "img", "input", "hr", "col", "area", "base", "wbr", "source"}


class Tree(HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = Node("#root", [], None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text += data


def main():
    dom_path, manifest_path, report_dir = sys.argv[1:4]
    tree = Tree()
    tree.feed(open(dom_path, encoding="utf-8").read())
    manifest = json.load(open(manifest_path))
    problems = []
    # Kernels outlined from a function of several nests are listed under the function.
    kernels = manifest["kernels"] + [k for f in manifest.get("functions", [])
                                     for k in f.get("outlined_kernels", [])]
    if not kernels:
        problems.append("the manifest lists no kernel")
    for mk in kernels:
        name = mk["name"]
        arts = tree.root.find_all("article", data_kernel=name)
        if len(arts) != 1:
            problems.append("%s: %d article(s) in the report" % (name, len(arts)))
            continue
        art = arts[0]
        for section in ("source", "pipeline", "mapping", "tuning", "host"):
            if not art.find_all("section", cls=section):
                problems.append("%s: no %s section" % (name, section))
        if not art.find_all("svg", cls="mapping"):
            problems.append("%s: no mapping picture" % name)
        steps = {li.attrs["data-pass"]: li for li in art.find_all("li", cls="changed")
                 if "data-pass" in li.attrs}
        passes = mk["passes"]
        for p in passes:
            li = steps.get(p)
            if li is None:
                problems.append("%s: pass %s changed the kernel but has no step" % (name, p))
                continue
            diff = li.find_all("pre", cls="diff")
            if not diff or not (diff[0].find_all("span", cls="add") or diff[0].find_all("span", cls="del")):
                problems.append("%s: step %s has no diff" % (name, p))
            links = [a for a in li.find_all("a", cls="doclink")
                     if a.attrs.get("href", "").endswith("passes/%s.md" % p)]
            if not links:
                problems.append("%s: step %s has no link to docs/passes/%s.md" % (name, p, p))
            elif not os.path.isfile(os.path.join(report_dir, links[0].attrs["href"])):
                problems.append("%s: link %s does not lead to a file" % (name, links[0].attrs["href"]))
        for p in steps:
            if p not in passes and p != "ParallelLoops":
                problems.append("%s: step %s shown as a change, but translate did not record it" % (name, p))
    for p in problems:
        print("problem: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
