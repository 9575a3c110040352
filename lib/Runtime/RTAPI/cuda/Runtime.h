// The GPU implementation's plumbing: the library context (one cuBLAS and one cuSPARSE handle per
// RTAPIInit), status checks that name the failing status, a pool of device scratch buffers, and
// DeviceArg, which gives a user pointer a device address (in place for device and managed
// memory, staged through a scratch buffer for host memory).
#pragma once

#include "Error.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <utility>

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
class Pool {
public:
  Scratch acquire(std::size_t bytes);
  void giveBack(void *ptr, std::size_t bytes);
  void clear();

private:
  std::multimap<std::size_t, void *> free_;
};

struct Context {
  std::mutex mutex;
  int refs = 0;
  int device = -1;
  cublasHandle_t blas = nullptr;
  cusparseHandle_t sparse = nullptr;
  Pool pool;
};

Context &context();

// One computing call: holds the context lock, checks that RTAPIInit ran, makes the context's
// device current (and restores the caller's device afterwards).
class Call {
public:
  Call();
  ~Call();
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;
  cublasHandle_t blas() const { return ctx_.blas; }
  cusparseHandle_t sparse() const { return ctx_.sparse; }
  int device() const { return ctx_.device; }
  Scratch scratch(std::size_t bytes) { return ctx_.pool.acquire(bytes); }
  // Waits for the call's GPU work and reports an execution failure.
  void finish();

private:
  Context &ctx_;
  std::unique_lock<std::mutex> lock_;
  int callerDevice_ = -1;
};

enum class Memory { Host, Device, Managed };

// Where `p` lives. Device memory of a device other than `device` is refused.
Memory classify(const char *name, const void *p, int device);

enum class Access { Read, Write, ReadWrite };

// A user array as the device sees it.
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
