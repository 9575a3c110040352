// rtapi_bench: what the RT-API costs over calling cuBLAS/cuSPARSE directly.
//
// Dense: each dense call at n x n (default n = 4096) against the same cuBLAS call on the same
// device arrays; the ratio median(RT-API) / median(direct) is the API's overhead (argument
// checks, pointer queries, and any wait). The RT-API call is timed twice: by default (each
// array's location asked of the driver) and under RT_ARRAYS_ON_DEVICE (no queries). Another
// column calls the RT-API with host (malloc) arrays, as a plain C program does: staging to the
// device and back is included. The cuBLAS calls are the library's own (BlasTraits.h), so both
// sides run the same cuBLAS entry points. The dot product with a host result is compared twice:
// with cuBLAS's host pointer mode (the direct call a programmer writes) and with the mapped
// pinned slot the RT-API uses, written by hand (what the library adds to that technique).
// Sparse: y = A x on 2-D Laplacians and random sparse matrices built in code, RT-API (CSR, BSR,
// host arrays) against cusparseSpMV with a prepared descriptor and buffer.
//
// Timing: CUDA events on the legacy default stream around each call. Both sides run there (the
// benchmark's handles and the library's keep the NULL stream), and the GPU is idle when `start`
// is recorded (each run ends with a wait on `stop`), so the interval is, for either side alike,
// the host time until the work reaches the GPU (argument checks, pointer queries, cuBLAS's own
// set-up) plus the GPU time, plus any wait inside the call before `stop` can be recorded. A
// dense RT-API call on device arrays does not wait, as the direct call does not; the dot
// product with a host result waits on both sides. Warm-up runs first, then --reps timed rounds
// (default 15) in which the variants run interleaved (the first of each round rotating),
// rotating through 3 sets of random inputs and writing one output buffer; the median and the
// spread (min..max) are reported. Every CUDA, cuBLAS, cuSPARSE and RT-API status is checked,
// and each RT-API result is compared with the direct call's. Between the dense and the sparse
// tables, the host time per call of back-to-back calls at a tiny size isolates the per-call
// overhead. --dense-only skips the sparse part.
#include "BlasTraits.h" // lib/Runtime/RTAPI/cuda: the library's cuBLAS traits
#include "rtapi.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

