#!/usr/bin/env python3
"""PolyBench/C 4.2.1 through rtcuda, from the unchanged sources (docs/polybench.md).

  run.py cpu POLYBENCH_DIR [--out DIR] [-j N] [--datasets MINI,SMALL] [--markdown FILE]
      For each of the 30 benchmarks: write a config, `rtcuda translate` at each dataset,
      `rtcuda verify` the first dataset's output at that dataset's sizes, `rtcuda run` every
      output with -DPOLYBENCH_DUMP_ARRAYS and compare the dump number by number (relative
      tolerance 1e-6) with the same program built by gcc. Prints the table; exit status 1 if any
      output is wrong, anything crashed or a translated output does not build; refusals are
      counted and reported, not failures.
  run.py translate POLYBENCH_DIR --out DIR [--datasets MEDIUM,LARGE,SMALL]
      Only translate: the folders to carry to a GPU machine (each output is self-contained).
  run.py gpu DIR [-j N] [--datasets MEDIUM,LARGE] [--memcheck SMALL] [--markdown FILE]
      On the GPU machine (nvcc, CMake, gcc; no LLVM): build each translated output in DIR with
      its CMake project, run it, compare its dump with gcc's build of the program copied into
      the output (src/, include/); compute-sanitizer memcheck at the --memcheck dataset.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RTOL = 1e-6


def benchmarks(root):
    """The 30 benchmarks: each folder's <name>/<name>.c (nussinov's .orig.c is not one)."""
    found = []
    for dirpath, _, files in os.walk(root):
        name = os.path.basename(dirpath)
        if name + ".c" in files and "utilities" not in dirpath:
            found.append((name, os.path.join(dirpath, name + ".c")))
    return sorted(found)


# Programs in PolyBench/C's style that 4.2.1 lacks (bench/polybench/extra/README.md):
# PolyBench-ACC's 2DConvolution and 3DConvolution. They include PolyBench's utilities.
EXTRA = os.path.join(HERE, "extra")


def extra_benchmarks():
    """[(name, source)] of bench/polybench/extra/<name>/<name>.c."""
    return sorted((n, os.path.join(EXTRA, n, n + ".c")) for n in os.listdir(EXTRA)
                  if os.path.isfile(os.path.join(EXTRA, n, n + ".c")))


def include_dirs(poly, source):
    """-I folders of a program: PolyBench's utilities, and extra/ for extra/'s programs."""
    extra = [EXTRA] if os.path.dirname(os.path.dirname(source)) == EXTRA else []
    return [os.path.join(poly, "utilities")] + extra


def run(argv, timeout, cwd=None, env=None):
    """(status, stdout, stderr); status -9 on a timeout, -127 if it could not start."""
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return -9, "", "timed out after %d s" % timeout
    except OSError as e:
        return -127, "", str(e)


def dataset_sizes(header, dataset):
    """{NAME: value} of the benchmark header's `#ifdef <DATASET>_DATASET` block."""
    sizes, inside = {}, False
    for line in open(header, errors="replace"):
        s = line.strip()
        if re.match(r"#\s*ifdef\s+%s_DATASET\b" % dataset, s):
            inside = True
        elif inside and re.match(r"#\s*endif", s):
            break
        elif inside:
            m = re.match(r"#\s*define\s+(\w+)\s+(\d+)\s*$", s)
            if m:
                sizes[m.group(1)] = int(m.group(2))
    return sizes


def dump_numbers(text):
    """The tokens between '==BEGIN DUMP_ARRAYS==' and '==END   DUMP_ARRAYS=='."""
    begin, end = text.find("==BEGIN DUMP_ARRAYS=="), text.find("==END   DUMP_ARRAYS==")
    if begin < 0 or end < 0:
        return None
    return text[begin:end].split()[1:]


def last_place(token):
    """One unit in the last printed decimal place of `token` (PolyBench prints '%0.2lf'): two
    sums of the same numbers in another order may round to neighbouring printed values, which
    no relative tolerance on the printed text can tell from a true difference of one unit."""
    decimals = len(token.split(".", 1)[1]) if "." in token and "e" not in token.lower() else None
    return 1.0001 * 10.0 ** -decimals if decimals else 0.0


