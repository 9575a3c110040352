// What the tuner knows about a GPU: the limits the occupancy calculation needs, read from the
// device when there is one, or taken from an offline table (compute capability 5.0 to 12.0)
// when there is none (`--model-only`, CI).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rtcuda::tune {

struct DeviceLimits {
  std::string name;                 // "NVIDIA H100 80GB HBM3", or the table's example GPU
  int major = 0, minor = 0;
  int smCount = 0, warpSize = 32;
  int maxThreadsPerBlock = 1024, maxThreadsPerSM = 2048, maxBlocksPerSM = 32;
  int regsPerSM = 65536, regsPerBlock = 65536;
  long long smemPerSM = 0, smemPerBlock = 49152, smemPerBlockOptin = 49152;
  long long reservedSmemPerBlock = 0;  // taken by the driver from every block (cc >= 8.0)
  long long l2Bytes = 0;
  double memBandwidthGBs = 0;       // for the model's memory floor; 0 = unknown
  bool offline = true;              // from the table, not from a device

  int cc() const { return major * 10 + minor; }
  std::string arch() const { return "sm_" + std::to_string(cc()); }
  int maxWarpsPerSM() const { return maxThreadsPerSM / warpSize; }
};

// Architectural constants the CUDA API does not report; they follow from the compute capability.
int regAllocationUnit(const DeviceLimits &d);      // registers are given to warps in these units
int maxRegsPerThread(const DeviceLimits &d);
int smemAllocationUnit(const DeviceLimits &d);     // shared memory is given to blocks in these
int subPartitionsPerSM(const DeviceLimits &d);     // register file banks (warp schedulers)
// Shared-memory sizes an SM can be configured to on cc >= 7.0 (the carve-out steps), in bytes.
std::vector<long long> smemCarveoutSteps(const DeviceLimits &d);

// The offline table: one representative GPU per compute capability.
const std::vector<DeviceLimits> &offlineDevices();
// "sm_90", "90", "9.0", "compute_90": the table's entry, or nothing if the table has none.
std::optional<DeviceLimits> offlineDevice(const std::string &arch);

nlohmann::json toJson(const DeviceLimits &d);
DeviceLimits deviceFromJson(const nlohmann::json &j);

}  // namespace rtcuda::tune
