#!/usr/bin/env python3
"""PolyBench-ACC's hand-written CUDA side by side with rtcuda's translation of PolyBench/C 4.2.1,
at PolyBench-ACC's LARGE sizes in float (docs/polybench.md, "Side by side with PolyBench-ACC").

  acc.py translate POLYBENCH_DIR ACC_DIR --out DIR [--only gemm,atax] [--dataset lu=SMALL]
                   [--lu-init transposed]
      Here (LLVM needed). For each of PolyBench-ACC's 21 benchmarks that PolyBench/C 4.2.1 also
      has (and 2DConvolution, 3DConvolution: bench/polybench/extra's programs), translate the
      unchanged 4.2.1 source with ACC's LARGE sizes (--dataset: another of ACC's datasets
      for the benchmarks it names; gpu then builds ACC's program at it too) as -D defines and
      DATA_TYPE_IS_FLOAT into DIR/<bench>/acc/out, and put patch_timing()'s loop and dump
      switch into its main.cu.
  acc.py gpu DIR --acc ACC_DIR [--runs 3] [--log-dir D] [--deadline S] [--only ...]
      On the GPU machine (nvcc, CMake, gcc). Copies ACC_DIR, comments out its
      `#define RUN_ON_CPU`, builds each ACC program with nvcc -O3 for --arch and each rtcuda
      output through its CMake project; runs the rtcuda program once with its dump on and
      compares the dump with gcc -O2's build of the same PolyBench/C program (run.py's
      comparison); then --runs times each (ACC and rtcuda alternating):
        ACC kernel      its own POLYBENCH_TIME print: a host clock around the launches and
                        cudaDeviceSynchronize, the transfers outside;
        rtcuda kernel   the same host clock around a second call of the function main.c
                        calls, every array already on the GPU (a resident region), so no
                        transfers; the first call, as the program makes it, copies in and out;
        program         the process's wall clock (rtcuda's less its second call).
      Prints and writes (--log-dir) the table with medians; results.json for `report`.
  acc.py selftest POLYBENCH_DIR --out DIR [--rtcuda R]
      CI, on the CPU emulator: the patched main.cu dumps what gcc dumps for one call and not
      for two (selftest_main); float_judgement's rule; --lu-init transposed's init_array
      computes 4.2.1's A bit for bit (lu_init_selftest).
  acc.py report RESULTS.json... [--markdown FILE]
      One table from the results of several gpu runs (a benchmark's row from the last file
      that timed it).
"""
import argparse
import concurrent.futures
import json
import math
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as pb  # noqa: E402  (bench/polybench/run.py: translate, gcc build, dump comparison)
from tune_acc import apply_tuned  # noqa: E402  (--tuned)

# PolyBench-ACC's benchmarks, the quick ones first: (its name, its folder, PolyBench/C 4.2.1's
# name or None, its size macros -> 4.2.1's by the arrays' shapes: ACC's atax A[NX][NY] is
# 4.2.1's A[M][N]; None where the names are the same).
ACC = [
    ("gemm", "linear-algebra/kernels/gemm", "gemm", None),
    ("atax", "linear-algebra/kernels/atax", "atax", {"NX": "M", "NY": "N"}),
    ("bicg", "linear-algebra/kernels/bicg", "bicg", {"NX": "N", "NY": "M"}),
    ("mvt", "linear-algebra/kernels/mvt", "mvt", None),
    ("gemver", "linear-algebra/kernels/gemver", "gemver", None),
    ("gesummv", "linear-algebra/kernels/gesummv", "gesummv", None),
    ("3mm", "linear-algebra/kernels/3mm", "3mm", None),
    ("doitgen", "linear-algebra/kernels/doitgen", "doitgen", None),
    ("syrk", "linear-algebra/kernels/syrk", "syrk", {"NI": "N", "NJ": "M"}),
    ("syr2k", "linear-algebra/kernels/syr2k", "syr2k", {"NI": "N", "NJ": "M"}),
    ("adi", "stencils/adi", "adi", None),
    ("jacobi1D", "stencils/jacobi-1d-imper", "jacobi-1d", None),
    ("jacobi2D", "stencils/jacobi-2d-imper", "jacobi-2d", None),
    # No 4.2.1 program: rtcuda's own, in 4.2.1's style (bench/polybench/extra).
    ("2DConvolution", "stencils/convolution-2d", "convolution-2d", None),
    ("3DConvolution", "stencils/convolution-3d", "convolution-3d", None),
    ("fdtd2d", "stencils/fdtd-2d", "fdtd-2d", None),
    ("2mm", "linear-algebra/kernels/2mm", "2mm", None),
    ("correlation", "datamining/correlation", "correlation", None),
    ("covariance", "datamining/covariance", "covariance", None),
    ("gramschmidt", "linear-algebra/solvers/gramschmidt", "gramschmidt", {"NI": "M", "NJ": "N"}),
    ("lu", "linear-algebra/solvers/lu", "lu", None),
]
# Where the two programs do not compute the same thing (read from both sources).
DIFFERS = {
    "adi": "not the same algorithm: 4.2.1's adi sweeps u, v, p, q; ACC's sweeps X, A, B",
    "jacobi1D": "4.2.1 sweeps A->B and B->A per step; ACC sweeps A->B and copies B->A",
    "jacobi2D": "4.2.1 sweeps A->B and B->A per step; ACC sweeps A->B and copies B->A",
}


