// rtcuda_runtime.h: the small runtime every generated main.cu includes.
//
// - RTCUDA_CHECK(call): every CUDA call is checked; a failure prints the user's file and line
//   and exits with status 1.
// - RTCUDA_LAUNCH(kernel, grid, block, args...): the one launch form of generated code, so that
//   the same main.cu runs on a GPU (nvcc) or on the CPU under the emulation shim
//   (compile with -DRTCUDA_EMULATE and the shim's include folder).
// - Host<->device mirrors (explicit memory mode): a host array passed to a kernel gets one
//   device buffer for its lifetime; rtcuda_host_free() releases both. Each launch copies its
//   arrays in and the written ones out, except inside a resident loop (below).
// - Resident loops: rtcuda translate brackets a host loop that only launches kernels (and calls
//   the RT-API, through rtcuda_rtapi.h) with rtcuda_resident_begin()/rtcuda_resident_end()
//   (docs/translate.md). In between, an array is
//   copied in at its first launch and out once, at the end. RTCUDA_RESIDENT=0 in the
//   environment turns this off.
#pragma once

#ifdef RTCUDA_EMULATE
#include "rtcuda_emu.h"
#else
#include <cuda_runtime.h>
#endif

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>

static inline void rtcuda_check(cudaError_t status, const char *what, const char *where) {
  if (status != cudaSuccess) {
    fprintf(stderr, "%s: error: %s failed: %s (%s)\n", where, what, cudaGetErrorString(status),
            cudaGetErrorName(status));
    exit(1);
  }
}

#define RTCUDA_STR2(x) #x
#define RTCUDA_STR(x) RTCUDA_STR2(x)
#define RTCUDA_HERE __FILE__ ":" RTCUDA_STR(__LINE__)
#define RTCUDA_CHECK(call) rtcuda_check((call), #call, RTCUDA_HERE)

#ifdef RTCUDA_EMULATE
#define RTCUDA_LAUNCH(kernel, grid, block, ...) rtcuda::emu::launch(kernel, grid, block, ##__VA_ARGS__)
#else
#define RTCUDA_LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)
#endif

// Checks that a launch was accepted (configuration errors), without waiting for the kernel.
static inline void rtcuda_check_launch_async(const char *kernel, const char *where) {
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    fprintf(stderr, "%s: error: kernel '%s' could not be launched: %s (%s)\n", where, kernel,
            cudaGetErrorString(status), cudaGetErrorName(status));
    exit(1);
  }
}

// Checks a launch: configuration errors at once, execution errors at the next synchronization.
static inline void rtcuda_check_launch(const char *kernel, const char *where) {
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    fprintf(stderr, "%s: error: kernel '%s' failed: %s (%s)\n", where, kernel,
            cudaGetErrorString(status), cudaGetErrorName(status));
    exit(1);
  }
}

static inline long long rtcuda_ceil_div(long long a, long long b) {
  return a <= 0 ? 0 : (a + b - 1) / b;
}
static inline long long rtcuda_min(long long a, long long b) { return a < b ? a : b; }
static inline long long rtcuda_max(long long a, long long b) { return a > b ? a : b; }
static inline long long rtcuda_nonnegative(long long a) { return a < 0 ? 0 : a; }

// The current GPU's SM count, read once (the emulator reports 132): RegisterTiling's launches
// take their small-grid instantiation when the default grid has fewer blocks than this.
static inline long long rtcuda_sm_count(void) {
  static int count = 0;
  if (!count) {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        count < 1) {
      count = 1;  // unknown: no grid counts as small
      (void)cudaGetLastError();  // not a launch error of the kernel that follows
    }
  }
  return count;
}

// A problem too large for the kernel's 32-bit index arithmetic (iterations, or elements of an
// array) is refused, not run wrong.
static inline void rtcuda_check_index_range(long long count, const char *kernel,
                                            const char *where) {
  if (count > 2147483647LL) {
    fprintf(stderr, "%s: error: kernel '%s' needs %lld indices, more than its 32-bit index "
            "arithmetic can address\n", where, kernel, count);
    exit(1);
  }
}

