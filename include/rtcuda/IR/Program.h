// A program as the frontend hands it over: plain IR kernels with their config options, the
// sequential reference text and the kernels' prototypes. No Clang: the passes and the kernel
// code generation take this, not the frontend's Clang types (docs/architecture.md, layering).
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/IR.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda {

struct KernelSource {
  ir::Kernel kernel;        // as written: loops serial, arrays with their logical dimensions
  KernelOptions options;    // the config's options for it (defaults for pragma-marked kernels)
  std::string file;         // the kernel file it came from (display path)
};

struct ReferenceSource {
  std::string displayPath;  // the user's file, as named in diagnostics
  std::string fileName;     // base name
  std::string text;         // standard C that any C compiler builds: the sequential reference
};

struct ParsedProgram {
  std::vector<KernelSource> kernels;
  std::vector<ReferenceSource> references;
  std::string prototypes;   // declarations of the kernel functions, for the host prelude
  // Headers the kernel files read from the user's folders: place under include/ → absolute path.
  std::map<std::string, std::string> headers;
};

}  // namespace rtcuda
