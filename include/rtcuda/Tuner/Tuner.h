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
  std::map<std::string, long long> sizes;   // --size NAME=VALUE
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
  bool flush = true;
  bool writeParams = true;                  // rewrite <kernel>_params.h with the pick
  std::string cachePath;                    // default <outDir>/tuning/cache.json
  std::string cudaPath;                     // toolkit root for the harness and nvcc
  int jobs = 0;                             // parallel compiles (0: one per core)
  ModelParams model;                        // --model: the ranking model's constants
  bool quiet = false;
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
  std::optional<Measurement> meas;
  bool cached = false;                      // the measurement came from the cache
};

struct KernelResult {
  const TuneKernel *kernel = nullptr;
  std::map<std::string, long long> sizes;
  std::map<std::string, std::string> sizeOrigin;
  std::vector<VariantRecord> variants;
  int chosen = -1, defaultIndex = -1;
  std::string chosenBy;                     // "measured", "model", or why the default stays
  size_t timed = 0, fromCache = 0;
  int occupancyDisagreements = 0;           // model vs the driver, on measured variants
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