def compare_dumps(want, got):
    """'' if equal within RTOL (numbers) or exactly (words), else the first difference."""
    a, b = dump_numbers(want), dump_numbers(got)
    if a is None:
        return "the gcc build printed no dump"
    if b is None:
        return "no dump printed"
    if len(a) != len(b):
        return "dump has %d tokens, gcc's %d" % (len(b), len(a))
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return "token %d: '%s', gcc '%s'" % (i, y, x)
        if not abs(fx - fy) <= max(RTOL * max(abs(fx), abs(fy)), last_place(x)):
            return "value %d: %s, gcc %s" % (i, y, x)
    return ""


def gcc_build(source, include_dirs, extra, defines, exe, timeout=300, opt=("-O2",)):
    argv = ["gcc"] + list(opt) + ["-std=gnu11", "-w"] + ["-I" + d for d in include_dirs] + \
        ["-D" + d for d in defines] + [source] + extra + ["-lm", "-o", exe]
    status, out, err = run(argv, timeout)
    return status == 0, out + err


# ---- what the translation made (from manifest.json and rtcuda's messages) ----

def summarize(out_dir):
    m = json.load(open(os.path.join(out_dir, "manifest.json")))
    kernels = list(m.get("kernels", []))
    functions = m.get("functions", [])
    for f in functions:
        kernels += f.get("outlined_kernels", [])
    remarks = [r for k in kernels for r in k.get("remarks", [])]
    fremarks = [r for f in functions for r in f.get("remarks", [])]
    passes = sorted({p for k in kernels for p in k.get("passes", [])})
    return {
        "kernels": len(kernels),
        "parallel": sum(1 for r in remarks if re.search(r"^loop '\w+' \(.*\): parallel", r)),
        "host_loops": sum(1 for r in fremarks if "stays on the host" in r),
        "one_thread": sum(1 for r in fremarks if "runs in one GPU thread" in r),
        "passes": passes,
        # Loops that do not run on GPU threads, each with its reason.
        "sequential": [r for r in fremarks if "stays on the host" in r or
                       ("one GPU thread" in r and "loop '" in r)],
        # verify checks an outlined function as a whole: its own parameters are the sizes, not
        # the host loop variables (i, k) its kernels take as parameters.
        "size_params": sorted({p["name"] for k in m.get("kernels", []) + functions
                               for p in k.get("params", [])
                               if p.get("kind") == "scalar" and p.get("role") == "size"}),
    }


def first_error(text):
    for line in text.splitlines():
        if ": error: " in line:
            return re.sub(r"^.*?: error: ", "", line).strip()
    return text.strip().splitlines()[-1] if text.strip() else "no message"


# ---- one benchmark on the CPU ----

def write_config(path, source, poly, defines):
    util = os.path.join(poly, "utilities")
    with open(path, "w") as f:
        f.write("# Generated by bench/polybench/run.py: the unchanged PolyBench source.\n")
        f.write("source: %s\n" % json.dumps(source))
        f.write("include_dirs: [%s]\n" % ", ".join(json.dumps(d) for d in include_dirs(poly, source)))
        f.write("defines: [%s]\n" % ", ".join(json.dumps(d) for d in defines))
        f.write("extra_sources: [%s]\n" % json.dumps(os.path.join(util, "polybench.c")))
        # A function in which no loop can run in parallel stays C on the host, with a warning
        # at each loop (seidel-2d, floyd-warshall), instead of being refused.
        f.write("defaults:\n  on_dependence: host\n")


def translate(rtcuda, name, source, poly, dataset, work, defines=None):
    """Translates into <work>/<name>/<dataset>/out; `defines` replaces the dataset's
    (bench/polybench/acc.py passes PolyBench-ACC's sizes; `dataset` then names the folder)."""
    d = os.path.join(work, name, dataset)
    os.makedirs(d, exist_ok=True)
    config = os.path.join(d, "config.yaml")
    write_config(config, source, poly,
                 defines if defines is not None else [dataset + "_DATASET", "POLYBENCH_DUMP_ARRAYS"])
    out = os.path.join(d, "out")
    # From PolyBench's folder: messages name its files relative to it, not this machine's paths.
    status, stdout, stderr = run([rtcuda, "translate", config, "-o", out], 600, cwd=poly)
    with open(os.path.join(d, "translate.log"), "w") as f:
        f.write(stdout + stderr)
    return status, out, stdout + stderr


