// Session 13: what bounds an element-wise 2-D update with one DRAM stream per thread
// (bench/kernels colupdate: A[i][j] -= q[i] * r[j], in place), against a device-to-device copy.
// Variants: the generated kernel (collapsed index, one element per thread, a 32-bit division);
// a 2-D grid (no division); ROWS rows per thread with every load before any store; ROWS
// elements per thread a block apart along the row, loads first. Each checked against the
// generated kernel's output. Medians of 20 (CUDA events), 5 warm-ups, fresh random inputs.
#include "rtcuda_runtime.h"
#include "launch.cuh"
#include <algorithm>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(err_), __LINE__); exit(1); } } while (0)

__global__ void fill(float *a, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = (float)((int)(h % 2001u) - 1000) / 1000.0f;
  }
}

__global__ void grid2d(int rows, int cols, const float *__restrict__ q, float *__restrict__ A, const float *__restrict__ r) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j < cols) A[(long long)i * cols + j] -= q[i] * r[j];
}

template <int ROWS>
__global__ void rowsFirst(int rows, int cols, const float *__restrict__ q, float *__restrict__ A, const float *__restrict__ r) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i0 = blockIdx.y * ROWS;
  if (j >= cols) return;
  float a[ROWS], qq[ROWS];
  float rj = r[j];
#pragma unroll
  for (int t = 0; t < ROWS; t++) if (i0 + t < rows) { a[t] = A[(long long)(i0 + t) * cols + j]; qq[t] = q[i0 + t]; }
#pragma unroll
  for (int t = 0; t < ROWS; t++) if (i0 + t < rows) A[(long long)(i0 + t) * cols + j] = a[t] - qq[t] * rj;
}

template <int ITEMS>
__global__ void stripFirst(int rows, int cols, const float *__restrict__ q, float *__restrict__ A, const float *__restrict__ r) {
  long long n = (long long)rows * cols;
  long long base = (long long)blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
  float a[ITEMS], qq[ITEMS], rr[ITEMS];
#pragma unroll
  for (int t = 0; t < ITEMS; t++) {
    long long e = base + (long long)t * blockDim.x;
    if (e < n) { int i = (int)(e / cols); int j = (int)(e - (long long)i * cols); a[t] = A[e]; qq[t] = q[i]; rr[t] = r[j]; }
  }
#pragma unroll
  for (int t = 0; t < ITEMS; t++) {
    long long e = base + (long long)t * blockDim.x;
    if (e < n) A[e] = a[t] - qq[t] * rr[t];
  }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv) {
  int rows = atoi(argv[1]), cols = atoi(argv[2]);
  long long n = (long long)rows * cols;
  float *q, *A, *r, *A0, *ref, *c1, *c2;
  CK(cudaMalloc(&q, rows * 4)); CK(cudaMalloc(&r, cols * 4)); CK(cudaMalloc(&A, n * 4));
  CK(cudaMalloc(&A0, n * 4)); CK(cudaMalloc(&ref, n * 4));
  CK(cudaMalloc(&c1, 512ll << 20)); CK(cudaMalloc(&c2, 512ll << 20));
  fill<<<1024, 256>>>(q, rows, 1); fill<<<1024, 256>>>(r, cols, 2); fill<<<1024, 256>>>(A0, n, 3);
  CK(cudaGetLastError());
  cudaEvent_t s, e; CK(cudaEventCreate(&s)); CK(cudaEventCreate(&e));
  auto timeIt = [&](auto launch) {
    std::vector<float> ms;
    for (int k = 0; k < 25; k++) {
      fill<<<1024, 256>>>(A, n, 100 + k);  // fresh inputs each run
      CK(cudaEventRecord(s)); launch(); CK(cudaEventRecord(e)); CK(cudaEventSynchronize(e));
      CK(cudaGetLastError());
      float t; CK(cudaEventElapsedTime(&t, s, e)); if (k >= 5) ms.push_back(t);
    }
    return median(ms);
  };
  float copy = timeIt([&] { CK(cudaMemcpyAsync(c2, c1, 512ll << 20, cudaMemcpyDeviceToDevice)); });
  double copyGBs = 2.0 * (512ll << 20) / copy / 1e6;
  std::vector<float> want(n), got(n);
  auto check = [&](const char *name, auto launch, float ms) {
    CK(cudaMemcpy(A, A0, n * 4, cudaMemcpyDeviceToDevice)); launch(); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), A, n * 4, cudaMemcpyDeviceToHost));
    long long bad = 0; for (long long k = 0; k < n; k++) bad += got[k] != want[k];
    double gbs = 2.0 * n * 4 / ms / 1e6;
    printf("%-28s rows=%d cols=%d  %.4f ms  %6.0f GB/s  %.2fx copy  mismatches %lld\n", name, rows, cols, ms, gbs, gbs / copyGBs, bad);
  };
  auto generated = [&] { rtcuda_launch_colupdate_on_device("explore", rows, cols, q, A, r); };
  CK(cudaMemcpy(A, A0, n * 4, cudaMemcpyDeviceToDevice)); generated(); CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(want.data(), A, n * 4, cudaMemcpyDeviceToHost));
  printf("copy %.4f ms %.0f GB/s\n", copy, copyGBs);
  check("generated", generated, timeIt(generated));
  if (rows <= 65535) {  // grid y
    auto g2 = [&] { grid2d<<<dim3((cols + 255) / 256, rows), 256>>>(rows, cols, q, A, r); };
    check("2-D grid", g2, timeIt(g2));
    auto r2 = [&] { rowsFirst<2><<<dim3((cols + 255) / 256, (rows + 1) / 2), 256>>>(rows, cols, q, A, r); };
    check("2 rows, loads first", r2, timeIt(r2));
  }
  if (rows <= 4 * 65535) {
    auto r4 = [&] { rowsFirst<4><<<dim3((cols + 255) / 256, (rows + 3) / 4), 256>>>(rows, cols, q, A, r); };
    check("4 rows, loads first", r4, timeIt(r4));
  }
  auto s2 = [&] { stripFirst<2><<<(unsigned)((n + 511) / 512), 256>>>(rows, cols, q, A, r); };
  check("2 a block apart, loads first", s2, timeIt(s2));
  auto s4 = [&] { stripFirst<4><<<(unsigned)((n + 1023) / 1024), 256>>>(rows, cols, q, A, r); };
  check("4 a block apart, loads first", s4, timeIt(s4));
  return 0;
}
