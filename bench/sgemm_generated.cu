// The matrix multiply RegisterTiling generates (examples/matmul/std, translated) against
// cublasSgemm (FP32, no TF32) in one process: random inputs, every result compared with cuBLAS
// (NaN-poisoned output first), CUDA events, 5 warm-up runs, median of 20.
//   rtcuda translate examples/matmul/std/config.yaml -o out/mm
//   nvcc -O3 -arch=sm_90 -I out/mm -I out/mm/runtime [-DMM_TILE_K=..] bench/sgemm_generated.cu \
//     -lcublas -o sgemm_generated && ./sgemm_generated [label [check|small|all [seed]]]
// (built with -DSGEMM_SWEEP also `x sweep` and `x sweep-small`, below)
// With `check` only the sizes that are checked and not timed run, with `small` only those under
// 500 (for compute-sanitizer's memcheck and racecheck); `x sweep-tiny` (-DSGEMM_SWEEP) runs every
// instantiation and split of the sweep at those sizes.
// Sizes: 4096^3, PolyBench LARGE's gemm (C 1000x1100, A 1000x1200, B 1200x1100), odd primes,
// and the odd sizes with A and B one float past an aligned base (the kernel must fall back to
// scalar loads there).
// With -DSGEMM_SWEEP the launch's choices MM_SMALL_GRID and MM_SPLIT_K are variables, and
// `sweep` times LARGE and the primes at each pair of them (every result checked too).
#ifdef SGEMM_SWEEP
static int sgemm_small_grid = 1, sgemm_split_k = 1;
#define MM_SMALL_GRID sgemm_small_grid
#define MM_SPLIT_K sgemm_split_k
#endif
#include "launch.cuh"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CKB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
  fprintf(stderr, "%s:%d %s: status %d\n", __FILE__, __LINE__, #x, (int)s_); exit(1); } } while (0)

template <typename F> static float median_ms(F f) {
  cudaEvent_t a, b;
  RTCUDA_CHECK(cudaEventCreate(&a));
  RTCUDA_CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 5; i++) f();
  RTCUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 20; i++) {
    RTCUDA_CHECK(cudaEventRecord(a));
    f();
    RTCUDA_CHECK(cudaEventRecord(b));
    RTCUDA_CHECK(cudaEventSynchronize(b));
    RTCUDA_CHECK(cudaGetLastError());
    float ms;
    RTCUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[10];
}

