#!/usr/bin/env python3
"""rtcuda-tune over acc.py's translations (PolyBench/C 4.2.1 at PolyBench-ACC's LARGE sizes, in
float), one program after another on one GPU, inside a time box (docs/polybench.md, "After
rtcuda-tune"; bench/polybench/tune_acc.sh builds the tuner and calls this).

  tune_acc.py run DIR RESULTS --tune RTCUDA_TUNE [--only a,b] [--deadline S] [--kernel-seconds S]
      [--max-variants N] [--timeout S] [--jobs N]
      Tunes every output DIR/<bench>/acc/out of DIR/acc-plan.json at its ACC sizes (--size of
      each define, lower-cased as the kernel functions name them), each variant checked at a
      small size first; the outputs' <kernel>_params.h are rewritten in place. No program
      starts after --deadline seconds; one still running then is interrupted (rtcuda-tune
      leaves its headers as they were, so the defaults stay). Writes RESULTS/table.md (the
      default point against the tuned one for every kernel), RESULTS/summary.json, the tuned
      headers and the kernel.cu they were tuned for under RESULTS/tuned/<bench>/ (what
      `acc.py gpu --tuned` takes) and each
      program's log and reports under RESULTS/logs/<bench>/.
  tune_acc.py selftest
      CI: apply_tuned (what `acc.py gpu --tuned` does to each output) and the table's check of
      the tuned points against the defaults, on made-up files.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time


def header_defines(path):
    """{macro: value} of a <kernel>_params.h."""
    return dict(re.findall(r"^#define\s+(\w+)\s+(\S+)", open(path).read(), re.M))


def apply_tuned(out, tuned, dst):
    """A copy of the output `out` at `dst` with the <kernel>_params.h that rtcuda-tune wrote into
    `tuned` (tune_acc.sh's tuned/<bench>/, with the kernel.cu they were tuned for): (folder,
    note), or (None, why) when they do not belong to this translation (another kernel.cu, no
    such kernel, other macros), so that no point is applied to code it was not checked for."""
    headers = sorted(f for f in os.listdir(tuned) if f.endswith("_params.h"))
    if not headers:
        return None, "no tuned headers in %s" % tuned
    tuned_code = os.path.join(tuned, "kernel.cu")
    if not os.path.exists(tuned_code) or \
            open(tuned_code).read() != open(os.path.join(out, "kernel.cu")).read():
        return None, "the kernels were tuned for another kernel.cu than this translation's"
    changed = []
    for h in headers:
        mine = os.path.join(out, h)
        if not os.path.exists(mine):
            return None, "tuned header %s: no such kernel in this translation" % h
        want, have = header_defines(os.path.join(tuned, h)), header_defines(mine)
        if sorted(want) != sorted(have):
            return None, "tuned header %s defines %s, this translation's %s" % (
                h, ",".join(sorted(want)), ",".join(sorted(have)))
        if want != have:
            changed.append(h[:-len("_params.h")] + " " + ",".join(
                "%s=%s" % (k, v) for k, v in sorted(want.items()) if have[k] != v))
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(out, dst, ignore=shutil.ignore_patterns("tuning"))
    for h in headers:
        shutil.copy(os.path.join(tuned, h), os.path.join(dst, h))
    return dst, "tuned: %d of %d kernels off their default (%s)" % (
        len(changed), len(headers), "; ".join(changed) or "all defaults kept")


def sizes_of(entry):
    """rtcuda-tune's --size arguments from acc.py's defines: NI=1024 -> ni=1024."""
    argv = []
    for d in entry["defines"]:
        if "=" in d:
            name, value = d.split("=", 1)
            argv += ["--size", "%s=%s" % (name.lower(), value)]
    return argv


def run_tuner(argv, log_path, stop_at):
    """rtcuda-tune with its output in log_path; interrupted (SIGINT, as Ctrl-C) at stop_at and
    killed 20 s later. Returns (exit status, seconds, whether it was interrupted)."""
    t0 = time.time()
    interrupted = False
    with open(log_path, "w") as log:
        p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
        try:
            status = p.wait(timeout=max(1.0, stop_at - time.time()))
        except subprocess.TimeoutExpired:
            interrupted = True
            p.send_signal(signal.SIGINT)
            try:
                status = p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                status = p.wait()
    return status, time.time() - t0, interrupted


def us(v):
    return "%.2f" % v if v is not None and v >= 0 else "-"


def table(rows, total_seconds, tuner_argv):
    lines = ["| benchmark | kernel | target size | checked at | default point | default us | "
             "tuned point | tuned us | default/tuned | decision | seconds |",
             "|" + "---|" * 11]
    for r in rows:
        ratio = "%.3f" % (r["default_us"] / r["tuned_us"]) \
            if (r.get("default_us") or -1) > 0 and (r.get("tuned_us") or -1) > 0 else "-"
        lines.append("| " + " | ".join([
            r["bench"], r["kernel"], r.get("sizes", "-"), r.get("check_sizes", "-"),
            r.get("default", "-"), us(r.get("default_us")), r.get("tuned", "-"),
            us(r.get("tuned_us")), ratio, r["decision"].replace("|", "/"),
            "%.1f" % r["seconds"] if r.get("seconds") is not None else "-"]) + " |")
    measured = [r for r in rows if r.get("measured")]
    replaced = [r for r in measured if r.get("tuned") != r.get("default")]
    # Both timed in the same final round at the target size; a replaced default that has no
    # time failed its check or could not run.
    slower = [r for r in replaced if r.get("default_us") and r.get("tuned_us") and
              r["tuned_us"] >= r["default_us"]]
    untimed = [r for r in replaced if not (r.get("default_us") and r.get("tuned_us"))]
    secs = [r["seconds"] for r in measured if r.get("seconds") is not None]
    summary = [
        "",
        "rtcuda-tune %s" % " ".join(tuner_argv),
        "Kernels: %d in all; %d measured (%d tuned points replace the default, %d keep it); "
        "%d not tuned (listed with the reason)." % (len(rows), len(measured), len(replaced),
                                                     len(measured) - len(replaced),
                                                     len(rows) - len(measured)),
        "Tuned points slower than the default at the target size: %s." %
        (", ".join("%s/%s" % (r["bench"], r["kernel"]) for r in slower) or "none"),
    ]
    if untimed:
        summary.append("Replaced without both times (the default failed or did not run): %s." %
                       ", ".join("%s/%s: %s" % (r["bench"], r["kernel"], r["decision"]) for r in untimed))
    if secs:
        summary.append("Seconds per measured kernel (its share of the compiles and its "
                       "measuring): mean %.1f, max %.1f; whole run %.0f s." %
                       (sum(secs) / len(secs), max(secs), total_seconds))
    return "\n".join(lines + summary) + "\n"


def run_main(args):
    start = time.time()
    plan = json.load(open(os.path.join(args.dir, "acc-plan.json")))
    if args.only:
        plan = [p for n in args.only.split(",") for p in plan if p["name"] == n]
    os.makedirs(args.results, exist_ok=True)
    options = ["--max-variants", str(args.max_variants), "--kernel-seconds", str(args.kernel_seconds),
               "--timeout", str(args.timeout)] + (["--jobs", str(args.jobs)] if args.jobs else []) + \
        [a for extra in args.tuner_arg for a in extra.split(" ", 1)]
    rows, programs = [], []
    for entry in plan:
        name = entry["name"]
        out = os.path.join(args.dir, name, "acc", "out")
        prog = {"bench": name, "status": None, "seconds": 0.0, "note": ""}
        programs.append(prog)
        if not entry["translated"]:
            prog["note"] = "not translated: " + entry["reason"]
            rows.append({"bench": name, "kernel": "-", "decision": prog["note"]})
            continue
        left = start + args.deadline - time.time()
        if left < args.min_start:
            prog["note"] = "not started: %.0f s left before --deadline" % max(left, 0)
            rows.append({"bench": name, "kernel": "-", "decision": prog["note"]})
            print("%-14s %s" % (name, prog["note"]), flush=True)
            continue
        logs = os.path.join(args.results, "logs", name)
        os.makedirs(logs, exist_ok=True)
        shutil.rmtree(os.path.join(out, "tuning"), ignore_errors=True)   # a fresh cache
        argv = [args.tune, out] + sizes_of(entry) + options
        status, seconds, interrupted = run_tuner(argv, os.path.join(logs, "rtcuda-tune.log"),
                                                 start + args.deadline)
        prog.update(status=status, seconds=round(seconds, 1))
        report = os.path.join(out, "tuning", "report.json")
        for f in ("report.md", "report.json", "default-vs-tuned.md"):
            if os.path.exists(os.path.join(out, "tuning", f)):
                shutil.copy(os.path.join(out, "tuning", f), logs)
        got = json.load(open(report))["default_vs_tuned"] if os.path.exists(report) else []
        why = "" if status == 0 else \
            "interrupted at --deadline: the defaults stay" if interrupted else \
            "rtcuda-tune exit %d (see logs/%s/rtcuda-tune.log): the defaults stay" % (status, name)
        prog["note"] = why
        for r in got:
            row = dict(r, bench=name)
            row["measured"] = status == 0 and not r["decision"].startswith("not tuned")
            if why:
                row["decision"] = why + " (" + r["decision"] + ")"
                row["tuned"], row["tuned_us"], row["measured"] = r.get("default"), None, False
            rows.append(row)
        if not got:
            rows.append({"bench": name, "kernel": "-", "decision": why or "no report"})
        if status == 0:   # the headers rtcuda-tune wrote
            dst = os.path.join(args.results, "tuned", name)
            os.makedirs(dst, exist_ok=True)
            for f in sorted(os.listdir(out)):
                if f.endswith("_params.h") or f == "kernel.cu":
                    shutil.copy(os.path.join(out, f), dst)
        print("%-14s exit %d, %.1f s, %d kernel(s)%s" % (name, status, seconds, len(got),
                                                          ": " + why if why else ""), flush=True)
        json.dump({"programs": programs, "kernels": rows}, open(os.path.join(args.results, "summary.json"), "w"), indent=1)
    text = table(rows, time.time() - start, ["DIR/<bench>/acc/out", "--size ..."] + options)
    open(os.path.join(args.results, "table.md"), "w").write(text)
    json.dump({"programs": programs, "kernels": rows}, open(os.path.join(args.results, "summary.json"), "w"), indent=1)
    print(text)
    return 0


def selftest_main(args):
    """apply_tuned and the table on made-up files (CI): a tuned value reaches the copy and the
    original stays; headers tuned for another kernel.cu, of a kernel the translation lacks, or
    with other macros, are refused;
    a tuned point slower than the default is reported."""
    import tempfile
    failures = []
    root = tempfile.mkdtemp(prefix="tune-acc-selftest-")
    out, tuned = os.path.join(root, "out"), os.path.join(root, "tuned")
    os.makedirs(out)
    os.makedirs(tuned)
    header = "// params\n#define K_1_BLOCKSIZE %d\n#define K_1_LANES %d\n"
    open(os.path.join(out, "k_1_params.h"), "w").write(header % (256, 32))
    open(os.path.join(out, "kernel.cu"), "w").write("// kernels\n")
    open(os.path.join(tuned, "kernel.cu"), "w").write("// other kernels\n")
    open(os.path.join(tuned, "k_1_params.h"), "w").write(header % (128, 32))
    if apply_tuned(out, tuned, os.path.join(root, "copy"))[0] is not None:
        failures.append("points tuned for another kernel.cu were applied")
    shutil.copy(os.path.join(out, "kernel.cu"), tuned)
    dst, note = apply_tuned(out, tuned, os.path.join(root, "copy"))
    if dst is None or header_defines(os.path.join(dst, "k_1_params.h"))["K_1_BLOCKSIZE"] != "128" or \
            header_defines(os.path.join(out, "k_1_params.h"))["K_1_BLOCKSIZE"] != "256" or \
            not os.path.exists(os.path.join(dst, "kernel.cu")) or "1 of 1" not in note:
        failures.append("tuned value not applied to the copy: %s" % note)
    open(os.path.join(tuned, "k_1_params.h"), "w").write("#define K_1_BLOCKSIZE 128\n")
    if apply_tuned(out, tuned, os.path.join(root, "copy"))[0] is not None:
        failures.append("a header with other macros was applied")
    os.remove(os.path.join(tuned, "k_1_params.h"))
    open(os.path.join(tuned, "k_2_params.h"), "w").write(header % (64, 32))
    if apply_tuned(out, tuned, os.path.join(root, "copy"))[0] is not None:
        failures.append("a header of a kernel the translation lacks was applied")
    rows = [{"bench": "b", "kernel": "fast", "measured": True, "default": "A", "tuned": "B",
             "default_us": 10.0, "tuned_us": 5.0, "decision": "faster", "seconds": 1.0},
            {"bench": "b", "kernel": "slow", "measured": True, "default": "A", "tuned": "B",
             "default_us": 10.0, "tuned_us": 12.0, "decision": "planted", "seconds": 1.0}]
    text = table(rows, 2.0, [])
    if "Tuned points slower than the default at the target size: b/slow." not in text:
        failures.append("a slower tuned point is not reported:\n" + text)
    shutil.rmtree(root, ignore_errors=True)
    print("tune_acc.py selftest: " + ("ok" if not failures else "FAILED: " + "; ".join(failures)))
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("dir", help="acc.py translate's --out folder")
    r.add_argument("results")
    r.add_argument("--tune", required=True, help="the rtcuda-tune executable")
    r.add_argument("--only", help="comma-separated ACC benchmark names, in this order")
    r.add_argument("--deadline", type=float, default=430,
                   help="seconds after which no program starts and a running one is interrupted")
    r.add_argument("--min-start", type=float, default=20,
                   help="a program starts only with this many seconds left before --deadline")
    r.add_argument("--kernel-seconds", type=float, default=20, help="rtcuda-tune's per-kernel limit")
    r.add_argument("--max-variants", type=int, default=64, help="rtcuda-tune's sample of a space")
    r.add_argument("--timeout", type=float, default=20, help="rtcuda-tune's seconds per variant")
    r.add_argument("--jobs", type=int, default=0, help="parallel compiles (0: one per core)")
    r.add_argument("--tuner-arg", action="append", default=[],
                   help="one more rtcuda-tune option, e.g. '--harness FAKE' (tests)")
    sub.add_parser("selftest")
    args = p.parse_args()
    if args.mode == "selftest":
        return selftest_main(args)
    args.dir, args.results = os.path.abspath(args.dir), os.path.abspath(args.results)
    args.tune = os.path.abspath(args.tune)
    return run_main(args)


if __name__ == "__main__":
    sys.exit(main())