void die(const std::string &what) {
  std::fprintf(stderr, "rtapi_bench: error: %s\n", what.c_str());
  std::exit(1);
}

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t s_ = (call);                                                                       \
    if (s_ != cudaSuccess) die(std::string(#call) + ": " + cudaGetErrorName(s_));                  \
  } while (0)
#define CHECK_CUBLAS(call)                                                                         \
  do {                                                                                             \
    cublasStatus_t s_ = (call);                                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS) die(std::string(#call) + ": " + cublasGetStatusName(s_));     \
  } while (0)
#define CHECK_CUSPARSE(call)                                                                       \
  do {                                                                                             \
    cusparseStatus_t s_ = (call);                                                                  \
    if (s_ != CUSPARSE_STATUS_SUCCESS) die(std::string(#call) + ": " + cusparseGetErrorName(s_));  \
  } while (0)
#define CHECK_RT(call)                                                                             \
  do {                                                                                             \
    if ((call) != RT_SUCCESS) die(std::string(#call) + ": " + RTAPIGetLastErrorMessage());         \
  } while (0)

int reps = 15;
const int kWarmup = 3;
const int kSets = 3; // input sets rotated through the timed runs

struct Stats {
  double median = 0, min = 0, max = 0; // milliseconds
};

// Times each of runs[v](i): warm-up runs first, then `reps` rounds in which every variant runs
// once, the round's first variant rotating (so drift of clocks and temperature, and the state a
// previous run leaves in the caches, fall on all variants alike). A run must leave its GPU work
// queued or done; the events bracket it.
std::vector<Stats> timeAll(const std::vector<std::function<void(int)>> &runs) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (const auto &run : runs)
    for (int i = 0; i < kWarmup; ++i) run(i);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<std::vector<double>> ms(runs.size());
  for (int i = 0; i < reps; ++i)
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const std::size_t v = (r + static_cast<std::size_t>(i)) % runs.size();
      CHECK_CUDA(cudaEventRecord(start));
      runs[v](i);
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms[v].push_back(t);
    }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  std::vector<Stats> out;
  for (auto &m : ms) {
    std::sort(m.begin(), m.end());
    out.push_back(Stats{m[m.size() / 2], m.front(), m.back()});
  }
  return out;
}

// ---- arrays -------------------------------------------------------------------------------------

uint64_t rng = 0x9E3779B97F4A7C15ull;
double uniform() { // xorshift64*, in [-1, 1)
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return double((rng * 0x2545F4914F6CDD1Dull) >> 11) / double(1ull << 52) - 1.0;
}

template <class T> std::vector<T> randomHost(std::size_t count) {
  std::vector<T> v(count);
  for (T &x : v) x = static_cast<T>(uniform());
  return v;
}

template <class T> T *toDevice(const std::vector<T> &host) {
  T *d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, std::max<std::size_t>(host.size(), 1) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> std::vector<T> toHost(const T *device, std::size_t count) {
  std::vector<T> h(count);
  CHECK_CUDA(cudaMemcpy(h.data(), device, count * sizeof(T), cudaMemcpyDefault));
  return h;
}

template <class T> double relDiff(const std::vector<T> &a, const std::vector<T> &b) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num = std::max(num, std::fabs(double(a[i]) - double(b[i])));
    den = std::max(den, std::fabs(double(b[i])));
  }
  return den > 0 ? num / den : num;
}

// ---- results ------------------------------------------------------------------------------------

struct Line {
  std::string name, type, size;
  Stats direct, api, apiHost;
  bool hasHost = false;
  double diff = 0;
  Stats apiOnDevice; // the dense calls under RT_ARRAYS_ON_DEVICE
  bool hasOnDevice = false;
};
std::vector<Line> lines;

void show(const Line &l) {
  std::printf("  %-22s %-6s %-26s direct %9.4f ms  rtapi %9.4f ms  ratio %6.3f", l.name.c_str(),
              l.type.c_str(), l.size.c_str(), l.direct.median, l.api.median,
              l.api.median / l.direct.median);
  if (l.hasOnDevice)
    std::printf("  on-device %9.4f ms  ratio %6.3f", l.apiOnDevice.median,
                l.apiOnDevice.median / l.direct.median);
  if (l.hasHost) std::printf("  host %9.3f ms", l.apiHost.median);
  std::printf("  diff %.1e\n", l.diff);
  std::fflush(stdout);
}

// ---- dense ------------------------------------------------------------------------------------

using rtapi::gpu::Blas;
constexpr cublasOperation_t kN = CUBLAS_OP_N, kT = CUBLAS_OP_T;

// The RT-API functions of one precision, for square sizes.
template <class T> struct Api;
template <> struct Api<float> {
  static constexpr const char *type = "float";
  static constexpr const char *names[7] = {"RTdSMM",  "RTdSMV",
                                           "RTdSMT",  "RTdSVV",
                                           "RTdSDOT", "RTdSDOT (vs slot)",
                                           "RTdSDOT (device r)"};
  static int mm(float *C, const float *A, const float *B, int n) {
    return RTdSMM(C, A, B, n, n, n);
  }
  static int mv(float *C, const float *A, const float *B, int n) { return RTdSMV(C, A, B, n, n); }
  static int mt(float *C, const float *A, int n) { return RTdSMT(C, A, n, n); }
  static int vv(float *C, const float *A, const float *B, int n) { return RTdSVV(C, A, n, B, n); }
  static int dot(const float *A, const float *B, int n, float *r) { return RTdSDOT(A, B, n, r); }
};
template <> struct Api<double> {
  static constexpr const char *type = "double";
  static constexpr const char *names[7] = {"RTdDMM",  "RTdDMV",
                                           "RTdDMT",  "RTdDVV",
                                           "RTdDDOT", "RTdDDOT (vs slot)",
                                           "RTdDDOT (device r)"};
  static int mm(double *C, const double *A, const double *B, int n) {
    return RTdDMM(C, A, B, n, n, n);
  }
  static int mv(double *C, const double *A, const double *B, int n) {
    return RTdDMV(C, A, B, n, n);
  }
  static int mt(double *C, const double *A, int n) { return RTdDMT(C, A, n, n); }
  static int vv(double *C, const double *A, const double *B, int n) {
    return RTdDVV(C, A, n, B, n);
  }
  static int dot(const double *A, const double *B, int n, double *r) {
    return RTdDDOT(A, B, n, r);
  }
};

// Device and host copies of kSets random input sets of `count` elements each.
template <class T> struct Inputs {
  std::vector<std::vector<T>> host;
  std::vector<T *> device;
  Inputs(std::size_t count) {
    for (int s = 0; s < kSets; ++s) {
      host.push_back(randomHost<T>(count));
      device.push_back(toDevice(host.back()));
    }
  }
  ~Inputs() {
    for (T *d : device) cudaFree(d);
  }
  const T *dev(int i) const { return device[static_cast<std::size_t>(i % kSets)]; }
  const T *hst(int i) const { return host[static_cast<std::size_t>(i % kSets)].data(); }
};

// One dense operation: direct(i, out), api(i, out) on device arrays (also timed under
// RT_ARRAYS_ON_DEVICE), apiHost(i, out) on host arrays; outputs of outCount elements. The device
// variants write one output buffer: two buffers can differ in speed by where they lie in memory.
template <class T>
void denseCase(const char *name, const std::string &size, std::size_t outCount,
               const std::function<void(int, T *)> &direct,
               const std::function<void(int, T *)> &api,
               const std::function<void(int, T *)> &apiHost) {
  T *out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, outCount * sizeof(T)));
  std::vector<T> outHost(outCount);
  Line l{name, Api<T>::type, size, {}, {}, {}, true, 0, {}, true};
  // The placement is switched inside the timed run: two atomic exchanges, a few nanoseconds.
  const auto onDevice = [&](int i) {
    RTAPISetArrayPlacement(RT_ARRAYS_ON_DEVICE);
    api(i, out);
    RTAPISetArrayPlacement(RT_ARRAYS_ANYWHERE);
  };
  // The host-array variant runs apart: its long staging copies leave the GPU idle.
  const std::vector<Stats> t = timeAll(
      {[&](int i) { direct(i, out); }, [&](int i) { api(i, out); }, onDevice});
  l.direct = t[0];
  l.api = t[1];
  l.apiOnDevice = t[2];
  l.apiHost = timeAll({[&](int i) { apiHost(i, outHost.data()); }})[0];
  // Same inputs (the last timed set) for the comparison, each result fetched before the next.
  const auto result = [&](const std::function<void(int)> &run) {
    run(reps - 1);
    CHECK_CUDA(cudaDeviceSynchronize());
    return toHost(out, outCount);
  };
  const std::vector<T> d = result([&](int i) { direct(i, out); });
  l.diff = relDiff(result([&](int i) { api(i, out); }), d);
  l.diff = std::max(l.diff, relDiff(result(onDevice), d));
  apiHost(reps - 1, outHost.data());
  l.diff = std::max(l.diff, relDiff(outHost, d));
  CHECK_CUDA(cudaFree(out));
  lines.push_back(l);
  show(l);
}

// Device pointer mode on the benchmark's handle for one direct call, as the RT-API uses for a
// device result.
struct DeviceMode {
  cublasHandle_t h;
  explicit DeviceMode(cublasHandle_t handle) : h(handle) {
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  }
  ~DeviceMode() { cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST); }
};