def acc_file(acc_dir, folder, ext):
    """ACC's <folder>/<stem>.<ext> (each folder has one .cu and one .cuh)."""
    found = sorted(f for f in os.listdir(os.path.join(acc_dir, folder)) if f.endswith("." + ext))
    return os.path.join(acc_dir, folder, found[0]) if found else None


def acc_sizes(acc_dir, folder, names, dataset="LARGE"):
    """4.2.1's size defines ["N=4096", ...] from ACC's <dataset>_DATASET block (LARGE unless
    --dataset names another for this benchmark), renamed by `names`."""
    sizes = pb.dataset_sizes(acc_file(acc_dir, folder, "cuh"), dataset)
    return ["%s=%d" % ((names or {}).get(k, k), v) for k, v in sorted(sizes.items())]


# ---- what the translated main.cu gets ----

TIMING_HELPERS = r'''
// Added by bench/polybench/acc.py. The call between the PolyBench timer's start and stop runs
// as the program has it (arrays copied in and out), then RTCUDA_ACC_REPEATS more times with
// every array already on the GPU (a resident region); each call is timed by a host clock from
// a synchronized device to the end of the call (which synchronizes), as PolyBench-ACC times
// its launches: "rtcuda-acc call <n>: <seconds>" on stdout. RTCUDA_ACC_DUMP set: the arrays
// are dumped (POLYBENCH_DUMP_ARRAYS's output) without rebuilding.
#include <chrono>
#undef POLYBENCH_DCE_ONLY_CODE
#define POLYBENCH_DCE_ONLY_CODE if (getenv("RTCUDA_ACC_DUMP") != NULL)
static int rtcuda_acc_repeats(void) {
  const char *s = getenv("RTCUDA_ACC_REPEATS");
  return s ? atoi(s) : 0;
}
static double rtcuda_acc_now(void) {
  RTCUDA_CHECK(cudaDeviceSynchronize());
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

'''


def patch_timing(text):
    """main.cu with TIMING_HELPERS before main and the loop around the kernel call, or None
    unless main holds exactly one `polybench_start_instruments; ... polybench_stop_instruments;`
    and uses polybench_prevent_dce."""
    regions = list(re.finditer(r"polybench_start_instruments;(.*?)polybench_stop_instruments;",
                               text, re.S))
    main = re.search(r"^int\s+main\s*\(", text, re.M)
    if len(regions) != 1 or not main or main.start() > regions[0].start() or \
            "polybench_prevent_dce(" not in text[main.start():]:
        return None
    loop = ("polybench_start_instruments;\n  rtcuda_resident_begin();\n"
            "  for (int rtcuda_acc_call = 0; rtcuda_acc_call <= rtcuda_acc_repeats(); "
            "++rtcuda_acc_call) {\n    const double rtcuda_acc_start = rtcuda_acc_now();\n"
            + regions[0].group(1) +
            "\n    printf(\"rtcuda-acc call %d: %.6f\\n\", rtcuda_acc_call, "
            "rtcuda_acc_now() - rtcuda_acc_start);\n  }\n  rtcuda_resident_end();\n"
            "  polybench_stop_instruments;")
    text = text[:regions[0].start()] + loop + text[regions[0].end():]
    return text[:main.start()] + TIMING_HELPERS + text[main.start():]


# ---- translate (here) ----

# lu's init_array (4.2.1) makes A positive semi-definite with A A^T computed on the host, its
# inner loop reading a column of A: about 6.9e10 strided steps at ACC's LARGE N=4096 (8 ns each
# measured on a 2-core build machine: minutes), more than a run may take, while ACC's lu
# initialises in n^2. `--lu-init transposed` translates a copy of lu.c whose loop reads A's
# columns from a transposed copy: every B[r][s] is the same sum, in the same order of t, of the
# same products (a multiply, then an add, each rounded: no FMA on x86-64's baseline), so A is
# the same bit for bit (lu_init_selftest). The kernel and what is timed do not change; the
# whole program is no longer 4.2.1's, so its time is not a comparison (the notes say so).
LU_INIT_AS_WRITTEN = """  for (t = 0; t < n; ++t)
    for (r = 0; r < n; ++r)
      for (s = 0; s < n; ++s)
	(POLYBENCH_ARRAY(B))[r][s] += A[r][t] * A[s][t];
"""
LU_INIT_TRANSPOSED = """  /* bench/polybench/acc.py --lu-init transposed: the same sums in the same order of t, A's
     columns read from a transposed copy, 32 rows of B at a time. */
  {
    POLYBENCH_2D_ARRAY_DECL(At, DATA_TYPE, N, N, n, n);
    int r0;
    for (r = 0; r < n; ++r)
      for (s = 0; s < n; ++s)
        (POLYBENCH_ARRAY(At))[s][r] = A[r][s];
    for (r0 = 0; r0 < n; r0 += 32)
      for (t = 0; t < n; ++t)
        for (r = r0; r < r0 + 32 && r < n; ++r)
          for (s = 0; s < n; ++s)
            (POLYBENCH_ARRAY(B))[r][s] += A[r][t] * (POLYBENCH_ARRAY(At))[t][s];
    POLYBENCH_FREE_ARRAY(At);
  }
"""
LU_INIT_NOTE = ("init_array's A A^T computed in a transposed loop order (acc.py --lu-init "
                "transposed: the same A bit for bit); the program times are not 4.2.1's program")


