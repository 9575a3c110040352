// The sparse calls on cuSPARSE's generic API: SpMV, SpMM (row-major dense operands) and SpGEMM
// on CSR; SpMV and SpMM on BSR, converted from the CSR form for each call (see the BSR section).
// RTHYB selects the CSR path.
//
// Waiting: a CSR product (RTsp*MV, RTspd*MM) ends like a dense call, with Call::finish(): on
// device arrays alone (the struct's and the vectors') it returns with the work queued; with a
// host or managed array it waits. The block form and sparse x sparse always wait.
//
// The arrays the library allocates for RTsp*Array structs are managed memory: the host can read
// and write them, and the device uses them in place.
#define DISABLE_CUSPARSE_DEPRECATED // csr2bsr: see the BSR section

#include "Arrays.h"
#include "Checks.h"
#include "Impl.h"
#include "Runtime.h"
#include "Sparse.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace rtapi {
namespace {

using namespace gpu;

// The host fills the new arrays next. A dense call on device arrays may still be running (it
// does not wait), and without concurrent managed access (cudaDevAttrConcurrentManagedAccess) the
// host must not touch managed memory while a kernel runs: wait first.
void *managedAllocate(std::size_t bytes) {
  checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  void *p = nullptr;
  checkCuda(cudaMallocManaged(&p, bytes, cudaMemAttachGlobal),
            ("cudaMallocManaged of " + std::to_string(bytes) + " bytes").c_str());
  return p;
}

void managedRelease(void *p) { (void)cudaFree(p); }

const ArrayMemory kMemory{managedAllocate, managedRelease, 0x52544731u /* "RTG1" */};

// Runs a cleanup at scope exit (descriptor destruction).
template <class F> struct Finally {
  F f;
  ~Finally() { f(); }
};
template <class F> Finally<F> finally(F f) { return Finally<F>{f}; }

constexpr cusparseOperation_t kNoTrans = CUSPARSE_OPERATION_NON_TRANSPOSE;

// A CSR argument's arrays on the device.
struct DeviceCsr {
  DeviceArg rowPtr, colInd, val;
};

template <class S> DeviceCsr stageCsr(Call &call, const std::string &name, const S &a) {
  using T = ValueOf<S>;
  // Host arrays are read anyway to be staged: check their structure first. Device and managed
  // arrays are trusted (reading them here would cost a device-to-host transfer).
  if (call.classify((name + ".rowPtr").c_str(), a.rowPtr) == Memory::Host &&
      call.classify((name + ".colInd").c_str(), a.colInd) == Memory::Host)
    check::structure(name.c_str(), viewOf(a));
  const std::size_t nnz = static_cast<std::size_t>(a.nnz);
  return DeviceCsr{
      DeviceArg(call, (name + ".rowPtr").c_str(), a.rowPtr,
                (static_cast<std::size_t>(a.rows) + 1) * sizeof(int), Access::Read),
      DeviceArg(call, (name + ".colInd").c_str(), a.colInd, nnz * sizeof(int), Access::Read),
      DeviceArg(call, (name + ".val").c_str(), a.val, nnz * sizeof(T), Access::Read)};
}

template <class S> cusparseSpMatDescr_t csrDescriptor(const S &a, const DeviceCsr &d) {
  using T = ValueOf<S>;
  cusparseSpMatDescr_t mat = nullptr;
  checkCusparse(cusparseCreateCsr(&mat, a.rows, a.cols, a.nnz, d.rowPtr.get(), d.colInd.get(),
                                  d.val.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_BASE_ZERO, dataType<T>()),
                "cusparseCreateCsr");
  return mat;
}

// ---- BSR ---------------------------------------------------------------------------------------
// The block form is built for each call, with the block size rule of rtapi::chooseBlockDim (4
// when 4x4 blocks store at most 1.5 values per nonzero, else 2). With cuSPARSE 12 the conversion
// runs on the device (csr2bsr, deprecated in cuSPARSE 12 but without a generic replacement);
// with a cuSPARSE that no longer has it, the conversion shared with the CPU implementation runs
// on the host.
#ifndef RTAPI_DEVICE_BSR
#if CUSPARSE_VER_MAJOR <= 12
#define RTAPI_DEVICE_BSR 1
#else
#define RTAPI_DEVICE_BSR 0
#endif
#endif

template <class T> struct DeviceBsr {
  int blockDim = 0, blockRows = 0, blockCols = 0, nnzb = 0;
  Scratch rowPtr, colInd, val;
};

#if RTAPI_DEVICE_BSR

cusparseStatus_t csr2bsr(cusparseHandle_t h, int m, int n, cusparseMatDescr_t descrA,
                         const float *val, const int *rowPtr, const int *colInd, int blockDim,
                         cusparseMatDescr_t descrC, float *bsrVal, int *bsrRowPtr, int *bsrColInd) {
  return cusparseScsr2bsr(h, CUSPARSE_DIRECTION_ROW, m, n, descrA, val, rowPtr, colInd, blockDim,
                          descrC, bsrVal, bsrRowPtr, bsrColInd);
}
cusparseStatus_t csr2bsr(cusparseHandle_t h, int m, int n, cusparseMatDescr_t descrA,
                         const double *val, const int *rowPtr, const int *colInd, int blockDim,
                         cusparseMatDescr_t descrC, double *bsrVal, int *bsrRowPtr,
                         int *bsrColInd) {
  return cusparseDcsr2bsr(h, CUSPARSE_DIRECTION_ROW, m, n, descrA, val, rowPtr, colInd, blockDim,
                          descrC, bsrVal, bsrRowPtr, bsrColInd);
}

template <class S> DeviceBsr<ValueOf<S>> deviceBsr(Call &call, const S &a) {
  using T = ValueOf<S>;
  const DeviceCsr csr = stageCsr(call, "A", a);
  cusparseMatDescr_t descr = nullptr;
  auto cleanup = finally([&] {
    if (descr) (void)cusparseDestroyMatDescr(descr);
  });
  checkCusparse(cusparseCreateMatDescr(&descr), "cusparseCreateMatDescr");
  checkCusparse(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL), "cusparseSetMatType");
  checkCusparse(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO),
                "cusparseSetMatIndexBase");
  DeviceBsr<T> out;
  // Count the 4x4 blocks, then choose; count again for 2x2 if needed.
  const int largest = largestBlockDim(a.rows, a.cols); // 2 or 4: the caller checked
  for (int blockDim : {4, 2}) {
    if (blockDim > largest) continue;
    out.blockDim = blockDim;
    out.blockRows = (a.rows + blockDim - 1) / blockDim;
    out.blockCols = (a.cols + blockDim - 1) / blockDim;
    out.rowPtr = call.scratch((static_cast<std::size_t>(out.blockRows) + 1) * sizeof(int));
    checkCusparse(cusparseXcsr2bsrNnz(call.sparse(), CUSPARSE_DIRECTION_ROW, a.rows, a.cols, descr,
                                      csr.rowPtr.as<int>(), csr.colInd.as<int>(), blockDim, descr,
                                      static_cast<int *>(out.rowPtr.get()), &out.nnzb),
                  "cusparseXcsr2bsrNnz");
    if (blockDim == 2 || blockDimForCount(out.nnzb, a.nnz) == 4) break;
  }
  out.colInd = call.scratch(static_cast<std::size_t>(out.nnzb) * sizeof(int));
  out.val =
      call.scratch(static_cast<std::size_t>(out.nnzb) * out.blockDim * out.blockDim * sizeof(T));
  checkCusparse(csr2bsr(call.sparse(), a.rows, a.cols, descr, csr.val.as<T>(), csr.rowPtr.as<int>(),
                        csr.colInd.as<int>(), out.blockDim, descr, static_cast<T *>(out.val.get()),
                        static_cast<int *>(out.rowPtr.get()), static_cast<int *>(out.colInd.get())),
                sizeof(T) == sizeof(float) ? "cusparseScsr2bsr" : "cusparseDcsr2bsr");
  return out;
}

