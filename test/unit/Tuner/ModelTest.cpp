// Expressions, launch geometry, the wave model, tuning spaces and problem sizes.
#include "rtcuda/Tuner/Expr.h"
#include "rtcuda/Tuner/Model.h"
#include "rtcuda/Tuner/Space.h"

#include <gtest/gtest.h>

using namespace rtcuda::tune;

namespace {

const std::string planted = std::string(RTCUDA_TUNER_TEST_DATA) + "/planted";

TuneKernel plantedKernel() {
  rtcuda::Manifest m = rtcuda::readManifest(planted);
  return loadKernels(m).at(0);
}

Prediction modelOf(const DeviceLimits &d, const TuneKernel &k, long long n, int bs, int regs = 16) {
  Geometry g = geometry(k, {{"n", n}}, {bs});
  OccupancyQuery q;
  q.blockSize = int(g.threads);
  q.regsPerThread = regs;
  return predict(d, computeOccupancy(d, q), g, false);
}

}  // namespace

TEST(Expr, EvaluatesManifestExpressions) {
  std::map<std::string, long long> n = {{"N", 100}, {"M", 7}, {"B", 32}};
  EXPECT_EQ(evalExpr("N * N", n), 10000);
  EXPECT_EQ(evalExpr("(N - 16) * (N - 16)", n), 7056);
  EXPECT_EQ(evalExpr("(long long)N * (long long)M", n), 700);
  EXPECT_EQ(evalExpr("N / B + (N % B != 0)", n), 4);
  EXPECT_EQ(evalExpr("rtcuda_ceil_div(N, B)", n), 4);
  EXPECT_EQ(evalExpr("N > M ? N << 1 : M", n), 200);
  EXPECT_EQ(evalExpr("-M + 3 * (2 + 1)", n), 2);
  EXPECT_EQ(evalExpr("0x10 + 10L", n), 26);
  EXPECT_EQ(evalExpr("N >= 100 && M < 7 || 1", n), 1);
  EXPECT_EQ(evalExpr("3000000000 * 2", n), 6000000000LL);  // 64-bit, as the launch code
  EXPECT_THROW(evalExpr("N / (M - 7)", n), ExprError);
  EXPECT_THROW(evalExpr("K + 1", n), ExprError);
  EXPECT_THROW(evalExpr("N +", n), ExprError);
  EXPECT_THROW(evalExpr("", n), ExprError);
}

TEST(Space, ReadsKernelsSpacesAndSizes) {
  rtcuda::Manifest m = rtcuda::readManifest(planted);
  std::vector<TuneKernel> ks = loadKernels(m);
  ASSERT_EQ(ks.size(), 1u);
  const TuneKernel &k = ks[0];
  EXPECT_EQ(k.blockThreads, "PLANTED_BLOCKSIZE");
  ASSERT_EQ(k.grid.size(), 1u);
  EXPECT_EQ(k.grid[0].perBlock, "PLANTED_BLOCKSIZE");
  EXPECT_EQ(k.dataType, "float");
  std::vector<Variant> space = enumerateSpace(k);
  ASSERT_EQ(space.size(), 6u);
  EXPECT_EQ(variantId(k, space[1]), "BLOCKSIZE=64");
  EXPECT_EQ(variantId(k, defaultVariant(k)), "BLOCKSIZE=256");
  EXPECT_EQ(macroValues(k, space[0]).at("PLANTED_BLOCKSIZE"), 32);

  Geometry g = geometry(k, {{"n", 1000}}, {96});
  EXPECT_EQ(g.threads, 96);
  EXPECT_EQ(g.blocks[0], 11);
  EXPECT_EQ(g.blocks[1], 1);

  std::map<std::string, std::string> origin;
  auto sizes = chooseSizes(m, k, {}, &origin);
  EXPECT_EQ(sizes.at("n"), 1000000);  // main.c's default
  EXPECT_EQ(origin.at("n"), "main.c");
  sizes = chooseSizes(m, k, {{"n", 4096}}, &origin);
  EXPECT_EQ(sizes.at("n"), 4096);
  EXPECT_EQ(origin.at("n"), "--size");
  EXPECT_EQ(sizesId({{"N", 2}, {"M", 3}}), "M=3,N=2");
}

TEST(Space, GenericOverParameterNames) {
  TuneKernel k = plantedKernel();
  k.k.tuning.push_back({"MERGE_LEVEL", "PLANTED_MERGE_LEVEL", {1, 2, 4}, 1});
  k.grid[0].perBlock = "PLANTED_BLOCKSIZE * PLANTED_MERGE_LEVEL";
  std::vector<Variant> space = enumerateSpace(k);
  ASSERT_EQ(space.size(), 18u);
  EXPECT_EQ(variantId(k, space[4]), "BLOCKSIZE=64,MERGE_LEVEL=2");
  Geometry g = geometry(k, {{"n", 1000}}, space[4]);
  EXPECT_EQ(g.threads, 64);
  EXPECT_EQ(g.perBlock[0], 128);
  EXPECT_EQ(g.blocks[0], 8);
}

TEST(Space, DefaultSizeWhenMainIsSilent) {
  rtcuda::Manifest m = rtcuda::readManifest(planted);
  m.dir = "/nonexistent";  // no main.c to read
  std::map<std::string, std::string> origin;
  auto sizes = chooseSizes(m, plantedKernel(), {}, &origin);
  EXPECT_EQ(sizes.at("n"), 1 << 22);
  EXPECT_EQ(origin.at("n"), "default");
}

TEST(Model, FullOccupancyBeatsHalf) {
  DeviceLimits h100 = *offlineDevice("sm_90");
  TuneKernel k = plantedKernel();
  // Same block size; 64 registers halve the resident warps.
  EXPECT_LT(modelOf(h100, k, 1 << 24, 256, 32).units, modelOf(h100, k, 1 << 24, 256, 64).units);
}

TEST(Model, PartialLastWaveCosts) {
  DeviceLimits h100 = *offlineDevice("sm_90");
  TuneKernel k = plantedKernel();
  // 1024-thread blocks, 2 per SM: 264 blocks fill exactly one wave; 274 need a second one.
  Prediction full = modelOf(h100, k, 264LL * 1024, 1024);
  Prediction over = modelOf(h100, k, 274LL * 1024, 1024);
  EXPECT_NEAR(full.waves, 1.0, 1e-9);
  EXPECT_NEAR(full.lastWaveFill, 1.0, 1e-9);
  EXPECT_GT(over.spread, full.spread * 1.2);
  EXPECT_GT(over.bucket, over.spread);  // buckets: the pessimistic end
  EXPECT_LE(over.optimistic, over.spread);
}

TEST(Model, SmallGridsPreferSmallBlocks) {
  DeviceLimits h100 = *offlineDevice("sm_90");
  TuneKernel k = plantedKernel();
  // 4096 threads: 32-thread blocks use 128 SMs, 1024-thread blocks only 4.
  EXPECT_LT(modelOf(h100, k, 4096, 32).units, modelOf(h100, k, 4096, 1024).units);
}

TEST(Model, IdleThreadsOfTheLastBlock) {
  DeviceLimits h100 = *offlineDevice("sm_90");
  TuneKernel k = plantedKernel();
  Prediction p = modelOf(h100, k, 1000, 1024);
  EXPECT_NEAR(p.activeThreadFraction, 1000.0 / 1024, 1e-9);
}
