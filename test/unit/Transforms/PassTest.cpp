// Single passes on hand-built IR (no Clang): each run on the kernel as the steps before it leave
// it, its result checked node by node and by the IR verifier.

#include "rtcuda/Analysis/ParallelNest.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Verifier.h"
#include "rtcuda/Transforms/Pass.h"
#include "rtcuda/Transforms/Pipeline.h"

#include "KernelBuilders.h"
#include "TransformsTestKernels.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace rtcuda;
using namespace rtcuda::ir;
using namespace rtcuda::ir::test;

namespace {

// The statements of a kind, in pre-order.
std::vector<Stmt> find(const Kernel &k, StmtKind kind) {
  std::vector<Stmt> out;
  visitStmt(k.body, [&](const Stmt &s) {
    if (s->kind == kind) out.push_back(s);
  });
  return out;
}

std::string verified(const Kernel &k) {
  std::string out;
  for (const VerifierProblem &p : verifyKernel(k)) out += p.message + "\n";
  return out;
}

// The kernel as lowerKernel hands it to the passes: macro prefix set, parallel loops marked.
Kernel marked(Kernel k, const KernelOptions &options = {}) {
  Diagnostics diags;
  std::string prefix = k.name;
  std::transform(prefix.begin(), prefix.end(), prefix.begin(), ::toupper);
  k.macroPrefix = prefix;
  return markParallelLoops(k, options, diags);
}

struct Context {
  KernelOptions options;
  Diagnostics diags;
  PassContext ctx{options, diags, nullptr};
};

TEST(ArrayFlatten, SubscriptsBecomeRowMajorIndex) {
  Context cx;
  Kernel out = arrayFlatten(matrixAdd(), cx.ctx);
  EXPECT_EQ(out.passes, std::vector<std::string>{"ArrayFlatten"});
  std::vector<Stmt> stores = find(out, StmtKind::Store);
  ASSERT_EQ(stores.size(), 1u);
  ASSERT_EQ(stores[0]->indices.size(), 1u);
  EXPECT_EQ(print(stores[0]->indices[0]), "i * M + j");
  EXPECT_EQ(verified(out), "");
}

TEST(ArrayFlatten, UnchangedWhenAlreadyFlat) {
  Context cx;
  Kernel flat = arrayFlatten(matrixAdd(), cx.ctx);
  Kernel again = arrayFlatten(flat, cx.ctx);
  EXPECT_EQ(again.passes, flat.passes);  // not appended a second time
  EXPECT_EQ(again.body, flat.body);      // the very same nodes
}

TEST(ArrayFlatten, RefusesWrongSubscriptCount) {
  Context cx;
  Kernel k = matrixAdd();
  k.body = block({store("C", {c(0), c(0), c(0)}, "=", c(1))});
  EXPECT_THROW(arrayFlatten(k, cx.ctx), CompileError);
}

TEST(LoopCollapse, FusesTheTwoParallelLoops) {
  Context cx;
  Kernel k = marked(matrixAdd());
  ASSERT_EQ(parallelLoops(k).size(), 2u);
  Kernel out = loopCollapse(k, cx.ctx);
  EXPECT_EQ(out.passes, std::vector<std::string>{"LoopCollapse"});
  std::vector<Stmt> loops = find(out, StmtKind::For);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0]->loopKind, LoopKind::Collapsed);
  // One index over N * M iterations, i and j recovered from it.
  EXPECT_TRUE(mentions(loops[0]->end, "N") && mentions(loops[0]->end, "M"))
      << print(loops[0]->end);
  std::vector<Stmt> decls = find(out, StmtKind::Decl);
  auto declared = [&](const std::string &n) {
    return std::any_of(decls.begin(), decls.end(), [&](const Stmt &d) { return d->name == n; });
  };
  EXPECT_TRUE(declared("i") && declared("j")) << printKernel(out);
  EXPECT_EQ(verified(out), "");
}

TEST(LoopCollapse, KeepsTheNestWhenCollapseIsOff) {
  Context cx;
  cx.options.collapse = false;
  Kernel k = marked(matrixAdd(), cx.options);
  Kernel out = loopCollapse(k, cx.ctx);
  EXPECT_TRUE(out.passes.empty());
  EXPECT_EQ(find(out, StmtKind::For).size(), 2u);
}