# Verify's inputs are random, not PolyBench's: where that makes a function's result depend on
# the order of floating-point operations, verify runs where the result does not.
# gramschmidt: with fewer rows than columns (m < n, MINI and SMALL) the later columns are
# rounding noise divided by rounding noise; verified at n = m, and like the two below within
# 1000 times the bound (a random square matrix's last columns are nearly dependent, seed 991522).
# ludcmp (LU without pivoting of a random matrix) and durbin (Levinson recursion on a random,
# not positive definite, sequence): each step divides by values the earlier steps' parallel
# reductions summed in another order, so rounding grows with n; compared within 1000 times
# the default bound (1.4e-10 relative at n = 40). A wrong kernel is off by far more.
# lu (LU without pivoting too): its k updates run as atomics, in another order than the
# sequential C's (seed 747972: 267 mismatches at the default bound, each equal to the 9 digits
# printed; 0 within 1000 times it).
VERIFY_SIZE_LIMIT = {"gramschmidt": ("n", "m")}
VERIFY_TOLERANCE = {"ludcmp": 1000, "durbin": 1000, "gramschmidt": 1000, "lu": 1000}


def cpu_benchmark(args, name, source):
    rtcuda, poly, work = args.rtcuda, args.polybench, args.out
    row = {"name": name, "translated": False, "verify": "-", "wrong": [], "crash": [],
           "unstable": [],
           "runs": {}, "reason": ""}
    header = os.path.splitext(source)[0] + ".h"
    util = os.path.join(poly, "utilities")
    for i, dataset in enumerate(args.datasets):
        status, out, log = translate(rtcuda, name, source, poly, dataset, work)
        if status not in (0, 1):
            row["crash"].append("translate %s: status %d: %s" % (dataset, status, first_error(log)))
            return row
        if status == 1:
            row["reason"] = first_error(log)
            if i > 0:   # translated at one dataset, refused at another
                row["crash"].append("translate %s refused: %s" % (dataset, row["reason"]))
            return row
        row["translated"] = True
        row.update(summarize(out))
        if i == 0 and not args.no_verify:
            sizes = dataset_sizes(header, dataset)
            if name in VERIFY_SIZE_LIMIT:
                small, large = (p.upper() for p in VERIFY_SIZE_LIMIT[name])
                if small in sizes and large in sizes:
                    sizes[small] = min(sizes[small], sizes[large])
            argv = [rtcuda, "verify", out, "--sizes", "1"]
            if name in VERIFY_TOLERANCE:
                argv += ["--tolerance", str(VERIFY_TOLERANCE[name])]
            missing = [p for p in row["size_params"] if p.upper() not in sizes]
            for p in row["size_params"]:
                if p.upper() in sizes:
                    argv += ["--size", "%s=%d" % (p, sizes[p.upper()])]
            if args.no_race_check:
                argv.append("--no-race-check")
            if missing:
                row["verify"] = "no sizes for " + ",".join(missing)
            elif row["kernels"] == 0:
                # Kept on the host (on_dependence: host): no kernel to check against the C,
                # which verify would only run twice (floyd-warshall's on verify's random
                # integers overflows); the program's dump is still compared with gcc's.
                row["verify"] = "no kernel"
            else:
                vstatus, vout, verr = run(argv, 900)
                open(os.path.join(work, name, dataset, "verify.log"), "w").write(vout + verr)
                row["verify"] = "ok" if vstatus == 0 else "FAIL"
                if vstatus != 0:
                    row["wrong"].append("verify %s: %s" % (dataset, first_error(vout + verr)))
        # The program on the emulator against gcc's build of the same source.
        exe = os.path.join(work, name, dataset, "gcc-program")
        ok, blog = gcc_build(source, include_dirs(poly, source), [os.path.join(util, "polybench.c")],
                             [dataset + "_DATASET", "POLYBENCH_DUMP_ARRAYS"], exe)
        if not ok:
            row["crash"].append("gcc build %s: %s" % (dataset, first_error(blog)))
            continue
        _, _, want = run([exe], 600)
        rstatus, rout, rerr = run([rtcuda, "run", out], 1800)
        open(os.path.join(work, name, dataset, "run.log"), "w").write(rout + rerr)
        if rstatus != 0:
            row["runs"][dataset] = "CRASH"
            row["crash"].append("run %s: status %d: %s" % (dataset, rstatus, first_error(rerr)))
            continue
        diff = compare_dumps(want, rerr)
        if diff:
            unstable = order_sensitive(source, include_dirs(poly, source), [os.path.join(util, "polybench.c")],
                                       [dataset + "_DATASET", "POLYBENCH_DUMP_ARRAYS"], exe, want)
            if unstable:
                row["runs"][dataset] = "UNSTABLE"
                row["unstable"].append("run %s: %s; but %s" % (dataset, diff, unstable))
            else:
                row["runs"][dataset] = "WRONG"
                row["wrong"].append("run %s: %s" % (dataset, diff))
        else:
            row["runs"][dataset] = "ok"
    return row


