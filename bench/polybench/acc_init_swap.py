#!/usr/bin/env python3
"""Where gesummv's whole-program time goes, rtcuda against PolyBench-ACC (docs/polybench.md,
"Whole program: gesummv"). The two programs initialise their arrays differently: PolyBench/C
4.2.1 writes A[i][j] = (DATA_TYPE)((i*j+1) % n) / n (an integer remainder per element),
PolyBench-ACC A[i][j] = ((DATA_TYPE) i*j) / N. On the GPU machine this builds four programs:
rtcuda's output and ACC's program as they are, rtcuda's output with ACC's three init formulas
and ACC's program with 4.2.1's (nothing else changed), times each RUNS times, alternating
(process wall clock; rtcuda's less its second, resident call, as acc.py does), and times both
initialisations alone (a probe built with nvcc -O3 like the programs). If the init explains the
gap, rtcuda with ACC's init is as fast as ACC, and ACC with 4.2.1's as slow as rtcuda.

  acc_init_swap.py TRANSLATION_DIR ACC_CUDA_DIR WORK [--runs 5] [--arch 90]
"""
import argparse
import os
import shutil
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import acc  # noqa: E402
import run as pb  # noqa: E402

# (4.2.1's text, ACC's text) of each formula, as the two sources write them.
FORMULAS = [
    ("x[i] = (DATA_TYPE)( i % n) / n;", "x[i] = ((DATA_TYPE) i) / N;"),
    ("A[i][j] = (DATA_TYPE) ((i*j+1) % n) / n;", "A[i][j] = ((DATA_TYPE) i*j) / N;"),
    ("B[i][j] = (DATA_TYPE) ((i*j+2) % n) / n;", "B[i][j] = ((DATA_TYPE) i*j) / n;"),
]

PROBE = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define N 8192
typedef float DATA_TYPE;
// Each as its program writes it, on fresh allocations (first touch included).
static void init_421(int n, DATA_TYPE A[N][N], DATA_TYPE B[N][N], DATA_TYPE x[N]) {
  int i, j;
  for (i = 0; i < n; i++) {
    x[i] = (DATA_TYPE)( i % n) / n;
    for (j = 0; j < n; j++) {
      A[i][j] = (DATA_TYPE) ((i*j+1) % n) / n;
      B[i][j] = (DATA_TYPE) ((i*j+2) % n) / n;
    }
  }
}
static void init_acc(int n, DATA_TYPE A[N][N], DATA_TYPE B[N][N], DATA_TYPE x[N]) {
  int i, j;
  for (i = 0; i < n; i++) {
    x[i] = ((DATA_TYPE) i) / N;
    for (j = 0; j < n; j++) {
      A[i][j] = ((DATA_TYPE) i*j) / N;
      B[i][j] = ((DATA_TYPE) i*j) / n;
    }
  }
}
int main(int argc, char **argv) {
  int n = N;
  void *a, *b, *x;
  if (posix_memalign(&a, 4096, sizeof(DATA_TYPE) * N * N) || posix_memalign(&b, 4096, sizeof(DATA_TYPE) * N * N) ||
      posix_memalign(&x, 4096, sizeof(DATA_TYPE) * N))
    return 1;
  auto t0 = std::chrono::steady_clock::now();
  if (argc > 1 && !strcmp(argv[1], "acc")) init_acc(n, (DATA_TYPE(*)[N])a, (DATA_TYPE(*)[N])b, (DATA_TYPE *)x);
  else init_421(n, (DATA_TYPE(*)[N])a, (DATA_TYPE(*)[N])b, (DATA_TYPE *)x);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("init %.6f %g\n", s, ((DATA_TYPE *)a)[12345] + ((DATA_TYPE *)b)[777]);
  return 0;
}
"""


def swapped(text, to_acc):
    for mine, theirs in FORMULAS:
        old, new = (mine, theirs) if to_acc else (theirs, mine)
        if text.count(old) != 1:
            raise SystemExit("acc_init_swap.py: expected one '%s'" % old)
        text = text.replace(old, new)
    return text


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("dir")
    p.add_argument("acc")
    p.add_argument("work")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--arch", default="90")
    a = p.parse_args()
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, CUDA_MODULE_LOADING="EAGER")
    accdir = acc.prepare_acc(os.path.abspath(a.acc), work, print)
    folder = "linear-algebra/kernels/gesummv"
    exes = {}
    # ACC as it is, and with 4.2.1's formulas (a copy of its folder's source).
    for d in ("acc", "acc-421"):
        os.makedirs(os.path.join(work, d), exist_ok=True)
    exes["ACC"] = acc.build_acc(accdir, folder, a.arch, os.path.join(work, "acc"))[0]
    cu = acc.acc_file(accdir, folder, "cu")
    text = swapped(open(cu).read(), to_acc=False)
    open(cu, "w").write(text)
    exes["ACC with 4.2.1's init"] = acc.build_acc(accdir, folder, a.arch, os.path.join(work, "acc-421"))[0]
    # rtcuda's output as it is (its default points), and with ACC's formulas.
    out = os.path.join(os.path.abspath(a.dir), "gesummv", "acc", "out")
    for name, to_acc in (("rtcuda", None), ("rtcuda with ACC's init", True)):
        copy = os.path.join(work, name.replace(" ", "-").replace("'", ""))
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(out, os.path.join(copy, "out"), ignore=shutil.ignore_patterns("tuning"))
        main_cu = os.path.join(copy, "out", "main.cu")
        if to_acc:
            text = swapped(open(main_cu).read(), to_acc=True)
            open(main_cu, "w").write(text)
        exes[name] = acc.build_rtcuda(os.path.join(copy, "out"), os.path.join(copy, "build"), a.arch)[0]
    probe = os.path.join(work, "init_probe")
    open(probe + ".cu", "w").write(PROBE)
    st, o, e = pb.run(["nvcc", "-O3", "-arch=sm_" + a.arch, probe + ".cu", "-o", probe], 600)
    if st != 0 or not all(exes.values()):
        print("acc_init_swap.py: a build failed: %s %s" % (exes, e[-2000:]))
        return 1
    walls = {name: [] for name in exes}
    inits = {"4.2.1": [], "ACC": []}
    for i in range(a.runs):
        for name, exe in exes.items():
            rt = name.startswith("rtcuda")
            st, wall, o, e = acc.timed([exe], 120, dict(env, RTCUDA_ACC_REPEATS="1") if rt else env)
            calls = acc.rtcuda_calls(o) if rt else {}
            if st != 0 or (rt and 1 not in calls):
                print("acc_init_swap.py: %s failed: status %d %s" % (name, st, e[-500:]))
                return 1
            walls[name].append(wall - calls.get(1, 0.0))
            print("run %d %-24s wall %.4f s%s" % (i, name, walls[name][-1],
                                                  ", call 0 %.4f s" % calls[0] if rt else ""))
        for which, arg in (("4.2.1", []), ("ACC", ["acc"])):
            st, wall, o, e = acc.timed([probe] + arg, 60, env)
            inits[which].append(float(o.split()[1]))
    print("\n| program (gesummv, N=8192, float) | median s | runs |\n|---|---|---|")
    for name, xs in walls.items():
        print("| %s | %.3f | %s |" % (name, statistics.median(xs), ", ".join("%.3f" % x for x in xs)))
    for which, xs in inits.items():
        print("| init alone, %s's formulas | %.3f | %s |" % (which, statistics.median(xs),
                                                          ", ".join("%.3f" % x for x in xs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
