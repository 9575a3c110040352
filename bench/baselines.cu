// Baselines for docs/performance.md, measured in the same run as the generated kernels:
// device-to-device copy bandwidth, and the cuBLAS calls that compute what the examples do
// (FP32 with the default math mode: no TF32). Median of 20 runs after warm-up, CUDA events.
//   nvcc -O2 -arch=sm_90 baselines.cu -lcublas -o baselines && ./baselines
#include "bench_common.cuh"

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