// A kernel with 64-bit indices still launches at most 2^31 - 1 blocks across.
static inline void rtcuda_check_grid_blocks(long long blocks, const char *kernel,
                                            const char *where) {
  if (blocks > 2147483647LL) {
    fprintf(stderr, "%s: error: kernel '%s' needs %lld blocks, more than a grid holds\n", where,
            kernel, blocks);
    exit(1);
  }
}

// ---- memory: managed allocations are used in place; other host arrays get a device mirror ---

static inline std::map<const void *, size_t> &rtcuda_managed_blocks() {
  static std::map<const void *, size_t> table;
  return table;
}

static inline bool rtcuda_is_managed(const void *p) {
  return rtcuda_managed_blocks().count(p) > 0;
}

// Replace malloc/calloc/free in generated host code when the config asks for managed memory.
static inline void *rtcuda_managed_malloc(size_t bytes) {
  void *p = NULL;
  rtcuda_check(cudaMallocManaged(&p, bytes ? bytes : 1), "cudaMallocManaged", "rtcuda_managed_malloc");
  rtcuda_managed_blocks()[p] = bytes;
  return p;
}

static inline void *rtcuda_managed_calloc(size_t count, size_t size) {
  void *p = rtcuda_managed_malloc(count * size);
  unsigned char *bytes = (unsigned char *)p;
  for (size_t i = 0; i < count * size; ++i) bytes[i] = 0;
  return p;
}

static inline void rtcuda_managed_free(void *p) {
  if (rtcuda_managed_blocks().erase(p)) {
    rtcuda_check(cudaFree(p), "cudaFree", "rtcuda_managed_free");
    return;
  }
  free(p);
}

struct rtcuda_mirror {
  void *device;
  size_t bytes;   // the device buffer's size
  size_t current; // resident loop: leading bytes the buffer holds the array's contents of
  size_t newer;   // resident loop: leading bytes a kernel wrote that the host has not seen
};

static inline std::map<const void *, rtcuda_mirror> &rtcuda_mirrors() {
  static std::map<const void *, rtcuda_mirror> table;
  return table;
}

// The device buffer of `host`, at least `bytes` long (allocated or grown on first use).
static inline void *rtcuda_device_buffer(const void *host, size_t bytes, const char *where) {
  if (bytes == 0) bytes = 1;
  rtcuda_mirror &m = rtcuda_mirrors()[host];
  if (m.bytes < bytes) {
    if (m.device) rtcuda_check(cudaFree(m.device), "cudaFree", where);
    m.device = NULL;
    rtcuda_check(cudaMalloc(&m.device, bytes), "cudaMalloc", where);
    m.bytes = bytes;
  }
  return m.device;
}

// Copies `bytes` of a host array to its mirror and returns the device pointer.
static inline void *rtcuda_copy_in(const void *host, size_t bytes, const char *where) {
  void *device = rtcuda_device_buffer(host, bytes, where);
  if (bytes) rtcuda_check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice),
                          "cudaMemcpy (host to device)", where);
  return device;
}

// Copies `bytes` of a mirror back to its host array.
static inline void rtcuda_copy_out(void *host, size_t bytes, const char *where) {
  if (!bytes) return;
  rtcuda_mirror &m = rtcuda_mirrors()[host];
  rtcuda_check(cudaMemcpy(host, m.device, bytes, cudaMemcpyDeviceToHost),
               "cudaMemcpy (device to host)", where);
}

// Replaces free() in generated host code: drops the device mirror, then frees the host array.
static inline void rtcuda_host_free(void *host) {
  std::map<const void *, rtcuda_mirror> &table = rtcuda_mirrors();
  std::map<const void *, rtcuda_mirror>::iterator it = table.find(host);
  if (it != table.end()) {
    rtcuda_check(cudaFree(it->second.device), "cudaFree", "rtcuda_host_free");
    table.erase(it);
  }
  free(host);
}

// ---- resident loops: copies at the loop's ends instead of at every launch -------------------