// The direct calls are the ones the RT-API makes for a square size (Dense.cpp): row-major
// C = A B is gemm(N, N) of B and A, y = A x is gemv(T), C = A^T is geam(T) with beta = 0.
template <class T> void dense(cublasHandle_t h, int n) {
  const std::size_t nn = static_cast<std::size_t>(n) * n, N = static_cast<std::size_t>(n);
  const std::string sq = std::to_string(n) + "x" + std::to_string(n);
  using B = Blas<T>;
  using R = Api<T>;
  const T one = 1, zero = 0;
  {
    Inputs<T> A(nn), Bm(nn);
    denseCase<T>(
        R::names[0], sq + "x" + std::to_string(n), nn,
        [&](int i, T *C) {
          CHECK_CUBLAS(B::gemm(h, kN, kN, n, n, n, &one, Bm.dev(i), n, A.dev(i), n, &zero, C, n));
        },
        [&](int i, T *C) { CHECK_RT(R::mm(C, A.dev(i), Bm.dev(i), n)); },
        [&](int i, T *C) { CHECK_RT(R::mm(C, A.hst(i), Bm.hst(i), n)); });
  }
  {
    Inputs<T> A(nn), x(N);
    denseCase<T>(
        R::names[1], sq, N,
        [&](int i, T *y) {
          CHECK_CUBLAS(B::gemv(h, kT, n, n, &one, A.dev(i), n, x.dev(i), &zero, y));
        },
        [&](int i, T *y) { CHECK_RT(R::mv(y, A.dev(i), x.dev(i), n)); },
        [&](int i, T *y) { CHECK_RT(R::mv(y, A.hst(i), x.hst(i), n)); });
    denseCase<T>(
        R::names[2], sq, nn,
        [&](int i, T *C) {
          CHECK_CUBLAS(B::geam(h, kT, kN, n, n, &one, A.dev(i), n, &zero, C, n, C, n));
        },
        [&](int i, T *C) { CHECK_RT(R::mt(C, A.dev(i), n)); },
        [&](int i, T *C) { CHECK_RT(R::mt(C, A.hst(i), n)); });
  }
  {
    Inputs<T> x(N), y(N);
    denseCase<T>(
        R::names[3], sq, nn,
        [&](int i, T *C) {
          CHECK_CUBLAS(B::gemm(h, kN, kN, n, n, 1, &one, y.dev(i), n, x.dev(i), 1, &zero, C, n));
        },
        [&](int i, T *C) { CHECK_RT(R::vv(C, x.dev(i), y.dev(i), n)); },
        [&](int i, T *C) { CHECK_RT(R::vv(C, x.hst(i), y.hst(i), n)); });
    // A host result, as a C program reads it. Direct: cuBLAS host pointer mode (which waits for
    // the result); the RT-API writes it through its mapped pinned slot instead (Dense.cpp). Both
    // then copy it to element 0 of the device output with the same cudaMemcpy, so the
    // comparison holds.
    auto hostResult = [&](const std::function<void(int, T *)> &dotInto) {
      return [&, dotInto](int i, T *r) {
        T v;
        dotInto(i, &v);
        CHECK_CUDA(cudaMemcpy(r, &v, sizeof(T), cudaMemcpyHostToDevice));
      };
    };
    const auto apiDot = hostResult([&](int i, T *v) { CHECK_RT(R::dot(x.dev(i), y.dev(i), n, v)); });
    denseCase<T>(
        R::names[4], std::to_string(n), 1,
        hostResult([&](int i, T *v) { CHECK_CUBLAS(B::dot(h, n, x.dev(i), y.dev(i), v)); }),
        apiDot, [&](int i, T *r) { CHECK_RT(R::dot(x.hst(i), y.hst(i), n, r)); });
    // The same host result against the slot sequence written by hand (device pointer mode into
    // mapped pinned memory, one wait): what the RT-API adds to the technique it uses.
    T *slot = nullptr;
    CHECK_CUDA(cudaHostAlloc(reinterpret_cast<void **>(&slot), sizeof(T), cudaHostAllocMapped));
    denseCase<T>(
        R::names[5], std::to_string(n), 1,
        hostResult([&](int i, T *v) {
          {
            DeviceMode mode(h);
            CHECK_CUBLAS(B::dot(h, n, x.dev(i), y.dev(i), slot));
          }
          CHECK_CUDA(cudaStreamSynchronize(nullptr));
          *v = *slot;
        }),
        apiDot, [&](int i, T *r) { CHECK_RT(R::dot(x.hst(i), y.hst(i), n, r)); });
    CHECK_CUDA(cudaFreeHost(slot));
    // A device result: device pointer mode on both sides, no wait.
    denseCase<T>(
        R::names[6], std::to_string(n), 1,
        [&](int i, T *r) {
          DeviceMode mode(h);
          CHECK_CUBLAS(B::dot(h, n, x.dev(i), y.dev(i), r));
        },
        [&](int i, T *r) { CHECK_RT(R::dot(x.dev(i), y.dev(i), n, r)); },
        [&](int i, T *r) { CHECK_RT(R::dot(x.hst(i), y.hst(i), n, r)); });
  }
}

