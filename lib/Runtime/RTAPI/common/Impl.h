// What an RT-API implementation provides. ExportApi.inc turns these into the C functions of
// rtapi.h; the CPU implementation (cpu/) and the GPU implementation (cuda/) each define them
// once for float and double.
#pragma once

#include "Sparse.h"

namespace rtapi {
namespace impl {

const char *name();
void init();
void finalize();

template <class T> void mm(T *C, const T *A, const T *B, int m, int n, int k);
template <class T> void mv(T *C, const T *A, const T *B, int m, int n);
template <class T> void mt(T *C, const T *A, int m, int n);
template <class T> void vv(T *C, const T *A, int m, const T *B, int n);
template <class T> void dot(const T *C, const T *A, int n, T *r);

template <class T> void create(const T *dense, SpArray<T> *array, int m, int n);
template <class T> void load(const char *filename, SpArray<T> *array);
template <class T> void destroy(SpArray<T> *array);

// `api` is the public name, for messages.
template <class T>
void spmm(SpArray<T> *C, const SpArray<T> *A, const SpArray<T> *B, int m, int n, int k, int format,
          const char *api);
template <class T>
void spdmm(T *C, const SpArray<T> *A, const T *B, int m, int n, int k, int format, const char *api);
template <class T>
void spmv(T *C, const SpArray<T> *A, const T *B, int m, int n, int format, const char *api);

} // namespace impl
} // namespace rtapi
