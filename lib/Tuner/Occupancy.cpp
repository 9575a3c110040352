// Occupancy per SM, limit by limit. Each limit is the number of blocks that fit if only that
// resource counted; the answer is the smallest. See Occupancy.h.
#include "rtcuda/Tuner/Occupancy.h"

#include <algorithm>
#include <climits>

namespace rtcuda::tune {

namespace {

long long roundUp(long long x, long long unit) { return unit ? (x + unit - 1) / unit * unit : x; }

// Blocks allowed by the register file. Registers go to warps, rounded up to the allocation
// unit, from one of the SM's sub-partitions each; a block must also fit the per-block limit,
// which the hardware checks as if its warps were spread over all sub-partitions.
int registerLimit(const DeviceLimits &d, int regsPerThread, int warpsPerBlock, int subPartitions,
                  int *regsPerBlockAllocated) {
  int perWarp = static_cast<int>(roundUp(1LL * regsPerThread * d.warpSize, regAllocationUnit(d)));
  *regsPerBlockAllocated = perWarp * warpsPerBlock;
  int assumedPerBlock = perWarp * static_cast<int>(roundUp(warpsPerBlock, subPartitions));
  if (regsPerThread > maxRegsPerThread(d) || assumedPerBlock > d.regsPerBlock ||
      *regsPerBlockAllocated > d.regsPerBlock)
    return 0;
  if (perWarp == 0) return INT_MAX;
  int warpsPerSubPartition = (d.regsPerSM / subPartitions) / perWarp;
  return warpsPerSubPartition * subPartitions / warpsPerBlock;
}

// The shared memory an SM gives to blocks: the carve-out preference, unless a single block needs
// more, in which case (cc >= 7.0) the next carve-out step that holds it.
long long smemPerSM(const DeviceLimits &d, int carveoutPercent, long long perBlock) {
  if (d.major < 7) return d.smemPerSM;
  auto steps = smemCarveoutSteps(d);
  auto alignUp = [&](long long bytes) {
    for (long long s : steps)
      if (bytes <= s) return s;
    return steps.empty() ? bytes : steps.back();
  };
  long long preferred =
      carveoutPercent < 0 ? d.smemPerSM : alignUp(carveoutPercent * d.smemPerSM / 100);
  if (carveoutPercent < 0) preferred = alignUp(preferred);
  return preferred >= perBlock ? preferred : alignUp(perBlock);
}

}  // namespace

Occupancy computeOccupancy(const DeviceLimits &d, const OccupancyQuery &q) {
  Occupancy o;
  if (q.blockSize <= 0 || d.warpSize <= 0) {
    o.infeasible = "block size must be positive";
    return o;
  }
  o.warpsPerBlock = (q.blockSize + d.warpSize - 1) / d.warpSize;

  // Warp slots.
  o.limitWarps = q.blockSize > d.maxThreadsPerBlock ? 0 : d.maxWarpsPerSM() / o.warpsPerBlock;
  if (q.funcMaxThreadsPerBlock > 0 && q.blockSize > q.funcMaxThreadsPerBlock) o.limitWarps = 0;

  // Registers (GP100: a block that would not fit a GP10x SM is refused on every Pascal).
  o.limitRegs = registerLimit(d, q.regsPerThread, o.warpsPerBlock, subPartitionsPerSM(d),
                              &o.regsAllocatedPerBlock);
  if (d.major == 6 && d.minor == 0 && o.limitRegs) {
    int ignored;
    if (!registerLimit(d, q.regsPerThread, o.warpsPerBlock, 4, &ignored)) o.limitRegs = 0;
  }

  // Blocks per SM.
  o.limitBlocks = d.maxBlocksPerSM;

  // Shared memory: static + dynamic + the driver's reserve, rounded up to the unit.
  long long staticPart = q.staticSmem + d.reservedSmemPerBlock;
  o.smemAllocatedPerBlock = roundUp(staticPart + q.dynamicSmem, smemAllocationUnit(d));
  bool optIn = q.maxDynamicSmem > 0;
  long long blockLimit = d.smemPerBlock;
  if (d.major >= 7 && optIn && staticPart + q.maxDynamicSmem > d.smemPerBlock)
    blockLimit = d.smemPerBlockOptin;
  if (d.major >= 8) blockLimit += d.reservedSmemPerBlock;
  if ((optIn && q.dynamicSmem > q.maxDynamicSmem) || o.smemAllocatedPerBlock > blockLimit) {
    o.limitSmem = 0;
  } else if (o.smemAllocatedPerBlock == 0) {
    o.limitSmem = INT_MAX;
  } else {
    o.limitSmem = static_cast<int>(smemPerSM(d, q.carveoutPercent, o.smemAllocatedPerBlock) /
                                   o.smemAllocatedPerBlock);
  }

  // Barriers: counted from Hopper on, two per block slot.
  o.limitBarriers = INT_MAX;
  if (d.major >= 9 && q.barriers > 0) o.limitBarriers = 2 * d.maxBlocksPerSM / q.barriers;

  o.blocksPerSM = std::min({o.limitWarps, o.limitRegs, o.limitBlocks, o.limitSmem, o.limitBarriers});
  struct Named { int value; const char *name; };
  for (Named n : {Named{o.limitWarps, "warps"}, Named{o.limitRegs, "registers"},
                  Named{o.limitSmem, "shared memory"}, Named{o.limitBlocks, "blocks"},
                  Named{o.limitBarriers, "barriers"}})
    if (n.value == o.blocksPerSM) o.limiter += (o.limiter.empty() ? "" : ", ") + std::string(n.name);
  o.activeWarps = o.blocksPerSM * o.warpsPerBlock;
  o.fraction = d.maxWarpsPerSM() ? double(o.activeWarps) / d.maxWarpsPerSM() : 0;

  if (o.blocksPerSM == 0) {
    if (o.limitWarps == 0)
      o.infeasible = "block of " + std::to_string(q.blockSize) + " threads exceeds the limit of " +
                     std::to_string(q.funcMaxThreadsPerBlock > 0
                                        ? std::min(q.funcMaxThreadsPerBlock, d.maxThreadsPerBlock)
                                        : d.maxThreadsPerBlock);
    else if (o.limitRegs == 0)
      o.infeasible = std::to_string(q.regsPerThread) + " registers per thread x " +
                     std::to_string(q.blockSize) + " threads exceed the register file";
    else if (o.limitSmem == 0)
      o.infeasible = std::to_string(o.smemAllocatedPerBlock) +
                     " bytes of shared memory per block exceed the limit of " +
                     std::to_string(blockLimit);
    else
      o.infeasible = "no block fits an SM";
  }
  return o;
}

}  // namespace rtcuda::tune