def order_sensitive(source, include_dirs, extra, defines, exe, want):
    """'' when the program's dump does not depend on the order of its floating-point
    operations, else what shows that it does: the same source built by gcc with reassociation
    allowed (-O3 -ffast-math) prints a dump that differs from gcc -O2's. Such a dump cannot
    judge a parallel version number by number (PolyBench's gramschmidt at MINI: its matrix is
    rank-deficient, so later columns are rounding noise divided by rounding noise)."""
    fast = exe + "-fast-math"
    ok, _ = gcc_build(source, include_dirs, extra, defines, fast, opt=("-O3", "-ffast-math"))
    if not ok:
        return ""
    _, _, other = run([fast], 600)
    diff = compare_dumps(want, other)
    return "gcc -O3 -ffast-math differs from gcc -O2 too (%s)" % diff if diff else ""


# ---- the table ----

def table(rows, datasets, markdown):
    head = ["benchmark", "translated", "kernels", "parallel loops", "host loops", "passes",
            "verify"] + datasets + ["refusal reason / loops kept sequential, each with its reason"]
    lines = []
    for r in rows:
        note = r["reason"] if not r["translated"] else " · ".join(r.get("sequential", []))
        note += "".join(" [%s]" % p for p in r["wrong"] + r["crash"] + r["unstable"])
        cells = [r["name"], "yes" if r["translated"] else "no",
                 str(r.get("kernels", "-")) if r["translated"] else "-",
                 str(r.get("parallel", "-")) if r["translated"] else "-",
                 str(r.get("host_loops", "-")) if r["translated"] else "-",
                 ", ".join(r.get("passes", [])) if r["translated"] else "-",
                 r["verify"]] + [r["runs"].get(d, "-") for d in datasets] + [note]
        lines.append(cells)
    if markdown:
        md = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        md += ["| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |" for cells in lines]
        return "\n".join(md) + "\n"
    widths = [min(max(len(str(c[i])) for c in [head] + lines), 40 if i < len(head) - 1 else 200)
              for i in range(len(head))]
    fmt = lambda cells: "  ".join(str(c)[:w].ljust(w) for c, w in zip(cells, widths)).rstrip()
    return "\n".join([fmt(head)] + [fmt(c) for c in lines]) + "\n"


def totals(rows, datasets):
    t = sum(r["translated"] for r in rows)
    par = sum(1 for r in rows if r["translated"] and r.get("parallel", 0) > 0)
    wrong = sum(1 for r in rows if r["wrong"])
    crash = sum(1 for r in rows if r["crash"])
    right = {d: sum(1 for r in rows if r["runs"].get(d, "").startswith("ok")) for d in datasets}
    unstable = sum(1 for r in rows if r["unstable"])
    return ("%d of %d translated; %d with a loop on GPU threads; %d refused; right output: %s; "
            "%d wrong, %d crashed or broken; %d whose dump depends on the order of floating-point "
            "operations (not judged)" %
            (t, len(rows), par, len(rows) - t,
             ", ".join("%s %d" % (d, right[d]) for d in datasets), wrong, crash, unstable))


