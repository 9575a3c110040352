#!/usr/bin/env python3
"""Shows that the docs test (run_doc_blocks.py) reports drift: plants each kind of drift in a
copy of the repository and checks that the docs test fails and names the file:line of each.

Planted: a wrong path in a command block (run, and checked without running), a changed output,
an output block whose command is gone, an unknown rtcuda option and a missing script in a block
that is not run, a missing file and a missing file name in backticks, a broken link and a
broken #anchor, an unknown doctest clause; in real pages, a wrong path and misspelt config keys
(top-level, tuning, legacy). The clean page must pass.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CLEAN = """# Planted page

<!-- doctest: skip (static checks only) -->
```sh
rtcuda translate examples/vv/config.txt -o out/vv --remarks
bash scripts/test.sh
```

```sh
rtcuda translate examples/vv/config.txt -o out/vv
```

<!-- doctest: output -->
```
rtcuda: translated 1 kernel(s) from examples/vv/config.txt into out/vv/
...
```

The tool `lib/Tuner/Report.cpp`, `Pipeline.cpp`; [translate](translate.md#many-programs-at-once); `--print-after=<step>`.
"""

# (text to replace, replacement, message expected, line of planted.md it must name)
PLANTS = [
    ("rtcuda translate examples/vv/config.txt -o out/vv\n```",
     "rtcuda translate examples/vvv/config.txt -o out/vv\n```",
     "command failed with exit status 1: rtcuda translate examples/vvv/config.txt", 10),
    ("rtcuda: translated 1 kernel(s)", "rtcuda: translated 2 kernel(s)",
     "the stdout of 'rtcuda translate examples/vv/config.txt -o out/vv' is not what the docs show", 14),
    ("-o out/vv --remarks", "-o out/vv --remark-all", "option '--remark-all' is not in 'rtcuda translate --help'", 5),
    ("bash scripts/test.sh", "bash scripts/tests.sh", "script 'scripts/tests.sh' does not exist", 6),
    ("`lib/Tuner/Report.cpp`", "`lib/Tuner/Reports.cpp`", "`lib/Tuner/Reports.cpp` does not exist", 19),
    ("`Pipeline.cpp`", "`Pipelines.cpp`", "no file of the repository is named `Pipelines.cpp`", 19),
    ("(translate.md#many", "(translates.md#many", "link target 'translates.md#many-programs-at-once' does not exist", 19),
    ("#many-programs-at-once)", "#many-programs)", "docs/translate.md has no heading #many-programs", 19),
    ("`--print-after=<step>`", "`--print-afterwards=<step>`",
     "option `--print-afterwards` is not in rtcuda's code or scripts", 19),
    ("<!-- doctest: output -->", "<!-- doctest: outptu -->", "unknown doctest clause 'outptu'", 13),
]

# Drift planted in real pages: (page, text, replacement, message expected).
REAL_PLANTS = [
    ("README.md", "examples/matmul/std/config.yaml", "examples/matmul/std/config.yml",
     "'examples/matmul/std/config.yml' does not exist"),
    ("docs/config.md", "| `memory` |", "| `memroy` |",
     "config key 'memroy' is documented, but rtcuda does not know it"),
    ("docs/config.md", "| `tile_k` |", "| `tile_kk` |",
     "config key 'tile_kk' is documented, but rtcuda does not know it"),
    ("docs/config.md", "| `ON_DEPENDENCE` |", "| `ON_DEPENDENCES` |",
     "config key 'ON_DEPENDENCES' is documented, but rtcuda does not know it"),
]


def run(args, page_text, work):
    src = os.path.join(work, "src")
    with open(os.path.join(src, "docs", "planted.md"), "w") as f:
        f.write(page_text)
    argv = [sys.executable, os.path.join(HERE, "run_doc_blocks.py"), "--source", src,
            "--work", os.path.join(work, "scratch")]
    for b in args.bin:
        argv += ["--bin", b]
    return subprocess.run(argv + ["docs/planted.md"], capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--bin", action="append", default=[])
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    src = os.path.join(args.work, "src")
    for top in ("examples", "scripts", "lib", "tools", "docs", ".ci"):
        shutil.copytree(os.path.join(args.source, top), os.path.join(src, top))
    shutil.copy(os.path.join(args.source, "README.md"), os.path.join(src, "README.md"))
    failures = 0
    r = run(args, CLEAN, args.work)
    if r.returncode != 0:
        print("the clean page fails:\n" + r.stdout + r.stderr)
        failures += 1
    for old, new, message, line in PLANTS:
        assert CLEAN.count(old) == 1, old
        text = CLEAN.replace(old, new)
        r = run(args, text, args.work)
        out = r.stdout + r.stderr
        # The message names the command's line, the output block's, the marker's or the prose's.
        if r.returncode == 0 or not any(l.startswith(f"docs/planted.md:{line}: ") and message in l
                                        for l in out.splitlines()):
            print(f"planted '{new.splitlines()[0]}' (line {line}): not reported as '{message}'; "
                  f"got status {r.returncode}:\n{out}")
            failures += 1
        else:
            print(f"reported: {[l for l in out.splitlines() if message in l][0]}")
    # Real pages, checked without running (--no-run): a wrong path, a config key misspelt.
    for page, old, new, message in REAL_PLANTS:
        path = os.path.join(src, page)
        text = open(os.path.join(args.source, page)).read()
        assert old in text, (page, old)
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))
        argv = [sys.executable, os.path.join(HERE, "run_doc_blocks.py"), "--source", src,
                "--no-run", "--work", os.path.join(args.work, "scratch"), page]
        r = subprocess.run(argv + sum((["--bin", b] for b in args.bin), []),
                           capture_output=True, text=True)
        shutil.copy(os.path.join(args.source, page), path)
        hits = [l for l in r.stderr.splitlines() if l.startswith(page + ":") and message in l]
        if r.returncode == 0 or not hits:
            print(f"{page}: planted '{new}' not reported as '{message}':\n" + r.stdout + r.stderr)
            failures += 1
        else:
            print("reported: " + hits[0])
    total = len(PLANTS) + 1 + len(REAL_PLANTS)
    print(f"planted drift: {total - failures} of {total} checks as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