TEST(LoopPartition, MapsIterationsOntoBlocksAndThreads) {
  Context cx;
  cx.options.collapse = false;
  Kernel k = arrayFlatten(marked(matrixAdd(), cx.options), cx.ctx);
  Kernel out = loopPartition(k, cx.ctx);
  EXPECT_NE(std::find(out.passes.begin(), out.passes.end(), "LoopPartition"), out.passes.end());
  // Rows over the blocks of the grid's y dimension, columns one per thread.
  std::vector<Stmt> loops = find(out, StmtKind::For);
  ASSERT_EQ(loops.size(), 1u) << printKernel(out);
  // An int row loop walks a 64-bit row number and recovers i from it (issue 16).
  EXPECT_EQ(loops[0]->name, "i_row");
  EXPECT_EQ(loops[0]->loopKind, LoopKind::Block);
  EXPECT_EQ(loops[0]->type.bytes(), 8);
  std::vector<Stmt> decls = find(out, StmtKind::Decl);
  ASSERT_EQ(decls.size(), 2u) << printKernel(out);
  EXPECT_EQ(decls[0]->name, "i");
  EXPECT_EQ(decls[1]->name, "j");
  EXPECT_TRUE(mentions(decls[1]->value, "threadIdx.x")) << printKernel(out);
  ASSERT_FALSE(out.grid.empty());
  ASSERT_TRUE(out.blockThreads);
  std::string text = printKernel(out, PrintMode::Cuda);
  EXPECT_NE(text.find("blockIdx.x"), std::string::npos) << text;
  EXPECT_NE(text.find("threadIdx.x"), std::string::npos) << text;
  EXPECT_EQ(verified(out), "");
}

TEST(BlockMerge, EachThreadComputesMergeLevelRows) {
  Context cx;
  cx.options.merge = true;
  cx.options.mergeLevel = {1, 8};
  cx.options.collapse = false;
  Kernel out = blockMerge(marked(matrixAdd(), cx.options), cx.ctx);
  EXPECT_EQ(out.passes, std::vector<std::string>{"BlockMerge"});
  std::vector<Stmt> loops = find(out, StmtKind::For);
  EXPECT_TRUE(std::any_of(loops.begin(), loops.end(),
                          [](const Stmt &l) { return l->loopKind == LoopKind::Merge; }))
      << printKernel(out);
  ASSERT_FALSE(out.tuning.empty());
  EXPECT_EQ(out.tuning.back().name, "MERGE_LEVEL");
  EXPECT_EQ(out.tuning.back().macro, "MADD_MERGE_LEVEL");
  EXPECT_EQ(verified(out), "");
}

TEST(BlockMerge, NotAskedNotApplied) {
  Context cx;
  Kernel k = marked(matrixAdd());
  Kernel out = blockMerge(k, cx.ctx);
  EXPECT_TRUE(out.passes.empty());
  EXPECT_EQ(out.body, k.body);
}

TEST(ReadOnlyCache, ConstOnlyOnArraysNeverWrittenRestrictOnlyOnArraysNotAliased) {
  Context cx;
  CallSites sites;
  sites.known = true;
  sites.calls = 1;
  sites.mayAlias = {"B"};
  PassContext ctx{cx.options, cx.diags, &sites};
  Kernel out = readOnlyCache(matrixAdd(), ctx);
  EXPECT_EQ(out.passes, std::vector<std::string>{"ReadOnlyCache"});
  const Param *a = out.findParam("A"), *b = out.findParam("B"), *cc = out.findParam("C");
  EXPECT_TRUE(a->isConst && a->isRestrict);    // read only, not aliased
  EXPECT_FALSE(b->isRestrict);                 // a call may alias it
  EXPECT_TRUE(cc->isRestrict && !cc->isConst); // written, not aliased: restrict only
}

TEST(ReadOnlyCache, NothingWithoutAHostProgramToCheck) {
  Context cx;
  Kernel out = readOnlyCache(matrixAdd(), cx.ctx);
  EXPECT_TRUE(out.passes.empty());
  EXPECT_FALSE(out.findParam("A")->isRestrict);
}

TEST(ParallelReduction, RowSumsKeepTheirAccumulatorPrivate) {
  // s is declared inside the parallel loop: no reduction across threads, nothing to combine.
  Context cx;
  Kernel k = marked(rowSums());
  EXPECT_TRUE(k.reductions.empty());
  Kernel out = parallelReduction(k, cx.ctx);
  EXPECT_TRUE(out.passes.empty());
  EXPECT_TRUE(out.buffers.empty());
}

}  // namespace
