#include "Checks.h"

#include "Error.h"

#include <cstdint>
#include <string>

namespace rtapi {
namespace check {

namespace {
std::string str(long long v) { return std::to_string(v); }
} // namespace

void size(const char *name, long long value) {
  if (value < 0) invalid("argument " + std::string(name) + " is negative (" + str(value) + ")");
}

void pointer(const char *name, const void *p, std::size_t count) {
  if (!p && count > 0) invalid("argument " + std::string(name) + " is a null pointer");
}

void disjoint(const char *outName, const void *out, std::size_t outBytes, const char *inName,
              const void *in, std::size_t inBytes) {
  if (!out || !in || outBytes == 0 || inBytes == 0) return;
  const std::uintptr_t o = reinterpret_cast<std::uintptr_t>(out);
  const std::uintptr_t i = reinterpret_cast<std::uintptr_t>(in);
  if (o < i + inBytes && i < o + outBytes)
    invalid("output " + std::string(outName) + " overlaps input " + inName);
}

int format(int value, bool bsrAllowed, const char *api) {
  switch (value) {
  case RTCSR:
  case RTHYB: return RTCSR;
  case RTBSR:
    if (!bsrAllowed)
      fail(RT_ERROR_UNSUPPORTED, std::string("format RTBSR is not supported by ") + api +
                                     " (sparse x sparse runs on CSR only)");
    return RTBSR;
  default: invalid("format " + str(value) + " is not RTCSR, RTBSR or RTHYB");
  }
}

template <class S> void array(const char *name, const S *a) {
  const std::string n = name;
  if (!a) invalid("argument " + n + " is a null pointer");
  if (a->rows < 0) invalid(n + " has a negative row count (" + str(a->rows) + ")");
  if (a->cols < 0) invalid(n + " has a negative column count (" + str(a->cols) + ")");
  if (a->nnz < 0) invalid(n + " has a negative nonzero count (" + str(a->nnz) + ")");
  if (!a->rowPtr && (a->rows > 0 || a->nnz > 0)) invalid(n + ".rowPtr is a null pointer");
  if (a->nnz > 0 && !a->colInd) invalid(n + ".colInd is a null pointer");
  if (a->nnz > 0 && !a->val) invalid(n + ".val is a null pointer");
}

template <class T> void structure(const char *name, const CsrView<T> &a) {
  const std::string n = name;
  if (a.rows == 0 && a.nnz == 0 && !a.rowPtr) return;
  if (a.rowPtr[0] != 0) invalid(n + ".rowPtr[0] is " + str(a.rowPtr[0]) + ", not 0");
  for (int i = 0; i < a.rows; ++i) {
    const int begin = a.rowPtr[i], end = a.rowPtr[i + 1];
    if (end < begin || end > a.nnz)
      invalid(n + ".rowPtr[" + str(i + 1) + "] = " + str(end) + " is out of order or past nnz " +
              str(a.nnz));
    for (int e = begin; e < end; ++e) {
      const int j = a.colInd[e];
      if (j < 0 || j >= a.cols)
        invalid(n + ".colInd[" + str(e) + "] = " + str(j) + " is out of range 0.." +
                str(a.cols - 1));
      if (e > begin && j <= a.colInd[e - 1])
        invalid(n + ": the column indices of row " + str(i) + " are not strictly increasing");
    }
  }
  if (a.rowPtr[a.rows] != a.nnz)
    invalid(n + ".rowPtr[" + str(a.rows) + "] = " + str(a.rowPtr[a.rows]) + " differs from nnz " +
            str(a.nnz));
}

void shape(const char *name, int rows, int cols, const char *rowsName, int expectedRows,
           const char *colsName, int expectedCols) {
  if (rows != expectedRows || cols != expectedCols)
    invalid(std::string(name) + " is " + str(rows) + " x " + str(cols) + ", but " + rowsName +
            " = " + str(expectedRows) + " and " + colsName + " = " + str(expectedCols) +
            " were given");
}

template <class T> void mm(const T *C, const T *A, const T *B, int m, int n, int k) {
  size("m", m);
  size("n", n);
  size("k", k);
  const std::size_t c = elements(m, n), a = elements(m, k), b = elements(k, n);
  pointer("C", C, c);
  pointer("A", A, a);
  pointer("B", B, b);
  disjoint("C", C, c * sizeof(T), "A", A, a * sizeof(T));
  disjoint("C", C, c * sizeof(T), "B", B, b * sizeof(T));
}

template <class T> void mv(const T *C, const T *A, const T *B, int m, int n) {
  size("m", m);
  size("n", n);
  const std::size_t a = elements(m, n);
  pointer("C", C, static_cast<std::size_t>(m));
  pointer("A", A, a);
  pointer("B", B, static_cast<std::size_t>(n));
  disjoint("C", C, m * sizeof(T), "A", A, a * sizeof(T));
  disjoint("C", C, m * sizeof(T), "B", B, n * sizeof(T));
}

template <class T> void mt(const T *C, const T *A, int m, int n) {
  size("m", m);
  size("n", n);
  const std::size_t c = elements(m, n);
  pointer("C", C, c);
  pointer("A", A, c);
  disjoint("C", C, c * sizeof(T), "A", A, c * sizeof(T));
}

template <class T> void vv(const T *C, const T *A, int m, const T *B, int n) {
  size("m", m);
  size("n", n);
  const std::size_t c = elements(m, n);
  pointer("C", C, c);
  pointer("A", A, static_cast<std::size_t>(m));
  pointer("B", B, static_cast<std::size_t>(n));
  disjoint("C", C, c * sizeof(T), "A", A, m * sizeof(T));
  disjoint("C", C, c * sizeof(T), "B", B, n * sizeof(T));
}

template <class T> void dot(const T *C, const T *A, int n, const T *r) {
  size("n", n);
  pointer("C", C, static_cast<std::size_t>(n));
  pointer("A", A, static_cast<std::size_t>(n));
  pointer("r", r, 1);
}

template <class T> void create(const T *dense, const SpArray<T> *out, int m, int n) {
  size("m", m);
  size("n", n);
  pointer("A", dense, elements(m, n));
  pointer("array", out, 1);
}

template <class T>
int spmm(const SpArray<T> *C, const SpArray<T> *A, const SpArray<T> *B, int m, int n, int k,
         int fmt, const char *api) {
  const int run = format(fmt, false, api);
  size("m", m);
  size("n", n);
  size("k", k);
  pointer("C", C, 1);
  array("A", A);
  array("B", B);
  shape("A", A->rows, A->cols, "m", m, "k", k);
  shape("B", B->rows, B->cols, "k", k, "n", n);
  return run;
}

template <class T>
int spdmm(const T *C, const SpArray<T> *A, const T *B, int m, int n, int k, int fmt,
          const char *api) {
  const int run = format(fmt, true, api);
  size("m", m);
  size("n", n);
  size("k", k);
  const std::size_t c = elements(m, n), b = elements(k, n);
  pointer("C", C, c);
  array("A", A);
  pointer("B", B, b);
  shape("A", A->rows, A->cols, "m", m, "k", k);
  disjoint("C", C, c * sizeof(T), "B", B, b * sizeof(T));
  disjoint("C", C, c * sizeof(T), "A.val", A->val, static_cast<std::size_t>(A->nnz) * sizeof(T));
  return run;
}

template <class T>
int spmv(const T *C, const SpArray<T> *A, const T *B, int m, int n, int fmt, const char *api) {
  const int run = format(fmt, true, api);
  size("m", m);
  size("n", n);
  pointer("C", C, static_cast<std::size_t>(m));
  array("A", A);
  pointer("B", B, static_cast<std::size_t>(n));
  shape("A", A->rows, A->cols, "m", m, "n", n);
  disjoint("C", C, m * sizeof(T), "B", B, n * sizeof(T));
  disjoint("C", C, m * sizeof(T), "A.val", A->val, static_cast<std::size_t>(A->nnz) * sizeof(T));
  return run;
}

#define RTAPI_INSTANTIATE(T)                                                                       \
  template void array<SpArray<T>>(const char *, const SpArray<T> *);                               \
  template void structure<T>(const char *, const CsrView<T> &);                                    \
  template void mm<T>(const T *, const T *, const T *, int, int, int);                             \
  template void mv<T>(const T *, const T *, const T *, int, int);                                  \
  template void mt<T>(const T *, const T *, int, int);                                             \
  template void vv<T>(const T *, const T *, int, const T *, int);                                  \
  template void dot<T>(const T *, const T *, int, const T *);                                      \
  template void create<T>(const T *, const SpArray<T> *, int, int);                                \
  template int spmm<T>(const SpArray<T> *, const SpArray<T> *, const SpArray<T> *, int, int, int,  \
                       int, const char *);                                                         \
  template int spdmm<T>(const T *, const SpArray<T> *, const T *, int, int, int, int,              \
                        const char *);                                                             \
  template int spmv<T>(const T *, const SpArray<T> *, const T *, int, int, int, const char *);
RTAPI_INSTANTIATE(float)
RTAPI_INSTANTIATE(double)
#undef RTAPI_INSTANTIATE

} // namespace check
} // namespace rtapi
