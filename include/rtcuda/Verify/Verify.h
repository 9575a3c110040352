// Running generated CUDA without a GPU: `rtcuda verify` compares every kernel with the
// sequential C it came from, under the CPU emulation shim; `rtcuda run` builds and runs the
// whole program there.
#pragma once

#include "rtcuda/Support/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda {

// Where the emulation shim and the CPU RT-API are (set by the driver from the build).
struct EmulationToolchain {
  std::string cc = "cc", cxx = "c++";
  std::string emuInclude, verifyInclude;
  std::string emuAsanLib, emuTsanLib;
  std::vector<std::string> rtapiCpuLibs;  // linked when main.cu uses the RT-API
};

struct VerifyOptions {
  std::vector<long long> sizeBases = {1, 31, 33, 100};
  std::map<std::string, long long> sizes;   // --size NAME=VALUE
  std::map<std::string, int> point;         // --point NAME=VALUE
  unsigned seed = 0;
  bool seedGiven = false;
  size_t maxPointsPerKernel = 12;           // >= 1; extremes and default included (>= 3)
  bool raceCheck = true;                    // second run under ThreadSanitizer
  bool keep = false;                        // keep the build folder
  double tolerance = 1;                     // --tolerance: factor on the floating-point bound
};

// The C++ source of a harness that checks every kernel of `m` (exposed for tests).
std::string verifyHarness(const Manifest &m, const VerifyOptions &options);
// The points of a kernel's tuning space verify covers: every combination when there are at
// most `cap`; else, for a cap of 1, the default point; of 2, the first and last (each
// parameter's smallest and largest values); of 3 or more, an even spread of cap points from
// the first to the last, the default point in the second place where the spread misses it.
std::vector<std::map<std::string, int>> verifyPoints(const ManifestKernel &k, size_t cap);

// The size base the ThreadSanitizer pass runs at: the largest of `bases` up to 31, else the
// smallest (31 when there are none).
long long raceCheckBase(const std::vector<long long> &bases);

int verifyOutput(const std::string &outDir, const VerifyOptions &options,
                 const EmulationToolchain &tools);
int runOutput(const std::string &outDir, const std::vector<std::string> &args,
              const EmulationToolchain &tools);

}  // namespace rtcuda