// Host time per call of `calls` back-to-back calls of tiny size (n = 64, the GPU work is a few
// microseconds and queues up), measured from the first call to the return of the last, without
// the final wait: the cost of the call itself, on either side. The queue holds them all.
template <class T> void callOverhead(cublasHandle_t h) {
  const int n = 64, calls = 200;
  const T one = 1, zero = 0;
  Inputs<T> A(static_cast<std::size_t>(n) * n), x(static_cast<std::size_t>(n));
  T *y = nullptr;
  CHECK_CUDA(cudaMalloc(&y, n * sizeof(T)));
  const std::function<void()> variants[] = {
      [&] { CHECK_CUBLAS(Blas<T>::gemv(h, kT, n, n, &one, A.dev(0), n, x.dev(0), &zero, y)); },
      [&] { CHECK_RT(Api<T>::mv(y, A.dev(0), x.dev(0), n)); },
      [&] {
        RTAPISetArrayPlacement(RT_ARRAYS_ON_DEVICE);
        CHECK_RT(Api<T>::mv(y, A.dev(0), x.dev(0), n));
        RTAPISetArrayPlacement(RT_ARRAYS_ANYWHERE);
      }};
  constexpr int kVariants = 3;
  std::vector<double> us[kVariants];
  for (int i = 0; i < reps + kWarmup; ++i)
    for (int r = 0; r < kVariants; ++r) {
      const int v = (r + i) % kVariants; // the first of each round rotates, as in timeAll
      CHECK_CUDA(cudaDeviceSynchronize());
      const auto t0 = std::chrono::steady_clock::now();
      for (int c = 0; c < calls; ++c) variants[v]();
      const auto t1 = std::chrono::steady_clock::now();
      if (i >= kWarmup)
        us[v].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
    }
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(y));
  double median[kVariants];
  for (int v = 0; v < kVariants; ++v) {
    std::sort(us[v].begin(), us[v].end());
    median[v] = us[v][us[v].size() / 2];
  }
  std::printf("  %-22s %-6s host time per call, %d back-to-back calls at n = %d: direct %.2f us, "
              "rtapi %.2f us, on-device %.2f us (medians), overhead %.2f us, on-device %.2f us\n",
              Api<T>::names[1], Api<T>::type, calls, n, median[0], median[1], median[2],
              median[1] - median[0], median[2] - median[0]);
}

