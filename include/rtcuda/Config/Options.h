// Validated translation options, produced from a YAML config or a legacy RT-CUDA config.txt.
//
// Every field has one meaning whatever file format it came from; docs/config.md documents the
// YAML keys and how each legacy key maps onto these fields.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rtcuda {

// An inclusive integer range a tuning parameter is searched over.
struct TuningRange {
  int min = 1;
  int max = 1;
  bool operator==(const TuningRange &o) const { return min == o.min && max == o.max; }
};

// Options of one kernel (one C function turned into a __global__ function).
struct KernelOptions {
  std::string name;              // the C function's name
  std::string configFile;        // where these options were read (for diagnostics; the path
                                 // as the user reached it, so messages match the config's own)
  int configLine = 0;            // line of the kernel's entry in that file, 0 if unknown

  // How many outer loops of the nest are mapped onto the GPU: 0 = decide from the source
  // (the loops whose variables index every store), 1 or more = exactly that many.
  int parallelLoops = 0;
  // What to do with a loop the dependence analysis finds carries a dependence (docs/legality.md):
  // "refuse" (an error naming the statement) or "sequential" (the loop stays serial, with a
  // warning; if no loop is left to parallelize, the whole nest runs in one thread) or "host"
  // (a function in which no loop can run in parallel stays C on the host, with a warning at
  // each loop; one with parallel loops is outlined as under "refuse").
  std::string onDependence = "refuse";
  // The user's assertion that loops are parallel, overriding the analysis (with a warning):
  // every loop of the nest when assumeParallelAll, else the loops with these variables.
  bool assumeParallelAll = false;
  std::vector<std::string> assumeParallel;
  bool collapse = true;          // fuse the parallel loops into one index (LOOP_COLLAPSING)
  bool merge = false;            // BlockMerge: MERGE_LEVEL results per thread along rows
  bool skew = false;             // BlockSkew: SKEW_LEVEL results per thread along columns
  std::vector<std::string> prefetch;     // arrays staged in shared memory (PREFETCHED_ARRAYS)
  std::vector<std::string> noPrefetch;   // arrays never staged (NON_PREFETCHED_ARRAYS)
  // The config wrote none of merge, skew, prefetch (nor their levels): the analysis may choose
  // them (a contraction gets RegisterTiling's mapping, docs/passes/RegisterTiling.md).
  bool autoMapping = false;

  // Legacy dialect: the row width of 1-D pointer parameters indexed with two subscripts
  // (ROW_DIM), a C expression over the kernel's scalar parameters. Empty = not given.
  std::string rowDim;
  // Expected element type of the kernel's arrays (DATA_TYPE); empty = take it from the source.
  // A value that contradicts the source is an error, never silently ignored.
  std::string dataType;
  // Legacy 2DMATRIX key: true/false when given, unset otherwise. Implies parallelLoops 2 or 1
  // when parallelLoops is 0.
  std::optional<bool> matrix2D;

  // Tuning ranges. blockSize values are threads per block and are searched in multiples of 32;
  // max 0 means "the device maximum" (1024 on every supported GPU).
  TuningRange blockSize{32, 1024};
  TuningRange mergeLevel{1, 1};
  TuningRange skewLevel{1, 1};
  TuningRange tileK{8, 32};      // SharedPrefetch tile depth
  // Default point used when no tuning has happened yet (0 = derived from the ranges).
  int defaultBlockSize = 0;
};

// Options of one translation (one program: kernel files + main file).
struct Options {
  std::string configPath;                  // the config file given on the command line (absolute)
  bool legacy = false;                     // read from config.txt / global.txt
  std::vector<std::string> kernelFiles;    // C files holding kernel functions (absolute paths)
  std::string mainFile;                    // the host program (absolute path); empty = none;
                                           // may also be a kernel file (a single-source program)
  // How the sources are compiled (docs/config.md): -I folders (absolute), -D definitions
  // (NAME or NAME=VALUE), and extra C files built into the output program, `rtcuda run` and
  // verify's reference (PolyBench's utilities/polybench.c), absolute paths.
  std::vector<std::string> includeDirs;
  std::vector<std::string> defines;
  std::vector<std::string> extraSources;
  std::vector<KernelOptions> kernels;      // kernels named by the config, in order
  KernelOptions defaults;                  // applied to kernels found via `#pragma rtcuda kernel`
  std::string memory = "explicit";         // "explicit" (cudaMalloc + copies) or "managed"
  std::string arch = "sm_90";              // default CUDA architecture of the output CMakeLists
  int deviceMaxBlockSize = 1024;           // threads per block of the target devices

  // From the command line, not the config: arguments for Clang when it parses the kernel files
  // and main.c (-I, -D, -U, -std, and everything after `--`), after rtcuda's own so that they
  // win; and a folder holding a compile_commands.json (-p), whose entry for each parsed file adds
  // that file's -I, -D, -U, -include and -std flags.
  std::vector<std::string> clangArgs;
  std::string compileCommandsDir;
};

// A config problem: the message already names the file, line, key and value where known,
// formatted like "config.txt:3: error: unknown key 'LOOP_COLAPSING'".
class ConfigError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Reads a YAML config (.yaml/.yml), a legacy config.txt, or a legacy global.txt, chosen by the
// file name and content. Relative source paths resolve against the config's folder.
// Throws ConfigError on any problem.
Options loadConfig(const std::string &path);

// The config's include_dirs and defines with the command line's -I and -D: what the output's
// builds (CMakeLists.txt, rtcuda run, verify's reference) and the host check use.
std::vector<std::string> programIncludeDirs(const Options &options);
std::vector<std::string> programDefines(const Options &options);

}  // namespace rtcuda
