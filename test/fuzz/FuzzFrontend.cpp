// libFuzzer target: the frontend (C text in, kernel IR or a located error out). The input is
// a kernel file; the function named `k`, and any marked `#pragma rtcuda kernel`, are kernels.
// parseKernels must return IR or report an error; an exception that escapes, a crash, a
// sanitizer report or a stack overflow is a finding.
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/IR/Printer.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include <unistd.h>

#ifndef RTCUDA_CLANG_RESOURCE_DIR
#define RTCUDA_CLANG_RESOURCE_DIR ""
#endif

namespace {

const std::string &kernelPath() {
  static std::string path = [] {
    std::string pattern = "/tmp/rtcuda-fuzz-frontend-XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    rtcuda::setClangResourceDir(RTCUDA_CLANG_RESOURCE_DIR);
    return pattern + "/kernel.c";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string &path = kernelPath();
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
  }
  rtcuda::Options options;
  options.configPath = path;
  options.kernelFiles = {path};
  rtcuda::KernelOptions k;
  k.name = "k";
  options.kernels = {k};
  rtcuda::Diagnostics diags;
  rtcuda::ParsedProgram program;
  bool ok = false;
  try {
    ok = rtcuda::parseKernels(options, diags, program);
  } catch (const rtcuda::CompileError &) {
    std::abort();  // must have become a diagnostic
  }
  if (!ok && diags.errors() == 0) std::abort();  // refused without saying why
  if (ok)
    for (const rtcuda::KernelSource &s : program.kernels) (void)rtcuda::ir::printKernel(s.kernel);
  return 0;
}