// ---- sparse -------------------------------------------------------------------------------------

struct HostCsr {
  std::string name;
  int n = 0;
  std::vector<int> rowPtr, colInd;
  std::vector<double> val;
};

// 5-point Laplacian on a g x g grid.
HostCsr laplacian(int g) {
  HostCsr a;
  a.name = "laplace2d " + std::to_string(g) + "^2";
  a.n = g * g;
  a.rowPtr.push_back(0);
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      const int r = i * g + j;
      auto add = [&](int c, double v) {
        a.colInd.push_back(c);
        a.val.push_back(v);
      };
      if (i > 0) add(r - g, -1);
      if (j > 0) add(r - 1, -1);
      add(r, 4);
      if (j < g - 1) add(r + 1, -1);
      if (i < g - 1) add(r + g, -1);
      a.rowPtr.push_back(static_cast<int>(a.colInd.size()));
    }
  return a;
}

// n x n with `perRow` distinct random columns per row.
HostCsr randomSparse(int n, int perRow) {
  HostCsr a;
  a.name = "random " + std::to_string(n) + " x" + std::to_string(perRow) + "/row";
  a.n = n;
  a.rowPtr.push_back(0);
  std::vector<int> cols;
  for (int r = 0; r < n; ++r) {
    cols.clear();
    while (static_cast<int>(cols.size()) < perRow) {
      const int c = static_cast<int>((uniform() + 1.0) * 0.5 * n) % n;
      if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
    }
    std::sort(cols.begin(), cols.end());
    for (int c : cols) {
      a.colInd.push_back(c);
      a.val.push_back(uniform());
    }
    a.rowPtr.push_back(static_cast<int>(a.colInd.size()));
  }
  return a;
}

template <class T> struct SpTraits;
template <> struct SpTraits<float> {
  using Array = RTspSArray;
  static constexpr cudaDataType type = CUDA_R_32F;
  static int smv(float *y, const Array *A, const float *x, int n, int f) {
    return RTspSMV(y, A, x, n, n, f);
  }
};
template <> struct SpTraits<double> {
  using Array = RTspDArray;
  static constexpr cudaDataType type = CUDA_R_64F;
  static int smv(double *y, const Array *A, const double *x, int n, int f) {
    return RTspDMV(y, A, x, n, n, f);
  }
};

