// rtcuda_emu.h: the CUDA surface of generated kernel.cu / main.cu, mapped onto the CPU.
//
// Compile generated CUDA unchanged as C++ (g++ -x c++ -DRTCUDA_EMULATE) against this header and
// link the rtcuda_emu library. Each GPU thread runs as a fiber; blocks run one after another on
// the calling thread (or on a few OS threads with RTCUDA_EMU_THREADS=1). See README.md.
//
// This header must not include any CUDA toolkit header: it replaces them.
#pragma once

#ifndef RTCUDA_EMU
#define RTCUDA_EMU 1 // lets sources tell the emulator from nvcc; __CUDA_ARCH__ stays undefined
#endif

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

// ---- qualifiers ------------------------------------------------------------------------------
// Everything is host code here. __shared__ is per block: a block runs on one OS thread at a
// time and each OS thread runs one block at a time, so static thread_local storage is per block.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __shared__ static thread_local
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// __restrict__ is a g++ keyword already.

// ---- vector types ----------------------------------------------------------------------------
struct uint3 {
  unsigned int x, y, z;
};

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define RTCUDA_EMU_VEC2(T, N, A)                                                                   \
  struct alignas(A) N##2 {                                                                         \
    T x, y;                                                                                        \
  };                                                                                               \
  inline N##2 make_##N##2(T x, T y) { return N##2 {x, y}; }
#define RTCUDA_EMU_VEC3(T, N)                                                                      \
  struct N##3 {                                                                                    \
    T x, y, z;                                                                                     \
  };                                                                                               \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3 {x, y, z}; }
#define RTCUDA_EMU_VEC4(T, N, A)                                                                   \
  struct alignas(A) N##4 {                                                                         \
    T x, y, z, w;                                                                                  \
  };                                                                                               \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4 {x, y, z, w}; }

RTCUDA_EMU_VEC2(char, char, 2)
RTCUDA_EMU_VEC4(char, char, 4)
RTCUDA_EMU_VEC2(unsigned char, uchar, 2)
RTCUDA_EMU_VEC4(unsigned char, uchar, 4)
RTCUDA_EMU_VEC2(short, short, 4)
RTCUDA_EMU_VEC4(short, short, 8)
RTCUDA_EMU_VEC2(unsigned short, ushort, 4)
RTCUDA_EMU_VEC4(unsigned short, ushort, 8)
RTCUDA_EMU_VEC2(int, int, 8)
RTCUDA_EMU_VEC3(int, int)
RTCUDA_EMU_VEC4(int, int, 16)
RTCUDA_EMU_VEC2(unsigned int, uint, 8)
RTCUDA_EMU_VEC4(unsigned int, uint, 16)
RTCUDA_EMU_VEC2(long long, longlong, 16)
RTCUDA_EMU_VEC2(unsigned long long, ulonglong, 16)
RTCUDA_EMU_VEC2(float, float, 8)
RTCUDA_EMU_VEC3(float, float)
RTCUDA_EMU_VEC4(float, float, 16)
RTCUDA_EMU_VEC2(double, double, 16)
RTCUDA_EMU_VEC3(double, double)
RTCUDA_EMU_VEC4(double, double, 16)
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
#undef RTCUDA_EMU_VEC2
#undef RTCUDA_EMU_VEC3
#undef RTCUDA_EMU_VEC4

// ---- built-in variables ----------------------------------------------------------------------
// Set by the emulator on every switch to a GPU thread; plain reads in kernels.
inline thread_local uint3 threadIdx = {0, 0, 0};
inline thread_local uint3 blockIdx = {0, 0, 0};
inline thread_local dim3 blockDim = dim3(1, 1, 1);
inline thread_local dim3 gridDim = dim3(1, 1, 1);
inline constexpr int warpSize = 32;

// ---- errors ----------------------------------------------------------------------------------
// Values match the CUDA runtime so printed codes mean the same thing.
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaHostAllocDefault 0x00
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

// A plausible subset of the real struct (same field names).
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int concurrentManagedAccess;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
};

// ---- runtime API -----------------------------------------------------------------------------
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
cudaError_t cudaMemGetInfo(size_t *free, size_t *total);

cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaThreadSynchronize(void); // legacy names
cudaError_t cudaThreadExit(void);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// Streams exist only as handles: every operation is synchronous.
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaStreamDestroy(cudaStream_t stream);

// Typed forms that cuda_runtime.h provides for C++.
template <class T> inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc(reinterpret_cast<void **>(devPtr), size);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **devPtr, size_t size,
                                     unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void **>(devPtr), size, flags);
}
template <class T> inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
  return cudaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T> inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}
template <class F> inline cudaError_t cudaFuncSetCacheConfig(F *, cudaFuncCache) {
  return cudaSuccess;
}

namespace rtcuda {
namespace emu {
namespace detail {
cudaError_t copy_symbol(void *symbol, size_t symbol_size, void *dst, const void *src, size_t count,
                        size_t offset, cudaMemcpyKind kind, bool to_symbol);
} // namespace detail
} // namespace emu
} // namespace rtcuda

// __constant__ and __device__ variables are ordinary globals: the symbol is the object itself.
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                      size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return rtcuda::emu::detail::copy_symbol(const_cast<T *>(&symbol), sizeof(T), nullptr, src, count,
                                          offset, kind, true);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return rtcuda::emu::detail::copy_symbol(const_cast<T *>(&symbol), sizeof(T), dst, nullptr, count,
                                          offset, kind, false);
}
template <class T> inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  if (!devPtr) return cudaErrorInvalidValue;
  *devPtr = const_cast<T *>(&symbol);
  return cudaSuccess;
}

// ---- barrier ---------------------------------------------------------------------------------
void __syncthreads(void);
int __syncthreads_count(int predicate);
int __syncthreads_and(int predicate);
int __syncthreads_or(int predicate);

// ---- launch ----------------------------------------------------------------------------------
namespace rtcuda {
namespace emu {
namespace detail {
using Trampoline = void (*)(const void *);
// Runs `run(call)` once per GPU thread of the grid; launch errors go to cudaGetLastError.
void launch_kernel(Trampoline run, const void *call, dim3 grid, dim3 block);

template <class Fn, class Args> struct KernelCall {
  Fn kernel;
  Args args;
};

// Each GPU thread gets its own copies of the parameters, as on the GPU.
template <class Call> void run_call(const void *p) {
  const Call *call = static_cast<const Call *>(p);
  std::apply(call->kernel, call->args);
}
} // namespace detail

// The emulated form of kernel<<<grid, block>>>(args...): runs to completion before returning.
template <class... Params, class... Args>
inline void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args &&...args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "rtcuda-emu: kernel launched with the wrong number of arguments");
  using Tuple = std::tuple<std::decay_t<Params>...>;
  using Call = detail::KernelCall<void (*)(Params...), Tuple>;
  const Call call{kernel, Tuple(std::forward<Args>(args)...)};
  detail::launch_kernel(&detail::run_call<Call>, &call, grid, block);
}

// Emulator settings. Each overrides its environment variable (see README.md) from now on.
void set_seed(unsigned long long seed); // RTCUDA_EMU_SEED
unsigned long long seed();
void set_threads_mode(bool on, unsigned workers = 0); // RTCUDA_EMU_THREADS, RTCUDA_EMU_WORKERS
void set_stack_kb(unsigned kb);                       // RTCUDA_EMU_STACK_KB
void set_verbose(bool on);                            // RTCUDA_EMU_VERBOSE
unsigned long long launch_count();                    // launches that ran so far
} // namespace emu
} // namespace rtcuda

#include "rtcuda_emu_device.h"
