// Tests of markParallelLoops: how many outer loops are mapped to the GPU (from the stores, or
// from the parallel_loops / 2DMATRIX options), and the kernels it refuses or warns about.

#include "rtcuda/Analysis/ParallelNest.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include "KernelBuilders.h"

#include <gtest/gtest.h>

using namespace rtcuda;
using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {

SourceLoc at(unsigned line, unsigned col = 3) { return SourceLoc{"k.c", line, col}; }


Stmt loop(const std::string &var, Expr end, std::vector<Stmt> body) {
  return forLoop(var, Int, c(0), std::move(end), c(1), block(std::move(body)));
}

Kernel kernel(const std::string &name, std::vector<Param> params, std::vector<Stmt> body) {
  Kernel k;
  k.name = name;
  k.params = std::move(params);
  k.body = block(std::move(body));
  return k;
}

// "i:parallel j:serial ..." for every For in pre-order.
std::string kinds(const Kernel &k) {
  std::string out;
  visitStmt(k.body, [&](const Stmt &s) {
    if (s->kind == StmtKind::For)
      out += (out.empty() ? "" : " ") + s->name + ":" + loopKindName(s->loopKind);
  });
  return out;
}

// C[i][j] = sum_k A[i][k] * B[k][j], the accumulator private to (i, j).
Kernel matmul() {
  Stmt k = loop("k", v("N"),
                {assign("s", "+=", B("*", ld("A", {v("i"), v("k")}), ld("B", {v("k"), v("j")})))});
  return kernel("mm",
                {scalar("N"), array("A", {v("N"), v("N")}), array("B", {v("N"), v("N")}),
                 array("C", {v("N"), v("N")})},
                {loop("i", v("N"),
                      {loop("j", v("N"),
                            {decl("s", Float, floatImm(0, Float, "0.0f")), k,
                             store("C", {v("i"), v("j")}, "=", v("s"))})})});
}

// y[i] += A[i][j] * x[j] as a perfect nest: j does not index the store.
Kernel matvecPerfect() {
  Stmt st = withLoc(store("y", {v("i")}, "+=", B("*", ld("A", {v("i"), v("j")}), ld("x", {v("j")}))),
                    at(4, 7));
  return kernel("mv",
                {scalar("N"), array("A", {v("N"), v("N")}), array("x", {v("N")}),
                 array("y", {v("N")})},
                {loop("i", v("N"), {loop("j", v("N"), {st})})});
}

// Runs markParallelLoops and returns what it wrote to stderr (warnings).
std::string markCapturingStderr(const Kernel &k, const KernelOptions &o, Kernel *out) {
  Diagnostics diags;
  ::testing::internal::CaptureStderr();
  try {
    *out = markParallelLoops(k, o, diags);
  } catch (...) {
    ::testing::internal::GetCapturedStderr();
    throw;
  }
  EXPECT_EQ(diags.errors(), 0);
  return ::testing::internal::GetCapturedStderr();
}

// The message of the CompileError markParallelLoops throws, or "" if it does not throw.
std::string errorOf(const Kernel &k, const KernelOptions &o = {}, SourceLoc *loc = nullptr) {
  Diagnostics diags;
  try {
    markParallelLoops(k, o, diags);
  } catch (const CompileError &e) {
    if (loc) *loc = e.loc;
    return e.what();
  }
  return "";
}

// ---- depth --------------------------------------------------------------------------------

TEST(ParallelNestTest, MatmulMapsTwoLoops) {
  Kernel out;
  EXPECT_EQ(markCapturingStderr(matmul(), {}, &out), "");
  EXPECT_EQ(kinds(out), "i:parallel j:parallel k:serial");
  EXPECT_EQ(print(out.body), "for (int i = 0; i < N; i++) {  // parallel\n"
                             "  for (int j = 0; j < N; j++) {  // parallel\n"
                             "    float s = 0.0f;\n"
                             "    for (int k = 0; k < N; k++) {\n"
                             "      s += A[i][k] * B[k][j];\n"
                             "    }\n"
                             "    C[i][j] = s;\n"
                             "  }\n"
                             "}\n");
}

TEST(ParallelNestTest, InputIsNotModified) {
  Kernel in = matmul();
  Kernel out;
  markCapturingStderr(in, {}, &out);
  EXPECT_EQ(kinds(in), "i:serial j:serial k:serial");
  EXPECT_EQ(out.name, "mm");
  EXPECT_EQ(out.params.size(), 4u);
}

TEST(ParallelNestTest, MatvecMapsOneLoop) {
  // for i { float s = 0; for j s += A[i][j] * x[j]; y[i] = s; }
  Stmt j = loop("j", v("N"), {assign("s", "+=", B("*", ld("A", {v("i"), v("j")}), ld("x", {v("j")})))});
  Kernel k = kernel("mv", {scalar("N"), array("A", {v("N"), v("N")}), array("x", {v("N")}),
                           array("y", {v("N")})},
                    {loop("i", v("N"), {decl("s", Float, floatImm(0, Float)), j,
                                        store("y", {v("i")}, "=", v("s"))})});
  Kernel out;
  EXPECT_EQ(markCapturingStderr(k, {}, &out), "");
  EXPECT_EQ(kinds(out), "i:parallel j:serial");
}

TEST(ParallelNestTest, PerfectMatvecMapsOnlyTheLoopThatIndexesTheStore) {
  Kernel out;
  EXPECT_EQ(markCapturingStderr(matvecPerfect(), {}, &out), "");
  EXPECT_EQ(kinds(out), "i:parallel j:serial");
}

TEST(ParallelNestTest, ThreeDeepNest) {
  Kernel k = kernel("zero", {scalar("N"), array("C", {v("N"), v("N"), v("N")})},
                    {loop("i", v("N"), {loop("j", v("N"), {loop("k", v("N"), {
                        store("C", {v("i"), v("j"), v("k")}, "=", floatImm(0, Float))})})})});
  Kernel out;
  markCapturingStderr(k, {}, &out);
  EXPECT_EQ(kinds(out), "i:parallel j:parallel k:parallel");
}

TEST(ParallelNestTest, Matrix2DFalseMapsOneLoop) {
  KernelOptions o;
  o.matrix2D = false;
  Kernel out;
  markCapturingStderr(matmul(), o, &out);
  EXPECT_EQ(kinds(out), "i:parallel j:serial k:serial");
}

TEST(ParallelNestTest, Matrix2DTrueForcesTwoLoopsWithAtomicUpdates) {
  // y[i] += ... with j parallel too: the updates of y[i] from different j become atomic.
  KernelOptions o;
  o.matrix2D = true;
  Kernel out;
  EXPECT_EQ(markCapturingStderr(matvecPerfect(), o, &out), "");
  EXPECT_EQ(kinds(out), "i:parallel j:parallel");
  EXPECT_EQ(out.atomicArrays, std::vector<std::string>{"y"});
}

TEST(ParallelNestTest, ParallelLoopsOption) {
  KernelOptions o;
  o.parallelLoops = 1;
  o.matrix2D = true;  // parallel_loops wins over 2DMATRIX
  Kernel out;
  markCapturingStderr(matmul(), o, &out);
  EXPECT_EQ(kinds(out), "i:parallel j:serial k:serial");
  o.parallelLoops = 2;
  o.matrix2D = false;
  markCapturingStderr(matmul(), o, &out);
  EXPECT_EQ(kinds(out), "i:parallel j:parallel k:serial");
}

TEST(ParallelNestTest, LoopVariablesDeclaredUpFrontAreDropped) {
  // int i, j; for (i = ...) for (j = ...)
  Kernel base = matmul();
  Kernel k = kernel("mm", base.params,
                    {decl("i", Int), decl("j", Int), base.body->stmts[0]});
  Kernel out;
  markCapturingStderr(k, {}, &out);
  ASSERT_EQ(out.body->stmts.size(), 1u);
  EXPECT_EQ(out.body->stmts[0]->kind, StmtKind::For);
}

TEST(ParallelNestTest, PrivateScalarDeclaredBeforeTheNest) {
  // float t; for i { t = A[i] * 2; B[i] = t; }: every iteration defines t before using it.
  Kernel k = kernel("scale", {scalar("N"), array("A", {v("N")}), array("B", {v("N")})},
                    {decl("t", Float),
                     loop("i", v("N"), {assign("t", "=", B("*", ld("A", {v("i")}), c(2))),
                                        store("B", {v("i")}, "=", v("t"))})});
  Kernel out;
  markCapturingStderr(k, {}, &out);
  EXPECT_EQ(print(out.body), "float t;\n"
                             "for (int i = 0; i < N; i++) {  // parallel\n"
                             "  t = A[i] * 2;\n"
                             "  B[i] = t;\n"
                             "}\n");
}

TEST(ParallelNestTest, SerialInnerLoopMayReadArraysInItsBounds) {
  // CSR SpMV: only the row loop is parallel; its inner loop runs over ptr[i] .. ptr[i + 1].
  Stmt j = forLoop("j", Int, ld("ptr", {v("i")}, Int), ld("ptr", {B("+", v("i"), c(1))}, Int),
                   c(1), block({store("y", {v("i")}, "+=", ld("val", {v("j")}))}));
  Kernel k = kernel("spmv", {scalar("N"), array("ptr", {nullptr}, Int), array("val", {nullptr}),
                             array("y", {nullptr})},
                    {loop("i", v("N"), {j})});
  Kernel out;
  EXPECT_EQ(markCapturingStderr(k, {}, &out), "");
  EXPECT_EQ(kinds(out), "i:parallel j:serial");
}

// ---- errors -------------------------------------------------------------------------------

TEST(ParallelNestErrorTest, StatementsAfterTheNest) {
  Kernel base = matmul();
  Kernel k = kernel("mm", base.params,
                    {base.body->stmts[0], withLoc(store("C", {c(0), c(0)}, "=", c(1)), at(9))});
  SourceLoc loc;
  EXPECT_EQ(errorOf(k, {}, &loc), "kernel 'mm': statements after the loop nest are not "
                                  "supported; a kernel is one loop nest");
  EXPECT_EQ(loc.str(), "k.c:9:3");
}

TEST(ParallelNestErrorTest, StatementsBeforeTheNest) {
  Kernel base = matmul();
  Kernel k = kernel("mm", base.params,
                    {store("C", {c(0), c(0)}, "=", c(1)), base.body->stmts[0]});
  EXPECT_EQ(errorOf(k), "kernel 'mm': only declarations may precede the loop nest");
}

TEST(ParallelNestErrorTest, NoLoop) {
  Kernel k = kernel("f", {scalar("N"), array("A", {v("N")})},
                    {decl("t", Int, c(0))});
  EXPECT_EQ(errorOf(k), "kernel 'f' has no loop to parallelize");
}

TEST(ParallelNestErrorTest, ScalarCarriedBetweenIterations) {
  // float sum = 0; for i for j { for k sum += ...; C[i][j] = sum; }  (never reset)
  Kernel base = matmul();
  Stmt kLoop = base.body->stmts[0]->body->stmts[0]->body->stmts[1];
  Stmt nest = loop("i", v("N"), {loop("j", v("N"), {kLoop, store("C", {v("i"), v("j")}, "=",
                                                                 v("s"))})});
  Kernel k = kernel("mm", base.params,
                    {withLoc(decl("s", Float, floatImm(0, Float)), at(3, 11)), nest});
  SourceLoc loc;
  EXPECT_EQ(errorOf(k, {}, &loc),
            "scalar 's' carries a value from one iteration of the parallel loop to the next (it "
            "is used before it is assigned in the loop body); declare and initialize it inside "
            "the loop; it cannot run in parallel (set on_dependence: sequential to run it in one "
            "thread)");
  EXPECT_EQ(loc.str(), "k.c:3:11");
}

TEST(ParallelNestErrorTest, ScalarAccumulatedDirectlyInTheBody) {
  Kernel k = kernel("sum", {scalar("N"), array("A", {v("N")}), array("B", {v("N")})},
                    {decl("s", Float, floatImm(0, Float)),
                     loop("i", v("N"), {assign("s", "+=", ld("A", {v("i")})),
                                        store("B", {v("i")}, "=", v("s"))})});
  EXPECT_NE(errorOf(k).find("scalar 's' carries a value"), std::string::npos);
}

TEST(ParallelNestErrorTest, BoundReadsAnArray) {
  Kernel k = kernel("f", {scalar("n"), array("len", {c(1)}, Int), array("a", {v("n")})},
                    {withLoc(forLoop("i", Int, c(0), ld("len", {c(0)}, Int), c(1),
                                     store("a", {v("i")}, "=", floatImm(1, Float, "1.0f"))),
                             at(2))});
  SourceLoc loc;
  EXPECT_EQ(errorOf(k, {}, &loc), "bound 'len[0]' of parallel loop 'i' must be an expression of "
                                  "the kernel's scalar parameters ('len[0]' is not one)");
  EXPECT_EQ(loc.str(), "k.c:2:3");
}

TEST(ParallelNestErrorTest, BoundDependsOnAnOuterParallelLoop) {
  // Triangular nest forced to two parallel loops.
  Kernel k = kernel("tri", {scalar("N"), array("C", {v("N"), v("N")})},
                    {loop("i", v("N"), {loop("j", v("i"), {store("C", {v("i"), v("j")}, "=",
                                                                 c(0))})})});
  KernelOptions o;
  o.parallelLoops = 2;
  EXPECT_NE(errorOf(k, o).find("parallel loop 'j'"), std::string::npos);
  o.parallelLoops = 1;
  EXPECT_EQ(errorOf(k, o), "");
}

TEST(ParallelNestErrorTest, MoreLoopsRequestedThanPerfectlyNested) {
  KernelOptions o;
  o.parallelLoops = 3;
  EXPECT_EQ(errorOf(matmul(), o),
            "kernel 'mm': 3 parallel loops requested but only 2 loop(s) are perfectly nested "
            "here");
}

TEST(ParallelNestTest, UpdateOfOneElementBecomesAtomic) {
  // out[0] += A[i]: every iteration updates the same element; atomics make i parallel.
  Kernel k = kernel("red", {scalar("N"), array("A", {v("N")}), array("out", {c(1)})},
                    {loop("i", v("N"), {store("out", {c(0)}, "+=", ld("A", {v("i")}))})});
  Kernel out;
  EXPECT_EQ(markCapturingStderr(k, {}, &out), "");
  EXPECT_EQ(kinds(out), "i:parallel");
  EXPECT_EQ(out.atomicArrays, std::vector<std::string>{"out"});
}

TEST(ParallelNestTest, ScalarSumBecomesAReduction) {
  // float s = 0; for i s += A[i]; out[0] = s;
  Kernel k = kernel("sum", {scalar("N"), array("A", {v("N")}), array("out", {c(1)})},
                    {decl("s", Float, floatImm(0, Float, "0.0f")),
                     loop("i", v("N"), {assign("s", "+=", ld("A", {v("i")}))}),
                     store("out", {c(0)}, "=", v("s"))});
  Kernel out;
  EXPECT_EQ(markCapturingStderr(k, {}, &out), "");
  ASSERT_EQ(out.reductions.size(), 1u);
  EXPECT_EQ(out.reductions[0].var, "s");
  EXPECT_EQ(out.reductions[0].op, "+");
  ASSERT_TRUE(out.finish);
  EXPECT_EQ(print(out.finish), "out[0] = s;\n");
}

TEST(ParallelNestErrorTest, ArrayDependenceIsRefused) {
  // a[i] = a[i - 1] + 1: a prefix recurrence.
  Kernel k = kernel("scan", {scalar("N"), array("a", {v("N")})},
                    {forLoop("i", Int, c(1), v("N"), c(1),
                             withLoc(store("a", {v("i")}, "=",
                                           B("+", ld("a", {B("-", v("i"), c(1))}), c(1))),
                                     at(3, 5)))});
  SourceLoc loc;
  EXPECT_EQ(errorOf(k, {}, &loc),
            "loop 'i' carries a dependence: 'a[i] = a[i - 1] + 1;' reads a[i - 1], written by "
            "the previous iteration of loop 'i'; it cannot run in parallel (set on_dependence: "
            "sequential to run it in one thread)");
  EXPECT_EQ(loc.str(), "k.c:3:5");
  KernelOptions o;
  o.onDependence = "sequential";
  Kernel out;
  EXPECT_NE(markCapturingStderr(k, o, &out).find("warning: loop 'i' carries a dependence"),
            std::string::npos);
  EXPECT_EQ(kinds(out), "seq:parallel i:serial");
}

TEST(ParallelNestErrorTest, PrologueReadsAnArray) {
  Kernel base = matmul();
  Kernel k = kernel("mm", base.params,
                    {decl("n0", Int, ld("A", {c(0), c(0)}, Int)), base.body->stmts[0]});
  EXPECT_EQ(errorOf(k), "declarations before the loop nest may not read arrays");
}

TEST(ParallelNestErrorTest, AssignmentToAScalarParameter) {
  Kernel k = kernel("f", {scalar("N"), array("A", {v("N")})},
                    {loop("i", v("N"), {store("A", {v("i")}, "=", c(0)),
                                        assign("N", "=", c(0))})});
  EXPECT_EQ(errorOf(k), "assignment to scalar parameter 'N' inside the parallel loops would race "
                        "between threads");
}

// A scalar computed once before the nest and only read in it carries nothing between
// iterations: every thread computes the same value.
TEST(ParallelNestErrorTest, ReadOnlyPrologueScalarIsNotCarried) {
  // int n2 = N * N; for i { B[i] = A[i] * n2; }
  Kernel k = kernel("scale", {scalar("N"), array("A", {v("N")}), array("B", {v("N")})},
                    {decl("n2", Int, B("*", v("N"), v("N"))),
                     loop("i", v("N"), {store("B", {v("i")}, "=",
                                              B("*", ld("A", {v("i")}), v("n2")))})});
  EXPECT_EQ(errorOf(k), "");
}

}  // namespace
