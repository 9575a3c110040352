// The occupancy calculation against values recorded on an H100 with
// cudaOccupancyMaxActiveBlocksPerMultiprocessor (data/h100_occupancy.csv, written by
// bench/occupancy_probe.cu), against NVIDIA's header-only calculator for every device of the
// offline table (when the toolkit is installed), and on hand-checked cases.
#include "rtcuda/Tuner/Occupancy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifdef RTCUDA_TEST_HAVE_CUDA_OCCUPANCY
#include <cuda_occupancy.h>
#endif

using namespace rtcuda::tune;

namespace {

DeviceLimits device(const std::string &arch) {
  auto d = offlineDevice(arch);
  EXPECT_TRUE(d.has_value()) << arch;
  return d.value_or(DeviceLimits{});
}

struct Row {
  std::string kernel;
  OccupancyQuery q;
  int expected = 0;
  int line = 0;
};

std::vector<Row> readTable(const std::string &path, bool *provisional) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<Row> rows;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind("# PROVISIONAL", 0) == 0) *provisional = true;
    if (line.empty() || line[0] == '#' || line.rfind("kernel,", 0) == 0) continue;
    std::stringstream ss(line);
    std::string f[8];
    for (std::string &field : f) std::getline(ss, field, ',');
    Row r;
    r.kernel = f[0];
    r.q.blockSize = std::stoi(f[1]);
    r.q.regsPerThread = std::stoi(f[2]);
    r.q.staticSmem = std::stoll(f[3]);
    r.q.maxDynamicSmem = std::stoll(f[4]);
    r.q.dynamicSmem = std::stoll(f[5]);
    r.q.funcMaxThreadsPerBlock = std::stoi(f[6]);
    r.expected = std::stoi(f[7]);
    r.line = n;
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST(Occupancy, EqualsTheDriverOnH100) {
  // RTCUDA_OCCUPANCY_CSV: another recording (bench/tune_on_gpu.sh passes the one it just made).
  const char *other = std::getenv("RTCUDA_OCCUPANCY_CSV");
  bool provisional = false;
  std::vector<Row> rows = readTable(
      other ? other : std::string(RTCUDA_TUNER_TEST_DATA) + "/h100_occupancy.csv", &provisional);
  if (!provisional) {
    EXPECT_GE(rows.size(), 50u) << "the measured table must have >= 50 rows";
  }
  DeviceLimits h100 = device("sm_90");
  int checked = 0;
  for (const Row &r : rows) {
    if (r.expected < 0) continue;  // the driver refused the query: nothing to compare
    Occupancy o = computeOccupancy(h100, r.q);
    EXPECT_EQ(o.blocksPerSM, r.expected)
        << "line " << r.line << ": " << r.kernel << " block " << r.q.blockSize << ", "
        << r.q.regsPerThread << " regs, static " << r.q.staticSmem << ", dynamic "
        << r.q.dynamicSmem << " (limit " << r.q.maxDynamicSmem << "); limiter " << o.limiter;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(Occupancy, HandCheckedCases) {
  DeviceLimits h100 = device("sm_90");
  OccupancyQuery q;
  q.blockSize = 256, q.regsPerThread = 32;
  Occupancy o = computeOccupancy(h100, q);
  EXPECT_EQ(o.blocksPerSM, 8);
  EXPECT_DOUBLE_EQ(o.fraction, 1.0);
  EXPECT_EQ(o.smemAllocatedPerBlock, 1024);  // only the driver's reserve

  q.blockSize = 1025;  // over the per-block limit
  o = computeOccupancy(h100, q);
  EXPECT_EQ(o.blocksPerSM, 0);
  EXPECT_NE(o.infeasible.find("1024"), std::string::npos);

  q.blockSize = 1024, q.regsPerThread = 72;  // 72 x 1024 registers exceed the block's 64K
  o = computeOccupancy(h100, q);
  EXPECT_EQ(o.blocksPerSM, 0);
  EXPECT_NE(o.infeasible.find("register"), std::string::npos);

  q.blockSize = 128, q.regsPerThread = 16, q.dynamicSmem = 60000;  // over 48 KB, not opted in
  o = computeOccupancy(h100, q);
  EXPECT_EQ(o.blocksPerSM, 0);
  q.maxDynamicSmem = 100000;  // opted in: 61 KB + 1 KB per block, 228 KB per SM
  o = computeOccupancy(h100, q);
  EXPECT_EQ(o.blocksPerSM, 3);
  EXPECT_EQ(o.limiter, "shared memory");

  // Turing: 32 warps and 16 blocks per SM.
  DeviceLimits t4 = device("sm_75");
  q = OccupancyQuery{};
  q.blockSize = 32, q.regsPerThread = 16;
  EXPECT_EQ(computeOccupancy(t4, q).blocksPerSM, 16);
  q.blockSize = 1024;
  EXPECT_EQ(computeOccupancy(t4, q).blocksPerSM, 1);
  // Ampere GA10x: 48 warps per SM.
  DeviceLimits ga102 = device("sm_86");
  q.blockSize = 512;
  EXPECT_EQ(computeOccupancy(ga102, q).blocksPerSM, 3);
  // Maxwell: no reserve, 256-byte units.
  DeviceLimits gm204 = device("sm_52");
  q.blockSize = 128, q.dynamicSmem = 1000;
  o = computeOccupancy(gm204, q);
  EXPECT_EQ(o.smemAllocatedPerBlock, 1024);
  EXPECT_EQ(o.blocksPerSM, 16);
}

TEST(Occupancy, TableCoversCompute50To120) {
  for (const char *arch : {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
                           "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120"})
    EXPECT_TRUE(offlineDevice(arch).has_value()) << arch;
  EXPECT_TRUE(offlineDevice("9.0").has_value());
  EXPECT_TRUE(offlineDevice("compute_90").has_value());
  EXPECT_FALSE(offlineDevice("sm_35").has_value());
}

#ifdef RTCUDA_TEST_HAVE_CUDA_OCCUPANCY
// NVIDIA's calculator (cuda_occupancy.h) as a second opinion, on every device of the table and
// thousands of combinations, including carve-out preferences.
TEST(Occupancy, EqualsCudaOccupancyHeaderOnEveryArchitecture) {
  int compared = 0;
  for (const DeviceLimits &d : offlineDevices()) {
    cudaOccDeviceProp prop;
    prop.computeMajor = d.major;
    prop.computeMinor = d.minor;
    prop.maxThreadsPerBlock = d.maxThreadsPerBlock;
    prop.maxThreadsPerMultiprocessor = d.maxThreadsPerSM;
    prop.regsPerBlock = d.regsPerBlock;
    prop.regsPerMultiprocessor = d.regsPerSM;
    prop.warpSize = d.warpSize;
    prop.sharedMemPerBlock = size_t(d.smemPerBlock);
    prop.sharedMemPerMultiprocessor = size_t(d.smemPerSM);
    prop.numSms = d.smCount;
    prop.sharedMemPerBlockOptin = size_t(d.smemPerBlockOptin);
    prop.reservedSharedMemPerBlock = size_t(d.reservedSmemPerBlock);
    for (int bs : {32, 64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024})
      for (int regs : {0, 8, 16, 24, 32, 40, 48, 64, 80, 96, 128, 168, 200, 255})
        for (long long smem : {0LL, 1000LL, 4096LL, 12000LL, 30000LL, 47000LL})
          for (long long dyn : {0LL, 512LL, 8192LL, 20000LL, 60000LL})
            for (int carveout : {-1, 0, 50, 100}) {
              if (carveout >= 0 && d.major < 7) continue;
              cudaOccFuncAttributes attr;
              attr.maxThreadsPerBlock = 1024;
              attr.numRegs = regs;
              attr.sharedSizeBytes = size_t(smem);
              attr.partitionedGCConfig = PARTITIONED_GC_OFF;
              attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
              attr.maxDynamicSharedSizeBytes = size_t(std::max(0LL, d.smemPerBlockOptin - smem));
              attr.numBlockBarriers = 1;
              cudaOccDeviceState state;
              state.carveoutConfig = carveout;
              cudaOccResult result;
              if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &prop, &attr, &state, bs,
                                                          size_t(dyn)) != CUDA_OCC_SUCCESS)
                continue;
              OccupancyQuery q;
              q.blockSize = bs;
              q.regsPerThread = regs;
              q.staticSmem = smem;
              q.dynamicSmem = dyn;
              q.maxDynamicSmem = std::max(0LL, d.smemPerBlockOptin - smem);
              q.carveoutPercent = carveout;
              Occupancy o = computeOccupancy(d, q);
              ASSERT_EQ(o.blocksPerSM, result.activeBlocksPerMultiprocessor)
                  << d.arch() << " block " << bs << " regs " << regs << " static " << smem
                  << " dynamic " << dyn << " carveout " << carveout;
              ++compared;
            }
  }
  EXPECT_GT(compared, 50000);
}
#endif