def cpu_main(args):
    args.polybench = os.path.abspath(args.polybench)
    if not os.path.isfile(os.path.join(args.polybench, "utilities", "polybench.c")):
        print("run.py: no PolyBench/C at %s" % args.polybench, file=sys.stderr)
        return 77
    os.makedirs(args.out, exist_ok=True)
    args.out = os.path.abspath(args.out)
    todo = benchmarks(args.polybench) + (extra_benchmarks() if args.extra else [])
    if args.only:
        todo = [b for b in todo if b[0] in args.only.split(",")]
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda b: cpu_benchmark(args, *b), todo))
    print(table(rows, args.datasets, False))
    print(totals(rows, args.datasets))
    print("run.py: %.0f s, %d job(s)" % (time.time() - start, args.jobs))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table(rows, args.datasets, True) + "\n" + totals(rows, args.datasets) + "\n")
    if args.doc:
        update_doc(args.doc, table(rows, args.datasets, True) + "\n" + totals(rows, args.datasets)
                   + "\n\nMeasured by `%s` (%.0f s, %d job(s)).\n" %
                   (" ".join(["run.py", "cpu", "POLYBENCH_DIR"] + sys.argv[3:]),
                    time.time() - start, args.jobs))
    # What counts: benchmarks with at least one loop on GPU threads (a function kept on the
    # host under on_dependence: host is translated, but not counted).
    parallel = sum(1 for r in rows if r["translated"] and r.get("parallel", 0) > 0)
    if parallel < args.min_translated:
        print("run.py: %d translated with a loop on GPU threads, fewer than --min-translated %d" %
              (parallel, args.min_translated), file=sys.stderr)
        return 1
    return 1 if any(r["wrong"] or r["crash"] for r in rows) else 0


def update_doc(path, text):
    """Replaces the text between the table markers of docs/polybench.md."""
    begin, end = "<!-- polybench table: written by bench/polybench/run.py --doc -->", \
        "<!-- end of polybench table -->"
    doc = open(path).read()
    if begin not in doc or end not in doc:
        print("run.py: %s has no table markers" % path, file=sys.stderr)
        return
    head, rest = doc.split(begin, 1)
    open(path, "w").write(head + begin + "\n" + text + rest[rest.index(end):])


def translate_main(args):
    args.polybench = os.path.abspath(args.polybench)
    os.makedirs(args.out, exist_ok=True)
    for name, source in benchmarks(args.polybench) + (extra_benchmarks() if args.extra else []):
        for dataset in args.datasets:
            status, _, log = translate(args.rtcuda, name, source, args.polybench, dataset,
                                       os.path.abspath(args.out))
            print("%-16s %-7s %s" % (name, dataset, "translated" if status == 0 else
                                     "refused: " + first_error(log)))
    return 0


# ---- the GPU machine: build the carried outputs with nvcc, run, compare ----

def gpu_benchmark(args, name):
    row = {"name": name, "translated": False, "verify": "-", "wrong": [], "crash": [],
           "unstable": [],
           "runs": {}, "reason": ""}
    datasets = args.datasets + ([args.memcheck] if args.memcheck else [])
    for dataset in datasets:
        d = os.path.join(args.dir, name, dataset)
        out = os.path.join(d, "out")
        if not os.path.isfile(os.path.join(out, "manifest.json")):
            row["reason"] = first_error(open(os.path.join(d, "translate.log")).read()) \
                if os.path.exists(os.path.join(d, "translate.log")) else "not translated"
            continue
        row["translated"] = True
        row.update(summarize(out))
        m = json.load(open(os.path.join(out, "manifest.json")))
        build = os.path.join(d, "gpu-build")
        shutil.rmtree(build, ignore_errors=True)
        status, o, e = run(["cmake", "-S", out, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                            "-DRTCUDA_CUDA_ARCH=" + args.arch], 600)
        if status == 0:
            status, o, e = run(["cmake", "--build", build, "-j", "2"], 1200)
        if status != 0:
            row["runs"][dataset] = "BUILD"
            row["crash"].append("nvcc build %s: %s" % (dataset, first_error(o + e)))
            continue
        exe = os.path.join(build, "out")
        src = os.path.join(out, json.load(open(os.path.join(out, "manifest.json")))["kernel_sources"][0])
        incs = [os.path.join(out, d) for d in m.get("include_dirs", [])]
        extra = [os.path.join(out, s) for s in m.get("extra_sources", [])]
        ok, blog = gcc_build(src, incs, extra, m.get("defines", []), os.path.join(d, "gcc-program"))
        if not ok:
            row["crash"].append("gcc build %s: %s" % (dataset, first_error(blog)))
            continue
        _, _, want = run([os.path.join(d, "gcc-program")], 3600)
        if dataset == args.memcheck and row["kernels"] == 0:
            # Kept on the host (on_dependence: host): no CUDA call, and compute-sanitizer
            # fails such a program ("terminated before first instrumented API call").
            row["memcheck"] = "no GPU code"
            continue
        if dataset == args.memcheck:
            status, o, e = run(["compute-sanitizer", "--tool", "memcheck", "--error-exitcode",
                                "99", exe], 3600)
            row["memcheck"] = "clean" if status == 0 else "ERRORS"
            if status != 0:
                row["crash"].append("memcheck %s: status %d: %s" % (dataset, status,
                                                                   first_error(o + e)))
            continue
        t0 = time.time()
        status, o, e = run([exe], args.run_timeout)
        seconds = time.time() - t0
        if status == -9:
            row["runs"][dataset] = "TIMEOUT"
            row["unstable"].append("run %s: not finished in %d s" % (dataset, args.run_timeout))
            continue
        if status != 0:
            row["runs"][dataset] = "CRASH"
            row["crash"].append("run %s: status %d: %s" % (dataset, status, first_error(e)))
            continue
        diff = compare_dumps(want, e)
        unstable = diff and order_sensitive(src, incs, extra, m.get("defines", []),
                                            os.path.join(d, "gcc-program"), want)
        row["runs"][dataset] = ("ok %.2fs" % seconds) if not diff else \
            "UNSTABLE" if unstable else "WRONG"
        if unstable:
            row["unstable"].append("run %s: %s; but %s" % (dataset, diff, unstable))
        elif diff:
            row["wrong"].append("run %s: %s" % (dataset, diff))
        print("%-16s %-7s %s" % (name, dataset, row["runs"][dataset]), flush=True)
    if args.memcheck:
        row["runs"]["memcheck " + args.memcheck] = row.get("memcheck", "-")
    return row


