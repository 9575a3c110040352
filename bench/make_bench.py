#!/usr/bin/env python3
"""Writes a CUDA benchmark for one kernel of an rtcuda output folder.

    make_bench.py OUTDIR KERNEL --size N=8192 [--size M=...] [--flops EXPR] [--offset K] > bench.cu

The benchmark allocates the kernel's arrays on the device (sizes from manifest.json), fills
them with random values, and times the kernel's <launch>_on_device function with CUDA events:
warm-up, then the median and spread of --reps runs, rotating between input sets when they fit
in the L2 cache. It prints one line:

    RESULT kernel=<k> point=<macros> ms=<median> min=<> max=<> gbs=<> gflops=<> check=<sum>

Tuning macros are given to nvcc with -D; one binary per point. The checksum of the written
arrays lets the driver compare every point with the default point.
"""
import argparse
import json
import sys


def launches(outdir, kernel, call_args):
    """The calls that run `kernel` on device arrays: its launch function's _on_device form, or
    for a function outlined into several kernels (Fission) each kernel's in order, when the
    function launches them with its own parameters and runs no loop of its own on the host."""
    parts = kernel.get("outlined_kernels")
    if not parts:
        return kernel["launch_function"] + '_on_device("bench", ' + call_args + ");"
    names = [p["name"] for p in kernel["params"]]
    text = open(f"{outdir}/launch.cuh").read()
    start = text.index(f"static inline void {kernel['launch_function']}(")
    body = text[start:text.index("\n}\n", start)]
    if "for (" in body or "while (" in body or any([p["name"] for p in k["params"]] != names for k in parts):
        sys.exit(f"make_bench: {kernel['name']} runs host code between its kernels; time it as a program")
    return " ".join(k["launch_function"] + '_on_device("bench", ' + call_args + ");" for k in parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("kernel")
    ap.add_argument("--size", action="append", default=[], help="NAME=VALUE of a size parameter")
    ap.add_argument("--flops", default="0", help="C expression: floating-point operations per run")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--offset", type=int, default=0,
                    help="pass each array this many elements past its allocation's start (not "
                         "16-byte aligned at 1: the same checksum as at 0 shows that a kernel's "
                         "aligned paths do not depend on where an array starts)")
    args = ap.parse_args()

    manifest = json.load(open(f"{args.outdir}/manifest.json"))
    kernel = next(k for k in manifest["kernels"] + manifest.get("functions", []) if k["name"] == args.kernel)
    sizes = dict(s.split("=") for s in args.size)
    params = kernel["params"]
    out = []
    w = out.append
    w('#include "rtcuda_runtime.h"')
    w('#include "launch.cuh"')
    w("#include <algorithm>\n#include <random>\n#include <string>\n#include <type_traits>\n#include <vector>\n")
    w("template <class T> __global__ void rtcuda_bench_fill(T *a, long long n, unsigned seed) {")
    w("  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;")
    w("  for (; i < n; i += (long long)gridDim.x * blockDim.x) {")
    w("    unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;")
    # Integers take random bits (histogram keys spread over every bin); reals lie in [-1, 1].
    w("    if constexpr (std::is_integral<T>::value) a[i] = (T)(h >> 1);")
    w("    else a[i] = (T)((int)(h % 2001u) - 1000) / (T)1000;")
    w("  }\n}\n")
    # Index arrays (the manifest's index_values, docs/verify.md): values below a bound (a CSR
    # matrix's column indices) or offsets up to a total (its row offsets, here every row of
    # about the same length), so that the kernel stays inside its arrays.
    w("template <class T> __global__ void rtcuda_bench_fill_below(T *a, long long n, unsigned seed, long long bound) {")
    w("  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;")
    w("  for (; i < n; i += (long long)gridDim.x * blockDim.x) {")
    w("    unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;")
    w("    a[i] = (T)(bound > 0 ? (long long)h % bound : 0);")
    w("  }\n}\n")
    w("template <class T> __global__ void rtcuda_bench_fill_offsets(T *a, long long n, long long total) {")
    w("  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;")
    w("  for (; i < n; i += (long long)gridDim.x * blockDim.x) a[i] = (T)(n > 1 ? i * total / (n - 1) : 0);")
    w("}\n")
    w("template <class T> static double checksum(const T *d, long long n) {")
    w("  std::vector<T> h(n > 0 ? n : 1);")
    w("  if (n > 0) RTCUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));")
    w("  double s = 0; for (long long i = 0; i < n; ++i) s += (double)h[i] * (double)((i % 7) + 1);")
    w("  return s;\n}\n")
    w("int main() {")
    for p in params:
        if p["kind"] == "scalar":
            if p.get("role") == "size":
                if p["name"] not in sizes:
                    sys.exit(f"make_bench: give --size {p['name']}=VALUE")
                w(f'  {p["type"]} {p["name"]} = ({p["type"]}){sizes[p["name"]]};')
            else:
                w(f'  {p["type"]} {p["name"]} = ({p["type"]})1.25;')
    arrays = [p for p in params if p["kind"] == "array"]

    def fill(a, i):
        name, seed = a["name"], f"{i * 7919 + 17}u + s"
        index = a.get("index_values", {})
        def least(extents):  # the least of the extents, as a C expression
            bound = f"(long long)({extents[0]})"
            for e in extents[1:]:
                bound = f"std::min({bound}, (long long)({e}))"
            return bound
        if index.get("offsets_up_to"):
            return f"    rtcuda_bench_fill_offsets<<<1024, 256>>>({name}_d[s], {name}_n, {least(index['offsets_up_to'])});"
        if index.get("below"):
            return f"    rtcuda_bench_fill_below<<<1024, 256>>>({name}_d[s], {name}_n, {seed}, {least(index['below'])});"
        return f"    rtcuda_bench_fill<<<1024, 256>>>({name}_d[s], {name}_n, {seed});"
    w("  long long total_bytes = 0, moved_bytes = 0;")
    for a in arrays:
        w(f'  long long {a["name"]}_n = rtcuda_nonnegative({a["elements"] or "0"});')
        w(f'  total_bytes += {a["name"]}_n * (long long)sizeof({a["type"]});')
        moved = (1 if a["read"] else 0) + (1 if a["written"] else 0)
        w(f'  moved_bytes += {moved} * {a["name"]}_n * (long long)sizeof({a["type"]});')
    # Rotate between copies of the inputs when they would stay in the 50 MB L2 cache.
    w("  const int sets = total_bytes < 64ll * 1024 * 1024 ? 4 : 1;")
    for a in arrays:
        w(f'  std::vector<{a["type"]} *> {a["name"]}_d(sets);')
    w("  for (int s = 0; s < sets; ++s) {")
    for i, a in enumerate(arrays):
        n = f'{a["name"]}_n' + (f" + {args.offset}" if args.offset else "")
        w(f'    RTCUDA_CHECK(cudaMalloc(&{a["name"]}_d[s], ({n} > 0 ? {n} : 1) * sizeof({a["type"]})));')
        if args.offset:
            w(f'    {a["name"]}_d[s] += {args.offset};')
        w(fill(a, i))
    w("  }")
    w('  RTCUDA_CHECK(cudaGetLastError());\n  RTCUDA_CHECK(cudaDeviceSynchronize());')
    call_args = ", ".join((f'{p["name"]}_d[s % sets]' if p["kind"] == "array" else p["name"]) for p in params)
    w("  auto run = [&](int s) { " + launches(args.outdir, kernel, call_args) + " };")
    w("  for (int s = 0; s < 5; ++s) run(s);  // warm-up")
    w("  RTCUDA_CHECK(cudaDeviceSynchronize());")
    w("  cudaEvent_t start, stop;\n  RTCUDA_CHECK(cudaEventCreate(&start));\n  RTCUDA_CHECK(cudaEventCreate(&stop));")
    w(f"  std::vector<float> ms;\n  for (int r = 0; r < {args.reps}; ++r) {{")
    w("    RTCUDA_CHECK(cudaEventRecord(start));\n    run(r);\n    RTCUDA_CHECK(cudaEventRecord(stop));")
    w("    RTCUDA_CHECK(cudaEventSynchronize(stop));\n    float t = 0;\n    RTCUDA_CHECK(cudaEventElapsedTime(&t, start, stop));\n    ms.push_back(t);\n  }")
    w("  std::sort(ms.begin(), ms.end());\n  double med = ms[ms.size() / 2];")
    # Checksum of written arrays after one more run on set 0 from freshly filled inputs.
    w("  for (int s = 0; s < sets; ++s) {")
    for i, a in enumerate(arrays):
        w(fill(a, i))
    w("  }\n  run(0);\n  RTCUDA_CHECK(cudaDeviceSynchronize());\n  double check = 0;")
    for a in arrays:
        if a["written"]:
            w(f'  check += checksum({a["name"]}_d[0], {a["name"]}_n);')
    w(f"  double flops = (double)({args.flops});")
    w('  printf("RESULT kernel=%s point=%s ms=%.5f min=%.5f max=%.5f gbs=%.1f gflops=%.1f check=%.9e\\n",')
    w(f'         "{kernel["name"]}", RTCUDA_BENCH_POINT, med, ms.front(), ms.back(), moved_bytes / med / 1e6, flops / med / 1e6, check);')
    w("  return 0;\n}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
