// Argument checks of every RT-API call, shared by both implementations so that a program that
// runs under the CPU implementation fails the same way on the GPU. Each throws rtapi::Error
// (RT_ERROR_INVALID_ARGUMENT, or RT_ERROR_UNSUPPORTED for a format a call cannot run).
#pragma once

#include "Sparse.h"

#include <cstddef>

namespace rtapi {
namespace check {

// rows * cols as a size_t (both already checked non-negative).
inline std::size_t elements(int rows, int cols) {
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

void size(const char *name, long long value);                     // value >= 0
void pointer(const char *name, const void *p, std::size_t count); // null only if count == 0
void disjoint(const char *outName, const void *out, std::size_t outBytes, const char *inName,
              const void *in, std::size_t inBytes);

// RTCSR or RTHYB -> RTCSR; RTBSR -> RTBSR where the call has a BSR path; anything else fails.
int format(int format, bool bsrAllowed, const char *api);

// A sparse argument's header: non-null struct, sizes >= 0, arrays present.
template <class S> void array(const char *name, const S *a);
// The CSR structure itself: rowPtr[0] == 0, rowPtr non-decreasing up to nnz, column indices in
// range and strictly increasing within a row. Reads every index: host arrays only.
template <class T> void structure(const char *name, const CsrView<T> &a);
// A sparse argument's shape is rows x cols as the call's size arguments say.
void shape(const char *name, int rows, int cols, const char *rowsName, int expectedRows,
           const char *colsName, int expectedCols);

// Whole-call checks; the names are the seed's argument names.
template <class T> void mm(const T *C, const T *A, const T *B, int m, int n, int k);
template <class T> void mv(const T *C, const T *A, const T *B, int m, int n);
template <class T> void mt(const T *C, const T *A, int m, int n);
template <class T> void vv(const T *C, const T *A, int m, const T *B, int n);
template <class T> void dot(const T *C, const T *A, int n, const T *r);
template <class T> void create(const T *dense, const SpArray<T> *out, int m, int n);
// The sparse calls return the format to run (RTCSR or RTBSR).
template <class T>
int spmm(const SpArray<T> *C, const SpArray<T> *A, const SpArray<T> *B, int m, int n, int k,
         int format, const char *api);
template <class T>
int spdmm(const T *C, const SpArray<T> *A, const T *B, int m, int n, int k, int format,
          const char *api);
template <class T>
int spmv(const T *C, const SpArray<T> *A, const T *B, int m, int n, int format, const char *api);

} // namespace check
} // namespace rtapi
