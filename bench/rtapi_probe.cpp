// rtapi_probe: where the RT-API's per-call time goes (a diagnostic beside rtapi_bench).
//
// Part 1, host time per call of 200 back-to-back calls at n = 64 (the GPU work queues up, so the
// loop measures the host side alone), median of --reps rounds, variants interleaved:
//   the direct cublas<t>gemv on the benchmark's handle and on the library's own handle, the
//   RT-API call (by default and under RT_ARRAYS_ON_DEVICE), the RT-API call's skeleton alone (m = 0: error record, context lock, device
//   check, argument checks, no GPU work), the three pointer queries alone, and the direct call
//   with those three queries before it.
// Part 2, the dot product at n = 4096 as rtapi_bench times it (CUDA events around one call, the
// GPU idle before it): direct and RT-API with a host and with a device result, and two other ways
// to bring a host result back (device pointer mode into a device scratch and one copy; device
// pointer mode into mapped pinned host memory and one stream wait).
#include "BlasTraits.h" // lib/Runtime/RTAPI/cuda
#include "Runtime.h"    // lib/Runtime/RTAPI/cuda: classify(), context()
#include "rtapi.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

void die(const std::string &what) {
  std::fprintf(stderr, "rtapi_probe: error: %s\n", what.c_str());
  std::exit(1);
}
void check(cudaError_t s, const char *what) {
  if (s != cudaSuccess) die(std::string(what) + ": " + cudaGetErrorName(s));
}
void check(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS) die(std::string(what) + ": " + cublasGetStatusName(s));
}
void checkRt(int s, const char *what) {
  if (s != RT_SUCCESS) die(std::string(what) + ": " + RTAPIGetLastErrorMessage());
}

int reps = 101;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