template <class T> void sparse(cusparseHandle_t h, const HostCsr &m) {
  using S = SpTraits<T>;
  const int n = m.n, nnz = static_cast<int>(m.colInd.size());
  const std::vector<T> val(m.val.begin(), m.val.end());
  int *dRow = toDevice(m.rowPtr), *dCol = toDevice(m.colInd);
  T *dVal = toDevice(val);
  Inputs<T> x(static_cast<std::size_t>(n));
  T *yDirect = nullptr, *yApi = nullptr;
  CHECK_CUDA(cudaMalloc(&yDirect, n * sizeof(T)));
  CHECK_CUDA(cudaMalloc(&yApi, n * sizeof(T)));
  std::vector<T> yHost(static_cast<std::size_t>(n));

  // Direct: descriptors and buffer prepared once, only cusparseSpMV timed.
  cusparseSpMatDescr_t mat;
  CHECK_CUSPARSE(cusparseCreateCsr(&mat, n, n, nnz, dRow, dCol, dVal, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, S::type));
  std::vector<cusparseDnVecDescr_t> vx(kSets);
  for (int s = 0; s < kSets; ++s)
    CHECK_CUSPARSE(cusparseCreateDnVec(&vx[s], n, const_cast<T *>(x.dev(s)), S::type));
  cusparseDnVecDescr_t vy;
  CHECK_CUSPARSE(cusparseCreateDnVec(&vy, n, yDirect, S::type));
  const T one = 1, zero = 0;
  std::size_t size = 0;
  CHECK_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx[0],
                                         &zero, vy, S::type, CUSPARSE_SPMV_ALG_DEFAULT, &size));
  void *buffer = nullptr;
  CHECK_CUDA(cudaMalloc(&buffer, std::max<std::size_t>(size, 1)));
  auto direct = [&](int i) {
    CHECK_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx[i % kSets],
                                &zero, vy, S::type, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  };

  typename S::Array devArray = {n, n, nnz, dRow, dCol, dVal, 0};
  std::vector<int> hRow = m.rowPtr, hCol = m.colInd;
  std::vector<T> hVal = val;
  typename S::Array hostArray = {n, n, nnz, hRow.data(), hCol.data(), hVal.data(), 0};

  const std::string size1 = std::to_string(n) + " rows, nnz " + std::to_string(nnz);
  struct Variant {
    const char *label;
    std::function<void(int)> run;
    bool host;
  };
  const Variant variants[] = {
      {"RTspMV CSR", [&](int i) { CHECK_RT(S::smv(yApi, &devArray, x.dev(i), n, RTCSR)); }, false},
      {"RTspMV HYB(->CSR)", [&](int i) { CHECK_RT(S::smv(yApi, &devArray, x.dev(i), n, RTHYB)); },
       false},
      {"RTspMV BSR", [&](int i) { CHECK_RT(S::smv(yApi, &devArray, x.dev(i), n, RTBSR)); }, false},
      {"RTspMV CSR host",
       [&](int i) { CHECK_RT(S::smv(yHost.data(), &hostArray, x.hst(i), n, RTCSR)); }, true},
  };
  // The direct call and the CSR variants on the same device arrays run interleaved; BSR (its
  // conversion) and host arrays (their copies) apart.
  const std::vector<Stats> t = timeAll({direct, variants[0].run, variants[1].run});
  const Stats directStats = t[0];
  const Stats apart[] = {timeAll({variants[2].run})[0], timeAll({variants[3].run})[0]};
  for (const Variant &v : variants) {
    Line l{v.label, sizeof(T) == 4 ? "float" : "double", m.name, directStats, {}, {}, false, 0, {}, false};
    const std::size_t index = static_cast<std::size_t>(&v - variants);
    l.api = index < 2 ? t[index + 1] : apart[index - 2];
    direct(reps - 1);
    v.run(reps - 1);
    CHECK_CUDA(cudaDeviceSynchronize());
    const std::vector<T> d = toHost(yDirect, static_cast<std::size_t>(n));
    const std::vector<T> a = v.host ? yHost : toHost(yApi, static_cast<std::size_t>(n));
    l.diff = relDiff(a, d);
    lines.push_back(l);
    show(l);
  }
  std::printf(
      "    (%s; effective bandwidth of the direct call %.0f GB/s)\n", size1.c_str(),
      (double(nnz) * (sizeof(T) + sizeof(int)) + (n + 1.0) * sizeof(int) + 2.0 * n * sizeof(T)) /
          (directStats.median * 1e6));
  CHECK_CUSPARSE(cusparseDestroySpMat(mat));
  for (auto d : vx) CHECK_CUSPARSE(cusparseDestroyDnVec(d));
  CHECK_CUSPARSE(cusparseDestroyDnVec(vy));
  CHECK_CUDA(cudaFree(buffer));
  CHECK_CUDA(cudaFree(yDirect));
  CHECK_CUDA(cudaFree(yApi));
  CHECK_CUDA(cudaFree(dRow));
  CHECK_CUDA(cudaFree(dCol));
  CHECK_CUDA(cudaFree(dVal));
}

} // namespace

