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

// Six kernels of 32 block sizes (an outlined function): 32^6 points, of which 12 are taken,
// from the first to the last.
TEST(VerifyPoints, HugeSpaceIsSpreadWithoutBuildingIt) {
  auto points = verifyPoints(kernelWith(6, 32), 12);
  ASSERT_EQ(points.size(), 12u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(points.front().at("P" + std::to_string(i)), 32);
    EXPECT_EQ(points.back().at("P" + std::to_string(i)), 32 * 32);
  }
  EXPECT_NE(points[5], points[6]);
}

TEST(VerifyPoints, NoTuningIsOnePoint) {
  EXPECT_EQ(verifyPoints(kernelWith(0, 0), 12).size(), 1u);
}

}  // namespace
}  // namespace rtcuda
