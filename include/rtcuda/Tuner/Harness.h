// The measurement side of rtcuda-tune: the harness program it generates and builds for an
// output folder (host C++ only: kernels are compiled at run time with NVRTC), and the loop that
// runs it as a child process per kernel, reads one result per variant, kills it on a timeout
// and starts it again after a crash, so that no bad variant stops the tuning.
#pragma once

#include "rtcuda/Tuner/Cache.h"
#include "rtcuda/Tuner/Device.h"
#include "rtcuda/Tuner/Space.h"

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace rtcuda::tune {

struct HarnessToolchain {
  std::string cc = "cc", cxx = "c++";
  std::string cudaInclude, cudaLib;   // the toolkit's include and library folders
};
// The build's toolkit, or the one under `cudaPath` ($CUDA_PATH, /usr/local/cuda) when given.
HarnessToolchain defaultToolchain(const std::string &cudaPath);

// The generated part: the reference functions' glue and main().
std::string harnessSource(const Manifest &m);
// Writes the harness sources into `workDir` and builds <workDir>/harness (again only when
// its sources changed). Returns false with the compiler's messages in `error`.
bool buildHarness(const Manifest &m, const HarnessToolchain &tools, const std::string &workDir,
                  std::string *exe, std::string *error);
// Runs `<exe> --device-info`: the device's limits, and the driver/NVRTC versions.
bool queryDevice(const std::string &exe, DeviceLimits *device, std::string *toolkit,
                 std::string *error);

struct VariantLaunch {
  std::string id;
  Geometry geo;                          // at the target size (timed)
  std::map<std::string, long long> defines;
  Geometry checkGeo;                     // at the checking size (compared with the reference)
  std::string cubin, lowered;            // compiled by rtcuda-tune (empty: the harness compiles)
  // A kernel in host loops: the launch at each binding of MeasureJob's samples (checkSamples),
  // in their order; empty otherwise (geo and checkGeo are the only launch).
  std::vector<Geometry> sampleGeo, checkSampleGeo;
  std::string kernel;                    // the __global__ function when not the job's kernel
};

struct MeasureJob {
  const TuneKernel *kernel = nullptr;
  std::string outDir, jobPath, refCache;
  std::map<std::string, long long> sizes;       // the target size: every variant is timed here
  std::map<std::string, long long> checkSizes;  // every variant is checked here (empty: sizes)
  // A kernel that reads host loop variables: their values at each binding it is timed at (a
  // timed run launches it at each in turn) and checked at (each checked on its own).
  std::vector<std::map<std::string, long long>> samples, checkSamples;
  std::vector<VariantLaunch> variants;
  // The default point, run first when `crossCheck` (each variant's first run at the target size
  // must equal its output) or `selfReference` (no C function: an outlined kernel, whose
  // default point's output at the checking size is the reference). Empty id: none.
  VariantLaunch baseline;
  bool crossCheck = false, selfReference = false;
  double cutoffUs = 0;          // a first target run slower than this is not timed further
  int reps = 20, warmup = 2;
  bool flush = true;
  unsigned seed = 1;
  double timeout = 30;          // per variant: compile, check and time
  double setupTimeout = 600;    // inputs and the reference before the first variant
  // The kernel's time limit (--kernel-seconds): past it the child is killed and nothing more is
  // measured; the variant in progress gets no result.
  std::chrono::steady_clock::time_point stopAt = std::chrono::steady_clock::time_point::max();
};

// Measures every variant of `job`, calling `started` when one begins and `done` with its
// result. Returns false when `*stop` became true or `job.stopAt` passed (the child is killed,
// nothing is lost: every result was reported through `done`).
bool runMeasurements(const std::string &exe, const MeasureJob &job, const volatile bool *stop,
                     const std::function<void(const std::string &)> &started,
                     const std::function<void(const std::string &, const Measurement &)> &done);

}  // namespace rtcuda::tune