def patch_lu_init(source, folder, loop=LU_INIT_TRANSPOSED):
    """A copy of lu.c (and lu.h) in `folder` with init_array's A A^T loop replaced by `loop`."""
    text = open(source).read()
    if text.count(LU_INIT_AS_WRITTEN) != 1:
        raise SystemExit("acc.py: %s: init_array's A A^T loop is not as expected" % source)
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(os.path.dirname(source), "lu.h"), folder)
    path = os.path.join(folder, "lu.c")
    open(path, "w").write(text.replace(LU_INIT_AS_WRITTEN, loop))
    return path

DATASETS = ("MINI", "SMALL", "STANDARD", "LARGE", "EXTRALARGE")


def parse_datasets(text):
    """--dataset lu=SMALL,adi=STANDARD: ACC's dataset per benchmark (LARGE for the others)."""
    out = {}
    for item in filter(None, (text or "").split(",")):
        name, _, dataset = item.partition("=")
        if name not in [a[0] for a in ACC] or dataset not in DATASETS:
            raise SystemExit("acc.py: --dataset %s: expected BENCHMARK=%s" % (item, "|".join(DATASETS)))
        out[name] = dataset
    return out


def translate_main(args):
    poly, accdir = os.path.abspath(args.polybench), os.path.abspath(args.acc)
    if not os.path.isfile(os.path.join(poly, "utilities", "polybench.c")) or \
            not os.path.isdir(os.path.join(accdir, "utilities")):
        print("acc.py: no PolyBench/C at %s or no PolyBench-ACC CUDA folder at %s" %
              (poly, accdir), file=sys.stderr)
        return 77
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    sources = dict(pb.benchmarks(poly) + pb.extra_benchmarks())
    plan, status = [], 0
    datasets = parse_datasets(args.dataset)
    for name, folder, pbname, names in ACC:
        if args.only and name not in args.only.split(","):
            continue
        entry = {"name": name, "acc_folder": folder, "polybench": pbname, "defines": [],
                 "dataset": datasets.get(name, "LARGE"), "translated": False, "reason": ""}
        plan.append(entry)
        if pbname is None:
            entry["reason"] = "PolyBench/C 4.2.1 has no such program"
        else:
            entry["defines"] = acc_sizes(accdir, folder, names, entry["dataset"]) + \
                ["DATA_TYPE_IS_FLOAT"]
            source = sources[pbname]
            if name == "lu" and args.lu_init == "transposed":
                source = patch_lu_init(source, os.path.join(out, name, "lu-init-transposed"))
                entry["changed"] = LU_INIT_NOTE
            st, o, log = pb.translate(args.rtcuda, name, source, poly, "acc", out,
                                      entry["defines"])
            patched = patch_timing(open(os.path.join(o, "main.cu")).read()) if st == 0 else None
            if st != 0:
                entry["reason"] = pb.first_error(log)
            elif patched is None:
                entry["reason"] = "acc.py: main.cu has no single timed kernel call"
                status = 1
            else:
                open(os.path.join(o, "main.cu"), "w").write(patched)
                entry["translated"] = True
                entry.update(pb.summarize(o))
        print("%-14s %-12s %s" % (name, pbname or "-", "translated " + " ".join(entry["defines"])
                                  if entry["translated"] else "NOT translated: " + entry["reason"]))
    json.dump(plan, open(os.path.join(out, "acc-plan.json"), "w"), indent=1)
    return status


# ---- gpu (there) ----

class Log:
    def __init__(self, path):
        self.f = open(path, "a") if path else None

    def __call__(self, *parts):
        line = " ".join(str(p) for p in parts)
        print(line, flush=True)
        if self.f:
            self.f.write(line + "\n")
            self.f.flush()


def prepare_acc(acc_src, work, log):
    """A copy of ACC's CUDA folder with `#define RUN_ON_CPU` commented out in every .cu."""
    dst = os.path.join(work, "acc-src")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(acc_src, dst)
    for _, folder, _, _ in ACC:
        cu = acc_file(dst, folder, "cu")
        text, n = re.subn(r"^#define RUN_ON_CPU\b", "// #define RUN_ON_CPU (off: acc.py)",
                          open(cu).read(), flags=re.M)
        if n != 1:
            log("acc.py: %s: %d '#define RUN_ON_CPU' lines, expected 1" % (cu, n))
        open(cu, "w").write(text)
    return dst


def build_acc(accdir, folder, arch, work, dataset="LARGE"):
    exe = os.path.join(work, "acc.exe")
    argv = ["nvcc", "-O3", "-arch=sm_" + arch, "-D%s_DATASET" % dataset, "-DPOLYBENCH_TIME",
            "-DcudaThreadSynchronize=cudaDeviceSynchronize", "-w",
            "-I" + os.path.join(accdir, "utilities"), acc_file(accdir, folder, "cu"), "-o", exe]
    st, o, e = pb.run(argv, 900)
    return (exe if st == 0 else None), " ".join(argv) + "\n" + o + e


def build_rtcuda(out, build, arch):
    shutil.rmtree(build, ignore_errors=True)
    st, o, e = pb.run(["cmake", "-S", out, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                       "-DCMAKE_CUDA_ARCHITECTURES=" + arch], 600)
    if st == 0:
        st, o, e = pb.run(["cmake", "--build", build, "-j", "2"], 1200)
    return (os.path.join(build, "out") if st == 0 else None), o + e


def program_files(out):
    """(source, include dirs, extra sources, defines with the dump) of a translated output."""
    m = json.load(open(os.path.join(out, "manifest.json")))
    return (os.path.join(out, m["kernel_sources"][0]),
            [os.path.join(out, d) for d in m.get("include_dirs", [])],
            [os.path.join(out, s) for s in m.get("extra_sources", [])],
            m.get("defines", []) + ["POLYBENCH_DUMP_ARRAYS"])


