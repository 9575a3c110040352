// The explain report's line diff, HTML escaping and the IR runner behind the mapping picture.
#include "Diff.h"
#include "Html.h"
#include "Interpret.h"

#include <gtest/gtest.h>

using namespace rtcuda;
using namespace rtcuda::explain;

namespace {

std::string joined(const std::vector<DiffLine> &d) {
  std::string s;
  for (const DiffLine &l : d) s += std::string(1, l.kind) + l.text + "\n";
  return s;
}

// int i = blockIdx.x * B + threadIdx.x; if (i < n) C[i] = A[i];  (B = the block size macro)
ir::Kernel partitioned(bool guarded) {
  using namespace ir;
  Type f = Type::of(ScalarKind::Float);
  Expr i = var("i");
  Stmt st = withLoc(store("C", {i}, "=", load("A", {i}, f)), SourceLoc{"k.c", 5, 3});
  Expr index = add(mul(var("blockIdx.x"), var("K_BLOCKSIZE")), var("threadIdx.x"));
  Kernel k;
  k.name = "k";
  k.params = {Param{"C", f, true}, Param{"A", f, true}, Param{"n", Type::of(ScalarKind::Int)}};
  k.body = block({decl("i", Type::of(ScalarKind::Int), index),
                  guarded ? ifThen(lt(i, var("n")), block({st})) : block({st})});
  k.grid = {LaunchDim{var("n"), var("K_BLOCKSIZE")}};
  k.blockThreads = var("K_BLOCKSIZE");
  return k;
}

}  // namespace

TEST(ExplainDiff, KeepsRemovesAdds) {
  EXPECT_EQ(joined(diffLines("a\nb\nc\n", "a\nx\nc\n")), " a\n-b\n+x\n c\n");
  EXPECT_EQ(joined(diffLines("a\nb\n", "a\nb\n")), " a\n b\n");
  EXPECT_EQ(joined(diffLines("", "a\n")), "+a\n");
}

TEST(ExplainDiff, HunksKeepContext) {
  std::string before, after;
  for (int i = 0; i < 20; ++i) before += std::to_string(i) + "\n";
  after = before;
  after.replace(after.find("10\n"), 3, "ten\n");
  std::vector<DiffLine> h = hunks(diffLines(before, after), 1);
  EXPECT_EQ(joined(h), "@9 unchanged line(s)\n 9\n-10\n+ten\n 11\n@8 unchanged line(s)\n");
}

TEST(ExplainHtml, EscapesAndClosesInOrder) {
  EXPECT_EQ(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
  Html h;
  h.open("p", attr("title", "x\"y")).element("code", "i < n").close();
  EXPECT_EQ(h.str(), "<p title=\"x&quot;y\"><code>i &lt; n</code></p>");
  EXPECT_EQ(h.depth(), 0u);
  EXPECT_EQ(inlineMarkdown("`a<b` and **c** [d](e.md)"), "<code>a&lt;b</code> and <strong>c</strong> d");
}

TEST(ExplainMapping, EveryIterationOnceByItsThread) {
  ir::Kernel k = partitioned(true);
  MappingRequest req;
  req.kernel = &k;
  req.ints = {{"n", 40}, {"K_BLOCKSIZE", 16}};
  req.loopVars = {"i"};
  req.bodyLines = {5};
  MappingRun run = runMapping(req);
  EXPECT_EQ(run.blocks[0], 3);
  EXPECT_EQ(run.threads, 16);
  ASSERT_EQ(run.iterations.size(), 40u);
  for (const auto &[at, threads] : run.iterations) {
    ASSERT_EQ(threads.size(), 1u);
    EXPECT_EQ(threads.begin()->block[0], at[0] / 16);
    EXPECT_EQ(threads.begin()->thread, at[0] % 16);
  }
  EXPECT_TRUE(run.notes.empty());
}

// Planted: without the guard the last block's spare threads compute iterations 40..47, which
// the picture's count (48 of 40) shows.
TEST(ExplainMapping, UnguardedKernelShowsExtraIterations) {
  ir::Kernel k = partitioned(false);
  MappingRequest req;
  req.kernel = &k;
  req.ints = {{"n", 40}, {"K_BLOCKSIZE", 16}};
  req.loopVars = {"i"};
  req.bodyLines = {5};
  MappingRun run = runMapping(req);
  EXPECT_EQ(run.iterations.size(), 48u);
  EXPECT_TRUE(run.iterations.count({47}));
}
