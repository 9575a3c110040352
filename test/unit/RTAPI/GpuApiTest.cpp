// GPU tests of librtapi (label "gpu"): each function against the CPU reference loops
// (common/Reference.h, the CPU implementation's kernels) at non-square sizes, in float and
// double, with operands in host, device and managed memory; device outputs are poisoned with
// NaN first. Integer-valued inputs make every result exact, so results must be equal; one test
// uses real values to check that FP32 GEMM is not rounded to TF32. Without a device every test
// skips. A per-function pass/fail table is printed at the end.
#include "RTAPITestSupport.h"

#include "Reference.h"
#include "Sparse.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <thread>

using namespace rtapitest;

extern "C" int rtapi_c_forms(void);
extern "C" int rtapi_seed_dense_example(int N);

namespace {

// ---- results table ---------------------------------------------------------------------------

struct Row {
  int checks = 0, failed = 0;
  std::set<std::string> memory;
  double worst = 0;
};
std::map<std::string, Row> &table() {
  static std::map<std::string, Row> rows;
  return rows;
}

void record(const std::string &function, const std::string &memory, double error,
            double tolerance = 0) {
  Row &row = table()[function];
  ++row.checks;
  row.memory.insert(memory);
  if (!(error <= tolerance)) ++row.failed;
  if (!(error <= row.worst) && !std::isnan(row.worst)) row.worst = error; // NaN stays
}

bool haveDevice() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// ---- memory of each kind ---------------------------------------------------------------------

enum class Kind { Host, Device, Managed };
const char *kindName(Kind k) {
  return k == Kind::Host ? "host" : k == Kind::Device ? "device" : "managed";
}
const Kind kKinds[] = {Kind::Host, Kind::Device, Kind::Managed};

template <class T> class Buffer {
public:
  Buffer(Kind kind, std::size_t count) : kind_(kind), count_(count) {
    const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
    if (kind == Kind::Host)
      host_.resize(std::max<std::size_t>(count, 1));
    else if (kind == Kind::Device)
      EXPECT_EQ(cudaMalloc(&ptr_, bytes), cudaSuccess);
    else
      EXPECT_EQ(cudaMallocManaged(&ptr_, bytes), cudaSuccess);
  }
  Buffer(Kind kind, const std::vector<T> &values) : Buffer(kind, values.size()) { set(values); }
  ~Buffer() {
    if (ptr_) cudaFree(ptr_);
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  T *get() { return kind_ == Kind::Host ? host_.data() : static_cast<T *>(ptr_); }
  void set(const std::vector<T> &values) {
    EXPECT_EQ(cudaMemcpy(get(), values.data(), values.size() * sizeof(T), cudaMemcpyDefault),
              cudaSuccess);
  }
  void poison() { set(std::vector<T>(count_, std::numeric_limits<T>::quiet_NaN())); }
  std::vector<T> values() {
    std::vector<T> out(count_);
    EXPECT_EQ(cudaMemcpy(out.data(), get(), count_ * sizeof(T), cudaMemcpyDefault), cudaSuccess);
    return out;
  }

private:
  Kind kind_;
  std::size_t count_;
  std::vector<T> host_;
  void *ptr_ = nullptr;
};

// A CSR matrix handed to the library in a struct filled by hand, arrays of the given kind.
template <class T> struct HandMade {
  HandMade(Kind kind, const rtapi::Csr<T> &csr)
      : rowPtr(kind, csr.rowPtr), colInd(kind, csr.colInd), val(kind, csr.val) {
    std::memset(static_cast<void *>(&array), 0, sizeof array);
    array.rows = csr.rows;
    array.cols = csr.cols;
    array.nnz = csr.nnz();
    array.rowPtr = rowPtr.get();
    array.colInd = colInd.get();
    array.val = val.get();
  }
  Buffer<int> rowPtr, colInd;
  Buffer<T> val;
  typename Api<T>::Array array;
};

// ---- the tests ---------------------------------------------------------------------------------

template <class T> class RTAPIGpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (!haveDevice()) {
      GTEST_SKIP() << "no CUDA device";
    }
    RTAPISetErrorMode(RT_ERRORS_RETURN);
    ASSERT_EQ(RTAPIInit(), RT_SUCCESS) << RTAPIGetLastErrorMessage();
  }
  void TearDown() override {
    if (haveDevice()) {
      EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS) << RTAPIGetLastErrorMessage();
    }
  }
  static std::string fn(const char *single, const char *twin) {
    return sizeof(T) == sizeof(float) ? single : twin;
  }
};

