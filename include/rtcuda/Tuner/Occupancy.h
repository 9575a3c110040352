// Occupancy: how many blocks of a kernel can be resident on one SM at a time. The calculation
// follows the CUDA occupancy rules step by step (warp slots, registers allocated per warp in
// units, shared memory allocated per block in units plus the driver's reserve, the per-SM block
// limit, the carve-out) so that it equals cudaOccupancyMaxActiveBlocksPerMultiprocessor;
// test/unit/Tuner checks that against values recorded on an H100.
#pragma once

#include "rtcuda/Tuner/Device.h"

#include <string>

namespace rtcuda::tune {

struct OccupancyQuery {
  int blockSize = 0;
  int regsPerThread = 0;
  long long staticSmem = 0;       // per block, from the compiler
  long long dynamicSmem = 0;      // per block, given at launch
  long long maxDynamicSmem = 0;   // cudaFuncAttributeMaxDynamicSharedMemorySize; > 0 opts in
                                  // to the larger per-block limit
  int carveoutPercent = -1;       // cudaFuncAttributePreferredSharedMemoryCarveout; -1: default
  int funcMaxThreadsPerBlock = 0; // the compiled kernel's limit (launch bounds); 0: none
  int barriers = 1;               // named barriers per block (cc >= 9.0 counts them)
};

struct Occupancy {
  int blocksPerSM = 0;
  int limitWarps = 0, limitRegs = 0, limitSmem = 0, limitBlocks = 0, limitBarriers = 0;
  int warpsPerBlock = 0, activeWarps = 0;
  double fraction = 0;            // active warps / the SM's warp slots
  long long smemAllocatedPerBlock = 0;
  int regsAllocatedPerBlock = 0;
  std::string limiter;            // "warps", "registers", "shared memory", "blocks", ...
  std::string infeasible;         // why no block fits, empty when one does
};

Occupancy computeOccupancy(const DeviceLimits &device, const OccupancyQuery &query);

}  // namespace rtcuda::tune
