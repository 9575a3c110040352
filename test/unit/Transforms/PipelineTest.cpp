// The pipeline on hand-built IR, without Clang: the whole lowering, --stop-after, the verifier
// after each step, and a planted pass that breaks the IR.

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Transforms/Pipeline.h"

#include "KernelBuilders.h"
#include "TransformsTestKernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace rtcuda;
using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {

bool hasLoopKind(const Kernel &k, LoopKind kind) {
  bool found = false;
  visitStmt(k.body, [&](const Stmt &s) { found |= s->kind == StmtKind::For && s->loopKind == kind; });
  return found;
}

bool ran(const Kernel &k, const std::string &pass) {
  return std::find(k.passes.begin(), k.passes.end(), pass) != k.passes.end();
}

TEST(Pipeline, LowersHandBuiltMatrixAddWithVerifier) {
  Diagnostics diags;
  DumpOptions dump;
  dump.verify = true;
  LoweredKernel lk = lowerKernel(source(matrixAdd()), diags, dump);
  EXPECT_TRUE(ran(lk.kernel, "LoopCollapse"));
  EXPECT_TRUE(ran(lk.kernel, "ArrayFlatten"));
  EXPECT_TRUE(ran(lk.kernel, "LoopPartition"));
  EXPECT_FALSE(hasLoopKind(lk.kernel, LoopKind::Parallel));
  ASSERT_FALSE(lk.kernel.tuning.empty());
  EXPECT_EQ(lk.kernel.tuning[0].macro, "MADD_BLOCKSIZE");
  EXPECT_EQ(lk.kernel.tuning[0].defaultValue, 256);
  EXPECT_EQ(lk.parallelExtents.size(), 2u);
  EXPECT_TRUE(lk.footprints.at("C").written);
  EXPECT_FALSE(lk.footprints.at("A").written);
}

TEST(Pipeline, StopAfterEndsLoweringThere) {
  Diagnostics diags;
  DumpOptions dump;
  dump.stopAfter = "LoopCollapse";
  LoweredKernel lk = lowerKernel(source(matrixAdd()), diags, dump);
  EXPECT_EQ(lk.kernel.passes, std::vector<std::string>{"LoopCollapse"});
  EXPECT_TRUE(hasLoopKind(lk.kernel, LoopKind::Collapsed));
  EXPECT_TRUE(lk.kernel.tuning.empty());  // the tuning space is built at the end only

  dump.stopAfter = "ParallelLoops";
  lk = lowerKernel(source(matrixAdd()), diags, dump);
  EXPECT_TRUE(lk.kernel.passes.empty());
  EXPECT_TRUE(hasLoopKind(lk.kernel, LoopKind::Parallel));
}

TEST(Pipeline, StopAfterPrintsTheIRThenOnly) {
  Diagnostics diags;
  std::ostringstream printed;
  DumpOptions dump;
  dump.out = &printed;
  dump.stopAfter = "ArrayFlatten";
  lowerKernel(source(matrixAdd()), diags, dump);
  std::string text = printed.str();
  EXPECT_NE(text.find("// ----- IR after ArrayFlatten (kernel madd) -----"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("IR after LoopCollapse"), std::string::npos) << text;
  EXPECT_EQ(text.find("IR after LoopPartition"), std::string::npos) << text;
}

TEST(Pipeline, StepNamesAreTheFrontendReorderingAnalysisAndPasses) {
  std::vector<std::string> names = pipelineStepNames();
  ASSERT_GE(names.size(), 5u);
  EXPECT_EQ(names[0], "Frontend");
  EXPECT_EQ(names[1], "Interchange");
  EXPECT_EQ(names[2], "Fusion");
  EXPECT_EQ(names[3], "BoundingBox");
  EXPECT_EQ(names[4], "ParallelLoops");
  EXPECT_NE(std::find(names.begin(), names.end(), "LoopPartition"), names.end());
}

// A planted bug: a pass that drops the declaration of the first local scalar it finds, so its
// uses refer to nothing. The verifier must catch it and name the pass.
Kernel dropFirstDecl(const Kernel &k, const PassContext &) {
  Kernel out = k;
  bool dropped = false;
  out.body = mapStmt(k.body, [&](const Stmt &s) -> Stmt {
    if (s->kind != StmtKind::Block || dropped) return s;
    std::vector<Stmt> kept;
    for (const Stmt &c : s->stmts) {
      if (!dropped && c->kind == StmtKind::Decl && !c->arraySize) {
        dropped = true;
        continue;
      }
      kept.push_back(c);
    }
    return block(kept);
  });
  out.passes.push_back("DropFirstDecl");
  return out;
}

TEST(Pipeline, VerifierNamesThePassThatBrokeTheIR) {
  Diagnostics diags;
  KernelOptions options;
  PassContext ctx{options, diags, nullptr};
  Kernel k = rowSums();
  k.macroPrefix = "ROWSUM";
  DumpOptions dump;
  dump.verify = true;
  Pass planted{"DropFirstDecl", "planted bug", dropFirstDecl};
  try {
    runPass(planted, k, ctx, dump);
    FAIL() << "the broken IR was not caught";
  } catch (const CompileError &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("after DropFirstDecl"), std::string::npos) << what;
    EXPECT_NE(what.find("variable 's' is used but not declared"), std::string::npos) << what;
  }
  // Without the verifier the same pass goes through: the check is what catches it.
  dump.verify = false;
  EXPECT_NO_THROW(runPass(planted, k, ctx, dump));
}

TEST(Pipeline, VerifierRunsOnTheFrontendsIR) {
  Diagnostics diags;
  DumpOptions dump;
  dump.verify = true;
  Kernel k = matrixAdd();
  k.body = block({store("C", {v("i"), v("j")}, "=", c(0))});  // i, j undeclared
  try {
    lowerKernel(source(k), diags, dump);
    FAIL() << "the broken IR was not caught";
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("after Frontend"), std::string::npos) << e.what();
  }
}

}  // namespace