struct rtcuda_residency {
  int depth;     // rtcuda_resident_begin() calls not yet ended
  bool disabled; // RTCUDA_RESIDENT=0
  bool stopped;  // this loop passed overlapping arrays: per-launch copies until it ends
};

static inline rtcuda_residency &rtcuda_resident_state() {
  static rtcuda_residency state = {0, getenv("RTCUDA_RESIDENT") != NULL &&
                                          strcmp(getenv("RTCUDA_RESIDENT"), "0") == 0, false};
  return state;
}

static inline bool rtcuda_resident_active() {
  const rtcuda_residency &s = rtcuda_resident_state();
  return s.depth > 0 && !s.disabled && !s.stopped;
}

// Copies what kernels (or RT-API calls) of a resident loop wrote to a mirror back to its host
// array.
static inline void rtcuda_write_back(const void *host, rtcuda_mirror &m, const char *where) {
  if (!m.newer) return;
  rtcuda_check(cudaMemcpy((void *)host, m.device, m.newer, cudaMemcpyDeviceToHost),
               "cudaMemcpy (device to host)", where);
  m.newer = 0;
}

// Brings every host array up to date with what kernels wrote to its mirror, and forgets which
// mirrors are current: outside a resident loop the host may change any array.
static inline void rtcuda_resident_flush(const char *where) {
  std::map<const void *, rtcuda_mirror> &table = rtcuda_mirrors();
  for (std::map<const void *, rtcuda_mirror>::iterator it = table.begin(); it != table.end();
       ++it) {
    rtcuda_write_back(it->first, it->second, where);
    it->second.current = 0;
  }
}

static inline void rtcuda_resident_begin(void) { ++rtcuda_resident_state().depth; }

static inline void rtcuda_resident_end(void) {
  rtcuda_residency &s = rtcuda_resident_state();
  if (s.depth > 0 && --s.depth == 0) {
    rtcuda_resident_flush("the end of a resident loop");
    s.stopped = false;
  }
}

// Mirrors are kept per host pointer: two host ranges that overlap (an array and a pointer into
// it) would have two device copies that disagree. Such a loop falls back to per-launch copies.
static inline bool rtcuda_overlaps_another(const void *host, size_t bytes) {
  const char *begin = (const char *)host, *end = begin + (bytes ? bytes : 1);
  std::map<const void *, rtcuda_mirror> &table = rtcuda_mirrors();
  for (std::map<const void *, rtcuda_mirror>::iterator it = table.begin(); it != table.end();
       ++it) {
    const char *b = (const char *)it->first, *e = b + (it->second.bytes ? it->second.bytes : 1);
    if (it->first != host && b < end && begin < e) return true;
  }
  return false;
}

// The pointer a kernel gets for a host array: managed memory in place, otherwise its mirror
// with the array's current contents (copied now unless a resident loop already did).
static inline void *rtcuda_array_in(const void *host, size_t bytes, const char *where) {
  if (rtcuda_is_managed(host)) return (void *)host;
  if (rtcuda_resident_active()) {
    rtcuda_mirror &m = rtcuda_mirrors()[host];
    // A current range was checked for overlaps when it became current: an overlap between two
    // ranges is found when the second one does.
    if (m.device && m.current >= bytes) return m.device;
    if (!rtcuda_overlaps_another(host, bytes)) {
      rtcuda_write_back(host, m, where); // longer than before: first what kernels wrote
      void *device = rtcuda_copy_in(host, bytes, where);
      m.current = bytes;
      return device;
    }
    rtcuda_resident_flush(where);
    rtcuda_resident_state().stopped = true;
  }
  return rtcuda_copy_in(host, bytes, where);
}

// After a kernel wrote an array: managed memory is already current (the launch check
// synchronized); a mirror is copied back, or in a resident loop marked for the copy at its end.
static inline void rtcuda_array_out(const void *host, size_t bytes, const char *where) {
  if (rtcuda_is_managed(host)) return;
  if (!rtcuda_resident_active()) {
    rtcuda_copy_out((void *)host, bytes, where);
    return;
  }
  rtcuda_mirror &m = rtcuda_mirrors()[host];
  if (bytes > m.newer) m.newer = bytes;
}