using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RTAPIGpu, Precisions);

struct Shape {
  int m, n, k;
};
const Shape kShapes[] = {{37, 23, 51}, {5, 64, 3}, {64, 1, 17}, {1, 29, 40}, {130, 70, 257}};

#define EXPECT_OK(call) EXPECT_EQ((call), RT_SUCCESS) << RTAPIGetLastErrorMessage()

TYPED_TEST(RTAPIGpu, ImplementationIsCuda) { EXPECT_STREQ(RTAPIGetImplementation(), "cuda"); }

TYPED_TEST(RTAPIGpu, DenseMatrixMatrix) {
  using T = TypeParam;
  const std::string name = this->fn("RTdSMM", "RTdDMM");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds) {
      const auto A = randomInts<T>(static_cast<std::size_t>(s.m) * s.k, 1);
      const auto B = randomInts<T>(static_cast<std::size_t>(s.k) * s.n, 2);
      std::vector<T> expect(static_cast<std::size_t>(s.m) * s.n);
      rtapi::ref::gemm(expect.data(), A.data(), B.data(), s.m, s.n, s.k);
      Buffer<T> a(kind, A), b(kind, B), c(kind, expect.size());
      c.poison();
      EXPECT_OK(Api<T>::mm(c.get(), a.get(), b.get(), s.m, s.n, s.k));
      const double err = maxDiff(c.values(), expect);
      record(name, kindName(kind), err);
      EXPECT_EQ(err, 0.0) << name << " " << s.m << "x" << s.n << "x" << s.k << " "
                          << kindName(kind);
    }
}

TYPED_TEST(RTAPIGpu, DenseMatrixMatrixIsFullPrecision) {
  // Real inputs, k = 512: FP32 accumulates to ~1e-6 relative error; TF32 would give ~1e-3.
  using T = TypeParam;
  const std::string name = this->fn("RTdSMM", "RTdDMM");
  const int m = 96, n = 80, k = 512;
  const auto A = randomReals<T>(static_cast<std::size_t>(m) * k, 3);
  const auto B = randomReals<T>(static_cast<std::size_t>(k) * n, 4);
  const std::vector<double> Ad(A.begin(), A.end()), Bd(B.begin(), B.end());
  const auto expect = naiveMM(Ad, Bd, m, n, k);
  Buffer<T> a(Kind::Device, A), b(Kind::Device, B), c(Kind::Device, expect.size());
  EXPECT_OK(Api<T>::mm(c.get(), a.get(), b.get(), m, n, k));
  const auto got = c.values();
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::fabs(double(got[i]) - expect[i]));
  const double tolerance = sizeof(T) == sizeof(float) ? 2e-4 : 1e-12;
  record(name + " (real, no TF32)", "device", worst, tolerance);
  EXPECT_LE(worst, tolerance);
}

TYPED_TEST(RTAPIGpu, DenseMatrixVector) {
  using T = TypeParam;
  const std::string name = this->fn("RTdSMV", "RTdDMV");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds) {
      const auto A = randomInts<T>(static_cast<std::size_t>(s.m) * s.n, 5);
      const auto x = randomInts<T>(static_cast<std::size_t>(s.n), 6);
      std::vector<T> expect(static_cast<std::size_t>(s.m));
      rtapi::ref::gemv(expect.data(), A.data(), x.data(), s.m, s.n);
      Buffer<T> a(kind, A), b(kind, x), c(kind, expect.size());
      c.poison();
      EXPECT_OK(Api<T>::mv(c.get(), a.get(), b.get(), s.m, s.n));
      const double err = maxDiff(c.values(), expect);
      record(name, kindName(kind), err);
      EXPECT_EQ(err, 0.0) << s.m << "x" << s.n << " " << kindName(kind);
    }
}

