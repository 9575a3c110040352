// The dense calls on cuBLAS. cuBLAS is column-major; a row-major r x c matrix is the same memory
// as a column-major c x r matrix (its transpose), so each call is the transposed identity:
//   C = A B      (row-major)  <=>  C^T = B^T A^T   (column-major): gemm(N, N, n, m, k, B, A)
//   C = A x      (row-major)  <=>  gemv(T) on the column-major n x m view of A
//   C = A^T      (row-major)  <=>  geam(T) of the column-major view
//   C = a b^T    (row-major)  <=>  C^T = b a^T: gemm with k = 1
//
// Each call ends with Call::finish(): on device arrays alone it returns with the work queued on
// the legacy default stream (no wait), as a direct cuBLAS call does; with a host or managed array
// it waits (see Runtime.h).
#include "rtapi.h"

#include "BlasTraits.h"
#include "Checks.h"
#include "Impl.h"
#include "Runtime.h"

#include <cstdint>

namespace rtapi {
namespace {

using namespace gpu;

constexpr cublasOperation_t N = CUBLAS_OP_N;
constexpr cublasOperation_t Tr = CUBLAS_OP_T;

template <class T> std::size_t bytes(std::size_t count) { return count * sizeof(T); }

// p points into the n elements at `array`.
template <class T> bool within(const T *p, const T *array, int n) {
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(array);
  return at >= begin && at < begin + static_cast<std::size_t>(n) * sizeof(T);
}

// Device pointer mode for one cuBLAS call; the handle's host mode comes back even on failure
// (every other call passes alpha and beta as host pointers).
class DevicePointerMode {
public:
  explicit DevicePointerMode(cublasHandle_t h) : h_(h) {
    checkCublas(cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode");
  }
  ~DevicePointerMode() { (void)cublasSetPointerMode(h_, CUBLAS_POINTER_MODE_HOST); }
  DevicePointerMode(const DevicePointerMode &) = delete;
  DevicePointerMode &operator=(const DevicePointerMode &) = delete;

private:
  cublasHandle_t h_;
};

} // namespace

namespace impl {

using namespace gpu;

template <class T> void mm(T *C, const T *A, const T *B, int m, int n, int k) {
  Call call(CallKind::Dense);
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
  Call call(CallKind::Dense);
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
  Call call(CallKind::Dense);
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
  Call call(CallKind::Dense);
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

// r in device or managed memory: device pointer mode writes r in stream order (the library never
// writes managed memory from the host while GPU work may be running), and finish() waits only if
// r, C or A is managed or host memory.
// r in host memory: device pointer mode into the context's mapped pinned slot, one stream wait,
// then *r from the slot. cuBLAS's host pointer mode gives the same value but takes longer: on an
// H100 at n = 4096, 26 us a call against 15 us for the slot (docs/rtapi.md). An r inside C or A
// takes this path too (cuBLAS does not promise to have read all of C and A before it writes r).
template <class T> void dot(const T *C, const T *A, int n, T *r) {
  Call call(CallKind::Dense);
  check::dot(C, A, n, r);
  const Memory where = call.classify("r", r);
  if (where == Memory::Managed) call.hostVisible();
  if (n == 0) {
    if (where == Memory::Host)
      *r = 0;
    else
      checkCuda(cudaMemset(r, 0, sizeof(T)), "cudaMemset"); // all-zero bits: 0.0
    call.finish();
    return;
  }
  DeviceArg c(call, "C", C, bytes<T>(static_cast<std::size_t>(n)), Access::Read);
  DeviceArg a(call, "A", A, bytes<T>(static_cast<std::size_t>(n)), Access::Read);
  if (where != Memory::Host && !within(r, C, n) && !within(r, A, n)) {
    DevicePointerMode mode(call.blas());
    checkCublas(Blas<T>::dot(call.blas(), n, c.as<T>(), a.as<T>(), r), Blas<T>::dotName);
    call.finish();
    return;
  }
  T result = 0;
  if (T *slot = call.resultSlot<T>()) {
    {
      DevicePointerMode mode(call.blas());
      checkCublas(Blas<T>::dot(call.blas(), n, c.as<T>(), a.as<T>(), slot), Blas<T>::dotName);
    }
    call.synchronize();
    result = *slot;
  } else { // no slot: host pointer mode, which waits for the result
    checkCublas(Blas<T>::dot(call.blas(), n, c.as<T>(), a.as<T>(), &result), Blas<T>::dotName);
  }
  if (where == Memory::Host)
    *r = result;
  else
    checkCuda(cudaMemcpy(r, &result, sizeof(T), cudaMemcpyHostToDevice),
              "cudaMemcpy (host to device)");
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
