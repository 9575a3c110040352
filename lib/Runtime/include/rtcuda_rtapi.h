// rtcuda_rtapi.h: RT-API calls inside resident loops (rtcuda_runtime.h, docs/translate.md).
//
// In a loop whose arrays stay on the GPU, rtcuda translate renames each RT-API call RTxxx to
// rtcuda_resident_RTxxx. The wrapper hands the library the arrays' device copies (copied in if
// the loop has not yet) and marks the ones the call writes for the copy at the loop's end, as a
// kernel's launch function does; the library then works on device arrays, with no staging.
// Outside a resident loop, or with a negative size (the library reports it), the call goes to
// the library unchanged. The sparse structs' own arrays are read by the library where they are;
// one that a kernel of the loop wrote is brought up to date first. The dot product's r is the
// caller's scalar (the translator accepts only &variable there), also left to the library.
#pragma once

#include "rtapi.h"
#include "rtcuda_runtime.h"

// The device copy of `count` elements at `host`, current; null and empty arrays pass as they are.
template <class T> static inline T *rtcuda_rtapi_in(T *host, long long count, const char *api) {
  if (!host || count <= 0) return host;
  return (T *)rtcuda_array_in(host, (size_t)count * sizeof(T), api);
}

template <class T> static inline void rtcuda_rtapi_out(T *host, long long count, const char *api) {
  if (host && count > 0) rtcuda_array_out(host, (size_t)count * sizeof(T), api);
}

static inline bool rtcuda_rtapi_resident(long long a, long long b, long long c) {
  return rtcuda_resident_active() && a >= 0 && b >= 0 && c >= 0;
}

// A host array the library reads in place: the host copy takes what kernels wrote to its mirror.
static inline void rtcuda_rtapi_host_current(const void *host, const char *api) {
  std::map<const void *, rtcuda_mirror>::iterator it = rtcuda_mirrors().find(host);
  if (host && it != rtcuda_mirrors().end()) rtcuda_write_back(host, it->second, api);
}

template <class A> static inline void rtcuda_rtapi_sparse_current(const A *a, const char *api) {
  if (!a) return;
  rtcuda_rtapi_host_current(a->rowPtr, api);
  rtcuda_rtapi_host_current(a->colInd, api);
  rtcuda_rtapi_host_current(a->val, api);
}

// ---- dense ---------------------------------------------------------------------------------------

template <class T>
static inline int rtcuda_resident_mm(int (*f)(T *, const T *, const T *, int, int, int),
                                     const char *api, T *C, const T *A, const T *B, int m, int n,
                                     int k) {
  if (!rtcuda_rtapi_resident(m, n, k)) return f(C, A, B, m, n, k);
  const T *a = rtcuda_rtapi_in(A, (long long)m * k, api);
  const T *b = rtcuda_rtapi_in(B, (long long)k * n, api);
  T *c = rtcuda_rtapi_in(C, (long long)m * n, api);
  const int status = f(c, a, b, m, n, k);
  rtcuda_rtapi_out(C, (long long)m * n, api);
  return status;
}

template <class T>
static inline int rtcuda_resident_mv(int (*f)(T *, const T *, const T *, int, int),
                                     const char *api, T *C, const T *A, const T *B, int m, int n) {
  if (!rtcuda_rtapi_resident(m, n, 0)) return f(C, A, B, m, n);
  const T *a = rtcuda_rtapi_in(A, (long long)m * n, api);
  const T *b = rtcuda_rtapi_in(B, (long long)n, api);
  T *c = rtcuda_rtapi_in(C, (long long)m, api);
  const int status = f(c, a, b, m, n);
  rtcuda_rtapi_out(C, (long long)m, api);
  return status;
}

template <class T>
static inline int rtcuda_resident_mt(int (*f)(T *, const T *, int, int), const char *api, T *C,
                                     const T *A, int m, int n) {
  if (!rtcuda_rtapi_resident(m, n, 0)) return f(C, A, m, n);
  const T *a = rtcuda_rtapi_in(A, (long long)m * n, api);
  T *c = rtcuda_rtapi_in(C, (long long)m * n, api);
  const int status = f(c, a, m, n);
  rtcuda_rtapi_out(C, (long long)m * n, api);
  return status;
}

template <class T>
static inline int rtcuda_resident_vv(int (*f)(T *, const T *, int, const T *, int),
                                     const char *api, T *C, const T *A, int m, const T *B, int n) {
  if (!rtcuda_rtapi_resident(m, n, 0)) return f(C, A, m, B, n);
  const T *a = rtcuda_rtapi_in(A, (long long)m, api);
  const T *b = rtcuda_rtapi_in(B, (long long)n, api);
  T *c = rtcuda_rtapi_in(C, (long long)m * n, api);
  const int status = f(c, a, m, b, n);
  rtcuda_rtapi_out(C, (long long)m * n, api);
  return status;
}