def gcc_reference(out, work, timeout):
    """gcc -O2's build of the output's copy of the program, run at nice 19: its dump file."""
    src, incs, extra, defines = program_files(out)
    exe = os.path.join(work, "gcc-program")
    ok, blog = pb.gcc_build(src, incs, extra, defines, exe)
    if not ok:
        return None, "gcc build: " + pb.first_error(blog)
    t0 = time.time()
    st, _, err = pb.run(["nice", "-n", "19", exe], timeout)
    if st != 0:
        return None, "gcc -O2 program: %s" % ("did not finish in %d s" % timeout if st == -9
                                              else "status %d" % st)
    path = os.path.join(work, "gcc.dump")
    open(path, "w").write(err)
    return path, "%.0f s" % (time.time() - t0)


def normwise_error(dump, exact):
    """max over the numbers of (|x - e| less one printed unit, at least 0) / max |e|: how far a
    dump is from the double build's, relative to the largest value; None if they do not pair."""
    xs, es = pb.dump_numbers(dump), pb.dump_numbers(exact)
    if xs is None or es is None or len(xs) != len(es):
        return None
    pairs = []
    for x, e in zip(xs, es):
        try:
            pairs.append((float(x), float(e), pb.last_place(e)))
        except ValueError:   # the words of 'begin dump: y' must be the same
            if x != e:
                return None
    scale = max([abs(e) for _, e, _ in pairs] + [1e-300])
    return max([max(0.0, abs(x - e) - unit) for x, e, unit in pairs] + [0.0]) / scale


# A float dump passes when its error against the double build is at most this many times gcc's
# float error (plus FLOAT_ERROR_FLOOR, for dumps that gcc gets nearly exact): sums of thousands
# of float terms in another order are as far from the exact values as gcc's own, while a term
# lost or counted twice in a sum of n terms moves a value by about 1/n of it (1.2e-4 at 8192).
FLOAT_ERROR_FACTOR = 4.0
FLOAT_ERROR_FLOOR = 1e-6


def float_judgement(want, got, exact):
    """(why, rtcuda's error, gcc's error): why is '' if rtcuda's float dump `got` is as close to
    the double build's dump `exact` as gcc's float dump `want` is (FLOAT_ERROR_FACTOR), else why
    not; the errors are normwise_error's (None where the dumps do not pair)."""
    ours, gccs = normwise_error(got, exact), normwise_error(want, exact)
    if ours is None or gccs is None:
        return "the double build's dump does not pair with the float dumps", ours, gccs
    if ours <= FLOAT_ERROR_FACTOR * gccs + FLOAT_ERROR_FLOOR:
        return "", ours, gccs
    return "error against the double build %.3g, gcc's float build %.3g" % (ours, gccs), ours, gccs


def double_reference(src, incs, extra, defines, exe, timeout):
    """The dump of the same program built by gcc -O2 in double (DATA_TYPE_IS_FLOAT dropped, so
    PolyBench's default double), or None."""
    ok, _ = pb.gcc_build(src, incs, extra, [d for d in defines if d != "DATA_TYPE_IS_FLOAT"], exe)
    if not ok:
        return None
    st, _, err = pb.run(["nice", "-n", "19", exe], timeout)
    return err if st == 0 else None


def compare(out, want_path, got_path, timeout=3600):
    """run.py's comparison of the two dumps, at nice 19: "ok", "DIFFERS: ..." or, where gcc -O3
    -ffast-math's dump also differs from gcc -O2's (run.py's order_sensitive), "UNSTABLE: ...".
    run.py's tolerance is chosen for double; a float program whose dump differs from gcc's is
    judged against the double build instead (float_judgement): "ok (float: ...)"."""
    os.nice(19)
    want = open(want_path, errors="replace").read()
    got = open(got_path, errors="replace").read()
    diff = pb.compare_dumps(want, got)
    if not diff:
        return "ok"
    src, incs, extra, defines = program_files(out)
    if "DATA_TYPE_IS_FLOAT" in defines:
        exact = double_reference(src, incs, extra, defines,
                                 os.path.join(os.path.dirname(want_path), "gcc-double"), timeout)
        if exact is None:
            diff += "; the double build did not run"
        else:
            why, ours, gccs = float_judgement(want, got, exact)
            if not why:
                return "ok (float: %.3g from the double build, gcc %.3g)" % (ours, gccs)
            diff += "; " + why
    unstable = pb.order_sensitive(src, incs, extra, defines,
                                  os.path.join(os.path.dirname(want_path), "gcc-program"), want)
    return "UNSTABLE: %s; but %s" % (diff, unstable) if unstable else "DIFFERS: " + diff


def timed(argv, timeout, env):
    t0 = time.perf_counter()
    st, o, e = pb.run(argv, timeout, env=env)
    return st, time.perf_counter() - t0, o, e


def acc_kernel_seconds(stdout):
    m = re.search(r"GPU Time in seconds:\s*([0-9.eE+-]+)", stdout)
    return float(m.group(1)) if m else None


def rtcuda_calls(stdout):
    return {int(n): float(s) for n, s in re.findall(r"rtcuda-acc call (\d+): ([0-9.eE+-]+)", stdout)}


