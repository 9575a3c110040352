// Tests of computeFootprints on small hand-built kernels: which arrays are read and written,
// and how many elements of each the host has to copy, as printed expressions.

#include "rtcuda/Analysis/Footprint.h"
#include "rtcuda/IR/Printer.h"

#include "KernelBuilders.h"

#include <gtest/gtest.h>

using namespace rtcuda;
using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {



Stmt loop(const std::string &var, Expr min, Expr end, std::vector<Stmt> body, int64_t step = 1) {
  return forLoop(var, Int, std::move(min), std::move(end), c(step), block(std::move(body)));
}

Kernel kernel(std::vector<Param> params, std::vector<Stmt> body) {
  Kernel k;
  k.name = "k";
  k.params = std::move(params);
  k.body = block(std::move(body));
  return k;
}

// "read written elements" for one array, so a failure shows everything at once.
std::string describe(const std::map<std::string, ArrayFootprint> &fps, const std::string &name) {
  auto it = fps.find(name);
  if (it == fps.end()) return "<missing>";
  const ArrayFootprint &f = it->second;
  return std::string(f.read ? "R" : "-") + (f.written ? "W" : "-") + " " +
         (f.elements ? print(f.elements) : "?");
}

TEST(FootprintTest, SizedTwoDimensionalParams) {
  Kernel k = kernel({scalar("N"), scalar("M"), array("A", {v("N"), v("M")}),
                     array("C", {v("N"), v("M")})},
                    {loop("i", c(0), v("N"),
                          {loop("j", c(0), v("M"),
                                {store("C", {v("i"), v("j")}, "=", ld("A", {v("i"), v("j")}))})})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(fps.size(), 2u);  // arrays only
  EXPECT_EQ(describe(fps, "A"), "R- N * M");
  EXPECT_EQ(describe(fps, "C"), "-W N * M");
  EXPECT_EQ(print(fps["A"].rows), "N");
}

TEST(FootprintTest, UnsizedOuterDimensionComesFromTheIndex) {
  Kernel k = kernel({scalar("N"), scalar("M"), array("A", {nullptr, v("M")}),
                     array("C", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {loop("j", c(0), v("M"),
                                {store("C", {v("i")}, "+=", ld("A", {v("i"), v("j")}))})})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(print(fps["A"].rows), "N");
  EXPECT_EQ(describe(fps, "A"), "R- N * M");
  EXPECT_EQ(describe(fps, "C"), "RW N");  // += reads too
}

TEST(FootprintTest, LinearizedIndex) {
  Expr idx = B("+", B("*", v("i"), v("M")), v("j"));
  Kernel k = kernel({scalar("N"), scalar("M"), array("A", {nullptr}), array("C", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {loop("j", c(0), v("M"),
                                {store("C", {idx}, "=", B("*", ld("A", {idx}), c(2)))})})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "A"), "R- N * M");
  EXPECT_EQ(describe(fps, "C"), "-W N * M");
}

TEST(FootprintTest, LinearizedSquareIndex) {
  Expr idx = B("+", B("*", v("i"), v("N")), v("j"));
  Kernel k = kernel({scalar("N"), array("A", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {loop("j", c(0), v("N"), {store("A", {idx}, "=", c(0))})})});
  EXPECT_EQ(describe(computeFootprints(k), "A"), "-W N * N");
}

TEST(FootprintTest, LinearizedIndexWithAnotherRowWidth) {
  // Rows of N elements but only M of each touched: the last row ends at (N - 1) * N + M.
  Expr idx = B("+", B("*", v("i"), v("N")), v("j"));
  Kernel k = kernel({scalar("N"), scalar("M"), array("A", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {loop("j", c(0), v("M"), {store("A", {idx}, "=", c(0))})})});
  EXPECT_EQ(describe(computeFootprints(k), "A"), "-W (N - 1) * N + M");
}

TEST(FootprintTest, OffsetsWidenTheFootprint) {
  Kernel k = kernel({scalar("N"), array("A", {nullptr}), array("B", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {store("B", {v("i")}, "=",
                                 B("+", ld("A", {v("i")}), ld("A", {B("+", v("i"), c(1))})))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "A"), "R- N + 1");
  EXPECT_EQ(describe(fps, "B"), "-W N");
}

TEST(FootprintTest, StencilWithShiftedBounds) {
  // for (i = 1; i < N - 1; i++) B[i] = A[i - 1] + A[i + 1];
  Kernel k = kernel(
      {scalar("N"), array("A", {nullptr}), array("B", {nullptr})},
      {loop("i", c(1), B("-", v("N"), c(1)),
            {store("B", {v("i")}, "=",
                   B("+", ld("A", {B("-", v("i"), c(1))}), ld("A", {B("+", v("i"), c(1))})))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "A"), "R- N");
  EXPECT_EQ(describe(fps, "B"), "-W N - 1");
}

TEST(FootprintTest, StridedIndex) {
  Kernel k = kernel({scalar("N"), array("A", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {store("A", {B("*", c(2), v("i"))}, "=", c(0)),
                           store("A", {B("+", B("*", c(2), v("i")), c(1))}, "=", c(1))})});
  EXPECT_EQ(describe(computeFootprints(k), "A"), "-W 2 * N");
}

TEST(FootprintTest, DownwardLoop) {
  // for (i = N - 1; i > -1; i--) A[i] = 0;
  Kernel k = kernel({scalar("N"), array("A", {nullptr})},
                    {loop("i", B("-", v("N"), c(1)), c(-1),
                          {store("A", {v("i")}, "=", c(0))}, -1)});
  EXPECT_EQ(describe(computeFootprints(k), "A"), "-W N");
}

TEST(FootprintTest, ScalarParameterIndex) {
  Kernel k = kernel({scalar("N"), scalar("k"), array("A", {nullptr}), array("B", {nullptr})},
                    {store("A", {B("-", v("N"), c(1))}, "=", ld("B", {v("k")}))});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "A"), "-W N");
  EXPECT_EQ(describe(fps, "B"), "R- k + 1");
}

TEST(FootprintTest, MaskedHistogramIndex) {
  Kernel k = kernel({scalar("N"), array("x", {nullptr}, Int), array("hist", {nullptr}, Int)},
                    {loop("i", c(0), v("N"),
                          {store("hist", {B("&", ld("x", {v("i")}, Int), c(255))}, "+=",
                                 c(1))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "hist"), "RW 256");
  EXPECT_EQ(describe(fps, "x"), "R- N");
}

TEST(FootprintTest, LocalWithOneDefinitionTakesItsRange) {
  // int b = x[i] & 255; hist[b] += 1;
  Kernel k = kernel({scalar("N"), array("x", {nullptr}, Int), array("hist", {nullptr}, Int)},
                    {loop("i", c(0), v("N"),
                          {decl("b", Int, B("&", ld("x", {v("i")}, Int), c(255))),
                           store("hist", {v("b")}, "+=", c(1))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "hist"), "RW 256");
  EXPECT_EQ(describe(fps, "x"), "R- N");
}

TEST(FootprintTest, ModuloBoundsTheIndex) {
  Kernel k = kernel({scalar("N"), array("x", {nullptr}, Int), array("hist", {nullptr}, Int)},
                    {loop("i", c(0), v("N"),
                          {decl("b", Int, B("%", ld("x", {v("i")}, Int), c(64))),
                           store("hist", {v("b")}, "+=", c(1))})});
  EXPECT_EQ(describe(computeFootprints(k), "hist"), "RW 64");
}

TEST(FootprintTest, ReassignedLocalIsUnknown) {
  // int b = 0; b = x[i]; hist[b] += 1;  b has no single definition.
  Kernel k = kernel({scalar("N"), array("x", {nullptr}, Int), array("hist", {nullptr}, Int)},
                    {loop("i", c(0), v("N"),
                          {decl("b", Int, c(0)), assign("b", "=", ld("x", {v("i")}, Int)),
                           store("hist", {v("b")}, "+=", c(1))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "hist"), "RW ?");
  EXPECT_EQ(fps["hist"].rows, nullptr);
  EXPECT_EQ(describe(fps, "x"), "R- N");  // read in the assignment
}

TEST(FootprintTest, IndirectIndexIsUnknown) {
  Kernel k = kernel({scalar("N"), array("A", {nullptr}), array("B", {nullptr}, Int),
                     array("C", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {store("C", {v("i")}, "=", ld("A", {ld("B", {v("i")}, Int)}))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "A"), "R- ?");
  EXPECT_EQ(fps["A"].elements, nullptr);
  EXPECT_EQ(describe(fps, "B"), "R- N");
  EXPECT_EQ(describe(fps, "C"), "-W N");
}

TEST(FootprintTest, OneUnknownAccessMakesTheWholeArrayUnknown) {
  Kernel k = kernel({scalar("N"), array("A", {nullptr}), array("B", {nullptr}, Int)},
                    {loop("i", c(0), v("N"),
                          {store("A", {v("i")}, "=", c(0)),
                           store("A", {ld("B", {v("i")}, Int)}, "=", c(1))})});
  EXPECT_EQ(describe(computeFootprints(k), "A"), "-W ?");
}

TEST(FootprintTest, IncomparableExtentsTakeTheMaximum) {
  Kernel k = kernel({scalar("N"), scalar("M"), array("A", {nullptr})},
                    {loop("i", c(0), v("N"), {store("A", {v("i")}, "=", c(0))}),
                     loop("j", c(0), v("M"), {store("A", {v("j")}, "=", c(1))})});
  EXPECT_EQ(describe(computeFootprints(k), "A"), "-W rtcuda_max(N - 1, M - 1) + 1LL");
}

TEST(FootprintTest, ReadsInConditionsAndDeclarations) {
  Kernel k = kernel({scalar("N"), array("mask", {nullptr}, Int), array("A", {nullptr}),
                     array("C", {nullptr})},
                    {loop("i", c(0), v("N"),
                          {decl("t", Float, ld("A", {v("i")})),
                           ifThen(ld("mask", {v("i")}, Int), store("C", {v("i")}, "=", v("t")))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "mask"), "R- N");
  EXPECT_EQ(describe(fps, "A"), "R- N");
  EXPECT_EQ(describe(fps, "C"), "-W N");
}

TEST(FootprintTest, UntouchedArrays) {
  Kernel k = kernel({scalar("N"), array("A", {nullptr}), array("S", {v("N")}),
                     array("C", {nullptr})},
                    {loop("i", c(0), v("N"), {store("C", {v("i")}, "=", c(0))})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "A"), "-- ?");
  EXPECT_EQ(describe(fps, "S"), "-- N");  // declared extent
}

// An array read only in a loop's bounds (CSR row pointers of SpMV) is read, with a footprint:
// the host must copy it to the device.
TEST(FootprintTest, ReadsInLoopBounds) {
  // for (i < N) for (j = ptr[i]; j < ptr[i + 1]; j++) y[i] += val[j] * x[col[j]];
  Stmt inner = forLoop(
      "j", Int, ld("ptr", {v("i")}, Int), ld("ptr", {B("+", v("i"), c(1))}, Int), c(1),
      block({store("y", {v("i")}, "+=",
                   B("*", ld("val", {v("j")}), ld("x", {ld("col", {v("j")}, Int)})))}));
  Kernel k = kernel({scalar("N"), array("ptr", {nullptr}, Int), array("col", {nullptr}, Int),
                     array("val", {nullptr}), array("x", {nullptr}), array("y", {nullptr})},
                    {loop("i", c(0), v("N"), {inner})});
  auto fps = computeFootprints(k);
  EXPECT_EQ(describe(fps, "ptr"), "R- N + 1");
  EXPECT_EQ(describe(fps, "y"), "RW N");
  EXPECT_EQ(describe(fps, "val"), "R- ?");
}

}  // namespace
