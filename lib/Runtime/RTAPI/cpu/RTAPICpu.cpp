// librtapi_cpu: the RT-API on the CPU with plain loops (common/Reference.h). Same header, checks,
// messages and results (up to rounding) as the GPU implementation; used by the emulation shim
// and in CI. The BSR format really runs on a BSR copy, so the conversion the GPU path uses is
// exercised without a GPU.
#include "Arrays.h"
#include "Checks.h"
#include "Error.h"
#include "Impl.h"
#include "Reference.h"
#include "Sparse.h"

#include <atomic>
#include <cstdlib>
#include <string>

namespace rtapi {
namespace {

std::atomic<int> initCount{0};

void requireInit() {
  if (initCount.load() == 0) fail(RT_ERROR_NOT_INITIALIZED, "RTAPIInit has not been called");
}

void *hostAllocate(std::size_t bytes) {
  void *p = std::malloc(bytes);
  if (!p) fail(RT_ERROR_OUT_OF_MEMORY, "malloc of " + std::to_string(bytes) + " bytes failed");
  return p;
}

void hostRelease(void *p) { std::free(p); }

const ArrayMemory kMemory{hostAllocate, hostRelease, 0x52544331u /* "RTC1" */};

} // namespace

namespace impl {

const char *name() { return "cpu"; }

void init() { initCount.fetch_add(1); }

void finalize() {
  int count = initCount.load();
  do {
    if (count == 0) fail(RT_ERROR_NOT_INITIALIZED, "RTAPIFinalize without RTAPIInit");
  } while (!initCount.compare_exchange_weak(count, count - 1));
}

template <class T> void mm(T *C, const T *A, const T *B, int m, int n, int k) {
  requireInit();
  check::mm(C, A, B, m, n, k);
  ref::gemm(C, A, B, m, n, k);
}

template <class T> void mv(T *C, const T *A, const T *B, int m, int n) {
  requireInit();
  check::mv(C, A, B, m, n);
  ref::gemv(C, A, B, m, n);
}

template <class T> void mt(T *C, const T *A, int m, int n) {
  requireInit();
  check::mt(C, A, m, n);
  ref::transpose(C, A, m, n);
}

template <class T> void vv(T *C, const T *A, int m, const T *B, int n) {
  requireInit();
  check::vv(C, A, m, B, n);
  ref::outer(C, A, m, B, n);
}

template <class T> void dot(const T *C, const T *A, int n, T *r) {
  requireInit();
  check::dot(C, A, n, r);
  *r = ref::dot(C, A, n);
}

template <class T> void create(const T *dense, SpArray<T> *array, int m, int n) {
  check::create(dense, array, m, n);
  createArray(dense, array, m, n, kMemory);
}

template <class T> void load(const char *filename, SpArray<T> *array) {
  loadArray<T>(filename, array, kMemory);
}

template <class T> void destroy(SpArray<T> *array) { destroyArray<T>(array, kMemory); }

template <class T>
void spmm(SpArray<T> *C, const SpArray<T> *A, const SpArray<T> *B, int m, int n, int k, int format,
          const char *api) {
  requireInit();
  check::spmm<T>(C, A, B, m, n, k, format, api);
  check::structure("A", viewOf(*A));
  check::structure("B", viewOf(*B));
  const Csr<T> product = ref::csrgemm(viewOf(*A), viewOf(*B));
  storeProduct<T>(C, A, B, arrayFromCsr<SpArray<T>>(product, kMemory), kMemory);
}

template <class T>
void spdmm(T *C, const SpArray<T> *A, const T *B, int m, int n, int k, int format,
           const char *api) {
  requireInit();
  const int run = check::spdmm<T>(C, A, B, m, n, k, format, api);
  const CsrView<T> a = viewOf(*A);
  check::structure("A", a);
  const int blockDim = run == RTBSR ? chooseBsrBlockDim(a) : 0;
  if (blockDim > 0)
    ref::bsrmm(csrToBsr(a, blockDim), B, n, C);
  else
    ref::csrmm(a, B, n, C);
}

template <class T>
void spmv(T *C, const SpArray<T> *A, const T *B, int m, int n, int format, const char *api) {
  requireInit();
  const int run = check::spmv<T>(C, A, B, m, n, format, api);
  const CsrView<T> a = viewOf(*A);
  check::structure("A", a);
  const int blockDim = run == RTBSR ? chooseBsrBlockDim(a) : 0;
  if (blockDim > 0)
    ref::bsrmv(csrToBsr(a, blockDim), B, C);
  else
    ref::csrmv(a, B, C);
}

} // namespace impl
} // namespace rtapi

#include "ExportApi.inc"