def check_output(r, args, env, work, ref, procs, log):
    """The rtcuda program once with its dump on; the comparison with gcc's reference goes to
    `procs` (r["compare"]: its future)."""
    want, why = ref.result()
    if want is None:
        r["check"] = "not checked: " + why
        return
    limit = 3 * rt_timeout(r, args)   # printing the arrays takes longer than computing them
    st, wall, o, e = timed([r["exe"]], limit, dict(env, RTCUDA_ACC_DUMP="1"))
    log("%s rtcuda dump run: status %d, %.2f s (gcc reference %s)" % (r["name"], st, wall, why))
    if st != 0:
        r["check"] = "not checked: the dump run " + ("did not finish in %d s" % limit if st == -9
                                                      else "status %d: %s" % (st, pb.first_error(e)))
        return
    got = os.path.join(work, r["name"], "rtcuda.dump")
    open(got, "w").write(e)
    r["compare"] = procs.submit(compare, os.path.join(args.dir, r["name"], "acc", "out"), want, got,
                                args.check_timeout)


def rt_timeout(r, args):
    """Seconds an rtcuda run may take: --slow-factor times ACC's whole program, at least
    --run-timeout (a program that much slower is reported as slower than that)."""
    return int(max(args.run_timeout, args.slow_factor * (med(r["acc_wall"]) or 0)))


def time_benchmark(r, args, env, log, deadline):
    """--runs times: ACC, then rtcuda with one resident call more. A run that fails or times out
    ends that program's runs."""
    acc_ok, rt_ok = r.get("acc_exe") is not None, r.get("exe") is not None and "rt_error" not in r
    renv = dict(env, RTCUDA_ACC_REPEATS="1")
    for i in range(args.runs):
        if time.time() > deadline:
            r["notes"].append("--deadline reached after %d run(s)" % i)
            break
        if acc_ok:
            st, wall, o, e = timed([r["acc_exe"]], args.run_timeout, env)
            k = acc_kernel_seconds(o)
            log("%s ACC run %d: status %d, wall %.4f s, kernel %s s" % (r["name"], i, st, wall, k))
            if st != 0 or k is None:
                acc_ok = False
                r["acc_error"] = "did not finish in %d s" % args.run_timeout if st == -9 else \
                    "status %d%s" % (st, "" if k is not None else ", no GPU time printed")
            else:
                r["acc_kernel"].append(k)
                r["acc_wall"].append(wall)
        if rt_ok:
            limit = rt_timeout(r, args)
            st, wall, o, e = timed([r["exe"]], limit, renv)
            calls = rtcuda_calls(o)
            log("%s rtcuda run %d: status %d, wall %.4f s, calls %s" %
                (r["name"], i, st, wall, json.dumps(calls)))
            if st != 0 or 1 not in calls:
                rt_ok = False
                r["rt_error"] = "did not finish in %d s (two calls)" % limit if st == -9 else \
                    "status %d: %s" % (st, pb.first_error(e))
            else:
                r["rt_kernel"].append(calls[1])
                r["rt_call0"].append(calls[0])
                r["rt_wall"].append(wall - calls[1])