// From a thread that has made no CUDA call yet, so no context is current there when the call
// asks where its pointers live; operands of every kind, pinned host memory too (staged).
TYPED_TEST(RTAPIGpu, CallsFromANewThread) {
  using T = TypeParam;
  const std::string name = this->fn("RTdSMV (new thread)", "RTdDMV (new thread)");
  const int m = 37, n = 23;
  const auto A = randomInts<T>(static_cast<std::size_t>(m) * n, 40);
  const auto x = randomInts<T>(static_cast<std::size_t>(n), 41);
  std::vector<T> expect(static_cast<std::size_t>(m));
  rtapi::ref::gemv(expect.data(), A.data(), x.data(), m, n);
  auto inThread = [&](T *C, const T *a, const T *b) {
    std::string message;
    std::thread([&] {
      if (Api<T>::mv(C, a, b, m, n) != RT_SUCCESS) message = RTAPIGetLastErrorMessage();
      if (message.empty()) message = "ok";
    }).join();
    return message;
  };
  for (Kind kind : kKinds) {
    Buffer<T> a(kind, A), b(kind, x), c(kind, expect.size());
    c.poison();
    EXPECT_EQ(inThread(c.get(), a.get(), b.get()), "ok");
    const double err = maxDiff(c.values(), expect);
    record(name, kindName(kind), err);
    EXPECT_EQ(err, 0.0) << kindName(kind);
  }
  T *pinned[3] = {};
  const std::size_t counts[3] = {A.size(), x.size(), expect.size()};
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(cudaMallocHost(reinterpret_cast<void **>(&pinned[i]), counts[i] * sizeof(T)),
              cudaSuccess);
  std::copy(A.begin(), A.end(), pinned[0]);
  std::copy(x.begin(), x.end(), pinned[1]);
  std::fill(pinned[2], pinned[2] + m, std::numeric_limits<T>::quiet_NaN());
  EXPECT_EQ(inThread(pinned[2], pinned[0], pinned[1]), "ok");
  const double err = maxDiff(std::vector<T>(pinned[2], pinned[2] + m), expect);
  record(name, "pinned", err);
  EXPECT_EQ(err, 0.0) << "pinned";
  for (T *p : pinned) cudaFreeHost(p);
}

TYPED_TEST(RTAPIGpu, DenseTranspose) {
  using T = TypeParam;
  const std::string name = this->fn("RTdSMT", "RTdDMT");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds) {
      const auto A = randomInts<T>(static_cast<std::size_t>(s.n) * s.m, 7); // n x m
      std::vector<T> expect(static_cast<std::size_t>(s.m) * s.n);
      rtapi::ref::transpose(expect.data(), A.data(), s.m, s.n);
      Buffer<T> a(kind, A), c(kind, expect.size());
      c.poison();
      EXPECT_OK(Api<T>::mt(c.get(), a.get(), s.m, s.n));
      const double err = maxDiff(c.values(), expect);
      record(name, kindName(kind), err);
      EXPECT_EQ(err, 0.0) << s.m << "x" << s.n << " " << kindName(kind);
    }
}

TYPED_TEST(RTAPIGpu, OuterProduct) {
  using T = TypeParam;
  const std::string name = this->fn("RTdSVV", "RTdDVV");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds) {
      const auto x = randomInts<T>(static_cast<std::size_t>(s.m), 8);
      const auto y = randomInts<T>(static_cast<std::size_t>(s.n), 9);
      std::vector<T> expect(static_cast<std::size_t>(s.m) * s.n);
      rtapi::ref::outer(expect.data(), x.data(), s.m, y.data(), s.n);
      Buffer<T> a(kind, x), b(kind, y), c(kind, expect.size());
      c.poison();
      EXPECT_OK(Api<T>::vv(c.get(), a.get(), s.m, b.get(), s.n));
      const double err = maxDiff(c.values(), expect);
      record(name, kindName(kind), err);
      EXPECT_EQ(err, 0.0) << s.m << "x" << s.n << " " << kindName(kind);
    }
  const auto x = randomInts<T>(33, 10), y = randomInts<T>(33, 11);
  std::vector<T> expect(33 * 33), got(33 * 33);
  rtapi::ref::outer(expect.data(), x.data(), 33, y.data(), 33);
  EXPECT_OK(Api<T>::vvSquare(got.data(), x.data(), y.data(), 33));
  record(name + " (square form)", "host", maxDiff(got, expect));
}

