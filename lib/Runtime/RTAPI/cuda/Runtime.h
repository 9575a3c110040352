// The GPU implementation's plumbing: the library context (one cuBLAS and one cuSPARSE handle per
// RTAPIInit), status checks that name the failing status, a pool of device scratch buffers, and
// DeviceArg, which gives a user pointer a device address (in place for device and managed
// memory, staged through a scratch buffer for host memory).
//
// Streams: all of the library's GPU work runs on the legacy default stream. The handles keep the
// NULL stream that cublasCreate/cusparseCreate give them (the legacy stream inside cuBLAS and
// cuSPARSE), and this library's own copies and memsets use stream 0, which is the legacy stream
// because librtapi is not built with per-thread default streams. Generated kernels launch there
// too (<<<grid, block>>>, no stream), and a per-thread default stream, if a program uses one, is
// ordered with the legacy stream. So an RT-API call that leaves its work queued is still ordered
// with every kernel, copy and call before and after it; only work on streams created with
// cudaStreamNonBlocking is not.
#pragma once

#include "Error.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace rtapi {
namespace gpu {

// Throw rtapi::Error naming the status and the library call, e.g.
// "CUBLAS_STATUS_INVALID_VALUE from cublasSgemm".
void checkCuda(cudaError_t status, const char *call);
void checkCublas(cublasStatus_t status, const char *call);
void checkCusparse(cusparseStatus_t status, const char *call);

class Pool;

// A device buffer borrowed from the pool for the duration of a call.
class Scratch {
public:
  Scratch() = default;
  Scratch(Pool *pool, void *ptr, std::size_t bytes) : pool_(pool), ptr_(ptr), bytes_(bytes) {}
  Scratch(Scratch &&other) noexcept { *this = std::move(other); }
  Scratch &operator=(Scratch &&other) noexcept;
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  ~Scratch();
  void *get() const { return ptr_; }
  template <class T> T *as() const { return static_cast<T *>(ptr_); }

private:
  Pool *pool_ = nullptr;
  void *ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Device buffers kept between calls (grow-only, best fit), released by the last RTAPIFinalize.
// The free list has room for every buffer the pool owns, so giveBack (from ~Scratch) never
// allocates: a staged call does no host heap allocation once the pool is warm.
class Pool {
public:
  Scratch acquire(std::size_t bytes);
  void giveBack(void *ptr, std::size_t bytes) noexcept;
  void clear();

private:
  struct Block {
    std::size_t bytes;
    void *ptr;
  };
  std::vector<Block> free_;
  std::size_t owned_ = 0; // buffers allocated and not yet freed (free or lent out)
};

struct Context {
  std::mutex mutex;
  int refs = 0;
  int device = -1;
  bool onlyDevice = false; // the program sees one GPU: no call needs to ask for the current one
  cublasHandle_t blas = nullptr;
  cusparseHandle_t sparse = nullptr;
  Pool pool;
  // A scalar result for the host (the dot product's r): 16 bytes of mapped pinned host memory
  // that cuBLAS writes in device pointer mode, read after one stream wait. Null where the
  // allocation failed (the dot product then uses cuBLAS's host pointer mode).
  void *resultSlot = nullptr;
};

Context &context();

enum class Memory { Host, Device, Managed };

// Where `p` lives. Device memory of a device other than `device` is refused. One driver query
// (cuPointerGetAttributes, reached through the runtime's entry-point lookup, so no libcuda link);
// cudaPointerGetAttributes where that is unavailable or fails (it then names the failure).
Memory classify(const char *name, const void *p, int device);

// Which setting a call's arrays follow: the dense calls honor RTAPISetArrayPlacement, the
// sparse calls always ask where their arrays live.
enum class CallKind { Dense, Sparse };

// One computing call: holds the context lock, checks that RTAPIInit ran, makes the context's
// device current (and restores the caller's device afterwards).
class Call {
public:
  explicit Call(CallKind kind = CallKind::Sparse);
  ~Call();
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;
  cublasHandle_t blas() const { return ctx_.blas; }
  cusparseHandle_t sparse() const { return ctx_.sparse; }
  int device() const { return ctx_.device; }
  Scratch scratch(std::size_t bytes) { return ctx_.pool.acquire(bytes); }
  template <class T> T *resultSlot() const { return static_cast<T *>(ctx_.resultSlot); }
  // classify() on the context's device, asked once per distinct pointer of the call. Nothing is
  // kept between calls: memory may be freed and its address reused by another kind of memory.
  Memory classify(const char *name, const void *p);
  // A dense call under RT_ARRAYS_ON_DEVICE: DeviceArg takes its arrays as device pointers.
  bool arraysOnDevice() const { return arraysOnDevice_; }
  // An argument is host or managed memory: the host sees it directly, so finish() must wait.
  void hostVisible() { hostVisible_ = true; }
  // Ends a call. Waits for its GPU work (and reports an execution failure) only when the host
  // could otherwise see that work unfinished: an argument was host memory (staged) or managed
  // memory, or the caller's current device is another device (whose default stream is not
  // ordered with the context's). On device arrays alone the work stays queued on the legacy
  // default stream, in order with whatever the program does next on the GPU.
  void finish();
  // Always waits for the call's GPU work (the block-form sparse calls, sparse x sparse, and a
  // host result through the slot).
  void synchronize();

private:
  Context &ctx_;
  std::unique_lock<std::mutex> lock_;
  int callerDevice_ = -1;
  bool arraysOnDevice_ = false;
  bool hostVisible_ = false;
  struct Known {
    const void *p;
    Memory memory;
  };
  static constexpr int kKnown = 8; // a call has at most 6 arrays (a sparse product)
  Known known_[kKnown];            // the call's pointers classified so far
  int knownCount_ = 0;
};

enum class Access { Read, Write, ReadWrite };

// A user array as the device sees it. Host and managed arrays make the call hostVisible(); under
// Call::arraysOnDevice() the pointer is taken as it is, without asking.
class DeviceArg {
public:
  DeviceArg(Call &call, const char *name, const void *user, std::size_t bytes, Access access);
  void *get() const { return ptr_; }
  template <class T> T *as() const { return static_cast<T *>(ptr_); }
  bool staged() const { return staged_; }
  // Copies a staged Write/ReadWrite argument back to the user's host array.
  void copyBack();

private:
  void *user_ = nullptr;
  void *ptr_ = nullptr;
  std::size_t bytes_ = 0;
  Access access_;
  bool staged_ = false;
  Scratch scratch_;
};

template <class T> constexpr cudaDataType dataType();
template <> constexpr cudaDataType dataType<float>() { return CUDA_R_32F; }
template <> constexpr cudaDataType dataType<double>() { return CUDA_R_64F; }

} // namespace gpu
} // namespace rtapi
