#include "Runtime.h"

#include "Impl.h"

#include <string>
#include <utility>

namespace rtapi {
namespace gpu {

void checkCuda(cudaError_t status, const char *call) {
  if (status == cudaSuccess) return;
  const int code = status == cudaErrorMemoryAllocation ? RT_ERROR_OUT_OF_MEMORY : RT_ERROR_CUDA;
  fail(code, std::string(cudaGetErrorName(status)) + " from " + call + " (" +
                 cudaGetErrorString(status) + ")");
}

void checkCublas(cublasStatus_t status, const char *call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const int code = status == CUBLAS_STATUS_ALLOC_FAILED ? RT_ERROR_OUT_OF_MEMORY : RT_ERROR_CUBLAS;
  fail(code, std::string(cublasGetStatusName(status)) + " from " + call);
}

void checkCusparse(cusparseStatus_t status, const char *call) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  const int code =
      status == CUSPARSE_STATUS_ALLOC_FAILED ? RT_ERROR_OUT_OF_MEMORY : RT_ERROR_CUSPARSE;
  fail(code, std::string(cusparseGetErrorName(status)) + " from " + call);
}

// ---- scratch buffers ---------------------------------------------------------------------------

Scratch &Scratch::operator=(Scratch &&other) noexcept {
  if (this != &other) {
    if (pool_ && ptr_) pool_->giveBack(ptr_, bytes_);
    pool_ = std::exchange(other.pool_, nullptr);
    ptr_ = std::exchange(other.ptr_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Scratch::~Scratch() {
  if (pool_ && ptr_) pool_->giveBack(ptr_, bytes_);
}

Scratch Pool::acquire(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  auto it = free_.lower_bound(bytes);
  if (it != free_.end() && it->first <= 2 * bytes + (1u << 20)) {
    Scratch s(this, it->second, it->first);
    free_.erase(it);
    return s;
  }
  void *p = nullptr;
  cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // not sticky: clear it, drop the cached buffers, try again
    clear();
    status = cudaMalloc(&p, bytes);
  }
  checkCuda(status, ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  return Scratch(this, p, bytes);
}

void Pool::giveBack(void *ptr, std::size_t bytes) { free_.emplace(bytes, ptr); }

void Pool::clear() {
  for (auto &entry : free_) (void)cudaFree(entry.second);
  free_.clear();
}

// ---- context and calls -----------------------------------------------------------------------

Context &context() {
  static Context ctx;
  return ctx;
}

Call::Call() : ctx_(context()), lock_(ctx_.mutex) {
  if (ctx_.refs == 0) fail(RT_ERROR_NOT_INITIALIZED, "RTAPIInit has not been called");
  checkCuda(cudaGetDevice(&callerDevice_), "cudaGetDevice");
  if (callerDevice_ != ctx_.device) checkCuda(cudaSetDevice(ctx_.device), "cudaSetDevice");
}

Call::~Call() {
  if (callerDevice_ >= 0 && callerDevice_ != ctx_.device) (void)cudaSetDevice(callerDevice_);
}

Memory Call::classify(const char *name, const void *p) {
  for (int i = 0; i < knownCount_; ++i)
    if (known_[i].p == p) return known_[i].memory;
  const Memory memory = gpu::classify(name, p, ctx_.device);
  if (knownCount_ < kKnown) known_[knownCount_++] = Known{p, memory};
  return memory;
}

void Call::finish() {
  if (hostVisible_ || callerDevice_ != ctx_.device) synchronize();
}

// Stream 0 is the legacy default stream here (see Runtime.h), where all of the call's work is.
void Call::synchronize() {
  checkCuda(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
}

Memory classify(const char *name, const void *p, int device) {
  cudaPointerAttributes attributes;
  const cudaError_t status = cudaPointerGetAttributes(&attributes, p);
  if (status == cudaErrorInvalidValue) { // an unregistered host pointer on older drivers
    (void)cudaGetLastError();
    return Memory::Host;
  }
  checkCuda(status, "cudaPointerGetAttributes");
  switch (attributes.type) {
  case cudaMemoryTypeManaged: return Memory::Managed;
  case cudaMemoryTypeDevice:
    if (device >= 0 && attributes.device != device)
      invalid(std::string("argument ") + name + " is memory of GPU " +
              std::to_string(attributes.device) + ", but RTAPIInit ran on GPU " +
              std::to_string(device));
    return Memory::Device;
  default: return Memory::Host; // pageable or pinned host memory: staged
  }
}

DeviceArg::DeviceArg(Call &call, const char *name, const void *user, std::size_t bytes,
                     Access access)
    : user_(const_cast<void *>(user)), bytes_(bytes), access_(access) {
  if (!user || bytes == 0) return;
  const Memory memory = call.classify(name, user);
  if (memory != Memory::Device) call.hostVisible();
  if (memory != Memory::Host) {
    ptr_ = user_;
    return;
  }
  scratch_ = call.scratch(bytes);
  ptr_ = scratch_.get();
  staged_ = true;
  if (access != Access::Write)
    checkCuda(cudaMemcpy(ptr_, user, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (host to device)");
}

void DeviceArg::copyBack() {
  if (staged_ && access_ != Access::Read)
    checkCuda(cudaMemcpy(user_, ptr_, bytes_, cudaMemcpyDeviceToHost),
              "cudaMemcpy (device to host)");
}

} // namespace gpu
} // namespace rtapi

// ---- context calls ---------------------------------------------------------------------------

namespace rtapi {
namespace impl {

using namespace gpu;

const char *name() { return "cuda"; }

void init() {
  Context &ctx = context();
  std::lock_guard<std::mutex> lock(ctx.mutex);
  if (ctx.refs > 0) {
    ++ctx.refs;
    return;
  }
  int device = 0;
  checkCuda(cudaGetDevice(&device), "cudaGetDevice");
  cublasHandle_t blas = nullptr;
  cusparseHandle_t sparse = nullptr;
  try {
    checkCublas(cublasCreate(&blas), "cublasCreate");
    // FP32 GEMM in full FP32: no TF32 tensor-core rounding.
    checkCublas(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    checkCusparse(cusparseCreate(&sparse), "cusparseCreate");
  } catch (...) {
    if (sparse) (void)cusparseDestroy(sparse);
    if (blas) (void)cublasDestroy(blas);
    throw;
  }
  ctx.device = device;
  ctx.blas = blas;
  ctx.sparse = sparse;
  ctx.refs = 1;
}

void finalize() {
  Context &ctx = context();
  std::lock_guard<std::mutex> lock(ctx.mutex);
  if (ctx.refs == 0) fail(RT_ERROR_NOT_INITIALIZED, "RTAPIFinalize without RTAPIInit");
  if (--ctx.refs > 0) return;
  const cudaError_t synced = cudaDeviceSynchronize();
  ctx.pool.clear();
  const cusparseStatus_t sparse = cusparseDestroy(ctx.sparse);
  const cublasStatus_t blas = cublasDestroy(ctx.blas);
  ctx.sparse = nullptr;
  ctx.blas = nullptr;
  ctx.device = -1;
  checkCuda(synced, "cudaDeviceSynchronize");
  checkCusparse(sparse, "cusparseDestroy");
  checkCublas(blas, "cublasDestroy");
}

} // namespace impl
} // namespace rtapi
