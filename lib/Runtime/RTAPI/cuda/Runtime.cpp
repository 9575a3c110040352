#include "Runtime.h"

#include "Impl.h"
#include "Placement.h"

#include <cuda.h> // driver types only: the one driver function is looked up at run time

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
  // Best fit: the smallest free buffer that holds `bytes`, taken if not much larger.
  std::size_t best = free_.size();
  for (std::size_t i = 0; i < free_.size(); ++i)
    if (free_[i].bytes >= bytes && (best == free_.size() || free_[i].bytes < free_[best].bytes))
      best = i;
  if (best < free_.size() && free_[best].bytes <= 2 * bytes + (1u << 20)) {
    const Block block = free_[best];
    free_[best] = free_.back();
    free_.pop_back();
    return Scratch(this, block.ptr, block.bytes);
  }
  free_.reserve(owned_ + 1); // room for the new buffer's giveBack, before it exists
  void *p = nullptr;
  cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError(); // not sticky: clear it, drop the cached buffers, try again
    clear();
    status = cudaMalloc(&p, bytes);
  }
  if (status != cudaSuccess) // the message is built on failure only
    checkCuda(status, ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  ++owned_;
  return Scratch(this, p, bytes);
}

void Pool::giveBack(void *ptr, std::size_t bytes) noexcept { free_.push_back(Block{bytes, ptr}); }

void Pool::clear() {
  for (const Block &block : free_) (void)cudaFree(block.ptr);
  owned_ -= free_.size();
  free_.clear();
}

// ---- context and calls -----------------------------------------------------------------------

Context &context() {
  static Context ctx;
  return ctx;
}

Call::Call(CallKind kind)
    : ctx_(context()), lock_(ctx_.mutex),
      arraysOnDevice_(kind == CallKind::Dense && arrayPlacement() == RT_ARRAYS_ON_DEVICE) {
  if (ctx_.refs == 0) fail(RT_ERROR_NOT_INITIALIZED, "RTAPIInit has not been called");
  if (ctx_.onlyDevice) { // with one GPU the caller's current device is the context's
    callerDevice_ = ctx_.device;
    return;
  }
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

namespace {

// cuPointerGetAttributes as of CUDA 7.0, the ABI requested below.
using PointerAttributesFn = CUresult(CUDAAPI *)(unsigned int, CUpointer_attribute *, void **,
                                                CUdeviceptr);

// The driver's cuPointerGetAttributes through the runtime's entry-point lookup (librtapi does
// not link libcuda), or null: classify() then asks the runtime. Measured on an H100: 0.05 us per
// pointer for these three attributes against 0.08-0.09 us for cudaPointerGetAttributes, the
// largest piece of a dense call's overhead (three pointers).
PointerAttributesFn lookUpPointerAttributes() {
  void *fn = nullptr;
#if CUDART_VERSION >= 12000
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  const cudaError_t status = cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", &fn, 7000,
                                                              cudaEnableDefault, &found);
#else
  const cudaError_t status =
      cudaGetDriverEntryPoint("cuPointerGetAttributes", &fn, cudaEnableDefault, &found);
#endif
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    fn = nullptr;
  }
#endif
  return reinterpret_cast<PointerAttributesFn>(fn);
}

Memory deviceMemory(const char *name, int ordinal, int device) {
  if (device >= 0 && ordinal != device)
    invalid(std::string("argument ") + name + " is memory of GPU " + std::to_string(ordinal) +
            ", but RTAPIInit ran on GPU " + std::to_string(device));
  return Memory::Device;
}

} // namespace

Memory classify(const char *name, const void *p, int device) {
  // The function pointer is looked up once; the pointer itself is asked about on every call.
  static const PointerAttributesFn driverQuery = lookUpPointerAttributes();
  if (driverQuery) {
    unsigned int type = 0, managed = 0;
    int ordinal = -1;
    CUpointer_attribute which[3] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                    CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
    void *values[3] = {&type, &managed, &ordinal};
    // Memory the driver does not know (pageable host) comes back as type 0 with success.
    if (driverQuery(3, which, values, reinterpret_cast<CUdeviceptr>(p)) == CUDA_SUCCESS) {
      if (managed) return Memory::Managed;
      if (type == CU_MEMORYTYPE_DEVICE) return deviceMemory(name, ordinal, device);
      return Memory::Host; // pageable or pinned host memory: staged
    }
    // A driver failure: the runtime's query below answers or names the failure.
  }
  cudaPointerAttributes attributes;
  const cudaError_t status = cudaPointerGetAttributes(&attributes, p);
  if (status == cudaErrorInvalidValue) { // an unregistered host pointer on older drivers
    (void)cudaGetLastError();
    return Memory::Host;
  }
  checkCuda(status, "cudaPointerGetAttributes");
  switch (attributes.type) {
  case cudaMemoryTypeManaged: return Memory::Managed;
  case cudaMemoryTypeDevice: return deviceMemory(name, attributes.device, device);
  default: return Memory::Host; // pageable or pinned host memory: staged
  }
}

DeviceArg::DeviceArg(Call &call, const char *name, const void *user, std::size_t bytes,
                     Access access)
    : user_(const_cast<void *>(user)), bytes_(bytes), access_(access) {
  if (!user || bytes == 0) return;
  if (call.arraysOnDevice()) { // the caller's promise (RT_ARRAYS_ON_DEVICE): no query
    ptr_ = user_;
    return;
  }
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
  int device = 0, devices = 0;
  checkCuda(cudaGetDevice(&device), "cudaGetDevice");
  checkCuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
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
  // Mapped pinned memory: the GPU writes it directly, the host reads it once the stream is done.
  // Under unified addressing its host address is also its device address.
  void *slot = nullptr;
  if (cudaHostAlloc(&slot, 16, cudaHostAllocMapped) != cudaSuccess) {
    (void)cudaGetLastError(); // not fatal: the dot product falls back to host pointer mode
    slot = nullptr;
  }
  ctx.device = device;
  ctx.onlyDevice = devices == 1;
  ctx.blas = blas;
  ctx.sparse = sparse;
  ctx.resultSlot = slot;
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
  const cudaError_t slot = ctx.resultSlot ? cudaFreeHost(ctx.resultSlot) : cudaSuccess;
  ctx.sparse = nullptr;
  ctx.blas = nullptr;
  ctx.resultSlot = nullptr;
  ctx.device = -1;
  ctx.onlyDevice = false;
  checkCuda(synced, "cudaDeviceSynchronize");
  checkCuda(slot, "cudaFreeHost");
  checkCusparse(sparse, "cusparseDestroy");
  checkCublas(blas, "cublasDestroy");
}

} // namespace impl
} // namespace rtapi