def gpu_main(args):
    start = time.time()
    deadline = start + args.deadline
    work = os.path.abspath(args.work or os.path.join(args.dir, "gpu-work"))
    os.makedirs(work, exist_ok=True)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    log = Log(os.path.join(args.log_dir, "log.txt") if args.log_dir else None)
    plan = json.load(open(os.path.join(args.dir, "acc-plan.json")))
    if args.only:   # in the order given
        plan = [p for n in args.only.split(",") for p in plan if p["name"] == n]
    env = dict(os.environ, CUDA_MODULE_LOADING="EAGER")
    device = pb.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                    60)[1].strip() or "unknown"
    nvcc = (pb.run(["nvcc", "--version"], 60)[1].strip().splitlines() or ["?"])[-1]
    log("device: %s; %s" % (device, nvcc))
    accdir = prepare_acc(os.path.abspath(args.acc), work, log)
    rows = [dict(p, acc_kernel=[], acc_wall=[], rt_wall=[], rt_call0=[], rt_kernel=[], notes=[],
                 check="-") for p in plan]
    # gcc's references run (nice 19) while the programs build and the GPU runs.
    refs_pool = concurrent.futures.ThreadPoolExecutor(args.ref_jobs)
    refs = {r["name"]: refs_pool.submit(gcc_reference, os.path.join(args.dir, r["name"], "acc", "out"),
                                        os.path.join(work, r["name"]), args.check_timeout)
            for r in rows if r["translated"]}
    builds_pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    builds = {}
    for r in rows:
        d = os.path.join(work, r["name"])
        os.makedirs(d, exist_ok=True)
        builds[r["name"], "acc"] = builds_pool.submit(build_acc, accdir, r["acc_folder"], args.arch, d,
                                                   r.get("dataset", "LARGE"))
        src = os.path.join(args.dir, r["name"], "acc", "out")
        if r["translated"] and args.tuned:   # --tuned: the output with the tuned points
            if os.path.isdir(os.path.join(args.tuned, r["name"])):
                src, note = apply_tuned(src, os.path.join(args.tuned, r["name"]),
                                        os.path.join(d, "out-tuned"))
                if src is None:
                    r["rt_error"] = note
                    log("%s rtcuda: %s" % (r["name"], note))
                    continue
            else:
                note = "tuned: no tuned points for it in --tuned (defaults)"
            r["notes"].append(note)
        if r["translated"]:
            builds[r["name"], "rt"] = builds_pool.submit(build_rtcuda, src, os.path.join(d, "build"),
                                                         args.arch)
    for r in rows:
        for key, field in (("acc", "acc_exe"), ("rt", "exe")):
            if (r["name"], key) in builds:
                exe, blog = builds[r["name"], key].result()
                r[field] = exe
                if exe is None:
                    r["acc_error" if key == "acc" else "rt_error"] = "build: " + pb.first_error(blog)
                log("%s %s build: %s" % (r["name"], "ACC" if key == "acc" else "rtcuda",
                                         "ok" if exe else blog.strip()[-3000:]))
    builds_pool.shutdown()
    log("builds done at %.0f s" % (time.time() - start))
    procs = concurrent.futures.ProcessPoolExecutor(args.compare_jobs,
                                                   mp_context=multiprocessing.get_context("spawn"))
    def save():   # after each benchmark, so that a run stopped from outside leaves its rows
        if args.log_dir:
            json.dump({"device": device, "nvcc": nvcc, "runs": args.runs,
                       "rows": [{k: v for k, v in r.items() if k not in ("compare", "exe", "acc_exe")}
                                for r in rows]},
                      open(os.path.join(args.log_dir, "results.json"), "w"), indent=1)

    later = []
    for r in rows:   # the GPU, one program at a time
        if time.time() > deadline:
            r["notes"].append("not run: --deadline reached")
            continue
        time_benchmark(r, args, env, log, deadline)
        if r.get("exe") and not r.get("rt_error"):
            # The dump run now if gcc's reference is ready, else after the other benchmarks.
            if refs[r["name"]].done():
                check_output(r, args, env, work, refs[r["name"]], procs, log)
            else:
                later.append(r)
        elif r.get("exe"):
            r["check"] = "not checked: the timing runs failed"
        save()
    for r in later:
        try:
            refs[r["name"]].result(timeout=max(0.0, min(deadline - time.time(), args.ref_wait)))
        except concurrent.futures.TimeoutError:
            r["check"] = "not checked: gcc -O2's reference (nice 19) unfinished after %.0f s" % (
                time.time() - start)
            continue
        check_output(r, args, env, work, refs[r["name"]], procs, log)
    log("GPU runs done at %.0f s" % (time.time() - start))
    for r in rows:
        if "compare" not in r:
            continue
        try:
            r["check"] = r["compare"].result(timeout=max(1.0, deadline + args.check_grace - time.time()))
        except concurrent.futures.TimeoutError:
            r["check"] = "not checked: comparison unfinished at the deadline"
        log("%s rtcuda output against gcc -O2: %s" % (r["name"], r["check"]))
    for r in rows:
        r.pop("compare", None)
    text = report(rows, args.runs)
    print(text)
    save()
    if args.log_dir:
        open(os.path.join(args.log_dir, "table.md"), "w").write(text)
    log("acc.py: %.0f s" % (time.time() - start))
    sys.stdout.flush()
    # Comparisons and gcc references still running are stopped with the script: the pool's
    # workers hold its standard output (a pipe to `tee` would wait for them).
    workers = list((getattr(procs, "_processes", None) or {}).values())
    procs.shutdown(wait=False, cancel_futures=True)
    for p in workers:
        p.kill()
    os._exit(1 if any(r["check"].startswith("DIFFERS") for r in rows) else 0)


# ---- the table ----

def med(xs):
    return statistics.median(xs) if xs else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def report(rows, runs):
    def ms(x):
        return "-" if x is None else "%.3f" % (x * 1e3) if x < 0.1 else "%.1f" % (x * 1e3)

    def ratio(a, b):
        return a / b if a is not None and b else None

    lines = ["| ACC benchmark | PolyBench/C | sizes (float) | ACC kernel ms | rtcuda kernel ms | "
             "kernel speedup | ACC program s | rtcuda program s | program speedup | "
             "rtcuda output vs gcc -O2 | notes |", "|" + "---|" * 11]
    ks, ps, missing = [], [], []
    for r in rows:
        ak, rk, aw, rw = (med(r[k]) for k in ("acc_kernel", "rt_kernel", "acc_wall", "rt_wall"))
        kr, pr = ratio(ak, rk), ratio(aw, rw)
        if kr:
            ks.append((kr, r["name"]))
        if pr and not r.get("changed"):   # a changed program's time compares nothing
            ps.append((pr, r["name"]))
        if not r["translated"]:
            missing.append("%s (%s)" % (r["name"], r["reason"]))
        notes = list(r["notes"]) + ([DIFFERS[r["name"]]] if r["name"] in DIFFERS else [])
        notes += [r["changed"]] if r.get("changed") else []
        notes += ["ACC " + r["acc_error"]] if r.get("acc_error") else []
        notes += ["rtcuda " + r["rt_error"]] if r.get("rt_error") else []
        notes.append("runs: ACC %d, rtcuda %d" % (len(r["acc_kernel"]), len(r["rt_kernel"])))
        if r.get("run"):
            notes.append(r["run"])
        lines.append("| " + " | ".join([
            r["name"], r["polybench"] or "-",
            " ".join(d for d in r["defines"] if "=" in d) or "-",
            ms(ak), ms(rk), "%.3gx" % kr if kr else "-",
            "%.2f" % aw if aw is not None else "-", "%.2f" % rw if rw is not None else "-",
            "%.3gx" % pr if pr else "-",
            r["check"] if r["translated"] else "not translated: " + r["reason"],
            "; ".join(notes).replace("|", "\\|")]) + " |")
    summary = ["", "Kernel speedup = ACC kernel time / rtcuda kernel time (above 1: rtcuda "
               "faster); medians of %d runs each." % runs]
    if ks:
        summary.append("Kernel time: geomean speedup %.3fx over the %d benchmarks both ran; "
                       "slowest ratio %.4fx (%s); fastest %.2fx (%s)." %
                       (geomean([x for x, _ in ks]), len(ks), min(ks)[0], min(ks)[1],
                        max(ks)[0], max(ks)[1]))
    if ps:
        summary.append("Whole program: geomean speedup %.3fx over %d; slowest ratio %.3fx (%s)."
                       % (geomean([x for x, _ in ps]), len(ps), min(ps)[0], min(ps)[1]))
    failed = ["%s (%s)" % (r["name"], r.get("rt_error", "-")) for r in rows
              if r["translated"] and not r["rt_kernel"]]
    if failed:
        summary.append("Translated, but no rtcuda time (not in the geomean): %s." % ", ".join(failed))
    summary.append("Not translated by rtcuda: %s." % (", ".join(missing) or "none"))
    return "\n".join(lines + summary) + "\n"


