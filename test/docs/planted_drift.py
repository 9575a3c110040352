#!/usr/bin/env python3
"""Shows that the docs test (run_doc_blocks.py) reports drift: plants each kind of drift in a
copy of the repository and checks that the docs test fails and names the file:line of each.

Planted: a wrong path in a command block (run, and checked without running), a changed output,
an output block whose command is gone, an unknown rtcuda option and a missing script in a block
that is not run, a missing file and a missing file name in backticks, a broken link and a
broken #anchor, an unknown doctest clause. The clean page must pass.
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

The tool `lib/Tuner/Report.cpp`, `Pipeline.cpp`; [translate](translate.md#many-programs-at-once).
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
    ("<!-- doctest: output -->", "<!-- doctest: outptu -->", "unknown doctest clause 'outptu'", 13),
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
    for top in ("examples", "scripts", "lib", "docs", ".ci"):
        shutil.copytree(os.path.join(args.source, top), os.path.join(src, top))
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
    # The same checks without running (--no-run) still see a wrong path in a real page.
    readme = os.path.join(src, "README.md")
    shutil.copy(os.path.join(args.source, "README.md"), readme)
    text = open(readme).read()
    with open(readme, "w") as f:
        f.write(text.replace("examples/matmul/std/config.yaml", "examples/matmul/std/config.yml", 1))
    argv = [sys.executable, os.path.join(HERE, "run_doc_blocks.py"), "--source", src, "--no-run",
            "README.md"] + sum((["--bin", b] for b in args.bin), [])
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode == 0 or "'examples/matmul/std/config.yml' does not exist" not in r.stderr:
        print("--no-run misses a wrong path in README.md:\n" + r.stdout + r.stderr)
        failures += 1
    else:
        print("reported: " + r.stderr.strip().splitlines()[0])
    print(f"planted drift: {len(PLANTS) + 2 - failures} of {len(PLANTS) + 2} checks as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