template <class T>
static inline int rtcuda_resident_dot(int (*f)(const T *, const T *, int, T *), const char *api,
                                      const T *C, const T *A, int n, T *r) {
  if (!rtcuda_rtapi_resident(n, 0, 0)) return f(C, A, n, r);
  const T *c = rtcuda_rtapi_in(C, (long long)n, api);
  const T *a = rtcuda_rtapi_in(A, (long long)n, api);
  return f(c, a, n, r);
}

// ---- sparse x dense ------------------------------------------------------------------------------

template <class T, class S>
static inline int rtcuda_resident_spmv(int (*f)(T *, const S *, const T *, int, int, int),
                                       const char *api, T *C, const S *A, const T *B, int m,
                                       int n, int format) {
  if (!rtcuda_rtapi_resident(m, n, 0)) return f(C, A, B, m, n, format);
  rtcuda_rtapi_sparse_current(A, api);
  const T *b = rtcuda_rtapi_in(B, (long long)n, api);
  T *c = rtcuda_rtapi_in(C, (long long)m, api);
  const int status = f(c, A, b, m, n, format);
  rtcuda_rtapi_out(C, (long long)m, api);
  return status;
}

template <class T, class S>
static inline int rtcuda_resident_spdmm(int (*f)(T *, const S *, const T *, int, int, int, int),
                                        const char *api, T *C, const S *A, const T *B, int m,
                                        int n, int k, int format) {
  if (!rtcuda_rtapi_resident(m, n, k)) return f(C, A, B, m, n, k, format);
  rtcuda_rtapi_sparse_current(A, api);
  const T *b = rtcuda_rtapi_in(B, (long long)k * n, api);
  T *c = rtcuda_rtapi_in(C, (long long)m * n, api);
  const int status = f(c, A, b, m, n, k, format);
  rtcuda_rtapi_out(C, (long long)m * n, api);
  return status;
}

// ---- the names the translator writes (both precisions; the trailing format may be left out,
// and RTd*VV has the original examples' square form too) ---------------------------------------

#define RTCUDA_RESIDENT_RTAPI(P, T, S)                                                             \
  static inline int rtcuda_resident_RTd##P##MM(T *C, const T *A, const T *B, int m, int n,       \
                                               int k) {                                          \
    return rtcuda_resident_mm<T>(RTd##P##MM, "RTd" #P "MM", C, A, B, m, n, k);                    \
  }                                                                                              \
  static inline int rtcuda_resident_RTd##P##MV(T *C, const T *A, const T *B, int m, int n) {     \
    return rtcuda_resident_mv<T>(RTd##P##MV, "RTd" #P "MV", C, A, B, m, n);                       \
  }                                                                                              \
  static inline int rtcuda_resident_RTd##P##MT(T *C, const T *A, int m, int n) {                 \
    return rtcuda_resident_mt<T>(RTd##P##MT, "RTd" #P "MT", C, A, m, n);                          \
  }                                                                                              \
  static inline int rtcuda_resident_RTd##P##VV(T *C, const T *A, int m, const T *B, int n) {     \
    return rtcuda_resident_vv<T>(RTd##P##VV, "RTd" #P "VV", C, A, m, B, n);                       \
  }                                                                                              \
  static inline int rtcuda_resident_RTd##P##VV(T *C, const T *A, const T *B, int n) {            \
    return rtcuda_resident_vv<T>(RTd##P##VV, "RTd" #P "VV", C, A, n, B, n);                       \
  }                                                                                              \
  static inline int rtcuda_resident_RTd##P##DOT(const T *C, const T *A, int n, T *r) {           \
    return rtcuda_resident_dot<T>(RTd##P##DOT, "RTd" #P "DOT", C, A, n, r);                       \
  }                                                                                              \
  static inline int rtcuda_resident_RTsp##P##MV(T *C, const S *A, const T *B, int m, int n,      \
                                                int format = RTHYB) {                            \
    return rtcuda_resident_spmv<T, S>(RTsp##P##MV, "RTsp" #P "MV", C, A, B, m, n, format);        \
  }                                                                                              \
  static inline int rtcuda_resident_RTspd##P##MM(T *C, const S *A, const T *B, int m, int n,     \
                                                 int k, int format = RTCSR) {                    \
    return rtcuda_resident_spdmm<T, S>(RTspd##P##MM, "RTspd" #P "MM", C, A, B, m, n, k, format);  \
  }

RTCUDA_RESIDENT_RTAPI(S, float, RTspSArray)
RTCUDA_RESIDENT_RTAPI(D, double, RTspDArray)
#undef RTCUDA_RESIDENT_RTAPI
