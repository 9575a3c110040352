// Shared by the RT-API tests (CPU and GPU): the float/double entry points under one name, naive
// row-major loops written independently of the library, and random inputs.
#pragma once

#include "rtapi.h"

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace rtapitest {

// The public functions of one precision under fixed names.
template <class T> struct Api;

template <> struct Api<float> {
  using Array = RTspSArray;
  static const char *name() { return "float"; }
  static int mm(float *C, const float *A, const float *B, int m, int n, int k) {
    return RTdSMM(C, A, B, m, n, k);
  }
  static int mv(float *C, const float *A, const float *B, int m, int n) {
    return RTdSMV(C, A, B, m, n);
  }
  static int mt(float *C, const float *A, int m, int n) { return RTdSMT(C, A, m, n); }
  static int vv(float *C, const float *A, int m, const float *B, int n) {
    return RTdSVV(C, A, m, B, n);
  }
  static int vvSquare(float *C, const float *A, const float *B, int n) {
    return RTdSVV(C, A, B, n);
  }
  static int dot(const float *C, const float *A, int n, float *r) { return RTdSDOT(C, A, n, r); }
  static int create(const float *D, Array *a, int m, int n) { return RTspSArrayCreate(D, a, m, n); }
  static int load(const char *path, Array *a) { return RTspSArrayLoadFromFile(path, a); }
  static int destroy(Array *a) { return RTspSArrayDestroy(a); }
  static int spmm(Array *C, const Array *A, const Array *B, int m, int n, int k, int f) {
    return RTspSMM(C, A, B, m, n, k, f);
  }
  static int spmmDefault(Array *C, const Array *A, const Array *B, int m, int n, int k) {
    return RTspSMM(C, A, B, m, n, k);
  }
  static int spdmm(float *C, const Array *A, const float *B, int m, int n, int k, int f) {
    return RTspdSMM(C, A, B, m, n, k, f);
  }
  static int spdmmDefault(float *C, const Array *A, const float *B, int m, int n, int k) {
    return RTspdSMM(C, A, B, m, n, k);
  }
  static int spmv(float *C, const Array *A, const float *B, int m, int n, int f) {
    return RTspSMV(C, A, B, m, n, f);
  }
  static int spmvDefault(float *C, const Array *A, const float *B, int m, int n) {
    return RTspSMV(C, A, B, m, n);
  }
};

template <> struct Api<double> {
  using Array = RTspDArray;
  static const char *name() { return "double"; }
  static int mm(double *C, const double *A, const double *B, int m, int n, int k) {
    return RTdDMM(C, A, B, m, n, k);
  }
  static int mv(double *C, const double *A, const double *B, int m, int n) {
    return RTdDMV(C, A, B, m, n);
  }
  static int mt(double *C, const double *A, int m, int n) { return RTdDMT(C, A, m, n); }
  static int vv(double *C, const double *A, int m, const double *B, int n) {
    return RTdDVV(C, A, m, B, n);
  }
  static int vvSquare(double *C, const double *A, const double *B, int n) {
    return RTdDVV(C, A, B, n);
  }
  static int dot(const double *C, const double *A, int n, double *r) { return RTdDDOT(C, A, n, r); }
  static int create(const double *D, Array *a, int m, int n) {
    return RTspDArrayCreate(D, a, m, n);
  }
  static int load(const char *path, Array *a) { return RTspDArrayLoadFromFile(path, a); }
  static int destroy(Array *a) { return RTspDArrayDestroy(a); }
  static int spmm(Array *C, const Array *A, const Array *B, int m, int n, int k, int f) {
    return RTspDMM(C, A, B, m, n, k, f);
  }
  static int spmmDefault(Array *C, const Array *A, const Array *B, int m, int n, int k) {
    return RTspDMM(C, A, B, m, n, k);
  }
  static int spdmm(double *C, const Array *A, const double *B, int m, int n, int k, int f) {
    return RTspdDMM(C, A, B, m, n, k, f);
  }
  static int spdmmDefault(double *C, const Array *A, const double *B, int m, int n, int k) {
    return RTspdDMM(C, A, B, m, n, k);
  }
  static int spmv(double *C, const Array *A, const double *B, int m, int n, int f) {
    return RTspDMV(C, A, B, m, n, f);
  }
  static int spmvDefault(double *C, const Array *A, const double *B, int m, int n) {
    return RTspDMV(C, A, B, m, n);
  }
};

// A file of lib/Runtime/RTAPI/test-data; RTAPI_TEST_DATA_DIR in the environment overrides the
// folder compiled in (for binaries run on another machine).
inline std::string testData(const std::string &file) {
  const char *dir = std::getenv("RTAPI_TEST_DATA_DIR");
  return std::string(dir && *dir ? dir : RTAPI_TEST_DATA_DIR) + "/" + file;
}

// ---- naive loops, in the order a C programmer writes them ------------------------------------

inline std::size_t at(int i, int j, int cols) {
  return static_cast<std::size_t>(i) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(j);
}

// C[m x n] = A[m x k] B[k x n]
template <class T>
std::vector<T> naiveMM(const std::vector<T> &A, const std::vector<T> &B, int m, int n, int k) {
  std::vector<T> C(static_cast<std::size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p) sum += double(A[at(i, p, k)]) * double(B[at(p, j, n)]);
      C[at(i, j, n)] = static_cast<T>(sum);
    }
  return C;
}

// The dense form of a sparse struct.
template <class S> auto densify(const S &a) {
  using T = std::remove_pointer_t<decltype(a.val)>;
  std::vector<T> D(static_cast<std::size_t>(a.rows) * a.cols, T(0));
  for (int i = 0; i < a.rows; ++i)
    for (int e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) D[at(i, a.colInd[e], a.cols)] += a.val[e];
  return D;
}

// ---- inputs ------------------------------------------------------------------------------------

// Small integers: every product and sum in the tests is exact in float and double, so results
// can be compared for equality whatever the summation order.
template <class T> std::vector<T> randomInts(std::size_t count, unsigned seed, int range = 4) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-range, range);
  std::vector<T> v(count);
  for (T &x : v) x = static_cast<T>(dist(gen));
  return v;
}

// A dense matrix with about `density` of its entries nonzero (small nonzero integers).
template <class T> std::vector<T> randomSparse(int rows, int cols, double density, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<int> value(1, 5);
  std::vector<T> v(static_cast<std::size_t>(rows) * cols, T(0));
  for (T &x : v)
    if (coin(gen) < density) x = static_cast<T>(coin(gen) < 0.5 ? -value(gen) : value(gen));
  return v;
}

template <class T> std::vector<T> randomReals(std::size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> v(count);
  for (T &x : v) x = static_cast<T>(dist(gen));
  return v;
}

// Largest |a - b| over two equally long arrays (infinity for a length mismatch or a NaN).
template <class T> double maxDiff(const std::vector<T> &a, const std::vector<T> &b) {
  if (a.size() != b.size()) return INFINITY;
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(double(a[i]) - double(b[i]));
    if (!(d <= worst)) worst = d; // catches NaN
  }
  return worst;
}

} // namespace rtapitest
