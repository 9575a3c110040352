// Tests of carriedDependences (isl): exact answers for affine and linearized subscripts,
// conservative ones for the others, and the messages users read.

#include "rtcuda/Analysis/Dependence.h"

#include "KernelBuilders.h"

#include <gtest/gtest.h>

using namespace rtcuda;
using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {



Stmt loop(const std::string &var, Expr min, Expr end, Stmt body, int64_t step = 1) {
  return forLoop(var, Int, std::move(min), std::move(end), c(step), std::move(body));
}

// The dependences of the kernel's one perfect nest of `depth` loops.
std::vector<Dependence> deps(std::vector<Param> params, Stmt nest, size_t depth) {
  Kernel k;
  k.name = "k";
  k.params = std::move(params);
  k.body = block({nest});
  std::vector<Stmt> loops{nest};
  while (loops.size() < depth) loops.push_back(loops.back()->body);
  return carriedDependences(k, loops);
}

TEST(DependenceTest, PrefixSumIsCarriedByThePreviousIteration) {
  auto d = deps({scalar("n"), array("a", {v("n")})},
                loop("i", c(1), v("n"),
                     store("a", {v("i")}, "=", B("+", ld("a", {B("-", v("i"), c(1))}), c(1)))),
                1);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].level, 0);
  EXPECT_FALSE(d[0].commutative);
  EXPECT_TRUE(d[0].exact);
  EXPECT_EQ(d[0].message, "'a[i] = a[i - 1] + 1;' reads a[i - 1], written by the previous "
                          "iteration of loop 'i'");
}

TEST(DependenceTest, DistanceOfTwoIsAnEarlierIteration) {
  auto d = deps({scalar("n"), array("a", {v("n")})},
                loop("i", c(2), v("n"), store("a", {v("i")}, "=", ld("a", {B("-", v("i"), c(2))}))),
                1);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("written by an earlier iteration"), std::string::npos);
}

TEST(DependenceTest, EvenAndOddElementsAreIndependent) {
  // for (i = 0; i < n; i += 2) a[i + 1] = a[i];
  auto d = deps({scalar("n"), array("a", {nullptr})},
                loop("i", c(0), v("n"), store("a", {B("+", v("i"), c(1))}, "=", ld("a", {v("i")})), 2),
                1);
  EXPECT_TRUE(d.empty());
}

TEST(DependenceTest, TriangleReadsTheOtherTriangle) {
  // for i, for j < i: A[i][j] = A[j][i]
  auto d = deps({scalar("n"), array("A", {v("n"), v("n")})},
                loop("i", c(0), v("n"),
                     loop("j", c(0), v("i"),
                          store("A", {v("i"), v("j")}, "=", ld("A", {v("j"), v("i")})))),
                2);
  EXPECT_TRUE(d.empty());
}

TEST(DependenceTest, LinearizedRowsAreDelinearized) {
  // A[i * n + j] = A[(i - 1) * n + j] * 2: carried by i only.
  Expr row = B("+", B("*", v("i"), v("n")), v("j"));
  Expr above = B("+", B("*", B("-", v("i"), c(1)), v("n")), v("j"));
  auto d = deps({scalar("n"), array("A", {nullptr})},
                loop("i", c(1), v("n"),
                     loop("j", c(0), v("n"),
                          store("A", {row}, "=", B("*", ld("A", {above}), c(2))))),
                2);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].level, 0);
  EXPECT_TRUE(d[0].exact);
}

TEST(DependenceTest, ColumnsOutsideTheRowAreNotDelinearized) {
  // A[i * n + j] with j up to n: rows overlap, the analysis stays conservative.
  Expr idx = B("+", B("*", v("i"), v("n")), v("j"));
  auto d = deps({scalar("n"), array("A", {nullptr})},
                loop("i", c(0), v("n"),
                     loop("j", c(0), B("+", v("n"), c(1)), store("A", {idx}, "=", c(0)))),
                2);
  ASSERT_FALSE(d.empty());
  EXPECT_FALSE(d[0].exact);
}

TEST(DependenceTest, DataDependentUpdatesAreCommutative) {
  // hist[data[i] & 63] += 1
  auto d = deps({scalar("n"), array("data", {v("n")}, Int), array("hist", {c(64)}, Int)},
                loop("i", c(0), v("n"),
                     store("hist", {B("&", ld("data", {v("i")}, Int), c(63))}, "+=", c(1))),
                1);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].commutative);
  EXPECT_FALSE(d[0].exact);
  EXPECT_EQ(d[0].array, "hist");
}

TEST(DependenceTest, ReadingOneArrayAndWritingAnotherIsParallel) {
  Expr sum = B("+", ld("in", {B("-", v("i"), c(1))}), ld("in", {B("+", v("i"), c(1))}));
  auto d = deps({scalar("n"), array("out", {v("n")}), array("in", {v("n")})},
                loop("i", c(1), B("-", v("n"), c(1)), store("out", {v("i")}, "=", sum)), 1);
  EXPECT_TRUE(d.empty());
}

}  // namespace
