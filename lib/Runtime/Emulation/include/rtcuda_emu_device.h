// rtcuda_emu_device.h: device functions of the emulation shim (included by rtcuda_emu.h).
//
// Atomics are real atomics (relaxed, like CUDA's): blocks may run on several OS threads, and
// ThreadSanitizer must see them as atomic. Intrinsics map to the precise <cmath> functions.
#pragma once

#include <string.h>
#include <time.h>

// ---- min / max as CUDA overloads them (mixed signedness gives the unsigned type) -------------
// Names in parentheses: a user's min/max macro must not rewrite these declarations.
#define RTCUDA_EMU_MINMAX(R, A, B)                                                                 \
  inline R(min)(A a, B b) {                                                                        \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);          \
  }                                                                                                \
  inline R(max)(A a, B b) {                                                                        \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);          \
  }
RTCUDA_EMU_MINMAX(int, int, int)
RTCUDA_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
RTCUDA_EMU_MINMAX(unsigned int, int, unsigned int)
RTCUDA_EMU_MINMAX(unsigned int, unsigned int, int)
RTCUDA_EMU_MINMAX(long, long, long)
RTCUDA_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
RTCUDA_EMU_MINMAX(unsigned long, long, unsigned long)
RTCUDA_EMU_MINMAX(unsigned long, unsigned long, long)
RTCUDA_EMU_MINMAX(long long, long long, long long)
RTCUDA_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
RTCUDA_EMU_MINMAX(unsigned long long, long long, unsigned long long)
RTCUDA_EMU_MINMAX(unsigned long long, unsigned long long, long long)
#undef RTCUDA_EMU_MINMAX
inline float(min)(float a, float b) { return fminf(a, b); }
inline float(max)(float a, float b) { return fmaxf(a, b); }
inline double(min)(double a, double b) { return fmin(a, b); }
inline double(max)(double a, double b) { return fmax(a, b); }
inline double(min)(float a, double b) { return fmin(a, b); }
inline double(max)(float a, double b) { return fmax(a, b); }
inline double(min)(double a, float b) { return fmin(a, b); }
inline double(max)(double a, float b) { return fmax(a, b); }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return a < b ? a : b;
}
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return a > b ? a : b;
}

// ---- atomics ---------------------------------------------------------------------------------
namespace rtcuda {
namespace emu {
namespace detail {
// Read-modify-write through compare-and-swap, for operations without a builtin.
template <class T, class F> inline T atomic_update(T *address, F op) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired;
  do {
    desired = op(old);
  } while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED));
  return old;
}
template <class... T> inline constexpr bool always_false = false;
} // namespace detail
} // namespace emu
} // namespace rtcuda

#define RTCUDA_EMU_ATOMIC_INT(T)                                                                   \
  inline T atomicAdd(T *a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }             \
  inline T atomicExch(T *a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }           \
  inline T atomicAnd(T *a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_RELAXED); }             \
  inline T atomicOr(T *a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_RELAXED); }               \
  inline T atomicXor(T *a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED); }             \
  inline T atomicCAS(T *a, T compare, T v) {                                                       \
    __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
    return compare;                                                                                \
  }                                                                                                \
  inline T atomicMin(T *a, T v) {                                                                  \
    return rtcuda::emu::detail::atomic_update(a, [v](T o) { return v < o ? v : o; });              \
  }                                                                                                \
  inline T atomicMax(T *a, T v) {                                                                  \
    return rtcuda::emu::detail::atomic_update(a, [v](T o) { return v > o ? v : o; });              \
  }
RTCUDA_EMU_ATOMIC_INT(int)
RTCUDA_EMU_ATOMIC_INT(unsigned int)
RTCUDA_EMU_ATOMIC_INT(unsigned long long)
#undef RTCUDA_EMU_ATOMIC_INT

inline long long atomicMin(long long *a, long long v) {
  return rtcuda::emu::detail::atomic_update(a, [v](long long o) { return v < o ? v : o; });
}
inline long long atomicMax(long long *a, long long v) {
  return rtcuda::emu::detail::atomic_update(a, [v](long long o) { return v > o ? v : o; });
}
inline int atomicSub(int *a, int v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); }
inline unsigned int atomicSub(unsigned int *a, unsigned int v) {
  return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED);
}
inline unsigned short atomicCAS(unsigned short *a, unsigned short compare, unsigned short v) {
  __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}
inline float atomicAdd(float *a, float v) {
  return rtcuda::emu::detail::atomic_update(a, [v](float o) { return o + v; });
}
inline double atomicAdd(double *a, double v) {
  return rtcuda::emu::detail::atomic_update(a, [v](double o) { return o + v; });
}
inline float atomicExch(float *a, float v) {
  float old;
  __atomic_exchange(a, &v, &old, __ATOMIC_RELAXED);
  return old;
}
// ((old >= limit) ? 0 : old + 1), and ((old == 0 || old > limit) ? limit : old - 1).
inline unsigned int atomicInc(unsigned int *a, unsigned int limit) {
  return rtcuda::emu::detail::atomic_update(
      a, [limit](unsigned int o) { return o >= limit ? 0u : o + 1u; });
}
inline unsigned int atomicDec(unsigned int *a, unsigned int limit) {
  return rtcuda::emu::detail::atomic_update(
      a, [limit](unsigned int o) { return (o == 0u || o > limit) ? limit : o - 1u; });
}

inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// ---- loads and stores with cache hints -------------------------------------------------------
template <class T> inline T __ldg(const T *p) { return *p; }
template <class T> inline T __ldcg(const T *p) { return *p; }
template <class T> inline T __ldca(const T *p) { return *p; }
template <class T> inline T __ldcs(const T *p) { return *p; }
template <class T> inline T __ldlu(const T *p) { return *p; }
template <class T> inline T __ldcv(const T *p) { return *p; }
template <class T> inline void __stwb(T *p, T v) { *p = v; }
template <class T> inline void __stcg(T *p, T v) { *p = v; }
template <class T> inline void __stcs(T *p, T v) { *p = v; }
template <class T> inline void __stwt(T *p, T v) { *p = v; }

// ---- float intrinsics (precise versions: results may differ from the GPU's in the last bits) --
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline void __sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return sqrtf(a); }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double a) { return 1.0 / a; }
inline double __dsqrt_rn(double a) { return sqrt(a); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
inline float norm3df(float a, float b, float c) { return sqrtf(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }

// ---- conversions and bit tricks --------------------------------------------------------------
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(truncf(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned int>(nearbyintf(x)); }
inline unsigned int __float2uint_rz(float x) { return static_cast<unsigned int>(truncf(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(trunc(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }

namespace rtcuda {
namespace emu {
namespace detail {
template <class To, class From> inline To bit_cast(From from) {
  static_assert(sizeof(To) == sizeof(From), "size mismatch");
  To to;
  memcpy(&to, &from, sizeof(To));
  return to;
}
} // namespace detail
} // namespace emu
} // namespace rtcuda
inline float __int_as_float(int x) { return rtcuda::emu::detail::bit_cast<float>(x); }
inline int __float_as_int(float x) { return rtcuda::emu::detail::bit_cast<int>(x); }
inline float __uint_as_float(unsigned int x) { return rtcuda::emu::detail::bit_cast<float>(x); }
inline unsigned int __float_as_uint(float x) {
  return rtcuda::emu::detail::bit_cast<unsigned int>(x);
}
inline double __longlong_as_double(long long x) { return rtcuda::emu::detail::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) {
  return rtcuda::emu::detail::bit_cast<long long>(x);
}

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1u);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
         __brev(static_cast<unsigned int>(x >> 32));
}
inline int __mul24(int a, int b) {
  // Low 24 bits of each operand, sign-extended, as the hardware does (shifts kept UB-free).
  const int a24 = static_cast<int>(static_cast<unsigned int>(a) << 8) >> 8;
  const int b24 = static_cast<int>(static_cast<unsigned int>(b) << 8) >> 8;
  return static_cast<int>(static_cast<unsigned int>(static_cast<long long>(a24) * b24));
}
inline unsigned int __umul24(unsigned int a, unsigned int b) {
  return (a & 0xffffffu) * (b & 0xffffffu);
}
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
}
// __extension__: user code may be compiled with -Wpedantic.
__extension__ typedef __int128 rtcuda_emu_int128;
__extension__ typedef unsigned __int128 rtcuda_emu_uint128;
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<rtcuda_emu_int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<rtcuda_emu_uint128>(a) * b) >> 64);
}
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) {
  return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1);
}
inline unsigned int __uhadd(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) + b) >> 1);
}
inline unsigned int __urhadd(unsigned int a, unsigned int b) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) + b + 1) >> 1);
}
inline unsigned int __sad(int a, int b, unsigned int c) {
  return c + static_cast<unsigned int>(a > b ? static_cast<long long>(a) - b
                                             : static_cast<long long>(b) - a);
}
inline unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) {
  return c + (a > b ? a - b : b - a);
}

// ---- misc ------------------------------------------------------------------------------------
inline long long clock64(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
inline void __nanosleep(unsigned int) {}
[[noreturn]] inline void __trap(void) { abort(); }

// ---- warp-level intrinsics: not emulated (fibers of a warp do not run in lockstep) -----------
// Declared so that a use fails to compile with a message instead of running wrong.
#define RTCUDA_EMU_NOT_EMULATED(name)                                                              \
  template <class... A> inline int name(A...) {                                                    \
    static_assert(rtcuda::emu::detail::always_false<A...>,                                         \
                  "rtcuda-emu: " #name " (warp-level) is not emulated");                           \
    return 0;                                                                                      \
  }
RTCUDA_EMU_NOT_EMULATED(__shfl_sync)
RTCUDA_EMU_NOT_EMULATED(__shfl_up_sync)
RTCUDA_EMU_NOT_EMULATED(__shfl_down_sync)
RTCUDA_EMU_NOT_EMULATED(__shfl_xor_sync)
RTCUDA_EMU_NOT_EMULATED(__shfl)
RTCUDA_EMU_NOT_EMULATED(__shfl_up)
RTCUDA_EMU_NOT_EMULATED(__shfl_down)
RTCUDA_EMU_NOT_EMULATED(__shfl_xor)
RTCUDA_EMU_NOT_EMULATED(__ballot_sync)
RTCUDA_EMU_NOT_EMULATED(__any_sync)
RTCUDA_EMU_NOT_EMULATED(__all_sync)
RTCUDA_EMU_NOT_EMULATED(__match_any_sync)
RTCUDA_EMU_NOT_EMULATED(__reduce_add_sync)
RTCUDA_EMU_NOT_EMULATED(__syncwarp)
RTCUDA_EMU_NOT_EMULATED(__activemask)
#undef RTCUDA_EMU_NOT_EMULATED