int main(int argc, char **argv) {
  int n = 4096;
  bool quick = false, denseOnly = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--n") && i + 1 < argc)
      n = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = std::max(10, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--quick"))
      quick = true;
    else if (!std::strcmp(argv[i], "--dense-only"))
      denseOnly = true;
    else {
      std::fprintf(stderr,
                   "usage: rtapi_bench [--n N] [--reps R>=10] [--quick] [--dense-only]\n");
      return 2;
    }
  }
  cudaDeviceProp prop;
  int device = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf("rtapi_bench on %s (%s implementation), dense n = %d, %d timed runs, median "
              "[min..max]\n",
              prop.name, RTAPIGetImplementation(), n, reps);
  CHECK_RT(RTAPIInit());
  cublasHandle_t blas;
  CHECK_CUBLAS(cublasCreate(&blas));
  CHECK_CUBLAS(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH)); // as the RT-API: no TF32
  cusparseHandle_t sparseHandle;
  CHECK_CUSPARSE(cusparseCreate(&sparseHandle));

  std::printf("dense:\n");
  dense<float>(blas, n);
  dense<double>(blas, n);
  std::printf("per-call overhead:\n");
  callOverhead<float>(blas);
  callOverhead<double>(blas);

  std::vector<HostCsr> matrices;
  if (!denseOnly) {
    std::printf("sparse y = A x:\n");
    matrices.push_back(laplacian(quick ? 256 : 512));
    matrices.push_back(laplacian(quick ? 512 : 2048));
    matrices.push_back(randomSparse(quick ? 100000 : 1000000, 16));
  }
  for (const HostCsr &m : matrices) {
    sparse<float>(sparseHandle, m);
    sparse<double>(sparseHandle, m);
  }

  CHECK_CUSPARSE(cusparseDestroy(sparseHandle));
  CHECK_CUBLAS(cublasDestroy(blas));
  CHECK_RT(RTAPIFinalize());

  std::printf("\nSummary (ms; ratio = RT-API on device arrays / direct library call; on-dev = "
              "the same under RT_ARRAYS_ON_DEVICE; host = RT-API on malloc arrays, staging "
              "included):\n");
  std::printf("%-20s %-7s %-16s %10s %21s %10s %21s %7s %7s %10s %8s\n", "call", "type", "size",
              "direct", "[min..max]", "rtapi", "[min..max]", "ratio", "on-dev", "host",
              "rel.diff");
  for (const Line &l : lines) {
    char host[32] = "-", onDevice[32] = "-";
    if (l.hasHost) std::snprintf(host, sizeof host, "%.3f", l.apiHost.median);
    if (l.hasOnDevice)
      std::snprintf(onDevice, sizeof onDevice, "%.3f", l.apiOnDevice.median / l.direct.median);
    std::printf(
        "%-20s %-7s %-16s %10.4f [%8.4f..%8.4f] %10.4f [%8.4f..%8.4f] %7.3f %7s %10s %8.1e\n",
        l.name.c_str(), l.type.c_str(), l.size.c_str(), l.direct.median, l.direct.min,
        l.direct.max, l.api.median, l.api.min, l.api.max, l.api.median / l.direct.median,
        onDevice, host, l.diff);
  }
  return 0;
}