TYPED_TEST(RTAPIGpu, DotProduct) {
  using T = TypeParam;
  const std::string name = this->fn("RTdSDOT", "RTdDDOT");
  for (int n : {1, 37, 1000, 4099})
    for (Kind kind : kKinds) {
      const auto x = randomInts<T>(static_cast<std::size_t>(n), 12);
      const auto y = randomInts<T>(static_cast<std::size_t>(n), 13);
      const T expect = rtapi::ref::dot(x.data(), y.data(), n);
      Buffer<T> a(kind, x), b(kind, y), r(kind, 1);
      r.poison();
      EXPECT_OK(Api<T>::dot(a.get(), b.get(), n, r.get()));
      const double err = std::fabs(double(r.values()[0]) - double(expect));
      record(name, kindName(kind), err);
      EXPECT_EQ(err, 0.0) << n << " " << kindName(kind);
    }
  // A host r comes back through the library's pinned slot: r inside a host input (the input is
  // staged before the product), r in pinned memory of the caller's, and calls back to back
  // (each must see its own result, not the slot's previous one).
  const int n = 1000;
  auto x = randomInts<T>(n, 14), y = randomInts<T>(n, 15);
  const T xy = rtapi::ref::dot(x.data(), y.data(), n), yy = rtapi::ref::dot(y.data(), y.data(), n);
  EXPECT_OK(Api<T>::dot(x.data(), y.data(), n, &x[0]));
  double err = std::fabs(double(x[0]) - double(xy));
  T *pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void **>(&pinned), sizeof(T)), cudaSuccess);
  *pinned = std::numeric_limits<T>::quiet_NaN();
  EXPECT_OK(Api<T>::dot(y.data(), y.data(), n, pinned));
  err = std::max(err, std::fabs(double(*pinned) - double(yy)));
  T first = 0, second = 0;
  Buffer<T> bx(Kind::Device, x), by(Kind::Device, y);
  EXPECT_OK(Api<T>::dot(by.get(), by.get(), n, &first));
  EXPECT_OK(Api<T>::dot(bx.get(), by.get(), n, &second));
  err = std::max(err, std::fabs(double(first) - double(yy)));
  err = std::max(err, std::fabs(double(second) - double(rtapi::ref::dot(x.data(), y.data(), n))));
  cudaFreeHost(pinned);
  record(name + " (host r: in an input, pinned, back to back)", "host", err);
  EXPECT_EQ(err, 0.0);
}

TYPED_TEST(RTAPIGpu, DeviceCallsStayInStreamOrder) {
  // On device arrays alone a call returns without waiting. Each call here reads the previous
  // one's output (C = A B, y = C x, r = y . z into device memory, the dot's device pointer mode
  // then reset for the next round's host alpha and beta), and a plain cudaMemcpy sees the end.
  using T = TypeParam;
  const std::string name = this->fn("chained float calls", "chained double calls");
  const int m = 33, n = 20, k = 40;
  const auto A = randomInts<T>(static_cast<std::size_t>(m) * k, 30, 2);
  const auto B = randomInts<T>(static_cast<std::size_t>(k) * n, 31, 2);
  const auto x = randomInts<T>(static_cast<std::size_t>(n), 32, 2);
  const auto z = randomInts<T>(static_cast<std::size_t>(m), 33, 2);
  std::vector<T> C(static_cast<std::size_t>(m) * n), y(static_cast<std::size_t>(m));
  rtapi::ref::gemm(C.data(), A.data(), B.data(), m, n, k);
  rtapi::ref::gemv(y.data(), C.data(), x.data(), m, n);
  const T yz = rtapi::ref::dot(y.data(), z.data(), m);
  Buffer<T> a(Kind::Device, A), b(Kind::Device, B), bx(Kind::Device, x), bz(Kind::Device, z);
  Buffer<T> c(Kind::Device, C.size()), by(Kind::Device, y.size()), r(Kind::Device, 1);
  for (int round = 0; round < 3; ++round) {
    c.poison();
    by.poison();
    r.poison();
    EXPECT_OK(Api<T>::mm(c.get(), a.get(), b.get(), m, n, k));
    EXPECT_OK(Api<T>::mv(by.get(), c.get(), bx.get(), m, n));
    EXPECT_OK(Api<T>::dot(by.get(), bz.get(), m, r.get()));
  }
  double err = std::max(maxDiff(c.values(), C), maxDiff(by.values(), y));
  err = std::max(err, std::fabs(double(r.values()[0]) - double(yz)));
  // r inside an input: the result replaces y[0] only after the whole product is read.
  EXPECT_OK(Api<T>::dot(by.get(), bz.get(), m, by.get()));
  std::vector<T> expect = y;
  expect[0] = yz;
  err = std::max(err, maxDiff(by.values(), expect));
  EXPECT_OK(Api<T>::dot(bz.get(), bz.get(), 0, r.get())); // n = 0: r = 0
  err = std::max(err, std::fabs(double(r.values()[0])));
  record(name, "device", err);
  EXPECT_EQ(err, 0.0);
}

