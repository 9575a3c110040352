// Session 13: gesummv (two row sums and an epilogue) with few long rows: the generated kernel
// (a warp per row, LANES 32) against a hand-written block per row (BLOCK threads, warp shuffles
// then shared memory across the block's warps), same job, same inputs; checked against the
// generated kernel's output (relative 1e-4). Medians of 20 (CUDA events), 5 warm-ups.
#include "rtcuda_runtime.h"
#include "launch.cuh"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(err_), __LINE__); exit(1); } } while (0)

__global__ void fill(float *a, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    a[i] = (float)((int)(h % 2001u) - 1000) / 1000.0f;
  }
}

template <int BLOCK>
__global__ void blockRow(int rows, int cols, float alpha, float beta, const float *__restrict__ A,
                         const float *__restrict__ B, const float *__restrict__ x, float *__restrict__ tmp, float *__restrict__ y) {
  __shared__ float s1[BLOCK / 32], s2[BLOCK / 32];
  int i = blockIdx.x;
  float t = 0, u = 0;
  for (int j = threadIdx.x; j < cols; j += BLOCK) { float xj = x[j]; t += A[(long long)i * cols + j] * xj; u += B[(long long)i * cols + j] * xj; }
  for (int w = 16; w > 0; w /= 2) { t += __shfl_down_sync(0xffffffffu, t, w); u += __shfl_down_sync(0xffffffffu, u, w); }
  if (threadIdx.x % 32 == 0) { s1[threadIdx.x / 32] = t; s2[threadIdx.x / 32] = u; }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < BLOCK / 32; w++) { t += s1[w]; u += s2[w]; }
    tmp[i] = t; y[i] = alpha * t + beta * u;
  }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv) {
  int rows = atoi(argv[1]), cols = atoi(argv[2]);
  long long n = (long long)rows * cols;
  float *A, *B, *x, *tmp, *y;
  CK(cudaMalloc(&A, n * 4)); CK(cudaMalloc(&B, n * 4)); CK(cudaMalloc(&x, cols * 4));
  CK(cudaMalloc(&tmp, rows * 4)); CK(cudaMalloc(&y, rows * 4));
  fill<<<1024, 256>>>(A, n, 1); fill<<<1024, 256>>>(B, n, 2); fill<<<1024, 256>>>(x, cols, 3);
  CK(cudaGetLastError());
  cudaEvent_t s, e; CK(cudaEventCreate(&s)); CK(cudaEventCreate(&e));
  auto timeIt = [&](auto launch) {
    std::vector<float> ms;
    for (int k = 0; k < 25; k++) {
      CK(cudaEventRecord(s)); launch(); CK(cudaEventRecord(e)); CK(cudaEventSynchronize(e));
      CK(cudaGetLastError());
      float t; CK(cudaEventElapsedTime(&t, s, e)); if (k >= 5) ms.push_back(t);
    }
    return median(ms);
  };
  std::vector<float> want(rows), got(rows);
  auto run = [&](const char *name, auto launch) {
    float ms = timeIt(launch);
    CK(cudaMemset(y, 0, rows * 4)); launch(); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), y, rows * 4, cudaMemcpyDeviceToHost));
    int bad = 0; for (int k = 0; k < rows; k++) bad += std::fabs(got[k] - want[k]) > 1e-4f * (1 + std::fabs(want[k]));
    printf("%-22s rows=%d cols=%d  %.4f ms  %6.0f GB/s  mismatches %d\n", name, rows, cols, ms, 2.0 * n * 4 / ms / 1e6, bad);
  };
  auto generated = [&] { rtcuda_launch_gesummv_on_device("explore", rows, cols, 1.5f, 1.2f, A, B, x, tmp, y); };
  generated(); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(want.data(), y, rows * 4, cudaMemcpyDeviceToHost));
  run("generated (warp/row)", generated);
  run("block of 128 per row", [&] { blockRow<128><<<rows, 128>>>(rows, cols, 1.5f, 1.2f, A, B, x, tmp, y); });
  run("block of 256 per row", [&] { blockRow<256><<<rows, 256>>>(rows, cols, 1.5f, 1.2f, A, B, x, tmp, y); });
  run("block of 512 per row", [&] { blockRow<512><<<rows, 512>>>(rows, cols, 1.5f, 1.2f, A, B, x, tmp, y); });
  return 0;
}