def report_main(args):
    """Rows from several results.json: each benchmark from the last file whose run timed both."""
    chosen, order, runs = {}, [], set()
    for path in args.results:
        res = json.load(open(path))
        runs.add(res["runs"])
        for r in res["rows"]:
            r["run"] = "%s (%s)" % (os.path.basename(os.path.dirname(os.path.abspath(path))),
                                    res["device"])
            if r["name"] not in chosen:
                order.append(r["name"])
            if r["name"] not in chosen or (r["acc_kernel"] and r["rt_kernel"]) or \
                    not (chosen[r["name"]]["acc_kernel"] and chosen[r["name"]]["rt_kernel"]):
                chosen[r["name"]] = r
    text = report([chosen[n] for n in order], min(runs))
    print(text)
    if args.markdown:
        open(args.markdown, "w").write(text)
    return 0


def selftest_main(args):
    """On the CPU emulator (CI): gemm translated at odd sizes in float and patched as for the
    GPU. The program's own call (no repeat) must dump what gcc -O2 dumps; with one resident
    call more its dump must differ (gemm accumulates into C): the switch, the loop and the
    comparison each fail this test if broken."""
    poly = os.path.abspath(args.polybench)
    if not os.path.isfile(os.path.join(poly, "utilities", "polybench.c")):
        print("acc.py: no PolyBench/C at %s" % poly, file=sys.stderr)
        return 77
    out = os.path.abspath(args.out)
    st, o, log = pb.translate(args.rtcuda, "gemm", dict(pb.benchmarks(poly))["gemm"], poly,
                              "acc", out, ["NI=37", "NJ=41", "NK=29", "DATA_TYPE_IS_FLOAT"])
    patched = patch_timing(open(os.path.join(o, "main.cu")).read()) if st == 0 else None
    if patched is None:
        print("acc.py selftest: translate status %d, patch %s\n%s" % (st, patched, log))
        return 1
    open(os.path.join(o, "main.cu"), "w").write(patched)
    want, why = gcc_reference(o, os.path.join(out, "gemm"), 600)
    failures = [] if want else ["gcc reference: " + why]
    for repeats, expect_same in ((0, True), (1, False)):
        env = dict(os.environ, RTCUDA_ACC_DUMP="1", RTCUDA_ACC_REPEATS=str(repeats))
        st, stdout, stderr = pb.run([args.rtcuda, "run", o], 1800, env=env)
        calls = rtcuda_calls(stdout)
        diff = pb.compare_dumps(open(want).read(), stderr) if want else "no reference"
        print("repeats %d: status %d, calls %s, against gcc: %s" %
              (repeats, st, sorted(calls), diff or "same"))
        if st != 0 or sorted(calls) != list(range(repeats + 1)) or (not diff) != expect_same:
            failures.append("repeats %d" % repeats)
    failures += float_judgement_selftest()
    failures += lu_init_selftest(poly, out)
    print("acc.py selftest: " + ("ok" if not failures else "FAILED: " + ", ".join(failures)))
    return 1 if failures else 0


def lu_init_selftest(poly, work):
    """--lu-init transposed computes lu's A bit for bit as 4.2.1's init_array does: both
    init_arrays built with gcc -O2 and -O3 in float and double at n = 97 and 128, their A's bytes
    compared; a planted wrong loop (A's rows where its columns belong) must differ."""
    source = dict(pb.benchmarks(poly))["lu"]
    planted = LU_INIT_TRANSPOSED.replace("A[r][t] * (POLYBENCH_ARRAY(At))[t][s]",
                                         "A[r][t] * A[t][s]")
    copies = {"as written": source,
              "transposed": patch_lu_init(source, os.path.join(work, "lu-init", "transposed")),
              "planted": patch_lu_init(source, os.path.join(work, "lu-init", "planted"), planted)}
    driver = os.path.join(work, "lu-init", "driver.c")
    open(driver, "w").write(
        "#include <stdio.h>\n#define main lu_main\n#include LU_C\n#undef main\n"
        "int main(void) {\n  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, N, N);\n"
        "  init_array(N, POLYBENCH_ARRAY(A));\n"
        "  fwrite(POLYBENCH_ARRAY(A), sizeof(DATA_TYPE), (size_t)N * N, stdout);\n  return 0;\n}\n")
    failures = []
    for opt, typ, n in (("-O2", "FLOAT", 97), ("-O3", "FLOAT", 128), ("-O3", "DOUBLE", 97)):
        dumps = {}
        for name, path in copies.items():
            exe = os.path.join(work, "lu-init", "%s%s%s%d" % (name.replace(" ", "-"), opt, typ, n))
            st, o, e = pb.run(["gcc", opt, "-w", "-I", os.path.join(poly, "utilities"),
                               "-DLU_C=\"%s\"" % path, "-DN=%d" % n, "-DDATA_TYPE_IS_" + typ,
                               driver, os.path.join(poly, "utilities", "polybench.c"), "-lm",
                               "-o", exe], 300)
            if st == 0:
                proc = subprocess.run([exe], capture_output=True, timeout=300)
                dumps[name] = proc.stdout if proc.returncode == 0 else None
        same = dumps.get("transposed") is not None and dumps.get("transposed") == dumps.get("as written")
        caught = dumps.get("planted") is not None and dumps.get("planted") != dumps.get("as written")
        print("lu init %s %s n=%d: transposed %s, planted %s" % (
            opt, typ.lower(), n, "bit for bit" if same else "DIFFERS", "caught" if caught else "NOT caught"))
        if not same or not caught:
            failures.append("lu init %s %s n=%d" % (opt, typ.lower(), n))
    return failures