float *deviceRandom(int count, unsigned seed) {
  std::vector<float> h(static_cast<std::size_t>(count));
  for (float &x : h) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / 16777216.0f - 0.5f;
  }
  float *d = nullptr;
  check(cudaMalloc(&d, h.size() * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

struct Variant {
  const char *name;
  std::function<void()> run;
};

// Part 1: host microseconds per call of `calls` back-to-back runs, median over the rounds.
void hostTimes(const std::vector<Variant> &variants, int calls) {
  std::vector<std::vector<double>> us(variants.size());
  for (int i = 0; i < reps + 3; ++i)
    for (std::size_t r = 0; r < variants.size(); ++r) {
      const std::size_t v = (r + static_cast<std::size_t>(i)) % variants.size();
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
      const auto t0 = std::chrono::steady_clock::now();
      for (int c = 0; c < calls; ++c) variants[v].run();
      const auto t1 = std::chrono::steady_clock::now();
      if (i >= 3) us[v].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
    }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  for (std::size_t v = 0; v < variants.size(); ++v)
    std::printf("  %-52s %8.3f us\n", variants[v].name, median(us[v]));
}

// Part 2: milliseconds between events around one run, the GPU idle before; median.
void eventTimes(const std::vector<Variant> &variants) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<std::vector<double>> us(variants.size());
  for (int i = 0; i < reps + 3; ++i)
    for (std::size_t r = 0; r < variants.size(); ++r) {
      const std::size_t v = (r + static_cast<std::size_t>(i)) % variants.size();
      check(cudaEventRecord(start), "cudaEventRecord");
      variants[v].run();
      check(cudaEventRecord(stop), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      if (i >= 3) us[v].push_back(1000.0 * ms);
    }
  for (std::size_t v = 0; v < variants.size(); ++v)
    std::printf("  %-52s %8.3f us\n", variants[v].name, median(us[v]));
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 2 && !std::strcmp(argv[1], "--reps")) reps = std::max(11, std::atoi(argv[2]));
  using rtapi::gpu::Blas;
  checkRt(RTAPIInit(), "RTAPIInit");
  cublasHandle_t own;
  check(cublasCreate(&own), "cublasCreate");
  check(cublasSetMathMode(own, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  cublasHandle_t library = rtapi::gpu::context().blas;
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  const float one = 1, zero = 0;

  const int n = 64;
  float *A = deviceRandom(n * n, 1), *x = deviceRandom(n, 2), *y = deviceRandom(n, 3);
  auto queries = [&] {
    (void)rtapi::gpu::classify("A", A, device);
    (void)rtapi::gpu::classify("x", x, device);
    (void)rtapi::gpu::classify("y", y, device);
  };
  auto gemv = [&](cublasHandle_t h) {
    check(Blas<float>::gemv(h, CUBLAS_OP_T, n, n, &one, A, n, x, &zero, y), "gemv");
  };
  std::printf("host time per call, 200 back-to-back calls, n = %d, float, median of %d:\n", n,
              reps);
  hostTimes({{"direct gemv, benchmark's handle", [&] { gemv(own); }},
             {"direct gemv, library's handle", [&] { gemv(library); }},
             {"RTdSMV", [&] { checkRt(RTdSMV(y, A, x, n, n), "RTdSMV"); }},
             {"RTdSMV under RT_ARRAYS_ON_DEVICE",
              [&] {
                RTAPISetArrayPlacement(RT_ARRAYS_ON_DEVICE);
                checkRt(RTdSMV(y, A, x, n, n), "RTdSMV");
                RTAPISetArrayPlacement(RT_ARRAYS_ANYWHERE);
              }},
             {"RTdSMV skeleton (m = 0, no GPU work)",
              [&] { checkRt(RTdSMV(y, A, x, 0, n), "RTdSMV"); }},
             {"three pointer queries alone", queries},
             {"cudaGetDevice alone",
              [&] {
                int d = 0;
                check(cudaGetDevice(&d), "cudaGetDevice");
              }},
             {"three pointer queries + direct gemv",
              [&] {
                queries();
                gemv(own);
              }},
             {"skeleton + direct gemv",
              [&] {
                checkRt(RTdSMV(y, A, x, 0, n), "RTdSMV");
                gemv(own);
              }}},
            200);

  const int m = 4096;
  float *u = deviceRandom(m, 4), *v = deviceRandom(m, 5), *r = nullptr, *pinned = nullptr;
  check(cudaMalloc(&r, sizeof(float)), "cudaMalloc");
  check(cudaHostAlloc(&pinned, sizeof(float), cudaHostAllocMapped), "cudaHostAlloc");
  float reference = 0, got = 0;
  check(Blas<float>::dot(own, m, u, v, &reference), "dot");
  auto deviceMode = [](cublasHandle_t h, bool on) {
    check(cublasSetPointerMode(h, on ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST),
          "cublasSetPointerMode");
  };
  std::printf("one dot product, n = %d, float, events around the call, median of %d:\n", m, reps);
  eventTimes({{"direct, host r (host pointer mode)",
               [&] { check(Blas<float>::dot(own, m, u, v, &got), "dot"); }},
              {"RTdSDOT, host r", [&] { checkRt(RTdSDOT(u, v, m, &got), "RTdSDOT"); }},
              {"device mode into device scratch + cudaMemcpy",
               [&] {
                 deviceMode(own, true);
                 check(Blas<float>::dot(own, m, u, v, r), "dot");
                 deviceMode(own, false);
                 check(cudaMemcpy(&got, r, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
               }},
              {"device mode into mapped pinned memory + wait",
               [&] {
                 deviceMode(own, true);
                 check(Blas<float>::dot(own, m, u, v, pinned), "dot");
                 deviceMode(own, false);
                 check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
                 got = *pinned;
               }},
              {"direct, device r (device pointer mode)",
               [&] {
                 deviceMode(own, true);
                 check(Blas<float>::dot(own, m, u, v, r), "dot");
                 deviceMode(own, false);
               }},
              {"RTdSDOT, device r", [&] { checkRt(RTdSDOT(u, v, m, r), "RTdSDOT"); }},
              {"RTdSDOT, device r, RT_ARRAYS_ON_DEVICE",
               [&] {
                 RTAPISetArrayPlacement(RT_ARRAYS_ON_DEVICE);
                 checkRt(RTdSDOT(u, v, m, r), "RTdSDOT");
                 RTAPISetArrayPlacement(RT_ARRAYS_ANYWHERE);
               }},
              {"direct, device r, library's handle",
               [&] {
                 deviceMode(library, true);
                 check(Blas<float>::dot(library, m, u, v, r), "dot");
                 deviceMode(library, false);
               }},
              {"one pointer query + direct, device r",
               [&] {
                 (void)rtapi::gpu::classify("r", r, device);
                 deviceMode(own, true);
                 check(Blas<float>::dot(own, m, u, v, r), "dot");
                 deviceMode(own, false);
               }},
              {"skeleton (RTdSMV, m = 0) + direct, device r",
               [&] {
                 checkRt(RTdSMV(y, A, x, 0, n), "RTdSMV");
                 deviceMode(own, true);
                 check(Blas<float>::dot(own, m, u, v, r), "dot");
                 deviceMode(own, false);
               }},
              {"three pointer queries + direct, device r",
               [&] {
                 (void)rtapi::gpu::classify("C", u, device);
                 (void)rtapi::gpu::classify("A", v, device);
                 (void)rtapi::gpu::classify("r", r, device);
                 deviceMode(own, true);
                 check(Blas<float>::dot(own, m, u, v, r), "dot");
                 deviceMode(own, false);
               }}});
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  float fromDevice = 0;
  check(cudaMemcpy(&fromDevice, r, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  std::printf("dot results: reference %.6g, last host result %.6g, pinned %.6g, device %.6g\n",
              reference, got, *pinned, fromDevice);
  if (got != reference || *pinned != reference || fromDevice != reference)
    die("a dot product variant disagrees with the reference");

  for (float *p : {A, x, y, u, v, r}) check(cudaFree(p), "cudaFree");
  check(cudaFreeHost(pinned), "cudaFreeHost");
  check(cublasDestroy(own), "cublasDestroy");
  checkRt(RTAPIFinalize(), "RTAPIFinalize");
  return 0;
}