TYPED_TEST(RTAPIGpu, ArraysOnDeviceAsPromised) {
  // RT_ARRAYS_ON_DEVICE: the dense calls take device and managed arrays as they are, without
  // asking (and without waiting); the dot product's r may still be host or device memory.
  using T = TypeParam;
  const std::string name = this->fn("dense float calls", "dense double calls");
  const int m = 37, n = 23, k = 51;
  const auto A = randomInts<T>(static_cast<std::size_t>(m) * k, 40, 3);
  const auto B = randomInts<T>(static_cast<std::size_t>(k) * n, 41, 3);
  const auto x = randomInts<T>(static_cast<std::size_t>(n), 42, 3);
  const auto z = randomInts<T>(static_cast<std::size_t>(m), 43, 3);
  std::vector<T> C(static_cast<std::size_t>(m) * n), y(static_cast<std::size_t>(m));
  std::vector<T> Ct(C.size()), outer(C.size());
  rtapi::ref::gemm(C.data(), A.data(), B.data(), m, n, k);
  rtapi::ref::gemv(y.data(), C.data(), x.data(), m, n);
  rtapi::ref::transpose(Ct.data(), C.data(), n, m);
  rtapi::ref::outer(outer.data(), z.data(), m, x.data(), n);
  const T yz = rtapi::ref::dot(y.data(), z.data(), m);
  ASSERT_EQ(RTAPISetArrayPlacement(RT_ARRAYS_ON_DEVICE), RT_ARRAYS_ANYWHERE);
  for (Kind kind : {Kind::Device, Kind::Managed}) {
    Buffer<T> a(kind, A), b(kind, B), bx(kind, x), bz(kind, z);
    Buffer<T> c(kind, C.size()), by(kind, y.size()), ct(kind, C.size()), o(kind, C.size());
    Buffer<T> r(Kind::Device, 1);
    for (Buffer<T> *out : {&c, &by, &ct, &o, &r}) out->poison();
    T hostR = std::numeric_limits<T>::quiet_NaN();
    EXPECT_OK(Api<T>::mm(c.get(), a.get(), b.get(), m, n, k));
    EXPECT_OK(Api<T>::mv(by.get(), c.get(), bx.get(), m, n));
    EXPECT_OK(Api<T>::mt(ct.get(), c.get(), n, m));
    EXPECT_OK(Api<T>::vv(o.get(), bz.get(), m, bx.get(), n));
    EXPECT_OK(Api<T>::dot(by.get(), bz.get(), m, r.get()));
    EXPECT_OK(Api<T>::dot(by.get(), bz.get(), m, &hostR));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess); // no call waited for managed arrays
    double err = std::max(maxDiff(c.values(), C), maxDiff(by.values(), y));
    err = std::max(err, std::max(maxDiff(ct.values(), Ct), maxDiff(o.values(), outer)));
    err = std::max(err, std::fabs(double(r.values()[0]) - double(yz)));
    err = std::max(err, std::fabs(double(hostR) - double(yz)));
    record(name + " (RT_ARRAYS_ON_DEVICE)", kindName(kind), err);
    EXPECT_EQ(err, 0.0) << kindName(kind);
  }
  EXPECT_EQ(RTAPISetArrayPlacement(RT_ARRAYS_ANYWHERE), RT_ARRAYS_ON_DEVICE);
}

