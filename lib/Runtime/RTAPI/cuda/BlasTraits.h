// The float/double cuBLAS entry points that the dense calls use, under one name per operation,
// with the library function's name for messages. Shared by the GPU implementation (Dense.cpp)
// and the benchmark (bench/rtapi_bench.cpp), so both call cuBLAS the same way.
#pragma once

#include <cublas_v2.h>

namespace rtapi {
namespace gpu {

template <class T> struct Blas;

template <> struct Blas<float> {
  static constexpr const char *gemmName = "cublasSgemm";
  static constexpr const char *gemvName = "cublasSgemv";
  static constexpr const char *geamName = "cublasSgeam";
  static constexpr const char *dotName = "cublasSdot";
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                             int n, int k, const float *alpha, const float *A, int lda,
                             const float *B, int ldb, const float *beta, float *C, int ldc) {
    return cublasSgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n,
                             const float *alpha, const float *A, int lda, const float *x,
                             const float *beta, float *y) {
    return cublasSgemv(h, t, m, n, alpha, A, lda, x, 1, beta, y, 1);
  }
  static cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                             int n, const float *alpha, const float *A, int lda, const float *beta,
                             const float *B, int ldb, float *C, int ldc) {
    return cublasSgeam(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
  }
  static cublasStatus_t dot(cublasHandle_t h, int n, const float *x, const float *y, float *r) {
    return cublasSdot(h, n, x, 1, y, 1, r);
  }
};

template <> struct Blas<double> {
  static constexpr const char *gemmName = "cublasDgemm";
  static constexpr const char *gemvName = "cublasDgemv";
  static constexpr const char *geamName = "cublasDgeam";
  static constexpr const char *dotName = "cublasDdot";
  static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                             int n, int k, const double *alpha, const double *A, int lda,
                             const double *B, int ldb, const double *beta, double *C, int ldc) {
    return cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  static cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t t, int m, int n,
                             const double *alpha, const double *A, int lda, const double *x,
                             const double *beta, double *y) {
    return cublasDgemv(h, t, m, n, alpha, A, lda, x, 1, beta, y, 1);
  }
  static cublasStatus_t geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                             int n, const double *alpha, const double *A, int lda,
                             const double *beta, const double *B, int ldb, double *C, int ldc) {
    return cublasDgeam(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
  }
  static cublasStatus_t dot(cublasHandle_t h, int n, const double *x, const double *y, double *r) {
    return cublasDdot(h, n, x, 1, y, 1, r);
  }
};

} // namespace gpu
} // namespace rtapi
