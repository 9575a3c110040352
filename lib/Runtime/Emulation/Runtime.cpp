// Runtime.cpp: the CUDA runtime API of the emulator: errors, memory, device, events, streams.
//
// Device memory is host memory from the C allocator, so AddressSanitizer sees every access out of
// bounds. Copies and memsets check their device ranges against the allocations and fail with
// cudaErrorInvalidValue where a GPU might silently corrupt memory.
#include "Internal.h"

#include <string.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>

struct CUstream_st {
  unsigned int flags;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point time;
  bool recorded;
  unsigned int flags;
};

namespace rtcuda {
namespace emu {
namespace detail {

// ---- errors ----------------------------------------------------------------------------------

namespace {
std::atomic<int> g_sticky{cudaSuccess};
thread_local cudaError_t tl_last_error = cudaSuccess;
} // namespace

cudaError_t record_error(cudaError_t error) {
  if (error != cudaSuccess) tl_last_error = error;
  return error;
}
void set_sticky_error(cudaError_t error) {
  int expected = cudaSuccess;
  g_sticky.compare_exchange_strong(expected, error);
  record_error(error);
}
cudaError_t sticky_error() { return static_cast<cudaError_t>(g_sticky.load()); }

size_t device_memory_bytes() {
  static const size_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(16) << 30;
  }();
  return bytes;
}

// ---- allocations -----------------------------------------------------------------------------

namespace {
enum class Kind { Device, Managed, Host };
struct Allocation {
  size_t size;
  Kind kind;
};

struct Registry {
  std::mutex mutex;
  std::map<uintptr_t, Allocation> allocations;
  size_t allocated = 0;
  std::set<const CUevent_st *> events;
  std::set<const CUstream_st *> streams;
};

// Never destroyed: programs may exit without freeing device memory, as they may on a GPU, and
// LeakSanitizer must still find that memory referenced from here after static destructors ran.
Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

// The allocation that holds p, or nullptr. Caller holds registry().mutex.
const std::pair<const uintptr_t, Allocation> *find_allocation(const void *p) {
  Registry &reg = registry();
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = reg.allocations.upper_bound(a);
  if (it == reg.allocations.begin()) return nullptr;
  --it;
  if (a - it->first < it->second.size || a == it->first) return &*it;
  return nullptr;
}

enum class Side { Host, Device, Any };

// Whether [p, p + count) may be used as `side` memory. Caller holds registry().mutex.
bool check_range(const void *p, size_t count, Side side) {
  const auto *alloc = find_allocation(p);
  if (!alloc) return side != Side::Device;
  const Kind kind = alloc->second.kind;
  if (side == Side::Device && kind == Kind::Host) return false;
  if (side == Side::Host && kind == Kind::Device) return false;
  const size_t offset = reinterpret_cast<uintptr_t>(p) - alloc->first;
  return count <= alloc->second.size - offset;
}

cudaError_t allocate(void **ptr, size_t size, Kind kind) {
  if (const cudaError_t sticky = sticky_error()) return record_error(sticky);
  if (!ptr) return record_error(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  // Refuse what no device would have, rather than let the sanitizer allocator abort.
  if (size > device_memory_bytes() || reg.allocated + size > device_memory_bytes())
    return record_error(cudaErrorMemoryAllocation);
  void *p = nullptr;
  // The exact size is requested so that AddressSanitizer flags the first byte past the end.
  if (posix_memalign(&p, 256, size) != 0 || !p) return record_error(cudaErrorMemoryAllocation);
  reg.allocations[reinterpret_cast<uintptr_t>(p)] = Allocation{size, kind};
  reg.allocated += size;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t release(void *p, bool host) {
  if (const cudaError_t sticky = sticky_error()) return record_error(sticky);
  if (!p) return cudaSuccess;
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = reg.allocations.find(reinterpret_cast<uintptr_t>(p));
  if (it == reg.allocations.end() || (it->second.kind == Kind::Host) != host)
    return record_error(cudaErrorInvalidValue);
  reg.allocated -= it->second.size;
  reg.allocations.erase(it);
  free(p);
  return cudaSuccess;
}

cudaError_t copy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  if (const cudaError_t sticky = sticky_error()) return record_error(sticky);
  Side to, from;
  switch (kind) {
  case cudaMemcpyHostToHost: to = Side::Host, from = Side::Host; break;
  case cudaMemcpyHostToDevice: to = Side::Device, from = Side::Host; break;
  case cudaMemcpyDeviceToHost: to = Side::Host, from = Side::Device; break;
  case cudaMemcpyDeviceToDevice: to = Side::Device, from = Side::Device; break;
  case cudaMemcpyDefault: to = Side::Any, from = Side::Any; break;
  default: return record_error(cudaErrorInvalidMemcpyDirection);
  }
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return record_error(cudaErrorInvalidValue);
  {
    Registry &reg = registry();
    std::lock_guard<std::mutex> lock(reg.mutex);
    if (!check_range(dst, count, to) || !check_range(src, count, from))
      return record_error(cudaErrorInvalidValue);
  }
  memcpy(dst, src, count);
  return cudaSuccess;
}
} // namespace

cudaError_t copy_symbol(void *symbol, size_t symbol_size, void *dst, const void *src, size_t count,
                        size_t offset, cudaMemcpyKind kind, bool to_symbol) {
  if (const cudaError_t sticky = sticky_error()) return record_error(sticky);
  if (offset > symbol_size || count > symbol_size - offset)
    return record_error(cudaErrorInvalidValue);
  // The symbol is device memory; the other side follows the copy kind.
  Side other;
  switch (kind) {
  case cudaMemcpyHostToDevice: other = Side::Host; break;
  case cudaMemcpyDeviceToHost: other = Side::Host; break;
  case cudaMemcpyDeviceToDevice: other = Side::Device; break;
  case cudaMemcpyDefault: other = Side::Any; break;
  default: return record_error(cudaErrorInvalidMemcpyDirection);
  }
  if ((to_symbol && kind == cudaMemcpyDeviceToHost) ||
      (!to_symbol && kind == cudaMemcpyHostToDevice))
    return record_error(cudaErrorInvalidMemcpyDirection);
  if (count == 0) return cudaSuccess;
  const void *p = to_symbol ? src : dst;
  if (!p) return record_error(cudaErrorInvalidValue);
  {
    Registry &reg = registry();
    std::lock_guard<std::mutex> lock(reg.mutex);
    if (!check_range(p, count, other)) return record_error(cudaErrorInvalidValue);
  }
  char *at = static_cast<char *>(symbol) + offset;
  if (to_symbol)
    memcpy(at, src, count);
  else
    memcpy(dst, at, count);
  return cudaSuccess;
}

// ---- device ----------------------------------------------------------------------------------

namespace {
cudaDeviceProp make_properties() {
  cudaDeviceProp p;
  memset(&p, 0, sizeof p);
  strncpy(p.name, "rtcuda CPU emulator", sizeof p.name - 1);
  p.totalGlobalMem = device_memory_bytes();
  p.sharedMemPerBlock = 48 * 1024;
  p.regsPerBlock = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 2147483647, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
  p.clockRate = 1980000;
  p.totalConstMem = 65536;
  p.major = 9, p.minor = 0; // limits above are those of compute capability 9.0
  p.textureAlignment = 512;
  p.deviceOverlap = 1;
  p.multiProcessorCount = 132; // fixed, so that grid sizes derived from it do not vary by host
  p.canMapHostMemory = 1;
  p.concurrentKernels = 1;
  p.unifiedAddressing = 1;
  p.memoryClockRate = 2619000;
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 50 * 1024 * 1024;
  p.maxThreadsPerMultiProcessor = 2048;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.regsPerMultiprocessor = 65536;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.sharedMemPerBlockOptin = 227 * 1024;
  p.maxBlocksPerMultiProcessor = 32;
  return p;
}

const cudaDeviceProp &properties() {
  static const cudaDeviceProp p = make_properties();
  return p;
}

// Errors that checking functions (not the failing call) report.
cudaError_t checked(cudaError_t error) {
  return error == cudaSuccess ? error : record_error(error);
}

bool valid_event(cudaEvent_t e) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  return e && reg.events.count(e);
}
bool valid_stream(cudaStream_t s) {
  if (!s) return true; // the default stream
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  return reg.streams.count(s) != 0;
}
} // namespace

} // namespace detail
} // namespace emu
} // namespace rtcuda