TYPED_TEST(RTAPIGpu, CreateFromEveryKindOfMemory) {
  using T = TypeParam;
  const std::string name = this->fn("RTspSArrayCreate", "RTspDArrayCreate");
  const auto D = randomSparse<T>(19, 7, 0.3, 14);
  for (Kind kind : kKinds) {
    Buffer<T> dense(kind, D);
    typename Api<T>::Array a;
    EXPECT_OK(Api<T>::create(dense.get(), &a, 19, 7));
    record(name, kindName(kind), maxDiff(densify(a), D)); // the arrays are host-readable
    EXPECT_OK(Api<T>::destroy(&a));
  }
}

TYPED_TEST(RTAPIGpu, LoadFromFileThenMultiply) {
  using T = TypeParam;
  const std::string name = this->fn("RTspSArrayLoadFromFile", "RTspDArrayLoadFromFile");
  typename Api<T>::Array a;
  EXPECT_OK(Api<T>::load(testData("general_real.mtx").c_str(), &a));
  const std::vector<T> x = {1, 2, 3, 4, 5, 6};
  std::vector<T> y(4), expect(4);
  rtapi::ref::csrmv(rtapi::viewOf(a), x.data(), expect.data());
  EXPECT_OK(Api<T>::spmvDefault(y.data(), &a, x.data(), 4, 6));
  record(name, "managed", maxDiff(y, expect));
  EXPECT_EQ(maxDiff(y, expect), 0.0);
  EXPECT_OK(Api<T>::destroy(&a));
}

TYPED_TEST(RTAPIGpu, SparseMatrixVector) {
  using T = TypeParam;
  const std::string name = this->fn("RTspSMV", "RTspDMV");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds)
      for (int format : {RTCSR, RTBSR, RTHYB}) {
        const auto D = randomSparse<T>(s.m, s.n, 0.2, 15);
        const auto x = randomInts<T>(static_cast<std::size_t>(s.n), 16);
        const rtapi::Csr<T> csr = rtapi::csrFromDense(D.data(), s.m, s.n);
        std::vector<T> expect(static_cast<std::size_t>(s.m));
        rtapi::ref::csrmv(csr.view(), x.data(), expect.data());
        HandMade<T> a(kind, csr);
        Buffer<T> b(kind, x), c(kind, expect.size());
        c.poison();
        EXPECT_OK(Api<T>::spmv(c.get(), &a.array, b.get(), s.m, s.n, format));
        const double err = maxDiff(c.values(), expect);
        const char *f = format == RTCSR ? " CSR" : format == RTBSR ? " BSR" : " HYB";
        record(name + f, kindName(kind), err);
        EXPECT_EQ(err, 0.0) << s.m << "x" << s.n << f << " " << kindName(kind);
      }
}

TYPED_TEST(RTAPIGpu, SparseDenseMatrixMatrix) {
  using T = TypeParam;
  const std::string name = this->fn("RTspdSMM", "RTspdDMM");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds)
      for (int format : {RTCSR, RTBSR, RTHYB}) {
        const auto D = randomSparse<T>(s.m, s.k, 0.25, 17);
        const auto B = randomInts<T>(static_cast<std::size_t>(s.k) * s.n, 18);
        const rtapi::Csr<T> csr = rtapi::csrFromDense(D.data(), s.m, s.k);
        std::vector<T> expect(static_cast<std::size_t>(s.m) * s.n);
        rtapi::ref::csrmm(csr.view(), B.data(), s.n, expect.data());
        HandMade<T> a(kind, csr);
        Buffer<T> b(kind, B), c(kind, expect.size());
        c.poison();
        EXPECT_OK(Api<T>::spdmm(c.get(), &a.array, b.get(), s.m, s.n, s.k, format));
        const double err = maxDiff(c.values(), expect);
        const char *f = format == RTCSR ? " CSR" : format == RTBSR ? " BSR" : " HYB";
        record(name + f, kindName(kind), err);
        EXPECT_EQ(err, 0.0) << s.m << "x" << s.n << "x" << s.k << f << " " << kindName(kind);
      }
}

