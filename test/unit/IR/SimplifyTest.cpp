// Tests of the integer simplifier: polynomial normal form, constant folding, what is left alone
// (floating point, integer division), and constantDifference. Expressions are built with the
// raw `binary` builder so that nothing is folded before simplify sees it.

#include "rtcuda/IR/IR.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"

#include <gtest/gtest.h>

using namespace rtcuda::ir;

namespace {

const Type Int = Type::of(ScalarKind::Int);
const Type Float = Type::of(ScalarKind::Float);
const Type LongLong = Type::of(ScalarKind::LongLong);

Expr v(const std::string &name) { return var(name); }
Expr f(const std::string &name) { return var(name, Float); }
Expr c(int64_t value) { return intImm(value); }
Expr B(const char *op, Expr a, Expr b) { return binary(op, std::move(a), std::move(b)); }

std::string simp(const Expr &e) { return print(simplify(e)); }

TEST(SimplifyTest, ExtentOfLinearizedNestBecomesSquare) {
  // The footprint of A[i * N + j] over i, j < N: max index + 1.
  Expr nm1 = B("-", v("N"), c(1));
  Expr e = B("+", B("+", B("*", nm1, v("N")), nm1), c(1));
  ASSERT_EQ(print(e), "(N - 1) * N + (N - 1) + 1");
  EXPECT_EQ(simp(e), "N * N");
}

TEST(SimplifyTest, ProductOfSumsStaysWhenExpandingIsLonger) {
  Expr d = B("-", v("N"), c(16));
  EXPECT_EQ(simp(B("*", d, d)), "(N - 16) * (N - 16)");
  // (i + 1) * N + j + 1 would expand to four terms: keep the user's product.
  Expr e = B("+", B("+", B("*", B("+", v("i"), c(1)), v("N")), v("j")), c(1));
  EXPECT_EQ(simp(e), "(i + 1) * N + j + 1");
}

TEST(SimplifyTest, ProductFactorsAreSimplifiedInside) {
  Expr e = B("*", B("+", B("-", v("N"), c(1)), c(1)), B("-", B("+", v("M"), c(2)), c(4)));
  EXPECT_EQ(simp(e), "N * (M - 2)");
}

TEST(SimplifyTest, LinearIndexIsUnchanged) {
  EXPECT_EQ(simp(B("+", B("*", v("i"), v("N")), v("j"))), "i * N + j");
  EXPECT_EQ(simp(B("+", B("*", v("N"), v("i")), v("j"))), "N * i + j");  // factor order kept
  EXPECT_EQ(simp(B("-", v("i"), v("j"))), "i - j");
}

TEST(SimplifyTest, ProductsFlatten) {
  EXPECT_EQ(simp(B("*", v("a"), B("*", v("b"), v("c")))), "a * b * c");
  EXPECT_EQ(simp(B("*", B("*", v("a"), v("b")), v("c"))), "a * b * c");
}

TEST(SimplifyTest, LikeTermsCombine) {
  EXPECT_EQ(simp(B("+", B("*", c(2), v("x")), B("*", c(3), v("x")))), "5 * x");
  // Factor order does not matter; the coefficient multiplies the whole monomial.
  EXPECT_EQ(simp(B("+", B("*", v("i"), v("N")), B("*", v("N"), v("i")))), "2 * (i * N)");
  EXPECT_EQ(simp(B("-", v("x"), v("x"))), "0");
  EXPECT_EQ(simp(B("-", B("+", v("x"), c(1)), c(1))), "x");
  EXPECT_EQ(simp(B("*", v("x"), c(0))), "0");
}

TEST(SimplifyTest, CoefficientsAndConstantsAreCanonical) {
  EXPECT_EQ(simp(B("*", v("x"), c(2))), "2 * x");
  EXPECT_EQ(simp(B("+", c(1), v("x"))), "x + 1");
  EXPECT_EQ(simp(B("-", c(0), v("x"))), "-x");
  EXPECT_EQ(simp(B("-", v("x"), B("*", c(2), v("y")))), "x - 2 * y");
  EXPECT_EQ(simp(B("*", B("+", v("x"), c(1)), c(2))), "2 * x + 2");
  // A negation is only distributed inside a sum; at the root it stays as written.
  EXPECT_EQ(simp(unary("-", B("-", v("x"), v("y")))), "-(x - y)");
  EXPECT_EQ(simp(B("+", unary("-", B("-", v("x"), v("y"))), c(0))), "-x + y");
  EXPECT_EQ(simp(B("-", v("x"), c(3))), "x - 3");
}

TEST(SimplifyTest, ConstantsFold) {
  EXPECT_EQ(simp(B("*", B("+", c(2), c(3)), v("x"))), "5 * x");
  EXPECT_EQ(simp(B("-", c(4), c(6))), "-2");
  EXPECT_EQ(simp(B("/", c(10), c(3))), "3");
  EXPECT_EQ(simp(B("%", c(10), c(3))), "1");
  EXPECT_EQ(simp(B("<", c(3), c(4))), "1");
  EXPECT_EQ(simp(B(">=", c(3), c(4))), "0");
  EXPECT_EQ(simp(B("==", B("+", c(1), c(1)), c(2))), "1");
  EXPECT_EQ(simp(B("!=", c(1), c(1))), "0");
  EXPECT_EQ(simp(B("/", B("*", c(6), c(4)), B("-", c(5), c(1)))), "6");
}

TEST(SimplifyTest, DivisionByZeroIsNotFolded) {
  EXPECT_EQ(simp(B("/", c(1), c(0))), "1 / 0");
  EXPECT_EQ(simp(B("%", v("x"), c(0))), "x % 0");
}

TEST(SimplifyTest, DivisionAndModuloByOne) {
  EXPECT_EQ(simp(B("/", v("x"), c(1))), "x");
  EXPECT_EQ(simp(B("%", v("x"), c(1))), "0");
  EXPECT_EQ(simp(B("/", B("+", v("i"), c(0)), c(1))), "i");
  EXPECT_EQ(simp(B("/", v("x"), c(2))), "x / 2");
}

TEST(SimplifyTest, IntegerDivisionIsAnAtom) {
  // (i / 2) * 2 is not i.
  EXPECT_EQ(simp(B("*", B("/", v("i"), c(2)), c(2))), "2 * (i / 2)");
  EXPECT_EQ(simp(B("-", B("+", B("/", v("i"), c(2)), c(1)), c(1))), "i / 2");
}

TEST(SimplifyTest, FloatArithmeticIsNeverReassociated) {
  Expr leftAssoc = B("+", B("+", f("a"), f("b")), f("c"));
  EXPECT_EQ(simp(leftAssoc), "a + b + c");
  EXPECT_TRUE(equal(simplify(leftAssoc), leftAssoc));
  EXPECT_EQ(simp(B("+", f("a"), B("+", f("b"), f("c")))), "a + (b + c)");
  EXPECT_EQ(simp(B("-", f("a"), f("a"))), "a - a");  // NaN - NaN is not 0
  EXPECT_EQ(simp(B("*", f("a"), floatImm(1.0, Float, "1.0f"))), "a * 1.0f");
  EXPECT_EQ(simp(B("/", f("a"), floatImm(1.0, Float, "1.0f"))), "a / 1.0f");
  EXPECT_EQ(simp(B("+", B("*", c(2), f("a")), B("*", c(3), f("a")))), "2 * a + 3 * a");
}

TEST(SimplifyTest, IntegerPartsOfFloatExpressionsAreSimplified) {
  Expr idx = B("-", B("+", v("i"), c(1)), c(1));
  Expr e = B("*", load("A", {idx}, Float), cast(Float, B("+", v("n"), c(0))));
  EXPECT_EQ(simp(e), "A[i] * (float)n");
}

TEST(SimplifyTest, ComparisonOperandsAreSimplified) {
  EXPECT_EQ(simp(B("<", v("i"), B("+", B("-", v("N"), c(1)), c(1)))), "i < N");
}

TEST(SimplifyTest, KeepsTheNodeType) {
  Expr n = var("n", LongLong);
  Expr e = simplify(B("-", B("+", n, c(1)), c(1)));
  EXPECT_EQ(print(e), "n");
  EXPECT_EQ(e->type, LongLong);
  Expr g = simplify(B("+", B("*", n, c(2)), c(3)));
  EXPECT_EQ(g->type, LongLong);
  EXPECT_EQ(print(g), "2LL * n + 3LL");
}

TEST(SimplifyTest, StatementsAreSimplifiedEverywhere) {
  Expr nm1 = B("-", v("N"), c(1));
  Stmt s = forLoop("i", Int, B("*", c(0), v("N")), B("+", nm1, c(1)), c(1),
                   block({store("C", {B("-", B("+", v("i"), c(2)), c(2))}, "=",
                                B("+", f("x"), f("y"))),
                          ifThen(B("<", c(1), c(2)), assign("t", "=", B("%", v("i"), c(1))))}));
  EXPECT_EQ(print(simplify(s)), "for (int i = 0; i < N; i++) {\n"
                                "  C[i] = x + y;\n"
                                "  if (1) {\n"
                                "    t = 0;\n"
                                "  }\n"
                                "}\n");
}

TEST(ConstantDifferenceTest, Differences) {
  int64_t d = 99;
  EXPECT_TRUE(constantDifference(B("+", v("N"), c(3)), B("+", v("N"), c(1)), &d));
  EXPECT_EQ(d, 2);
  Expr lin = B("+", B("*", v("i"), v("N")), v("j"));
  EXPECT_TRUE(constantDifference(B("+", lin, c(1)), lin, &d));
  EXPECT_EQ(d, 1);
  EXPECT_TRUE(constantDifference(c(2), c(5), &d));
  EXPECT_EQ(d, -3);
  EXPECT_TRUE(constantDifference(B("*", v("N"), v("N")),
                                 B("+", B("*", B("-", v("N"), c(1)), v("N")), v("N")), &d));
  EXPECT_EQ(d, 0);
  EXPECT_TRUE(constantDifference(B("-", v("N"), c(1)), B("-", v("N"), c(2)), &d));
  EXPECT_EQ(d, 1);
}

TEST(ConstantDifferenceTest, NonConstantDifferences) {
  int64_t d = 99;
  EXPECT_FALSE(constantDifference(v("N"), v("M"), &d));
  EXPECT_FALSE(constantDifference(B("*", c(2), v("N")), v("N"), &d));
  // Float values are never subtracted symbolically.
  EXPECT_FALSE(constantDifference(B("+", f("x"), c(1)), f("x"), &d));
}

}  // namespace
