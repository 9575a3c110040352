// Code generation: kernel.cu and the parameter headers, the host launch functions, and the
// output project (CMakeLists.txt, manifest.json, copies of the inputs). No Clang: main.cu is
// rtcuda/HostRewrite/HostRewrite.h's.
#pragma once

#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/Program.h"
#include "rtcuda/Support/Diagnostics.h"
#include "rtcuda/Transforms/Outline.h"
#include "rtcuda/Transforms/Pipeline.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda {

// Files of the output folder: relative path → contents.
using FileSet = std::map<std::string, std::string>;

// kernel.cu: every kernel, each including its own parameter header.
std::string kernelFile(const std::vector<LoweredKernel> &kernels);
// For the reader of kernel.cu: derived sizes written more than once become named constants at
// the kernel's top; the locals of a loop's full and tail copies are named _full and _tail.
ir::Kernel nameDerivedSizes(const ir::Kernel &k);
// <kernel>_params.h: the kernel's tuning macros at their default (or given) values.
std::string paramsHeader(const LoweredKernel &k, const std::map<std::string, int> &values = {});
std::string paramsHeaderName(const ir::Kernel &k);
// The kernel's i-th alternative instantiation (ir::Kernel::alternatives): the same body named
// <name>_small_grid (<name>_small_grid<i+1>), every tuning macro <PREFIX>_<PARAM> renamed
// <PREFIX>_SG_<PARAM> (<PREFIX>_SG<i+1>_<PARAM>), its tuning parameters at the point's values
// (the others at their defaults).
ir::Kernel alternativeKernel(const ir::Kernel &k, size_t i);

// Integer arrays whose values index other arrays or bound loops (IndexArrays.cpp): values
// below the extents in `below`; or offsets, non-decreasing up to the extents in `offsetsUpTo`.
// manifest.json's "index_values", so that verify draws inputs the C can run on.
struct IndexArrayUse {
  std::vector<std::string> below, offsetsUpTo;  // C expressions over the scalar parameters
};
std::map<std::string, IndexArrayUse> indexArrayUses(const ir::Kernel &source);

// Index width (IndexWidth.cpp, docs/passes/LoopCollapse.md#index-width): a kernel whose passes
// made index arithmetic 64-bit is printed with it narrowed to 32 bits as well, the launch
// choosing by the problem's extents (Both, <NAME>_WIDE_INDEX), or only narrowed where constant
// extents fit (Only32); Only64: as the passes left it (nothing wide, or the source's own
// `long long`, or constant extents that do not fit, or small-grid alternatives).
enum class IndexWidth { Only64, Only32, Both };
IndexWidth indexWidth(const LoweredKernel &lk);
// The kernel with its `long long` index arithmetic in int (same name).
ir::Kernel narrowIndexKernel(const ir::Kernel &k);
// The 64-bit instantiation printed beside the narrowed one: <name>_wide_index.
ir::Kernel wideIndexKernel(const ir::Kernel &k);
// Host expressions (over the scalar parameters and kk's macros) that must all be at most
// 2^31 - 1 for the narrowed kernel to compute what the 64-bit one does.
std::vector<ir::Expr> narrowIndexBounds(const LoweredKernel &lk, const ir::Kernel &kk);

// The host function that copies a kernel's arrays, launches it and checks it:
// rtcuda_launch_<name>(where, args...).
std::string launchFunction(const LoweredKernel &k);
// launch.cuh: the launch functions of every kernel (included by main.cu and by verify).
std::string launchHeader(const std::vector<LoweredKernel> &kernels);
std::string launchFunctionName(const ir::Kernel &k);
// A kernel with alternative instantiations chosen at launch (small-grid tiles, or the 64-bit
// kernel of IndexWidth.cpp): the C expression of which one its launch runs, -1 the kernel at
// its point, i the i-th of manifest.json's alternatives; over the scalar parameters, the tuning
// macros (the kernel's and the alternatives'), the selecting macro (<NAME>_SMALL_GRID,
// <NAME>_WIDE_INDEX) and `rtcuda_sms`, the GPU's SM count. launch.cuh returns it from
// rtcuda_<name>_launched_alternative, which the launch calls, and manifest.json carries it as
// `launch_choice`, which rtcuda-tune evaluates: the rule is written here only. Empty without
// alternatives.
std::string launchChoice(const LoweredKernel &lk);

// The number of chunks of loop k (gridDim.y) of a split instantiation `alt` (ir::Kernel::splitK,
// RegisterTiling's small-grid tiles) as one C expression over the scalar parameters, its tuning
// macros, `splitMacro` (<NAME>_SPLIT_K) and `rtcuda_sms`: launch.cuh returns it from
// rtcuda_<alt>_splits, which the launch calls, and manifest.json carries it as that
// alternative's grid[1] (iterations, one per block), which rtcuda-tune's harness launches.
std::string splitCount(const ir::Kernel &alt, const std::string &splitMacro);
std::string splitFunctionName(const ir::Kernel &alt);

