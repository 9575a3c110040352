#!/usr/bin/env python3
"""Every kernel at sampled tuning points: `rtcuda verify` over PolyBench/C 4.2.1 and the kinds
benchmark (bench/kernels/, bench/kinds.txt), one program at a time (docs/verify.md, Sweep).

  verify_sweep.py [--polybench DIR] [--kinds DIR] [--out DIR] [--max-points N] [--only a,b]
                  [--no-polybench] [--no-kinds] [--no-race-check] [--quick] [--json FILE]

PolyBench: each benchmark that translates (as bench/polybench/run.py translates it, at MINI) is
verified twice: at MINI's sizes (the extents of its arrays) and, with the race check, at prime
sizes below them (the largest prime below each). The kinds: bench/kernels/kernels.c with each
of its configs, at verify's default sizes (1, 31, 33, 100: base + 2j per size parameter). Each
verify covers up to --max-points tuning points per kernel: the extremes (every parameter's
smallest and largest value), the default point and an even spread between. Prints one line per
verify and a summary table; exit status 1 if any verify failed, 77 if there is nothing to run.
"""
import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "polybench"))
import run as polybench  # noqa: E402  (bench/polybench/run.py: translation and sizes)

KINDS = os.path.join(HERE, "kernels")
# The CI subset (--quick): a contraction, a stencil, a triangular and an outlined program; two
# kinds configs.
QUICK_POLYBENCH = ["gemm", "jacobi-2d", "trisolv", "doitgen"]
QUICK_KINDS = ["config-rows"]


def is_prime(n):
    return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))


def prime_below(value):
    """A smaller size for a dataset extent: the largest prime below it (1 below 3), so that
    sizes of different extents differ (atax: 37 x 41) and none is a multiple of a block."""
    for n in range(value - 1, 1, -1):
        if is_prime(n):
            return n
    return 1


def verify(rtcuda, out, extra, log, timeout):
    """(status, seconds, summary line or first error)."""
    start = time.time()
    status, stdout, stderr = polybench.run([rtcuda, "verify", out] + extra, timeout)
    seconds = time.time() - start
    with open(log, "w") as f:
        f.write(" ".join(["rtcuda", "verify", out] + extra) + "\n" + stdout + stderr)
    text = stdout + stderr
    last = [l for l in text.splitlines() if l.startswith("verified ")]
    if status == 0 and last:
        return "ok", seconds, last[-1]
    if status == -9:
        return "TIMEOUT", seconds, "no result in %d s" % timeout
    for line in text.splitlines():
        if "MISMATCH" in line or "ThreadSanitizer: data race" in line or "runtime error" in line \
                or "ERROR: AddressSanitizer" in line or ": error:" in line:
            return "FAIL", seconds, line.strip()
    return "FAIL", seconds, last[-1] if last else "status %d" % status


def points_of(summary):
    m = re.search(r"at (\d+) parameter point\(s\) and (\d+) size", summary)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def polybench_rows(args, work):
    poly = os.path.abspath(args.polybench)
    todo = polybench.benchmarks(poly) + polybench.extra_benchmarks()
    if args.only:
        todo = [b for b in todo if b[0] in args.only]
    for name, source in todo:
        status, out, log = polybench.translate(args.rtcuda, name, source, poly, "MINI", work)
        if status != 0:
            yield {"program": name, "check": "translate", "result": "refused" if status == 1 else
                   "CRASH", "note": polybench.first_error(log), "seconds": 0}
            continue
        info = polybench.summarize(out)
        if info["kernels"] == 0:
            yield {"program": name, "check": "-", "result": "no kernel", "seconds": 0,
                   "note": "kept on the host (on_dependence: host)"}
            continue
        header = os.path.splitext(source)[0] + ".h"
        sizes = polybench.dataset_sizes(header, "MINI")
        if name in polybench.VERIFY_SIZE_LIMIT:
            small, large = (p.upper() for p in polybench.VERIFY_SIZE_LIMIT[name])
            sizes[small] = min(sizes[small], sizes[large])
        params = info["size_params"]
        missing = [p for p in params if p.upper() not in sizes]
        if missing:
            yield {"program": name, "check": "-", "result": "FAIL", "seconds": 0,
                   "note": "no dataset size for " + ",".join(missing)}
            continue
        common = ["--max-points", str(args.max_points), "--sizes", "1"]
        if name in polybench.VERIFY_TOLERANCE:
            common += ["--tolerance", str(polybench.VERIFY_TOLERANCE[name])]
        # The race check once, at the prime sizes: programs that launch per host iteration
        # (nussinov: 2 launches per (i, j)) spend many minutes under ThreadSanitizer.
        for label, pick in (("MINI", lambda v: v), ("prime", prime_below)):
            race = [] if label == "prime" and not args.no_race_check else ["--no-race-check"]
            chosen = {p: pick(sizes[p.upper()]) for p in params}
            if name in polybench.VERIFY_SIZE_LIMIT:  # keep its relation (n <= m)
                small, large = polybench.VERIFY_SIZE_LIMIT[name]
                if small in chosen and large in chosen:
                    chosen[small] = min(chosen[small], chosen[large])
            extra = common + race + sum((["--size", "%s=%d" % (p, v)]
                                         for p, v in sorted(chosen.items())), [])
            log = os.path.join(work, name, "verify-%s.log" % label)
            result, seconds, note = verify(args.rtcuda, out, extra, log, args.timeout)
            yield {"program": name, "check": label + " " + ",".join(
                "%s=%d" % (p, v) for p, v in sorted(chosen.items())), "result": result,
                   "seconds": seconds, "note": note, "log": log}


