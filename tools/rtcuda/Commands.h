// The subcommands of the rtcuda command line.
#pragma once

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Explain/Explain.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rtcuda {

int translateCommand(const std::vector<std::string> &args);
int verifyCommand(const std::vector<std::string> &args);
int runCommand(const std::vector<std::string> &args);
int explainCommand(const std::vector<std::string> &args);

// One config translated in memory: what translate writes and explain shows.
struct Translation {
  Options options;
  ParsedProgram program;
  std::vector<KernelSource> sources;  // the kernels lowered, in order (explain shows each)
  std::vector<LoweredKernel> kernels;
  OutlinedProgram outlined;           // functions outlined into several kernels (Outline.cpp)
  FileSet files;
};
// Config → lowered kernels and output files (errors reported through `diags`). The command
// line's Clang arguments (Options::clangArgs, compileCommandsDir) come in through t.options.
bool translateConfig(const std::string &config, const std::string &outDir, const DumpOptions &dump,
                     Diagnostics &diags, Translation &t);

// Keeps every kernel's pipeline snapshots and turns them into the explain report.
class ExplainRecorder {
public:
  void attach(DumpOptions &dump);
  // The page for a report at `reportPath`; `tuningReport` is read when it exists.
  bool render(const std::string &config, const Translation &t, const std::filesystem::path &reportPath,
              const std::filesystem::path &tuningReport, std::string &html, std::string &error);
  // render(), then the file written through a temporary one; an existing file that is not an
  // rtcuda explain report is not replaced.
  bool write(const std::string &config, const Translation &t, const std::filesystem::path &reportPath,
             const std::filesystem::path &tuningReport, std::string &error);

private:
  std::map<std::string, std::vector<explain::StepSnapshot>> steps;
};

// Compiles the main.cu of `files` with the host C++ compiler (syntax only, emulation headers);
// reports its messages and returns false if it does not compile (HostCheck.cpp).
bool checkHostBuilds(const Options &options, const FileSet &files, Diagnostics &diags);

}  // namespace rtcuda
