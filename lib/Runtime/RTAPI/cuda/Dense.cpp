// The dense calls on cuBLAS. cuBLAS is column-major; a row-major r x c matrix is the same memory
// as a column-major c x r matrix (its transpose), so each call is the transposed identity:
//   C = A B      (row-major)  <=>  C^T = B^T A^T   (column-major): gemm(N, N, n, m, k, B, A)
//   C = A x      (row-major)  <=>  gemv(T) on the column-major n x m view of A
//   C = A^T      (row-major)  <=>  geam(T) of the column-major view
//   C = a b^T    (row-major)  <=>  C^T = b a^T: gemm with k = 1
#include "rtapi.h"

#include "Checks.h"
#include "Impl.h"
#include "Runtime.h"

namespace rtapi {
namespace {

using namespace gpu;

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

constexpr cublasOperation_t N = CUBLAS_OP_N;
constexpr cublasOperation_t Tr = CUBLAS_OP_T;

template <class T> std::size_t bytes(std::size_t count) { return count * sizeof(T); }

} // namespace

namespace impl {

using namespace gpu;

template <class T> void mm(T *C, const T *A, const T *B, int m, int n, int k) {
  Call call;
  check::mm(C, A, B, m, n, k);
  if (m == 0 || n == 0) return;
  DeviceArg a(call, "A", A, bytes<T>(check::elements(m, k)), Access::Read);
  DeviceArg b(call, "B", B, bytes<T>(check::elements(k, n)), Access::Read);
  DeviceArg c(call, "C", C, bytes<T>(check::elements(m, n)), Access::Write);
  const T one = 1, zero = 0;
  if (k == 0)
    checkCuda(cudaMemset(c.get(), 0, bytes<T>(check::elements(m, n))), "cudaMemset");
  else
    checkCublas(Blas<T>::gemm(call.blas(), N, N, n, m, k, &one, b.as<T>(), n, a.as<T>(), k, &zero,
                              c.as<T>(), n),
                Blas<T>::gemmName);
  c.copyBack();
  call.finish();
}

template <class T> void mv(T *C, const T *A, const T *B, int m, int n) {
  Call call;
  check::mv(C, A, B, m, n);
  if (m == 0) return;
  DeviceArg a(call, "A", A, bytes<T>(check::elements(m, n)), Access::Read);
  DeviceArg b(call, "B", B, bytes<T>(static_cast<std::size_t>(n)), Access::Read);
  DeviceArg c(call, "C", C, bytes<T>(static_cast<std::size_t>(m)), Access::Write);
  const T one = 1, zero = 0;
  if (n == 0)
    checkCuda(cudaMemset(c.get(), 0, bytes<T>(static_cast<std::size_t>(m))), "cudaMemset");
  else
    checkCublas(
        Blas<T>::gemv(call.blas(), Tr, n, m, &one, a.as<T>(), n, b.as<T>(), &zero, c.as<T>()),
        Blas<T>::gemvName);
  c.copyBack();
  call.finish();
}

// C[m x n] = A^T with A n x m: the column-major view of C is n x m (ld n), of A m x n (ld m).
template <class T> void mt(T *C, const T *A, int m, int n) {
  Call call;
  check::mt(C, A, m, n);
  if (m == 0 || n == 0) return;
  DeviceArg a(call, "A", A, bytes<T>(check::elements(m, n)), Access::Read);
  DeviceArg c(call, "C", C, bytes<T>(check::elements(m, n)), Access::Write);
  const T one = 1, zero = 0;
  // beta = 0: B is not read; C itself with ldb = ldc is the in-place form cuBLAS accepts.
  checkCublas(Blas<T>::geam(call.blas(), Tr, N, n, m, &one, a.as<T>(), m, &zero, c.as<T>(), n,
                            c.as<T>(), n),
              Blas<T>::geamName);
  c.copyBack();
  call.finish();
}

// C[m x n] = A[m] B[n]^T: column-major C^T (n x m) = B (n x 1) * A^T (1 x m).
template <class T> void vv(T *C, const T *A, int m, const T *B, int n) {
  Call call;
  check::vv(C, A, m, B, n);
  if (m == 0 || n == 0) return;
  DeviceArg a(call, "A", A, bytes<T>(static_cast<std::size_t>(m)), Access::Read);
  DeviceArg b(call, "B", B, bytes<T>(static_cast<std::size_t>(n)), Access::Read);
  DeviceArg c(call, "C", C, bytes<T>(check::elements(m, n)), Access::Write);
  const T one = 1, zero = 0;
  checkCublas(Blas<T>::gemm(call.blas(), N, N, n, m, 1, &one, b.as<T>(), n, a.as<T>(), 1, &zero,
                            c.as<T>(), n),
              Blas<T>::gemmName);
  c.copyBack();
  call.finish();
}

template <class T> void dot(const T *C, const T *A, int n, T *r) {
  Call call;
  check::dot(C, A, n, r);
  T result = 0;
  if (n > 0) {
    DeviceArg c(call, "C", C, bytes<T>(static_cast<std::size_t>(n)), Access::Read);
    DeviceArg a(call, "A", A, bytes<T>(static_cast<std::size_t>(n)), Access::Read);
    // The handle stays in host pointer mode: the result comes back to `result`, synchronously.
    checkCublas(Blas<T>::dot(call.blas(), n, c.as<T>(), a.as<T>(), &result), Blas<T>::dotName);
  }
  if (classify("r", r, call.device()) == Memory::Device)
    checkCuda(cudaMemcpy(r, &result, sizeof(T), cudaMemcpyHostToDevice),
              "cudaMemcpy (host to device)");
  else
    *r = result;
  call.finish();
}

#define RTAPI_INSTANTIATE(T)                                                                       \
  template void mm<T>(T *, const T *, const T *, int, int, int);                                   \
  template void mv<T>(T *, const T *, const T *, int, int);                                        \
  template void mt<T>(T *, const T *, int, int);                                                   \
  template void vv<T>(T *, const T *, int, const T *, int);                                        \
  template void dot<T>(const T *, const T *, int, T *);
RTAPI_INSTANTIATE(float)
RTAPI_INSTANTIATE(double)
#undef RTAPI_INSTANTIATE

} // namespace impl
} // namespace rtapi
