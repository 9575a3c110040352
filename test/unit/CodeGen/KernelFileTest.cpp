// Code generation on hand-built IR, without Clang: kernel.cu, the parameter header and the
// launch functions of a kernel lowered by the pipeline.

#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Transforms/Pipeline.h"

#include "KernelBuilders.h"
#include "TransformsTestKernels.h"

#include <gtest/gtest.h>

using namespace rtcuda;
using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {

LoweredKernel lowered(Kernel k) {
  Diagnostics diags;
  DumpOptions dump;
  dump.verify = true;
  return lowerKernel(source(std::move(k)), diags, dump);
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(KernelFile, OneGlobalFunctionPerKernelWithItsParamsHeader) {
  std::string text = kernelFile({lowered(matrixAdd()), lowered(rowSums())});
  // Each in two instantiations: 32-bit index arithmetic and <name>_wide_index (IndexWidth.cpp).
  EXPECT_EQ(count(text, "__global__"), 4u) << text;
  EXPECT_EQ(count(text, "_wide_index("), 2u) << text;
  EXPECT_NE(text.find("#include \"madd_params.h\""), std::string::npos) << text;
  EXPECT_NE(text.find("#include \"rowsum_params.h\""), std::string::npos) << text;
  EXPECT_NE(text.find("madd("), std::string::npos);
  EXPECT_NE(text.find("rowsum("), std::string::npos);
  EXPECT_NE(text.find("threadIdx.x"), std::string::npos);
  // The arrays are indexed linearly (ArrayFlatten), never with two subscripts.
  EXPECT_EQ(text.find("C[i][j]"), std::string::npos) << text;
}

TEST(KernelFile, ParamsHeaderDefaultsAndGivenValues) {
  LoweredKernel k = lowered(matrixAdd());
  EXPECT_EQ(paramsHeaderName(k.kernel), "madd_params.h");
  std::string defaults = paramsHeader(k);
  EXPECT_NE(defaults.find("#define MADD_BLOCKSIZE 256"), std::string::npos) << defaults;
  EXPECT_NE(defaults.find("#ifndef MADD_BLOCKSIZE"), std::string::npos) << defaults;
  std::string given = paramsHeader(k, {{"BLOCKSIZE", 128}});
  EXPECT_NE(given.find("#define MADD_BLOCKSIZE 128"), std::string::npos) << given;
  EXPECT_EQ(given.find("#define MADD_BLOCKSIZE 256"), std::string::npos) << given;
}

TEST(LaunchFunction, CopiesInWhatIsReadAndBackWhatIsWritten) {
  LoweredKernel k = lowered(matrixAdd());
  EXPECT_EQ(launchFunctionName(k.kernel), "rtcuda_launch_madd");
  std::string text = launchFunction(k);
  EXPECT_NE(text.find("rtcuda_launch_madd_on_device("), std::string::npos) << text;
  EXPECT_NE(text.find("RTCUDA_LAUNCH(madd"), std::string::npos) << text;
  // Only C is written: only C is copied back.
  EXPECT_NE(text.find("rtcuda_array_out(C"), std::string::npos) << text;
  EXPECT_EQ(text.find("rtcuda_array_out(A"), std::string::npos) << text;
  EXPECT_EQ(text.find("rtcuda_array_out(B"), std::string::npos) << text;
  // The element counts come from the declared extents N x M.
  EXPECT_NE(text.find("(long long)N * (long long)M"), std::string::npos) << text;
}

TEST(LaunchFunction, HeaderHoldsEveryKernel) {
  std::string text = launchHeader({lowered(matrixAdd()), lowered(rowSums())});
  EXPECT_NE(text.find("#include \"kernel.cu\""), std::string::npos);
  EXPECT_EQ(count(text, "static inline void rtcuda_launch_madd("), 1u) << text;
  EXPECT_EQ(count(text, "static inline void rtcuda_launch_rowsum("), 1u) << text;
}

}  // namespace