def gpu_main(args):
    names = sorted(n for n in os.listdir(args.dir) if os.path.isdir(os.path.join(args.dir, n)))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda n: gpu_benchmark(args, n), names))
    columns = args.datasets + (["memcheck " + args.memcheck] if args.memcheck else [])
    print(table(rows, columns, False))
    print(totals(rows, args.datasets))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table(rows, columns, True) + "\n" + totals(rows, args.datasets) + "\n")
    return 1 if any(r["wrong"] or r["crash"] for r in rows) else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    default_rtcuda = os.path.join(REPO, "build", "bin", "rtcuda")
    for mode in ("cpu", "translate"):
        s = sub.add_parser(mode)
        s.add_argument("polybench")
        s.add_argument("--rtcuda", default=default_rtcuda)
        s.add_argument("--out", default="polybench-out")
        s.add_argument("--datasets", default="MINI,SMALL" if mode == "cpu" else "SMALL,MEDIUM,LARGE")
        s.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
        s.add_argument("--only", help="comma-separated benchmark names")
        s.add_argument("--markdown")
        s.add_argument("--doc", help="docs/polybench.md: replace its table")
        s.add_argument("--no-verify", action="store_true")
        s.add_argument("--min-translated", type=int, default=0,
                       help="fail when fewer benchmarks translate with at least one loop on "
                       "GPU threads (a regression floor)")
        s.add_argument("--no-race-check", action="store_true",
                       help="verify without its ThreadSanitizer pass")
        s.add_argument("--extra", action="store_true",
                       help="also bench/polybench/extra's programs (convolution-2d, -3d)")
    g = sub.add_parser("gpu")
    g.add_argument("dir")
    g.add_argument("--datasets", default="MEDIUM,LARGE")
    g.add_argument("--memcheck", default="SMALL", help="dataset run under compute-sanitizer ('' = none)")
    g.add_argument("--arch", default="90")
    g.add_argument("--run-timeout", type=int, default=3600,
                   help="seconds a program may run (TIMEOUT, counted apart, after that)")
    g.add_argument("-j", "--jobs", type=int, default=1)
    g.add_argument("--markdown")
    args = p.parse_args()
    args.datasets = [d for d in args.datasets.split(",") if d]
    if args.mode == "cpu":
        return cpu_main(args)
    if args.mode == "translate":
        return translate_main(args)
    args.dir = os.path.abspath(args.dir)
    return gpu_main(args)


if __name__ == "__main__":
    sys.exit(main())
