#!/usr/bin/env python3
"""Checks CMake's link graph against the layering table of docs/architecture.md.

The graph file (written at configure time by cmake/LinkGraph.cmake) has one line per target:
"target: item item ...". The table in the docs, between the markers <!-- layering:begin --> and
<!-- layering:end -->, has one row per library:

    | `rtcudaTransforms` | `rtcudaAnalysis` | no |

the second column lists what the target links directly (an item in parentheses may be absent,
e.g. a library found only on some machines), the third says whether it may reach Clang or LLVM.
The check fails when:
  - a target's direct links differ from its row (an undocumented or a missing link);
  - a row says "no" and Clang or LLVM is reachable from the target through the graph;
  - a library of the project (rtcuda<Name>) has no row, or a row names a target not built.
--plant TARGET=ITEM adds a link before checking (the test that shows a planted link is caught).
"""
import argparse
import re
import sys


def normalize(item):
    """nlohmann_json::nlohmann_json -> nlohmann_json, /usr/lib/libisl.so -> isl."""
    item = item.strip()
    if "/" in item:
        item = item.rsplit("/", 1)[1]
        item = re.sub(r"^lib", "", item)
        item = re.sub(r"\.(so|a)(\.[0-9.]+)?$", "", item)
    return item.rsplit("::", 1)[-1]


def read_graph(path):
    graph = {}
    with open(path) as f:
        for line in f:
            if ":" not in line:
                continue
            target, _, rest = line.partition(": ")
            target = target.rstrip(":")
            graph[target] = [i for i in rest.split() if i]
    return graph


def read_table(path):
    text = open(path).read()
    m = re.search(r"<!-- layering:begin -->(.*?)<!-- layering:end -->", text, re.S)
    if not m:
        sys.exit(f"{path}: no layering table (<!-- layering:begin --> ... <!-- layering:end -->)")
    rows = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        target = cells[0].strip("`")
        required = set(re.findall(r"(?<!\()`([^`]+)`(?!\))", cells[1]))
        optional = set(re.findall(r"\(`([^`]+)`\)", cells[1]))
        if cells[2] not in ("yes", "no"):
            sys.exit(f"{path}: row {target}: third column must be yes or no, not '{cells[2]}'")
        rows[target] = (required, optional, cells[2] == "yes")
    return rows


def is_clang(node):
    n = normalize(node)
    return n in ("clang-cpp", "LLVM") or n.startswith("clang") or n.startswith("LLVM")


def clang_path(graph, start):
    """A path from start to a Clang/LLVM node, or None."""
    stack, seen = [[start]], {start}
    while stack:
        path = stack.pop()
        node = path[-1]
        if node != start and is_clang(node):
            return path
        for nxt in graph.get(node, []):
            # Generator expressions such as $<LINK_ONLY:x> wrap a target name.
            nxt = re.sub(r"^\$<[A-Z_]+:(.*)>$", r"\1", nxt)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(path + [nxt])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graph", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--plant", action="append", default=[], metavar="TARGET=ITEM")
    args = ap.parse_args()
    graph = read_graph(args.graph)
    for p in args.plant:
        target, _, item = p.partition("=")
        graph.setdefault(target, []).append(item)
    rows = read_table(args.doc)
    errors = []
    for target, (required, optional, clang_ok) in sorted(rows.items()):
        if target not in graph:
            errors.append(f"{target}: in the table but not a target of this build")
            continue
        direct = {normalize(i) for i in graph[target]}
        for item in sorted(direct - required - optional):
            errors.append(f"{target} links {item}, which the table does not list")
        for item in sorted(required - direct):
            errors.append(f"{target} does not link {item}, which the table lists")
        if not clang_ok:
            path = clang_path(graph, target)
            if path:
                errors.append(f"{target} must not reach Clang/LLVM but does: " +
                              " -> ".join(normalize(n) for n in path))
    for target in sorted(graph):
        if re.fullmatch(r"rtcuda[A-Z]\w*", target) and target not in rows:
            errors.append(f"{target}: a library of the project without a row in the table")
    for e in errors:
        print(f"layering: {e}")
    if errors:
        print(f"layering: {len(errors)} problem(s); the table is in {args.doc}")
        return 1
    print(f"layering: {len(rows)} targets match {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
