// Reading an output folder's manifest.json (written by `rtcuda translate`): what verify and the
// tuner know about each kernel. Plain C++ (no LLVM), so the tuner can use it on a GPU machine.
#pragma once

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

struct ManifestParam {
  std::string name, type, kind, role;  // kind: array | scalar; role (scalars): size | value
  bool boundsOnly = false;             // a size that bounds loops but sizes no array
  // The largest value a size may take: its loops index a dimension of constant extent.
  long long atMost = std::numeric_limits<long long>::max();
  bool isConst = false, read = false, written = false;
  std::vector<std::string> dims;
  std::string elements;                // C expression over the scalar parameters
  // An integer array whose values index other arrays ("index_values"): each value below the
  // least of `valuesBelow`; or offsets, non-decreasing up to the least of `offsetsUpTo`.
  std::vector<std::string> valuesBelow, offsetsUpTo;
  bool isOffsets() const { return !offsetsUpTo.empty(); }
  const std::vector<std::string> &indexLimits() const {  // empty: not an index array
    return isOffsets() ? offsetsUpTo : valuesBelow;
  }
  bool isArray() const { return kind == "array"; }
  bool isFloat() const { return type == "float" || type == "double"; }
};

struct ManifestTuning {
  std::string name, macro;
  std::vector<int> values;
  int defaultValue = 0;
};

// An alternative instantiation of a kernel, chosen at launch (RegisterTiling's small-grid
// tiles): the launch runs it whenever `selectMacro` is `selectValue` (0: never), so verify and the
// tuner check it by setting that macro. Its grid and threads are over its own macros (`point`).
struct ManifestAlternative {
  std::string name, selectMacro;
  // The launch's rule that takes it (`rule`): "small_grid" (RegisterTiling's tiles, where the
  // grid leaves SMs idle) or "index_width" (a kernel's 64-bit instantiation, where the counts
  // pass 2^31 - 1: docs/passes/LoopCollapse.md#index-width).
  std::string rule = "small_grid";
  int selectValue = 0;
  std::vector<std::string> gridIterations, gridPerBlock;
  std::vector<long long> gridMaxBlocks;
  std::string blockThreads;
  std::vector<std::pair<std::string, int>> point;  // macro, value
  // Split k (RegisterTiling): the macro of the header its grid[1] (the chunks) reads,
  // <NAME>_SPLIT_K; empty where it is not split.
  std::string splitMacro;
};

// A host loop around an outlined kernel's launch (`host_loops`, outermost first): its
// variable, and its bounds as C expressions over the function's sizes and outer loops'
// variables; `end` is exclusive (with a negative step, the loop runs while var > end).
struct ManifestHostLoop {
  std::string var, type, min, end;
  long long step = 1;
};

struct ManifestKernel {
  std::string name, location, paramsHeader, launchFunction, macroPrefix;
  std::vector<ManifestParam> params;
  std::vector<std::string> gridIterations;
  std::vector<ManifestTuning> tuning;
  std::vector<std::string> passes, remarks;
  // An outlined kernel: the host loops around its launch, and whether an if or a while inside
  // them decides whether it is launched (`host_conditional`).
  std::vector<ManifestHostLoop> hostLoops;
  bool hostConditional = false;
  // Alternative instantiations (for an outlined function: those of its kernels).
  std::vector<ManifestAlternative> alternatives;
  // Which small-grid alternative the launch runs (`launch_choice`, the expression launch.cuh's
  // rtcuda_<name>_launched_alternative returns): -1 the kernel, i its i-th small_grid
  // alternative; over the sizes, the tuning macros, <NAME>_SMALL_GRID and rtcuda_sms (SMs).
  // Required with small_grid alternatives.
  std::string launchChoice;
  // An outlined function's kernels (`outlined_kernels`; empty for a kernel).
  std::vector<ManifestKernel> outlined;
};

struct Manifest {
  std::string dir;                     // the output folder
  std::vector<std::string> kernelSources, referenceSources;
  std::string main, memory, arch;
  // How main.cu, the references and the extra C sources compile: -I folders and extra sources
  // relative to the output folder, -D definitions (NAME or NAME=VALUE).
  std::vector<std::string> includeDirs, defines, extraSources;
  std::vector<ManifestKernel> kernels;
  // Outlined functions (several kernels and a host function): verified as a whole through
  // their host function, not tuned as one kernel.
  std::vector<ManifestKernel> functions;
  // What verify checks against a C function: the kernels, then the outlined functions.
  std::vector<ManifestKernel> verified() const {
    std::vector<ManifestKernel> all = kernels;
    all.insert(all.end(), functions.begin(), functions.end());
    return all;
  }
};

class ManifestError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// [A-Za-z_][A-Za-z0-9_]*: what may name a kernel, parameter, function or macro.
bool isCIdentifier(const std::string &s);

// Reads <outDir>/manifest.json (every value that reaches generated code or a command line
// checked: identifiers, types, relative paths, call-free expressions); throws ManifestError naming the file and the problem.
Manifest readManifest(const std::string &outDir);

}  // namespace rtcuda