TYPED_TEST(RTAPIGpu, SparseCsrCallsStayInStreamOrder) {
  // On device arrays alone a CSR product returns without waiting: y1 = A x, y2 = A y1 (reads
  // the first call's output), C = A B with a dense device B; a plain cudaMemcpy sees the end.
  using T = TypeParam;
  const std::string name = this->fn("chained RTspSMV, RTspdSMM", "chained RTspDMV, RTspdDMM");
  const int n = 45, cols = 3;
  const auto D = randomSparse<T>(n, n, 0.15, 24);
  const rtapi::Csr<T> csr = rtapi::csrFromDense(D.data(), n, n);
  const auto x = randomInts<T>(static_cast<std::size_t>(n), 25, 2);
  const auto B = randomInts<T>(static_cast<std::size_t>(n) * cols, 26, 2);
  std::vector<T> y1(n), y2(n), C(static_cast<std::size_t>(n) * cols);
  rtapi::ref::csrmv(csr.view(), x.data(), y1.data());
  rtapi::ref::csrmv(csr.view(), y1.data(), y2.data());
  rtapi::ref::csrmm(csr.view(), B.data(), cols, C.data());
  HandMade<T> a(Kind::Device, csr);
  Buffer<T> bx(Kind::Device, x), bB(Kind::Device, B);
  Buffer<T> by1(Kind::Device, y1.size()), by2(Kind::Device, y2.size()), bC(Kind::Device, C.size());
  double err = 0;
  for (int round = 0; round < 3; ++round) {
    for (Buffer<T> *out : {&by1, &by2, &bC}) out->poison();
    EXPECT_OK(Api<T>::spmv(by1.get(), &a.array, bx.get(), n, n, RTCSR));
    EXPECT_OK(Api<T>::spmv(by2.get(), &a.array, by1.get(), n, n, RTHYB));
    EXPECT_OK(Api<T>::spdmm(bC.get(), &a.array, bB.get(), n, cols, n, RTCSR));
    err = std::max(err, std::max(maxDiff(by1.values(), y1), maxDiff(by2.values(), y2)));
    err = std::max(err, maxDiff(bC.values(), C));
  }
  record(name, "device", err);
  EXPECT_EQ(err, 0.0);
}

TYPED_TEST(RTAPIGpu, BsrWithFullBlocks) {
  // Dense 4x4 blocks make the BSR path choose block size 4; 38 x 21 is not a multiple of it.
  using T = TypeParam;
  const int m = 38, n = 21, cols = 5;
  std::vector<T> D(static_cast<std::size_t>(m) * n, T(0));
  const auto values = randomInts<T>(D.size(), 22);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if ((i / 4 + j / 4) % 3 == 0)
        D[at(i, j, n)] = values[at(i, j, n)] == 0 ? T(1) : values[at(i, j, n)];
  const rtapi::Csr<T> csr = rtapi::csrFromDense(D.data(), m, n);
  ASSERT_EQ(rtapi::chooseBsrBlockDim(csr.view()), 4);
  const auto x = randomInts<T>(static_cast<std::size_t>(n) * cols, 23);
  std::vector<T> y(static_cast<std::size_t>(m)), Y(static_cast<std::size_t>(m) * cols);
  rtapi::ref::csrmv(csr.view(), x.data(), y.data());
  rtapi::ref::csrmm(csr.view(), x.data(), cols, Y.data());
  for (Kind kind : kKinds) {
    HandMade<T> a(kind, csr);
    Buffer<T> b(kind, x), c(kind, y.size()), C(kind, Y.size());
    c.poison();
    C.poison();
    EXPECT_OK(Api<T>::spmv(c.get(), &a.array, b.get(), m, n, RTBSR));
    EXPECT_OK(Api<T>::spdmm(C.get(), &a.array, b.get(), m, cols, n, RTBSR));
    record(this->fn("RTspSMV BSR (4x4 blocks)", "RTspDMV BSR (4x4 blocks)"), kindName(kind),
           maxDiff(c.values(), y));
    record(this->fn("RTspdSMM BSR (4x4 blocks)", "RTspdDMM BSR (4x4 blocks)"), kindName(kind),
           maxDiff(C.values(), Y));
    EXPECT_EQ(maxDiff(c.values(), y), 0.0) << kindName(kind);
    EXPECT_EQ(maxDiff(C.values(), Y), 0.0) << kindName(kind);
  }
}

