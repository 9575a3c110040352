// Baselines for docs/performance.md, measured in the same run as the generated kernels:
// device-to-device copy bandwidth, and the cuBLAS calls that compute what the examples do
// (FP32 with the default math mode: no TF32). Median of 20 runs after warm-up, CUDA events.
//   nvcc -O2 -arch=sm_90 baselines.cu -lcublas -o baselines && ./baselines
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

int main() {
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  CHECK_BLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  const long long n2 = 8192, big = n2 * n2;
  float *x = buffer<float>(big, 1), *y = buffer<float>(big, 2), *z = buffer<float>(big, 3);
  report("copy_d2d_8192x8192_float", [&] { CHECK(cudaMemcpyAsync(z, x, big * 4, cudaMemcpyDeviceToDevice)); }, 2.0 * big * 4, 0);
  const float one = 1, zero = 0;
  report("sgeam_8192", [&] { CHECK_BLAS(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, n2, n2, &one, x, n2, &one, y, n2, z, n2)); }, 3.0 * big * 4, big);
  report("sgemm_k1_outer_8192", [&] { CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n2, n2, 1, &one, x, n2, y, 1, &zero, z, n2)); }, (big + 2.0 * n2) * 4, 2.0 * big);
  report("sgemv_8192", [&] { CHECK_BLAS(cublasSgemv(h, CUBLAS_OP_T, n2, n2, &one, x, n2, y, 1, &zero, z, 1)); }, (big + 2.0 * n2) * 4, 2.0 * big);
  const long long v = 1ll << 25;
  double *dx = buffer<double>(v, 4), *dy = buffer<double>(v, 5);
  const double done = 1.25;
  report("daxpy_2^25", [&] { CHECK_BLAS(cublasDaxpy(h, v, &done, dx, 1, dy, 1)); }, 3.0 * v * 8, 2.0 * v);
  report("saxpy_2^25", [&] { CHECK_BLAS(cublasSaxpy(h, v, &one, x, 1, y, 1)); }, 3.0 * v * 4, 2.0 * v);
  double *dA = buffer<double>(big, 6), *dv = buffer<double>(n2, 7), *dw = buffer<double>(n2, 8);
  const double dzero = 0;
  report("dgemv_8192", [&] { CHECK_BLAS(cublasDgemv(h, CUBLAS_OP_T, n2, n2, &done, dA, n2, dv, 1, &dzero, dw, 1)); }, (big + 2.0 * n2) * 8, 2.0 * big);
  const int m = 4096;
  report("sgemm_4096_fp32", [&] { CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, x, m, y, m, &zero, z, m)); }, 3.0 * m * m * 4, 2.0 * m * (double)m * m);
  CHECK_BLAS(cublasDestroy(h));
  return 0;
}