def kinds_rows(args, work):
    configs = sorted(f[:-5] for f in os.listdir(args.kinds)
                     if f.startswith("config") and f.endswith(".yaml"))
    if args.quick:
        configs = [c for c in configs if c in QUICK_KINDS]
    for config in configs:
        out = os.path.join(work, "kinds", config, "out")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        status, stdout, stderr = polybench.run(
            [args.rtcuda, "translate", os.path.join(args.kinds, config + ".yaml"), "-o", out], 600,
            cwd=args.kinds)
        if status != 0:
            yield {"program": "kinds/" + config, "check": "translate", "result": "FAIL",
                   "seconds": 0, "note": polybench.first_error(stdout + stderr)}
            continue
        extra = ["--max-points", str(args.max_points)]
        if args.quick:
            extra += ["--sizes", "1,31"]
        if args.no_race_check:
            extra.append("--no-race-check")
        log = os.path.join(work, "kinds", config, "verify.log")
        result, seconds, note = verify(args.rtcuda, out, extra, log, args.timeout)
        yield {"program": "kinds/" + config, "check": "sizes " + ("1,31" if args.quick else
                                                                  "1,31,33,100"),
               "result": result, "seconds": seconds, "note": note, "log": log}


def table(rows):
    head = ["program", "sizes", "result", "points x sizes", "s", "note"]
    lines = []
    for r in rows:
        pts, szs = points_of(r["note"]) if r["result"] == "ok" else (0, 0)
        lines.append([r["program"], r["check"], r["result"], "%d x %d" % (pts, szs) if pts else "-",
                      "%.0f" % r["seconds"], "" if r["result"] == "ok" else r["note"]])
    widths = [min(max(len(c[i]) for c in [head] + lines), 48) for i in range(len(head) - 1)]
    fmt = lambda c: "  ".join(x[:w].ljust(w) for x, w in zip(c, widths)) + "  " + c[-1]
    return "\n".join([fmt(head)] + [fmt(c).rstrip() for c in lines])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--rtcuda", default=os.path.join(REPO, "build", "bin", "rtcuda"))
    p.add_argument("--polybench", default=os.path.join(REPO, "..", "shared", "external",
                                                       "polybench-c-4.2.1"))
    p.add_argument("--kinds", default=KINDS, help="the kinds' folder (kernels.c, config*.yaml)")
    p.add_argument("--out", default="verify-sweep")
    p.add_argument("--max-points", type=int, default=6)
    p.add_argument("--only", type=lambda s: s.split(","), help="comma-separated PolyBench names")
    p.add_argument("--no-polybench", action="store_true")
    p.add_argument("--no-kinds", action="store_true")
    p.add_argument("--no-race-check", action="store_true")
    p.add_argument("--quick", action="store_true",
                   help="CI: " + ", ".join(QUICK_POLYBENCH) + " and kinds/" + ", ".join(QUICK_KINDS)
                   + ", 2 points, sizes up to 31")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per verify")
    p.add_argument("--json", help="write the rows as JSON")
    args = p.parse_args()
    if args.quick:
        args.only = args.only or QUICK_POLYBENCH
        args.max_points = min(args.max_points, 2)
    # Translations run in PolyBench's folder (messages name its files relative to it).
    args.rtcuda, args.kinds = os.path.abspath(args.rtcuda), os.path.abspath(args.kinds)
    work = os.path.abspath(args.out)
    os.makedirs(work, exist_ok=True)
    have_polybench = os.path.isfile(os.path.join(args.polybench, "utilities", "polybench.c"))
    if not have_polybench and not args.no_polybench:
        print("verify_sweep: no PolyBench/C at %s: kinds only" % args.polybench, file=sys.stderr)
    rows, start = [], time.time()
    sources = ([] if args.no_kinds else [kinds_rows(args, work)]) + \
        ([polybench_rows(args, work)] if have_polybench and not args.no_polybench else [])
    for source in sources:
        for r in source:
            rows.append(r)
            print("%-28s %-40s %-9s %5.0f s  %s" % (r["program"], r["check"][:40], r["result"],
                                                    r["seconds"], r["note"]), flush=True)
    if not rows:
        return 77
    print("\n" + table(rows))
    bad = [r for r in rows if r["result"] in ("FAIL", "CRASH", "TIMEOUT")]
    ok = sum(r["result"] == "ok" for r in rows)
    print("\nverify_sweep: %d verify run(s) ok, %d failed, %d refused or without kernels; %.0f s"
          % (ok, len(bad), len(rows) - ok - len(bad), time.time() - start))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
