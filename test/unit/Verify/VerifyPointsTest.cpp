// verifyPoints: the tuning points `rtcuda verify` checks, spread over the cross product of the
// tuning values without building it.
#include "rtcuda/Verify/Verify.h"

#include <gtest/gtest.h>

namespace rtcuda {
namespace {

ManifestKernel kernelWith(size_t params, int valuesEach) {
  ManifestKernel k;
  k.name = "k";
  for (size_t i = 0; i < params; ++i) {
    ManifestTuning t;
    t.name = "P" + std::to_string(i);
    for (int v = 0; v < valuesEach; ++v) t.values.push_back(32 * (v + 1));
    t.defaultValue = 32 * (valuesEach / 2 + 1);  // a middle value, as BLOCKSIZE's 256
    k.tuning.push_back(t);
  }
  return k;
}

TEST(VerifyPoints, SmallSpaceIsEnumeratedLastParameterFastest) {
  auto points = verifyPoints(kernelWith(2, 3), 12);
  ASSERT_EQ(points.size(), 9u);
  EXPECT_EQ(points[0].at("P0"), 32);
  EXPECT_EQ(points[0].at("P1"), 32);
  EXPECT_EQ(points[1].at("P0"), 32);
  EXPECT_EQ(points[1].at("P1"), 64);
  EXPECT_EQ(points[3].at("P0"), 64);
  EXPECT_EQ(points[3].at("P1"), 32);
  EXPECT_EQ(points[8].at("P0"), 96);
  EXPECT_EQ(points[8].at("P1"), 96);
}

// Six kernels of 32 block sizes (an outlined function): 32^6 points, of which 12 are taken:
// spread from the first to the last, the default point second.
TEST(VerifyPoints, HugeSpaceIsSpreadWithoutBuildingIt) {
  auto points = verifyPoints(kernelWith(6, 32), 12);
  ASSERT_EQ(points.size(), 12u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(points.front().at("P" + std::to_string(i)), 32);
    EXPECT_EQ(points[1].at("P" + std::to_string(i)), 32 * 17);
    EXPECT_EQ(points.back().at("P" + std::to_string(i)), 32 * 32);
  }
  EXPECT_NE(points[5], points[6]);
}

// One point is the default one. Before, a cap of 1 enumerated the whole product (doitgen's two
// kernels: 294912 points, a harness that did not build in a minute).
TEST(VerifyPoints, OnePointIsTheDefault) {
  auto points = verifyPoints(kernelWith(7, 4), 1);
  ASSERT_EQ(points.size(), 1u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(points[0].at("P" + std::to_string(i)), 96);
}

// Two points are the extremes: each parameter's smallest and largest values.
TEST(VerifyPoints, TwoPointsAreTheExtremes) {
  auto points = verifyPoints(kernelWith(3, 4), 2);
  ASSERT_EQ(points.size(), 2u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(points[0].at("P" + std::to_string(i)), 32);
    EXPECT_EQ(points[1].at("P" + std::to_string(i)), 128);
  }
}

// A default point the spread already holds is not repeated; one it misses takes the second
// place. Always `cap` points.
TEST(VerifyPoints, DefaultOnTheSpreadIsNotRepeated) {
  ManifestKernel k = kernelWith(1, 5);  // values 32..160, default 96
  auto points = verifyPoints(k, 4);     // spread 32, 64, 96, 160
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].at("P0"), 32);
  EXPECT_EQ(points[1].at("P0"), 64);
  EXPECT_EQ(points[2].at("P0"), 96);
  EXPECT_EQ(points[3].at("P0"), 160);
  k.tuning[0].defaultValue = 128;       // not on the spread: second
  points = verifyPoints(k, 4);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[1].at("P0"), 128);
  EXPECT_EQ(points[3].at("P0"), 160);
}

// The race pass runs at one of the checked run's size bases: the largest up to 31.
TEST(VerifyPoints, RaceCheckBaseIsOneOfTheSizes) {
  EXPECT_EQ(raceCheckBase({1, 31, 33, 100}), 31);
  EXPECT_EQ(raceCheckBase({1, 7, 13}), 13);
  EXPECT_EQ(raceCheckBase({40, 64}), 40);
  EXPECT_EQ(raceCheckBase({}), 31);
}

TEST(VerifyPoints, NoTuningIsOnePoint) {
  EXPECT_EQ(verifyPoints(kernelWith(0, 0), 12).size(), 1u);
}

}  // namespace
}  // namespace rtcuda