def float_judgement_selftest():
    """float_judgement on made-up dumps: float sums of 8192 terms in another order pass; the same
    with one term lost (planted) and with a value off by 10 times gcc's error do not."""
    import random
    rnd = random.Random(13)
    exact = [sum(rnd.uniform(0, 1) for _ in range(64)) * 128 for _ in range(200)]
    def dump(values):
        return "==BEGIN DUMP_ARRAYS==\nbegin dump: y\n" + " ".join("%0.2f" % v for v in values) + \
            "\nend   dump: y\n==END   DUMP_ARRAYS==\n"
    def rounded(v, rel):
        return [x * (1 + rnd.uniform(-rel, rel)) for x in v]
    gcc = rounded(exact, 3e-6)
    same_order_class = rounded(exact, 3e-6)
    lost_term = list(same_order_class)
    lost_term[17] -= exact[17] / 8192
    far = list(same_order_class)
    far[3] = exact[3] * (1 + 3e-5)
    failures = []
    for name, got, expect_ok in (("reordered", same_order_class, True),
                                 ("one term lost", lost_term, False), ("10x gcc's error", far, False)):
        why = float_judgement(dump(gcc), dump(got), dump(exact))[0]
        print("float judgement, %s: %s" % (name, why or "ok"))
        if (not why) != expect_ok:
            failures.append("float judgement: " + name)
    return failures


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    t = sub.add_parser("translate")
    t.add_argument("polybench")
    t.add_argument("acc", help="PolyBench-ACC's CUDA folder")
    t.add_argument("--out", required=True)
    t.add_argument("--rtcuda", default=os.path.join(pb.REPO, "build", "bin", "rtcuda"))
    t.add_argument("--only", help="comma-separated ACC benchmark names")
    t.add_argument("--dataset", help="BENCH=DATASET,...: ACC's dataset for these benchmarks "
                   "(both programs at its sizes; default LARGE), e.g. lu=SMALL")
    t.add_argument("--lu-init", choices=("as-written", "transposed"), default="as-written",
                   help="transposed: lu's init_array computes A A^T from a transposed copy (the "
                   "same A bit for bit, seconds instead of minutes at N=4096; patch_lu_init)")
    g = sub.add_parser("gpu")
    g.add_argument("dir")
    g.add_argument("--acc", required=True, help="a copy of PolyBench-ACC's CUDA folder")
    g.add_argument("--work", help="build folder (default DIR/gpu-work)")
    g.add_argument("--arch", default="90")
    g.add_argument("--runs", type=int, default=3)
    g.add_argument("--run-timeout", type=int, default=60,
                   help="seconds per ACC run; an rtcuda run's least limit")
    g.add_argument("--slow-factor", type=float, default=10,
                   help="an rtcuda run may take this many times ACC's whole program")
    g.add_argument("--ref-wait", type=float, default=30,
                   help="seconds to wait, after the timings, for an unfinished gcc reference")
    g.add_argument("--check-timeout", type=int, default=600, help="seconds for gcc's reference")
    g.add_argument("--deadline", type=float, default=3600,
                   help="seconds after which no GPU run starts")
    g.add_argument("--check-grace", type=float, default=60,
                   help="seconds past --deadline to wait for comparisons")
    g.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parallel builds")
    g.add_argument("--ref-jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2),
                   help="gcc references at a time")
    g.add_argument("--compare-jobs", type=int, default=4)
    g.add_argument("--only")
    g.add_argument("--log-dir")
    g.add_argument("--tuned", help="tune_acc.sh's tuned/ folder: <bench>/<kernel>_params.h, "
                   "applied to a copy of each output before it is built")
    c = sub.add_parser("selftest")
    c.add_argument("polybench")
    c.add_argument("--out", required=True)
    c.add_argument("--rtcuda", default=os.path.join(pb.REPO, "build", "bin", "rtcuda"))
    r = sub.add_parser("report")
    r.add_argument("results", nargs="+")
    r.add_argument("--markdown")
    args = p.parse_args()
    if args.mode in ("translate", "selftest"):
        args.rtcuda = os.path.abspath(args.rtcuda)   # rtcuda runs from PolyBench's folder
    if args.mode == "translate":
        return translate_main(args)
    if args.mode == "report":
        return report_main(args)
    if args.mode == "selftest":
        return selftest_main(args)
    args.dir = os.path.abspath(args.dir)
    if args.tuned:
        args.tuned = os.path.abspath(args.tuned)
    return gpu_main(args)


if __name__ == "__main__":
    sys.exit(main())