using namespace rtcuda::emu::detail;

// ---- errors ----------------------------------------------------------------------------------

#define RTCUDA_EMU_ERRORS(X)                                                                       \
  X(cudaSuccess, "no error")                                                                       \
  X(cudaErrorInvalidValue, "invalid argument")                                                     \
  X(cudaErrorMemoryAllocation, "out of memory")                                                    \
  X(cudaErrorInitializationError, "initialization error")                                          \
  X(cudaErrorCudartUnloading, "driver shutting down")                                              \
  X(cudaErrorInvalidConfiguration, "invalid configuration argument")                               \
  X(cudaErrorInvalidPitchValue, "invalid pitch argument")                                          \
  X(cudaErrorInvalidSymbol, "invalid device symbol")                                               \
  X(cudaErrorInvalidHostPointer, "invalid host pointer")                                           \
  X(cudaErrorInvalidDevicePointer, "invalid device pointer")                                       \
  X(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                          \
  X(cudaErrorMissingConfiguration, "__global__ function call is not configured")                   \
  X(cudaErrorInvalidDeviceFunction, "invalid device function")                                     \
  X(cudaErrorNoDevice, "no CUDA-capable device is detected")                                       \
  X(cudaErrorInvalidDevice, "invalid device ordinal")                                              \
  X(cudaErrorInvalidResourceHandle, "invalid resource handle")                                     \
  X(cudaErrorNotReady, "device not ready")                                                         \
  X(cudaErrorIllegalAddress, "an illegal memory access was encountered")                           \
  X(cudaErrorLaunchOutOfResources, "too many resources requested for launch")                      \
  X(cudaErrorLaunchTimeout, "the launch timed out and was terminated")                             \
  X(cudaErrorAssert, "device-side assert triggered")                                               \
  X(cudaErrorLaunchFailure, "unspecified launch failure")                                          \
  X(cudaErrorNotPermitted, "operation not permitted")                                              \
  X(cudaErrorNotSupported, "operation not supported")                                              \
  X(cudaErrorUnknown, "unknown error")

const char *cudaGetErrorString(cudaError_t error) {
#define RTCUDA_EMU_CASE(code, text)                                                                \
  case code: return text;
  switch (error) { RTCUDA_EMU_ERRORS(RTCUDA_EMU_CASE) }
#undef RTCUDA_EMU_CASE
  return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t error) {
#define RTCUDA_EMU_CASE(code, text)                                                                \
  case code: return #code;
  switch (error) { RTCUDA_EMU_ERRORS(RTCUDA_EMU_CASE) }
#undef RTCUDA_EMU_CASE
  return "cudaErrorUnknown";
}

cudaError_t cudaGetLastError(void) {
  const cudaError_t error = tl_last_error;
  tl_last_error = cudaSuccess;
  if (const cudaError_t sticky = sticky_error()) return sticky;
  return error;
}

cudaError_t cudaPeekAtLastError(void) {
  if (const cudaError_t sticky = sticky_error()) return sticky;
  return tl_last_error;
}

// ---- memory ----------------------------------------------------------------------------------

cudaError_t cudaMalloc(void **devPtr, size_t size) { return allocate(devPtr, size, Kind::Device); }
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return record_error(cudaErrorInvalidValue);
  return allocate(devPtr, size, Kind::Managed);
}
cudaError_t cudaMallocHost(void **ptr, size_t size) { return allocate(ptr, size, Kind::Host); }
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int) {
  return allocate(ptr, size, Kind::Host);
}
cudaError_t cudaFree(void *devPtr) { return release(devPtr, false); }
cudaError_t cudaFreeHost(void *ptr) { return release(ptr, true); }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  return copy(dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return copy(dst, src, count, kind);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
  if (const cudaError_t sticky = sticky_error()) return record_error(sticky);
  if (count == 0) return cudaSuccess;
  {
    Registry &reg = registry();
    std::lock_guard<std::mutex> lock(reg.mutex);
    if (!devPtr || !check_range(devPtr, count, Side::Device))
      return record_error(cudaErrorInvalidValue);
  }
  memset(devPtr, value, count);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total) {
  if (!free || !total) return record_error(cudaErrorInvalidValue);
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  *total = device_memory_bytes();
  *free = *total - reg.allocated;
  return cudaSuccess;
}

