// rtcuda-tune: tune every kernel of an output folder (see docs/tuner.md).
#pragma once

#include "rtcuda/Tuner/Cache.h"
#include "rtcuda/Tuner/Device.h"
#include "rtcuda/Tuner/Model.h"
#include "rtcuda/Tuner/Occupancy.h"
#include "rtcuda/Tuner/Resources.h"
#include "rtcuda/Tuner/Space.h"
#include "rtcuda/Tuner/Strategy.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rtcuda::tune {

struct TuneOptions {
  std::string outDir;
  std::map<std::string, long long> sizes;   // --size NAME=VALUE: the target size (timed there)
  std::map<std::string, long long> checkSizes;  // --check-size NAME=VALUE (default: checkSizes())
  long long checkElements = 1 << 18;        // --check-elements: the checking size's largest array
  std::vector<std::string> kernels;         // --kernel NAME (all when empty)
  bool modelOnly = false;
  std::string arch;                         // --arch for --model-only (default: the manifest's)
  Strategy strategy = Strategy::Pruned;
  double fraction = 0.25;                   // pruned: share of the space that is timed
  size_t budget = 8;                        // budget: variants timed per kernel
  unsigned seed = 1;
  size_t maxVariants = 256;                 // larger spaces are sampled (0: never)
  int reps = 20, warmup = 2;
  double timeout = 30;                      // seconds per variant
  double kernelSeconds = 0;                 // measuring one kernel stops after this (0: never)
  bool flush = true;
  bool writeParams = true;                  // rewrite <kernel>_params.h with the pick
  std::string cachePath;                    // default <outDir>/tuning/cache.json
  std::string cudaPath;                     // toolkit root for the harness and nvcc
  int jobs = 0;                             // parallel compiles (0: one per core)
  ModelParams model;                        // --model: the ranking model's constants
  bool quiet = false;
  std::string harness;                      // a prebuilt harness (tests: a fake one); "" builds it
};

struct VariantRecord {
  Variant v;
  std::string id;
  Geometry geo;
  Resources res;
  Occupancy occ;
  Prediction pred;
  bool feasible = false;
  std::string excluded;                     // why it cannot run or cannot win
  int rank = 0;                             // 1 = best predicted; 0 = infeasible
  double predictedUs = 0;                   // units x the factor fitted to the measurements
  std::optional<Measurement> meas;          // from the last round it ran in
  bool cached = false;                      // the measurement came from the cache
  int round = -1;                           // the last round it ran in (-1: not timed)
  std::string cubin, lowered;               // its compiled code for the harness, if kept
  // The alternative instantiation the program's launch runs for this point at the target size
  // (launchedAlternative; empty: its own kernel): what the measurement times for it.
  std::string launch;
  std::string launchNote;                   // why `launch` is empty though it has alternatives
  // The point's 64-bit instantiation (<name>_wide_index), where the launch takes it at the target
  // size: timed at the point's own macros, compiled by the harness (the variants' own compiles
  // leave the alternatives out).
  std::string wideKernel;
};

// An alternative instantiation of a kernel (ManifestAlternative: the launch takes it by a rule,
// e.g. mm_small_grid), checked at the checking size and timed at the target size once per run.
struct AlternativeResult {
  std::string name, selectMacro;
  int selectValue = 0;
  Measurement meas;
};

struct KernelResult {
  const TuneKernel *kernel = nullptr;
  std::map<std::string, long long> sizes;
  std::map<std::string, std::string> sizeOrigin;
  std::vector<VariantRecord> variants;
  int chosen = -1, defaultIndex = -1;
  std::string chosenBy;                     // "measured", "model", or why the default stays
  std::string why;                          // the decision against the default point
  std::map<std::string, long long> checkSizes;  // where each variant is checked
  // The bindings of sizes and host loop variables it is timed and checked at (hostSamples:
  // {sizes} and {checkSizes} unless it reads a host loop's variable); the model uses the first.
  std::vector<std::map<std::string, long long>> samples, checkSamples;
  size_t timed = 0, fromCache = 0;
  size_t rounds = 0;                        // rounds of successive halving run
  double seconds = 0;                       // compile share and measurement of this kernel
  double compileSeconds = 0;                // its share of the parallel compile
  int occupancyDisagreements = 0;           // model vs the driver, on measured variants
  std::vector<AlternativeResult> alternatives;  // measured runs only
  int selector = 0;                         // the header's <NAME>_SMALL_GRID (selectorValue)
  std::map<std::string, long long> launchNames;  // rtcuda_sms, <NAME>_SPLIT_K (launchNames)
  // Each alternative's compiled code (cubin, symbol), from the one compile that has them: the
  // harness loads it instead of compiling kernel.cu again (rounds and checkAlternatives).
  std::map<std::string, std::pair<std::string, std::string>> alternativeCode;
};

struct TuneRun {
  TuneOptions options;
  DeviceLimits device;
  std::string toolkit, resourceCompiler;
  bool measured = false, interrupted = false;
  double seconds = 0;
  std::vector<KernelResult> kernels;
};

// Tunes the output folder; returns the process exit status (0 ok, 1 error, 130 interrupted).
int tuneOutput(const TuneOptions &options);

// Set by the SIGINT handler of rtcuda-tune; the tuner stops at the next variant boundary.
extern volatile bool tuneInterrupted;

}  // namespace rtcuda::tune
