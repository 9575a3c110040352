// NeighbourReuse: a nest whose neighbouring iterations read the same values (a stencil reading
// A[i][j] and A[i][j + 1], a filter whose taps w[t] every output reads) gets several outputs per
// thread from the analysis, whatever the config says: BlockMerge along rows and BlockSkew along
// columns (their default levels, 4 and 2), after which RedundantLoadElim reads each shared value
// once into registers.
//
//   for (i = 1; i < n - 1; i++)  // parallel          each thread: MERGE_LEVEL rows x SKEW_LEVEL
//     for (j = 1; j < m - 1; j++)  // parallel  ==>   columns of B, the loads they share read once
//       B[i][j] = A[i-1][j] + A[i][j-1] + A[i][j] + ...
//
// Applies when the config turns neither `merge` nor `skew` on (when it does, it has chosen), the
// kernel has no reductions across threads and no atomics, every serial loop in the nest has a
// constant trip count (longer loops are reductions, which LaneReduction maps), and the nest
// either reads one array at two places a constant apart, or reads, inside a constant loop, a
// value that depends on none of the parallel loops. Measured on an H100 (docs/performance.md):
// the 5-point stencil went from 0.65x to 0.90x copy bandwidth, the 16-tap convolution from
// 0.51x to 0.75x.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <map>

namespace rtcuda {

using namespace ir;

namespace {

// Whether the subscripts of two loads of one array differ by constants only, and not all by 0.
bool constantApart(const Expr &a, const Expr &b) {
  if (a->operands.size() != b->operands.size()) return false;
  bool differs = false;
  for (size_t d = 0; d < a->operands.size(); ++d) {
    int64_t diff = 0;
    if (!constantDifference(a->operands[d], b->operands[d], &diff)) return false;
    differs |= diff != 0;
  }
  return differs;
}

struct Reuse {
  bool longLoop = false;     // a serial loop whose trip count is not a constant
  bool neighbours = false;   // one array read at two places a constant apart
  bool sharedTaps = false;   // inside a constant loop, a load no parallel loop moves
};

void scan(const Stmt &s, const std::set<std::string> &parallel, bool inLoop, Reuse &r,
          std::map<std::string, std::vector<Expr>> &loads) {
  if (!s) return;
  if (s->kind == StmtKind::For && s->loopKind == LoopKind::Serial) {
    if (!isConst(simplify(tripCount(s)))) r.longLoop = true;
    scan(s->body, parallel, true, r, loads);
    return;
  }
  for (const Stmt &c : s->stmts) scan(c, parallel, inLoop, r, loads);
  scan(s->body, parallel, inLoop, r, loads);
  scan(s->elseBody, parallel, inLoop, r, loads);
  auto onExpr = [&](const Expr &e) {
    if (!e) return;
    visitExpr(e, [&](const Expr &n) {
      if (n->kind != ExprKind::Load) return;
      bool moved = false;
      for (const Expr &i : n->operands) moved |= mentionsAny(i, parallel);
      if (!moved && inLoop) r.sharedTaps = true;
      for (const Expr &other : loads[n->name]) r.neighbours |= constantApart(n, other);
      loads[n->name].push_back(n);
    });
  };
  for (const Expr &e : {s->value, s->cond}) onExpr(e);
  for (const Expr &e : s->indices) onExpr(e);
}

}  // namespace

Kernel neighbourReuse(const Kernel &k, const PassContext &ctx) {
  if (ctx.options.merge || ctx.options.skew || !k.reductions.empty() || !k.atomicArrays.empty())
    return k;
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.empty()) return k;
  std::set<std::string> parallel;
  for (const Stmt &l : loops) parallel.insert(l->name);
  Reuse r;
  std::map<std::string, std::vector<Expr>> loads;
  scan(loops.back()->body, parallel, false, r, loads);
  if (r.longLoop || !(r.neighbours || r.sharedTaps)) return k;

  KernelOptions o = ctx.options;
  o.merge = o.skew = true;
  o.mergeLevel = o.skewLevel = TuningRange{1, 8};
  PassContext c{o, ctx.diags, ctx.callSites};
  Kernel out = blockSkew(blockMerge(k, c), c);
  if (out.passes.size() == k.passes.size()) return k;
  out.passes.push_back("NeighbourReuse");
  out.remarks.push_back(std::string("neighbour reuse: ") +
                        (r.neighbours ? "one array is read at places a constant apart"
                                      : "every iteration reads the same filter values") +
                        "; several outputs per thread (merge and skew), shared reads once");
  return out;
}

}  // namespace rtcuda