TYPED_TEST(RTAPIGpu, SparseSparseMatrixMatrix) {
  using T = TypeParam;
  const std::string name = this->fn("RTspSMM", "RTspDMM");
  for (const Shape s : kShapes)
    for (Kind kind : kKinds) {
      const auto DA = randomSparse<T>(s.m, s.k, 0.2, 19);
      const auto DB = randomSparse<T>(s.k, s.n, 0.2, 20);
      const auto ca = rtapi::csrFromDense(DA.data(), s.m, s.k);
      const auto cb = rtapi::csrFromDense(DB.data(), s.k, s.n);
      std::vector<T> expect(static_cast<std::size_t>(s.m) * s.n);
      rtapi::csrToDense(rtapi::ref::csrgemm(ca.view(), cb.view()).view(), expect.data());
      HandMade<T> a(kind, ca), b(kind, cb);
      typename Api<T>::Array c;
      EXPECT_OK(Api<T>::spmmDefault(&c, &a.array, &b.array, s.m, s.n, s.k));
      const double err = maxDiff(densify(c), expect);
      record(name, kindName(kind), err);
      EXPECT_EQ(err, 0.0) << s.m << "x" << s.n << "x" << s.k << " " << kindName(kind);
      EXPECT_OK(Api<T>::destroy(&c));
    }
  // The output may be an input; library-made (managed) arrays are used in place.
  const auto D = randomSparse<T>(40, 40, 0.1, 21);
  std::vector<T> expect(40 * 40);
  const auto csr = rtapi::csrFromDense(D.data(), 40, 40);
  rtapi::csrToDense(rtapi::ref::csrgemm(csr.view(), csr.view()).view(), expect.data());
  typename Api<T>::Array a;
  EXPECT_OK(Api<T>::create(D.data(), &a, 40, 40));
  EXPECT_OK(Api<T>::spmm(&a, &a, &a, 40, 40, 40, RTCSR));
  record(name + " (C is A)", "managed", maxDiff(densify(a), expect));
  EXPECT_OK(Api<T>::destroy(&a));
}

TYPED_TEST(RTAPIGpu, ErrorsAreTheCpuImplementationsErrors) {
  using T = TypeParam;
  const std::string name = this->fn("errors (float calls)", "errors (double calls)");
  std::vector<T> buf(16);
  EXPECT_EQ(Api<T>::mm(buf.data(), buf.data(), buf.data(), -1, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  const std::string expect =
      std::string(this->fn("RTdSMM", "RTdDMM")) + ": error: argument m is negative (-1)";
  const bool ok =
      RTAPIGetLastErrorMessage() == expect &&
      Api<T>::mm(buf.data(), buf.data(), buf.data(), 4, 4, 4) == RT_ERROR_INVALID_ARGUMENT;
  record(name, "host", ok ? 0.0 : 1.0);
  EXPECT_TRUE(ok) << RTAPIGetLastErrorMessage();
}

TEST(RTAPIGpuCForms, CallsFromC) {
  if (!haveDevice()) {
    GTEST_SKIP() << "no CUDA device";
  }
  const int failed = rtapi_c_forms();
  record("C99 call forms (CForms.c)", "host", failed);
  EXPECT_EQ(failed, 0) << RTAPIGetLastErrorMessage();
  const int seed = rtapi_seed_dense_example(65);
  record("original dense example (C)", "host", seed);
  EXPECT_EQ(seed, 0) << RTAPIGetLastErrorMessage();
}

} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  std::printf("\nRT-API GPU tests (%s):\n", haveDevice() ? "device present" : "NO DEVICE: skipped");
  std::printf("%-34s %-6s %6s  %-22s %s\n", "function", "result", "checks", "memory",
              "max |error|");
  for (const auto &entry : table()) {
    const Row &row = entry.second;
    std::string memory;
    for (const std::string &kind : row.memory) memory += (memory.empty() ? "" : ",") + kind;
    std::printf("%-34s %-6s %6d  %-22s %.3g\n", entry.first.c_str(), row.failed ? "FAIL" : "pass",
                row.checks, memory.c_str(), row.worst);
  }
  return status;
}
