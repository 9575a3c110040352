// The offline device table and the per-architecture allocation constants. Values are those of
// the CUDA programming guide's compute-capability tables and of cudaDeviceProp on the example
// GPU named in each row (SM count, L2 and bandwidth are that GPU's: other GPUs of the same
// compute capability differ only there).
#include "rtcuda/Tuner/Device.h"

#include <cctype>

namespace rtcuda::tune {

int regAllocationUnit(const DeviceLimits &) { return 256; }

int maxRegsPerThread(const DeviceLimits &d) { return d.major >= 7 ? 256 : 255; }

int smemAllocationUnit(const DeviceLimits &d) { return d.major >= 8 ? 128 : 256; }

int subPartitionsPerSM(const DeviceLimits &d) {
  if (d.major == 6 && d.minor == 0) return 2;  // GP100 has two register banks per SM
  return 4;
}

std::vector<long long> smemCarveoutSteps(const DeviceLimits &d) {
  std::vector<int> kb;
  if (d.major == 7 && d.minor == 5) kb = {32, 64};
  else if (d.major == 7) kb = {0, 8, 16, 32, 64, 96};
  else if (d.major == 8 && (d.minor == 0 || d.minor == 7)) kb = {0, 8, 16, 32, 64, 100, 132, 164};
  else if (d.major == 8 || d.major >= 12) kb = {0, 8, 16, 32, 64, 100};
  else if (d.major >= 9) kb = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  std::vector<long long> bytes;
  for (int k : kb) bytes.push_back(k * 1024LL);
  return bytes;
}

namespace {

DeviceLimits row(const char *name, int major, int minor, int sms, int threadsPerSM,
                 int blocksPerSM, int regsPerBlock, long long smemPerSMKB, long long optinBytes,
                 long long reserved, long long l2KB, double bandwidth) {
  DeviceLimits d;
  d.name = name;
  d.major = major;
  d.minor = minor;
  d.smCount = sms;
  d.maxThreadsPerSM = threadsPerSM;
  d.maxBlocksPerSM = blocksPerSM;
  d.regsPerBlock = regsPerBlock;
  d.smemPerSM = smemPerSMKB * 1024;
  d.smemPerBlockOptin = optinBytes;
  d.reservedSmemPerBlock = reserved;
  d.l2Bytes = l2KB * 1024;
  d.memBandwidthGBs = bandwidth;
  return d;
}

}  // namespace

const std::vector<DeviceLimits> &offlineDevices() {
  static const std::vector<DeviceLimits> table = {
      //  example GPU               cc     SMs  thr/SM blk/SM regs/blk smem/SM opt-in  rsv   L2 KB  GB/s
      row("GeForce GTX 750 Ti",     5, 0,    5, 2048, 32, 65536,  64,  49152,      0,   2048,   86),
      row("GeForce GTX 980",        5, 2,   16, 2048, 32, 65536,  96,  49152,      0,   2048,  224),
      row("Jetson TX1",             5, 3,    2, 2048, 32, 32768,  64,  49152,      0,    256,   26),
      row("Tesla P100 SXM2",        6, 0,   56, 2048, 32, 65536,  64,  49152,      0,   4096,  732),
      row("GeForce GTX 1080",       6, 1,   20, 2048, 32, 65536,  96,  49152,      0,   2048,  320),
      row("Jetson TX2",             6, 2,    2, 2048, 32, 32768,  64,  49152,      0,    512,   60),
      row("Tesla V100 SXM2",        7, 0,   80, 2048, 32, 65536,  96,  98304,      0,   6144,  900),
      row("Jetson AGX Xavier",      7, 2,    8, 2048, 32, 65536,  96,  98304,      0,    512,  137),
      row("Tesla T4",               7, 5,   40, 1024, 16, 65536,  64,  65536,      0,   4096,  320),
      row("A100 SXM4",              8, 0,  108, 2048, 32, 65536, 164, 166912,   1024,  40960, 1555),
      row("GeForce RTX 3090",       8, 6,   82, 1536, 16, 65536, 100, 101376,   1024,   6144,  936),
      row("Jetson AGX Orin",        8, 7,   16, 1536, 16, 65536, 164, 166912,   1024,   4096,  205),
      row("GeForce RTX 4090",       8, 9,  128, 1536, 24, 65536, 100, 101376,   1024,  73728, 1008),
      row("H100 SXM5",              9, 0,  132, 2048, 32, 65536, 228, 232448,   1024,  51200, 3350),
      row("B200",                  10, 0,  148, 2048, 32, 65536, 228, 232448,   1024, 129024, 8000),
      row("GeForce RTX 5090",      12, 0,  170, 1536, 24, 65536, 100, 101376,   1024,  98304, 1792),
  };
  return table;
}

std::optional<DeviceLimits> offlineDevice(const std::string &arch) {
  std::string digits;
  for (char c : arch)
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  if (digits.size() < 2) return std::nullopt;
  int cc = std::stoi(digits);
  for (const DeviceLimits &d : offlineDevices())
    if (d.cc() == cc) return d;
  return std::nullopt;
}

nlohmann::json toJson(const DeviceLimits &d) {
  return {{"name", d.name},
          {"cc", std::to_string(d.major) + "." + std::to_string(d.minor)},
          {"sm_count", d.smCount},
          {"warp_size", d.warpSize},
          {"max_threads_per_block", d.maxThreadsPerBlock},
          {"max_threads_per_sm", d.maxThreadsPerSM},
          {"max_blocks_per_sm", d.maxBlocksPerSM},
          {"regs_per_sm", d.regsPerSM},
          {"regs_per_block", d.regsPerBlock},
          {"smem_per_sm", d.smemPerSM},
          {"smem_per_block", d.smemPerBlock},
          {"smem_per_block_optin", d.smemPerBlockOptin},
          {"reserved_smem_per_block", d.reservedSmemPerBlock},
          {"l2_bytes", d.l2Bytes},
          {"mem_bandwidth_gbs", d.memBandwidthGBs},
          {"offline", d.offline}};
}

DeviceLimits deviceFromJson(const nlohmann::json &j) {
  DeviceLimits d;
  d.name = j.value("name", "");
  std::string cc = j.value("cc", "0.0");
  d.major = std::stoi(cc.substr(0, cc.find('.')));
  d.minor = cc.find('.') == std::string::npos ? 0 : std::stoi(cc.substr(cc.find('.') + 1));
  d.smCount = j.value("sm_count", 0);
  d.warpSize = j.value("warp_size", 32);
  d.maxThreadsPerBlock = j.value("max_threads_per_block", 1024);
  d.maxThreadsPerSM = j.value("max_threads_per_sm", 2048);
  d.maxBlocksPerSM = j.value("max_blocks_per_sm", 32);
  d.regsPerSM = j.value("regs_per_sm", 65536);
  d.regsPerBlock = j.value("regs_per_block", 65536);
  d.smemPerSM = j.value("smem_per_sm", 0LL);
  d.smemPerBlock = j.value("smem_per_block", 49152LL);
  d.smemPerBlockOptin = j.value("smem_per_block_optin", d.smemPerBlock);
  d.reservedSmemPerBlock = j.value("reserved_smem_per_block", 0LL);
  d.l2Bytes = j.value("l2_bytes", 0LL);
  d.memBandwidthGBs = j.value("mem_bandwidth_gbs", 0.0);
  d.offline = j.value("offline", false);
  return d;
}

}  // namespace rtcuda::tune