#else // host conversion

template <class T> Scratch upload(Call &call, const std::vector<T> &host, const char *what) {
  Scratch s = call.scratch(host.size() * sizeof(T));
  checkCuda(cudaMemcpy(s.get(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
            what);
  return s;
}

template <class S> DeviceBsr<ValueOf<S>> deviceBsr(Call &call, const S &a) {
  using T = ValueOf<S>;
  std::vector<int> rowPtr, colInd;
  std::vector<T> val;
  CsrView<T> view = viewOf(a);
  if (call.classify("A.rowPtr", a.rowPtr) != Memory::Host ||
      call.classify("A.colInd", a.colInd) != Memory::Host ||
      call.classify("A.val", a.val) != Memory::Host) {
    rowPtr.resize(static_cast<std::size_t>(a.rows) + 1);
    colInd.resize(static_cast<std::size_t>(a.nnz));
    val.resize(static_cast<std::size_t>(a.nnz));
    checkCuda(cudaMemcpy(rowPtr.data(), a.rowPtr, rowPtr.size() * sizeof(int), cudaMemcpyDefault),
              "cudaMemcpy (A.rowPtr to host)");
    checkCuda(cudaMemcpy(colInd.data(), a.colInd, colInd.size() * sizeof(int), cudaMemcpyDefault),
              "cudaMemcpy (A.colInd to host)");
    checkCuda(cudaMemcpy(val.data(), a.val, val.size() * sizeof(T), cudaMemcpyDefault),
              "cudaMemcpy (A.val to host)");
    view = CsrView<T>{a.rows, a.cols, a.nnz, rowPtr.data(), colInd.data(), val.data()};
  }
  check::structure("A", view);
  const Bsr<T> b = csrToBsr(view, chooseBsrBlockDim(view));
  DeviceBsr<T> out;
  out.blockDim = b.blockDim;
  out.blockRows = b.blockRows;
  out.blockCols = b.blockCols;
  out.nnzb = b.nnzb();
  out.rowPtr = upload(call, b.rowPtr, "cudaMemcpy (BSR row offsets)");
  out.colInd = upload(call, b.colInd, "cudaMemcpy (BSR block columns)");
  out.val = upload(call, b.val, "cudaMemcpy (BSR values)");
  return out;
}

#endif

template <class T> cusparseSpMatDescr_t bsrDescriptor(const DeviceBsr<T> &b) {
  cusparseSpMatDescr_t mat = nullptr;
  checkCusparse(cusparseCreateBsr(&mat, b.blockRows, b.blockCols, b.nnzb, b.blockDim, b.blockDim,
                                  b.rowPtr.get(), b.colInd.get(), b.val.get(), CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dataType<T>(),
                                  CUSPARSE_ORDER_ROW),
                "cusparseCreateBsr");
  return mat;
}

// y[rows] = mat * x[cols] on device vectors.
template <class T>
void spmvOn(Call &call, cusparseSpMatDescr_t mat, void *x, int64_t cols, void *y, int64_t rows) {
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  auto cleanup = finally([&] {
    if (vx) (void)cusparseDestroyDnVec(vx);
    if (vy) (void)cusparseDestroyDnVec(vy);
  });
  checkCusparse(cusparseCreateDnVec(&vx, cols, x, dataType<T>()), "cusparseCreateDnVec");
  checkCusparse(cusparseCreateDnVec(&vy, rows, y, dataType<T>()), "cusparseCreateDnVec");
  const T one = 1, zero = 0;
  std::size_t size = 0;
  checkCusparse(cusparseSpMV_bufferSize(call.sparse(), kNoTrans, &one, mat, vx, &zero, vy,
                                        dataType<T>(), CUSPARSE_SPMV_ALG_DEFAULT, &size),
                "cusparseSpMV_bufferSize");
  Scratch buffer = call.scratch(size);
  checkCusparse(cusparseSpMV(call.sparse(), kNoTrans, &one, mat, vx, &zero, vy, dataType<T>(),
                             CUSPARSE_SPMV_ALG_DEFAULT, buffer.get()),
                "cusparseSpMV");
}

// C[rows x n] = mat * B[inner x n], both dense operands row-major on the device.
template <class T>
void spmmOn(Call &call, cusparseSpMatDescr_t mat, cusparseSpMMAlg_t alg, void *B, int64_t inner,
            int64_t n, void *C, int64_t rows) {
  cusparseDnMatDescr_t mb = nullptr, mc = nullptr;
  auto cleanup = finally([&] {
    if (mb) (void)cusparseDestroyDnMat(mb);
    if (mc) (void)cusparseDestroyDnMat(mc);
  });
  checkCusparse(cusparseCreateDnMat(&mb, inner, n, n, B, dataType<T>(), CUSPARSE_ORDER_ROW),
                "cusparseCreateDnMat");
  checkCusparse(cusparseCreateDnMat(&mc, rows, n, n, C, dataType<T>(), CUSPARSE_ORDER_ROW),
                "cusparseCreateDnMat");
  const T one = 1, zero = 0;
  std::size_t size = 0;
  checkCusparse(cusparseSpMM_bufferSize(call.sparse(), kNoTrans, kNoTrans, &one, mat, mb, &zero, mc,
                                        dataType<T>(), alg, &size),
                "cusparseSpMM_bufferSize");
  Scratch buffer = call.scratch(size);
  checkCusparse(cusparseSpMM(call.sparse(), kNoTrans, kNoTrans, &one, mat, mb, &zero, mc,
                             dataType<T>(), alg, buffer.get()),
                "cusparseSpMM");
}

// A device copy of count elements of `user` (host or device), zero-padded to `padded`.
template <class T>
Scratch paddedCopy(Call &call, const T *user, std::size_t count, std::size_t padded) {
  Scratch s = call.scratch(padded * sizeof(T));
  checkCuda(cudaMemset(s.get(), 0, padded * sizeof(T)), "cudaMemset");
  if (count)
    checkCuda(cudaMemcpy(s.get(), user, count * sizeof(T), cudaMemcpyDefault), "cudaMemcpy");
  return s;
}

template <class T> void zeroOutput(Call &call, T *C, std::size_t count) {
  DeviceArg c(call, "C", C, count * sizeof(T), Access::Write);
  if (count) checkCuda(cudaMemset(c.get(), 0, count * sizeof(T)), "cudaMemset");
  c.copyBack();
}

template <class S> S spgemm(Call &call, const S &A, const S &B) {
  using T = ValueOf<S>;
  const DeviceCsr a = stageCsr(call, "A", A), b = stageCsr(call, "B", B);
  const int m = A.rows, n = B.cols;
  cusparseSpMatDescr_t ma = nullptr, mb = nullptr, mc = nullptr;
  cusparseSpGEMMDescr_t desc = nullptr;
  auto cleanup = finally([&] {
    if (desc) (void)cusparseSpGEMM_destroyDescr(desc);
    if (mc) (void)cusparseDestroySpMat(mc);
    if (mb) (void)cusparseDestroySpMat(mb);
    if (ma) (void)cusparseDestroySpMat(ma);
  });
  ma = csrDescriptor(A, a);
  mb = csrDescriptor(B, b);
  Scratch rowPtr = call.scratch((static_cast<std::size_t>(m) + 1) * sizeof(int));
  checkCusparse(cusparseCreateCsr(&mc, m, n, 0, rowPtr.get(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dataType<T>()),
                "cusparseCreateCsr");
  checkCusparse(cusparseSpGEMM_createDescr(&desc), "cusparseSpGEMM_createDescr");
  const T one = 1, zero = 0;
  const cudaDataType type = dataType<T>();
  const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  std::size_t size1 = 0, size2 = 0;
  checkCusparse(cusparseSpGEMM_workEstimation(call.sparse(), kNoTrans, kNoTrans, &one, ma, mb,
                                              &zero, mc, type, alg, desc, &size1, nullptr),
                "cusparseSpGEMM_workEstimation");
  Scratch buffer1 = call.scratch(size1);
  checkCusparse(cusparseSpGEMM_workEstimation(call.sparse(), kNoTrans, kNoTrans, &one, ma, mb,
                                              &zero, mc, type, alg, desc, &size1, buffer1.get()),
                "cusparseSpGEMM_workEstimation");
  checkCusparse(cusparseSpGEMM_compute(call.sparse(), kNoTrans, kNoTrans, &one, ma, mb, &zero, mc,
                                       type, alg, desc, &size2, nullptr),
                "cusparseSpGEMM_compute");
  Scratch buffer2 = call.scratch(size2);
  checkCusparse(cusparseSpGEMM_compute(call.sparse(), kNoTrans, kNoTrans, &one, ma, mb, &zero, mc,
                                       type, alg, desc, &size2, buffer2.get()),
                "cusparseSpGEMM_compute");
  int64_t rows = 0, cols = 0, nnz = 0;
  checkCusparse(cusparseSpMatGetSize(mc, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  if (nnz > std::numeric_limits<int>::max())
    fail(RT_ERROR_UNSUPPORTED, "the product has more than 2^31-1 nonzeros");
  S out = newArray<S>(m, n, static_cast<int>(nnz), kMemory);
  try {
    checkCusparse(cusparseCsrSetPointers(mc, rowPtr.get(), out.colInd, out.val),
                  "cusparseCsrSetPointers");
    checkCusparse(cusparseSpGEMM_copy(call.sparse(), kNoTrans, kNoTrans, &one, ma, mb, &zero, mc,
                                      type, alg, desc),
                  "cusparseSpGEMM_copy");
    checkCuda(cudaMemcpy(out.rowPtr, rowPtr.get(), (static_cast<std::size_t>(m) + 1) * sizeof(int),
                         cudaMemcpyDefault),
              "cudaMemcpy (row offsets)");
  } catch (...) {
    releaseArray(&out, kMemory);
    throw;
  }
  return out;
}

} // namespace

namespace impl {

template <class T> void create(const T *dense, SpArray<T> *array, int m, int n) {
  check::create(dense, array, m, n);
  std::vector<T> copy;
  const T *host = dense;
  const std::size_t count = check::elements(m, n);
  if (count > 0) {
    const Memory where = classify("A", dense, -1);
    if (where == Memory::Device) {
      copy.resize(count);
      checkCuda(cudaMemcpy(copy.data(), dense, count * sizeof(T), cudaMemcpyDeviceToHost),
                "cudaMemcpy (device to host)");
      host = copy.data();
    } else if (where == Memory::Managed) {
      checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
  }
  createArray(host, array, m, n, kMemory);
}

template <class T> void load(const char *filename, SpArray<T> *array) {
  loadArray<T>(filename, array, kMemory);
}

template <class T> void destroy(SpArray<T> *array) { destroyArray<T>(array, kMemory); }

template <class T>
void spmv(T *C, const SpArray<T> *A, const T *B, int m, int n, int format, const char *api) {
  Call call;
  int run = check::spmv<T>(C, A, B, m, n, format, api);
  if (run == RTBSR && largestBlockDim(m, n) == 0) run = RTCSR; // no 2x2 block: see Sparse.h
  if (m == 0) return;
  if (n == 0 || A->nnz == 0) {
    zeroOutput(call, C, static_cast<std::size_t>(m));
  } else if (run == RTCSR) {
    const DeviceCsr a = stageCsr(call, "A", *A);
    DeviceArg x(call, "B", B, static_cast<std::size_t>(n) * sizeof(T), Access::Read);
    DeviceArg y(call, "C", C, static_cast<std::size_t>(m) * sizeof(T), Access::Write);
    cusparseSpMatDescr_t mat = csrDescriptor(*A, a);
    auto cleanup = finally([&] { (void)cusparseDestroySpMat(mat); });
    spmvOn<T>(call, mat, x.get(), n, y.get(), m);
    y.copyBack();
  } else {
    const DeviceBsr<T> b = deviceBsr(call, *A);
    const std::size_t xLength = static_cast<std::size_t>(b.blockCols) * b.blockDim;
    const std::size_t yLength = static_cast<std::size_t>(b.blockRows) * b.blockDim;
    Scratch x = paddedCopy(call, B, static_cast<std::size_t>(n), xLength);
    Scratch y = call.scratch(yLength * sizeof(T));
    cusparseSpMatDescr_t mat = bsrDescriptor(b);
    auto cleanup = finally([&] { (void)cusparseDestroySpMat(mat); });
    spmvOn<T>(call, mat, x.get(), static_cast<int64_t>(xLength), y.get(),
              static_cast<int64_t>(yLength));
    checkCuda(cudaMemcpy(C, y.get(), static_cast<std::size_t>(m) * sizeof(T), cudaMemcpyDefault),
              "cudaMemcpy (result)");
    call.synchronize(); // C was not asked about on this path: wait, whatever memory it is
  }
  call.finish();
}

template <class T>
void spdmm(T *C, const SpArray<T> *A, const T *B, int m, int n, int k, int format,
           const char *api) {
  Call call;
  int run = check::spdmm<T>(C, A, B, m, n, k, format, api);
  if (run == RTBSR && largestBlockDim(m, k) == 0) run = RTCSR; // no 2x2 block: see Sparse.h
  if (m == 0 || n == 0) return;
  const std::size_t N = static_cast<std::size_t>(n);
  if (k == 0 || A->nnz == 0) {
    zeroOutput(call, C, check::elements(m, n));
  } else if (run == RTCSR) {
    const DeviceCsr a = stageCsr(call, "A", *A);
    DeviceArg b(call, "B", B, check::elements(k, n) * sizeof(T), Access::Read);
    DeviceArg c(call, "C", C, check::elements(m, n) * sizeof(T), Access::Write);
    cusparseSpMatDescr_t mat = csrDescriptor(*A, a);
    auto cleanup = finally([&] { (void)cusparseDestroySpMat(mat); });
    spmmOn<T>(call, mat, CUSPARSE_SPMM_ALG_DEFAULT, b.get(), k, n, c.get(), m);
    c.copyBack();
  } else {
    // Row-major padding is whole rows at the end: B gains zero rows, C's extra rows are dropped.
    const DeviceBsr<T> bsr = deviceBsr(call, *A);
    const std::size_t inner = static_cast<std::size_t>(bsr.blockCols) * bsr.blockDim;
    const std::size_t rows = static_cast<std::size_t>(bsr.blockRows) * bsr.blockDim;
    Scratch b = paddedCopy(call, B, check::elements(k, n), inner * N);
    Scratch c = call.scratch(rows * N * sizeof(T));
    cusparseSpMatDescr_t mat = bsrDescriptor(bsr);
    auto cleanup = finally([&] { (void)cusparseDestroySpMat(mat); });
    spmmOn<T>(call, mat, CUSPARSE_SPMM_BSR_ALG1, b.get(), static_cast<int64_t>(inner), n, c.get(),
              static_cast<int64_t>(rows));
    checkCuda(cudaMemcpy(C, c.get(), check::elements(m, n) * sizeof(T), cudaMemcpyDefault),
              "cudaMemcpy (result)");
    call.synchronize(); // C was not asked about on this path: wait, whatever memory it is
  }
  call.finish();
}

template <class T>
void spmm(SpArray<T> *C, const SpArray<T> *A, const SpArray<T> *B, int m, int n, int k, int format,
          const char *api) {
  Call call;
  check::spmm<T>(C, A, B, m, n, k, format, api);
  SpArray<T> product;
  if (m == 0 || n == 0 || k == 0 || A->nnz == 0 || B->nnz == 0) {
    product = newArray<SpArray<T>>(m, n, 0, kMemory);
    for (int i = 0; i <= m; ++i) product.rowPtr[i] = 0;
  } else {
    product = spgemm(call, *A, *B);
  }
  try {
    call.synchronize();
  } catch (...) {
    releaseArray(&product, kMemory);
    throw;
  }
  storeProduct<T>(C, A, B, product, kMemory);
}

#define RTAPI_INSTANTIATE(T)                                                                       \
  template void create<T>(const T *, SpArray<T> *, int, int);                                      \
  template void load<T>(const char *, SpArray<T> *);                                               \
  template void destroy<T>(SpArray<T> *);                                                          \
  template void spmv<T>(T *, const SpArray<T> *, const T *, int, int, int, const char *);          \
  template void spdmm<T>(T *, const SpArray<T> *, const T *, int, int, int, int, const char *);    \
  template void spmm<T>(SpArray<T> *, const SpArray<T> *, const SpArray<T> *, int, int, int, int,  \
                        const char *);
RTAPI_INSTANTIATE(float)
RTAPI_INSTANTIATE(double)
#undef RTAPI_INSTANTIATE

} // namespace impl
} // namespace rtapi
