// Shared by the GPU baselines (baselines.cu, kinds_baselines.cu): checked CUDA and cuBLAS calls,
// random device buffers, and timing with CUDA events (5 warm-up runs, median of 20).
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)
#define CHECK_BLAS(x) do { cublasStatus_t s = (x); if (s != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s); exit(1); } } while (0)

template <class T> __global__ void fill(T *a, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = (T)((int)(h % 2001u) - 1000) / (T)1000;
  }
}

template <class T> T *buffer(long long n, unsigned seed) {
  T *p;
  CHECK(cudaMalloc(&p, n * sizeof(T)));
  fill<<<1024, 256>>>(p, n, seed);
  CHECK(cudaGetLastError());
  return p;
}

static void report(const char *name, const std::function<void()> &run, double bytes, double flops) {
  for (int i = 0; i < 5; ++i) run();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int i = 0; i < 20; ++i) {
    CHECK(cudaEventRecord(a));
    run();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float t;
    CHECK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double med = ms[ms.size() / 2];
  printf("BASELINE name=%s ms=%.5f min=%.5f max=%.5f gbs=%.1f gflops=%.1f\n", name, med, ms.front(),
         ms.back(), bytes / med / 1e6, flops / med / 1e6);
}