// Where main.c calls each kernel and which of its loops keep their arrays on the GPU
// (resident loops), for rtcuda explain; hostSummary (HostRewrite.h) reads it from main.c.
struct HostSummary {
  struct Call {
    std::string kernel;
    unsigned line = 0;
    int loop = -1;  // index into `loops` of the resident loop around it, or -1
  };
  struct Loop {
    unsigned firstLine = 0, lastLine = 0;
    std::vector<std::string> rtapiCalls;  // RT-API functions the loop calls
  };
  std::string mainFile;  // display path
  std::vector<Call> calls;
  std::vector<Loop> loops;
};
// The host function of an outlined function: rtcuda_launch_<name>(where, args...), which
// copies its arrays to the device once and launches its kernels (HostFunction.cpp), and the
// function under its own name.
std::string hostFunction(const OutlinedFunction &f, const std::vector<LoweredKernel> &kernels);
// An outlined function seen as one kernel by main.cu and verify: its parameters and
// footprints, the tuning parameters of all its kernels (named by their macros), its remarks.
LoweredKernel functionShell(const OutlinedFunction &f, const std::vector<LoweredKernel> &kernels);
// What the user named: the kernels that were not outlined and each outlined function as one
// kernel (its kernels contribute their macro prefixes), for checkReservedNames.
std::vector<LoweredKernel> userNamedKernels(const std::vector<LoweredKernel> &kernels,
                                            const OutlinedProgram &outlined);

// A host loop around a launch of an outlined function's kernel (C expressions over the
// function's parameters and outer loops' variables). The tuner times a kernel that reads such a
// loop's variable at some of its values (docs/tuner.md, "Kernels in host loops").
struct HostLoopRange {
  std::string var, type, min, end;
  long long step = 1;
};
struct HostLoops {
  std::vector<HostLoopRange> loops;  // outermost first
  bool conditional = false;          // the launch is under an if or a while inside them
};
// The host loops around the first launch of each of `f`'s kernels.
std::map<std::string, HostLoops> hostLoopsOfKernels(const OutlinedFunction &f);

// The manifest: what verify and the tuner read (JSON text). `functions` are the outlined
// functions' shells; `parentOf` maps each outlined kernel to its function; `hostLoops` the
// host loops around each outlined kernel's launch.
std::string manifest(const Options &options, const ParsedProgram &program,
                     const std::vector<LoweredKernel> &kernels, bool hasMain,
                     const std::vector<LoweredKernel> &functions = {},
                     const std::map<std::string, std::string> &parentOf = {},
                     const std::map<std::string, HostLoops> &hostLoops = {});

// CMakeLists.txt of the output project.
std::string projectCMake(const std::string &program, const Options &options, bool hasMain,
                         bool usesRtapi);

// Writes `files` (and the marker file .rtcuda-output) into `outDir` through a fresh temporary
// folder that is renamed at the end, so a failed translation leaves no partial output. An
// existing `outDir` is replaced only if it holds rtcuda's marker, is not (and does not hold)
// the current folder and holds none of `inputs`; otherwise nothing is touched. Returns false
// with a message on failure or refusal.
bool writeOutputFolder(const std::string &outDir, const FileSet &files,
                       const std::vector<std::string> &inputs, std::string &error);
// Refuses (located errors) kernels, parameters and locals named like something the generated
// code defines or uses itself: C++ keywords, CUDA built-ins, launch-code locals, rtcuda_ and
// tuning-macro prefixes (ReservedNames.cpp).
void checkReservedNames(const std::vector<LoweredKernel> &kernels, Diagnostics &diags);
// The name of the marker file and its first line.
extern const char *const kOutputMarkerFile;
extern const char *const kOutputMarkerText;
// The CMake lines for the config's include_dirs (`hasHeaders`: the output has include/),
// defines and extra_sources, appended to projectCMake's text; "" when it has none.
std::string projectCMakeInputs(const std::string &program, const Options &options,
                               bool hasHeaders);
// Where the output keeps the extra C sources: src/extra/<name>.
std::vector<std::string> extraSourcePaths(const Options &options);


// Where the runtime headers live (rtcuda_runtime.h, rtapi.h); set by the driver.
void setRuntimeDirs(const std::string &runtimeInclude, const std::string &rtapiInclude);
const std::string &runtimeIncludeDir();
const std::string &rtapiIncludeDir();

}  // namespace rtcuda