int main(int argc, char **argv) {
  const char *label = argc > 1 ? argv[1] : "default";
  struct Size { int n, m, p, offset; bool time; };  // C n x p, A n x m, B m x p
  std::vector<Size> sizes{{4096, 4096, 4096, 0, true}, {1000, 1200, 1100, 0, true},
                          {997, 1013, 1009, 0, true}, {37, 41, 43, 0, false},
                          {131, 67, 257, 0, false}, {997, 1013, 1009, 1, false},
                          {1000, 1200, 1100, 1, false}};
  const std::string mode = argc > 2 ? argv[2] : "";
  // sweep-tiny: sweep-small's choices at the sizes under 500 only (racecheck's run time).
  const bool checkOnly = mode == "check" || mode == "small" || mode == "sweep-small" || mode == "sweep-tiny";  // "sweep": see SGEMM_SWEEP  // "all" (or nothing): every size
  cublasHandle_t h;
  CKB(cublasCreate(&h));
  CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  // Fresh inputs every run unless a seed is given (printed, so a run can be repeated).
  const unsigned seed = argc > 3 ? (unsigned)strtoul(argv[3], nullptr, 10) : std::random_device{}();
  printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  int failures = 0;
  struct Choice { int smallGrid, splitK; };
  std::vector<Choice> choices{{-1, -1}};  // -1: the header's values
#ifdef SGEMM_SWEEP
  if (mode == "sweep" || mode == "sweep-small" || mode == "sweep-tiny") {  // sweep-small: the small checks only
    // MM_SMALL_GRID / MM_SPLIT_K: the rule with and without split k, the point (never split),
    // each small-grid instantiation unsplit and in 2 and 3 chunks.
    choices = {{1, 1}, {1, 0}, {0, 1}, {2, 0}, {2, 2}, {2, 3}, {3, 0}, {3, 2}, {3, 3},
               {4, 0}, {4, 2}, {4, 3}};
    sizes = {{1000, 1200, 1100, 0, true}, {997, 1013, 1009, 0, true}, {37, 41, 43, 0, false},
             {131, 67, 257, 0, false}, {997, 1013, 1009, 1, false}};
    // SGEMM_CHOICES="sg:sk,..." and SGEMM_SIZES="n,m,p;..." (all timed) replace the lists.
    if (const char *e = getenv("SGEMM_CHOICES")) {
      choices.clear();
      for (const char *q = e; *q;) {
        Choice c{};
        if (sscanf(q, "%d:%d", &c.smallGrid, &c.splitK) != 2) break;
        choices.push_back(c);
        q = strchr(q, ',');
        if (!q) break;
        ++q;
      }
    }
    if (const char *e = getenv("SGEMM_SIZES")) {
      sizes.clear();
      for (const char *q = e; *q;) {
        Size z{0, 0, 0, 0, true};
        if (sscanf(q, "%d,%d,%d", &z.n, &z.m, &z.p) != 3) break;
        sizes.push_back(z);
        q = strchr(q, ';');
        if (!q) break;
        ++q;
      }
    }
  }
#endif
  for (Choice ch : choices)
  for (Size z : sizes) {
#ifdef SGEMM_SWEEP
    if (ch.smallGrid >= 0) sgemm_small_grid = ch.smallGrid, sgemm_split_k = ch.splitK;
    char tag[32];
    if (ch.smallGrid >= 0) snprintf(tag, sizeof tag, "sg%d/sk%d", ch.smallGrid, ch.splitK);
    if (ch.smallGrid >= 0) label = tag;
#endif
    if ((checkOnly && z.time) || ((mode == "small" || mode == "sweep-tiny") && z.n >= 500)) continue;
    std::vector<float> hA((size_t)z.n * z.m), hB((size_t)z.m * z.p);
    for (float &x : hA) x = dist(rng);
    for (float &x : hB) x = dist(rng);
    float *A0, *B0, *C, *R;
    RTCUDA_CHECK(cudaMalloc(&A0, (hA.size() + 4) * 4));
    RTCUDA_CHECK(cudaMalloc(&B0, (hB.size() + 4) * 4));
    RTCUDA_CHECK(cudaMalloc(&C, sizeof(float) * z.n * z.p));
    RTCUDA_CHECK(cudaMalloc(&R, sizeof(float) * z.n * z.p));
    float *A = A0 + z.offset, *B = B0 + z.offset;
    RTCUDA_CHECK(cudaMemcpy(A, hA.data(), hA.size() * 4, cudaMemcpyHostToDevice));
    RTCUDA_CHECK(cudaMemcpy(B, hB.data(), hB.size() * 4, cudaMemcpyHostToDevice));
    const float one = 1, zero = 0;
    // Row-major C = A B is column-major C^T = B^T A^T.
    auto blas = [&] { CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, z.p, z.n, z.m, &one, B, z.p, A, z.m, &zero, R, z.p)); };
    auto ours = [&] { rtcuda_launch_mm_on_device("bench", z.n, z.m, z.p, C, A, B); };
    RTCUDA_CHECK(cudaMemset(C, 0xff, sizeof(float) * z.n * z.p));
    blas();
    ours();
    RTCUDA_CHECK(cudaGetLastError());
    RTCUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> out((size_t)z.n * z.p), ref(out.size());
    RTCUDA_CHECK(cudaMemcpy(out.data(), C, out.size() * 4, cudaMemcpyDeviceToHost));
    RTCUDA_CHECK(cudaMemcpy(ref.data(), R, ref.size() * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < out.size(); i++) {
      double d = (double)out[i] - ref[i];
      num += std::isfinite(out[i]) ? d * d : 1e30;
      den += (double)ref[i] * ref[i];
    }
    double rel = std::sqrt(num / den);
    bool ok = rel < 1e-5;
    failures += !ok;
    char buf[96];
    snprintf(buf, sizeof buf, "n=%d m=%d p=%d offset=%d", z.n, z.m, z.p, z.offset);
    if (!z.time) {
      printf("CHECK %-8s %-34s relerr=%.2e %s\n", label, buf, rel, ok ? "ok" : "WRONG");
    } else {
      float bms = median_ms(blas), oms = median_ms(ours);
      double fl = 2.0 * z.n * z.p * (double)z.m;
      printf("TIME  %-8s %-34s cublas_ms=%.4f (%.2f TFLOP/s) rtcuda_ms=%.4f (%.2f TFLOP/s) "
             "ratio=%.3f relerr=%.2e %s\n", label, buf, bms, fl / bms / 1e9, oms, fl / oms / 1e9,
             bms / oms, rel, ok ? "ok" : "WRONG");
    }
    RTCUDA_CHECK(cudaFree(A0)); RTCUDA_CHECK(cudaFree(B0));
    RTCUDA_CHECK(cudaFree(C)); RTCUDA_CHECK(cudaFree(R));
  }
  CKB(cublasDestroy(h));
  return failures ? 1 : 0;
}
