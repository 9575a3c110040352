// Tests of the IR verifier: a well-formed kernel passes; each broken invariant is reported.

#include "rtcuda/IR/Verifier.h"

#include "KernelBuilders.h"

#include <gtest/gtest.h>

using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {

Stmt loop(const std::string &var, Expr end, std::vector<Stmt> body,
          LoopKind kind = LoopKind::Serial) {
  return forLoop(var, Int, c(0), std::move(end), c(1), block(std::move(body)), kind);
}

Kernel kernel(std::vector<Stmt> body) {
  Kernel k;
  k.name = "mm";
  k.macroPrefix = "MM";
  k.params = {scalar("N"), array("A", {v("N"), v("N")}), array("C", {v("N"), v("N")})};
  k.body = block(std::move(body));
  return k;
}

// C[i][j] = sum_k A[i][k]: declarations, nested loops, a local, loads and stores.
Kernel wellFormed() {
  return kernel({loop("i", v("N"),
                      {loop("j", v("N"),
                            {decl("s", Float, floatImm(0, Float)),
                             loop("k", v("N"), {assign("s", "+=", ld("A", {v("i"), v("k")}))}),
                             store("C", {v("i"), v("j")}, "=", v("s"))},
                            LoopKind::Parallel)},
                      LoopKind::Parallel)});
}

std::string messages(const Kernel &k) {
  std::string out;
  for (const VerifierProblem &p : verifyKernel(k)) out += p.message + "\n";
  return out;
}

TEST(Verifier, AcceptsWellFormedKernel) { EXPECT_EQ(messages(wellFormed()), ""); }

TEST(Verifier, AcceptsBuiltinsMacrosAndFlattenedAccesses) {
  // int i = blockIdx.x * MM_BLOCKSIZE + threadIdx.x; C[i * N + 0] = A[i * N + 1];
  Kernel k = kernel({decl("i", Int, B("+", B("*", v("blockIdx.x"), v("MM_BLOCKSIZE")),
                                      v("threadIdx.x"))),
                     store("C", {B("*", v("i"), v("N"))}, "=",
                           ld("A", {B("+", B("*", v("i"), v("N")), c(1))}))});
  EXPECT_EQ(messages(k), "");
}

TEST(Verifier, UndeclaredVariable) {
  Kernel k = kernel({loop("i", v("N"), {store("C", {v("i"), v("j")}, "=", c(0))})});
  EXPECT_NE(messages(k).find("variable 'j' is used but not declared"), std::string::npos)
      << messages(k);
}

TEST(Verifier, DeclarationIsScopedToItsBlock) {
  // { for (i) { float t = 0; } C[0][0] = t; }: t is out of scope after the loop.
  Kernel k = kernel({loop("i", v("N"), {decl("t", Float, c(0))}),
                     store("C", {c(0), c(0)}, "=", v("t"))});
  EXPECT_NE(messages(k).find("variable 't' is used but not declared"), std::string::npos);
}

TEST(Verifier, LoopVariableReusedByInnerLoop) {
  Kernel k = kernel({loop("i", v("N"), {loop("i", v("N"), {store("C", {v("i"), v("i")}, "=", c(0))})})});
  EXPECT_NE(messages(k).find("loop variable 'i' is the variable of an enclosing loop"),
            std::string::npos);
}

TEST(Verifier, LoopVariableRedeclaredInItsBody) {
  Kernel k = kernel({loop("i", v("N"), {decl("i", Int, c(0))})});
  EXPECT_NE(messages(k).find("'i' is declared twice in one scope"), std::string::npos);
}

TEST(Verifier, LoopVariableAssigned) {
  Kernel k = kernel({loop("i", v("N"), {assign("i", "+=", c(1))})});
  EXPECT_NE(messages(k).find("loop variable 'i' is assigned in its loop"), std::string::npos);
}

TEST(Verifier, ArrayRankMismatch) {
  // A is [N][N]: three subscripts are wrong.
  Kernel k = kernel({store("C", {c(0), c(0)}, "=", ld("A", {c(0), c(0), c(0)}))});
  EXPECT_NE(messages(k).find("array 'A' of rank 2 is accessed with 3 subscripts"),
            std::string::npos);
}

TEST(Verifier, FlattenedAndUnflattenedAccessesMixed) {
  Kernel k = kernel({store("C", {c(0), c(0)}, "=", c(1)), store("C", {c(3)}, "=", c(2))});
  EXPECT_NE(messages(k).find("array 'C' is accessed with 2 and with 1 subscripts"),
            std::string::npos);
}

TEST(Verifier, ScalarSubscriptedAndArrayAssigned) {
  Kernel k = kernel({store("N", {c(0)}, "=", c(1)), assign("A", "=", c(0))});
  std::string m = messages(k);
  EXPECT_NE(m.find("'N' is subscripted but is not an array"), std::string::npos) << m;
  EXPECT_NE(m.find("array 'A' is assigned as a scalar"), std::string::npos) << m;
}

// BatchBlocks moves a sliced array to its block's slice (`A += offset`) and declares the batch
// variable the body may read; an array that is no slice, or another operator, stays an error.
TEST(Verifier, OnlyASlicedArrayMovesToItsSlice) {
  Kernel k = kernel({assign("A", "+=", v("b")), store("C", {v("b"), c(0)}, "=", c(1))});
  std::string m = messages(k);
  EXPECT_NE(m.find("array 'A' is assigned as a scalar"), std::string::npos) << m;
  EXPECT_NE(m.find("'b'"), std::string::npos) << m;
  k.batch.var = "b";
  k.batch.type = Int;
  k.batch.extent = v("N");
  k.batch.slices = {{"A", v("N")}};
  EXPECT_EQ(messages(k), "");
  k.body = block({assign("A", "=", c(0)), assign("C", "+=", c(0))});
  m = messages(k);
  EXPECT_NE(m.find("array 'A' is assigned as a scalar"), std::string::npos) << m;
  EXPECT_NE(m.find("array 'C' is assigned as a scalar"), std::string::npos) << m;
}

TEST(Verifier, ParallelKindOnlyOnLoops) {
  auto marked = std::make_shared<StmtNode>(*store("C", {c(0), c(0)}, "=", c(1)));
  marked->loopKind = LoopKind::Parallel;
  Kernel k = kernel({marked});
  EXPECT_NE(messages(k).find("loop kind 'parallel' on a statement that is not a loop"),
            std::string::npos)
      << messages(k);
}

TEST(Verifier, BreakOutsideLoop) {
  auto brk = std::make_shared<StmtNode>();
  brk->kind = StmtKind::Break;
  EXPECT_NE(messages(kernel({brk})).find("break or continue outside a loop"), std::string::npos);
  EXPECT_EQ(messages(kernel({loop("i", v("N"), {brk})})), "");
}

TEST(Verifier, IncompleteNodes) {
  auto noBody = std::make_shared<StmtNode>(*loop("i", v("N"), {}));
  noBody->body = nullptr;
  auto zeroStep = std::make_shared<StmtNode>(*loop("j", v("N"), {}));
  zeroStep->step = c(0);
  auto halfBinary = std::make_shared<ExprNode>(*B("+", v("N"), c(1)));
  halfBinary->operands.pop_back();
  std::string m = messages(kernel({noBody, zeroStep, store("C", {c(0), c(0)}, "=", halfBinary)}));
  EXPECT_NE(m.find("loop 'i' has no body"), std::string::npos) << m;
  EXPECT_NE(m.find("loop 'j' has step 0"), std::string::npos) << m;
  EXPECT_NE(m.find("binary operator '+' has 1 operand(s), not 2"), std::string::npos) << m;
}

TEST(Verifier, ReportsTheNodeLocation) {
  Stmt bad = withLoc(store("C", {c(0), c(0)}, "=", v("missing")), SourceLoc{"k.c", 7, 5});
  std::vector<VerifierProblem> problems = verifyKernel(kernel({bad}));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].loc.str(), "k.c:7:5");
}

TEST(Verifier, FinishSeesTopLevelDeclarationsUntilParallelReduction) {
  Kernel k = kernel({decl("t", Float, c(0)), loop("i", v("N"), {decl("u", Float, c(0))})});
  k.finish = block({store("C", {c(0), c(0)}, "=", v("t"))});
  EXPECT_EQ(messages(k), "");
  k.finish = block({store("C", {c(0), c(0)}, "=", v("u"))});  // not top level
  EXPECT_NE(messages(k).find("variable 'u' is used but not declared"), std::string::npos);
  k.finish = block({store("C", {c(0), c(0)}, "=", v("t"))});
  k.passes.push_back("ParallelReduction");  // now a kernel of its own
  EXPECT_NE(messages(k).find("variable 't' is used but not declared"), std::string::npos);
}

}  // namespace
