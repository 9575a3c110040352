// What a compiled variant needs per thread and per block: registers, static shared memory,
// stack (local memory) and spills, from the compiler's own report (ptxas -v), through NVRTC in
// this process when the tuner was built with the CUDA toolkit, else through `nvcc
// --resource-usage`. No GPU is needed for either.
#pragma once

#include "rtcuda/Support/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda::tune {

struct Resources {
  bool known = false;
  int regs = 0;
  long long smem = 0;        // static shared memory per block, bytes
  long long stack = 0;       // stack frame per thread, bytes (local memory)
  long long spillStores = 0, spillLoads = 0;
  int barriers = 0;
  std::string source;        // "nvrtc sm_90", "nvcc sm_90", "driver", "assumed"
  std::string error;         // the compiler's message when the variant does not compile
};

// ptxas -v output to resources per kernel (keyed by the C name: "_Z2mmPfS_S_i" gives "mm").
std::map<std::string, Resources> parsePtxasLog(const std::string &log);
std::string plainKernelName(const std::string &symbol);

// The first error lines of a compiler log, for reports.
std::string firstErrors(const std::string &log, size_t maxLines = 3);

class ResourceCompiler {
public:
  // `cudaPath`: the toolkit's root (for nvcc); empty: the build's toolkit, $CUDA_PATH, PATH.
  explicit ResourceCompiler(std::string cudaPath = "");
  // Which compiler is used ("nvrtc 13.0", "nvcc 13.0") or "" when none is available.
  std::string toolkit() const { return toolkit_; }
  bool available() const { return !toolkit_.empty(); }
  // The lowest architecture the toolkit compiles for (sm_75 for CUDA 13).
  std::string lowestArch() const { return lowest_; }

  // Compiles <m.dir>/kernel.cu for `arch` ("sm_90") with -D<macro>=<value> for each define and
  // returns the resources of every kernel in it. On a compile error every kernel gets
  // `error` set. Falls back to lowestArch() when the toolkit cannot target `arch`;
  // `usedArch` tells which one was compiled for.
  // With `cubinPath` (NVRTC only), the compiled code is also written there and each kernel's
  // symbol in it (`kernels`: their names) into `lowered`, so that the measurement loads this
  // compile instead of compiling the variant again.
  std::map<std::string, Resources> compile(const Manifest &m, const std::string &arch,
                                           const std::map<std::string, long long> &defines,
                                           std::string *usedArch = nullptr,
                                           const std::string &cubinPath = "",
                                           const std::vector<std::string> &kernels = {},
                                           std::map<std::string, std::string> *lowered = nullptr) const;

private:
  std::string cudaPath_, toolkit_, lowest_ = "sm_75", nvcc_;
  bool nvrtc_ = false;
  bool supports(const std::string &arch) const;
  struct CubinRequest {
    std::string path;
    const std::vector<std::string> *kernels = nullptr;
    std::map<std::string, std::string> *lowered = nullptr;
  };
  std::string runNvrtc(const std::string &source, const std::string &dir, const std::string &arch,
                       const std::map<std::string, long long> &defines, bool *ok,
                       const CubinRequest &cubin) const;
  std::string runNvcc(const std::string &dir, const std::string &arch,
                      const std::map<std::string, long long> &defines, bool *ok) const;
};

// The C headers kernel.cu may include that NVRTC does not have (its math functions are built
// in): name and content of each stub.
const std::vector<std::pair<std::string, std::string>> &nvrtcHeaderStubs();

}  // namespace rtcuda::tune