// ---- device ----------------------------------------------------------------------------------

cudaError_t cudaDeviceSynchronize(void) { return checked(sticky_error()); }
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

cudaError_t cudaDeviceReset(void) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  for (auto &a : reg.allocations) free(reinterpret_cast<void *>(a.first));
  reg.allocations.clear();
  reg.allocated = 0;
  for (const CUevent_st *e : reg.events) delete e;
  reg.events.clear();
  for (const CUstream_st *s : reg.streams) delete s;
  reg.streams.clear();
  g_sticky = cudaSuccess;
  tl_last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : record_error(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDevice(int *device) {
  if (!device) return record_error(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return record_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  *prop = properties();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  if (!value) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  const cudaDeviceProp &p = properties();
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
  case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
  case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
  case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
  case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
  case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
  case cudaDevAttrTotalConstantMemory: *value = int(p.totalConstMem); break;
  case cudaDevAttrWarpSize: *value = p.warpSize; break;
  case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
  case cudaDevAttrClockRate: *value = p.clockRate; break;
  case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
  case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
  case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
  case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
  case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *value = int(p.sharedMemPerMultiprocessor);
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
  case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
  default: return record_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int *version) {
  if (!version) return record_error(cudaErrorInvalidValue);
  *version = 12000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *version) { return cudaDriverGetVersion(version); }

// ---- events (host clock) ---------------------------------------------------------------------

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  if (!event) return record_error(cudaErrorInvalidValue);
  CUevent_st *e = new CUevent_st{std::chrono::steady_clock::time_point(), false, flags};
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  reg.events.insert(e);
  *event = e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!valid_event(event) || !valid_stream(stream))
    return record_error(cudaErrorInvalidResourceHandle);
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  event->time = std::chrono::steady_clock::now();
  event->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!valid_event(event)) return record_error(cudaErrorInvalidResourceHandle);
  return checked(sticky_error());
}
cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return record_error(cudaErrorInvalidValue);
  if (!valid_event(start) || !valid_event(end)) return record_error(cudaErrorInvalidResourceHandle);
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  if (!start->recorded || !end->recorded || (start->flags & cudaEventDisableTiming) ||
      (end->flags & cudaEventDisableTiming))
    return record_error(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  if (!event || !reg.events.erase(event)) return record_error(cudaErrorInvalidResourceHandle);
  delete event;
  return cudaSuccess;
}

// ---- streams (handles only) ------------------------------------------------------------------

cudaError_t cudaStreamCreate(cudaStream_t *stream) {
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags) {
  if (!stream) return record_error(cudaErrorInvalidValue);
  CUstream_st *s = new CUstream_st{flags};
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  reg.streams.insert(s);
  *stream = s;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return checked(sticky_error());
}
cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!valid_stream(stream) || !valid_event(event))
    return record_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  Registry &reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  if (!stream || !reg.streams.erase(stream)) return record_error(cudaErrorInvalidResourceHandle);
  delete stream;
  return cudaSuccess;
}
