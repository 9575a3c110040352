// BlockMerge: each thread computes MERGE_LEVEL results along the row dimension, i.e.
// MERGE_LEVEL iterations of the outermost parallel loop, sharing everything that does not
// depend on the row (for a matrix multiply: each B[k][j] is read once for MERGE_LEVEL rows).
// Accumulating scalars become per-thread arrays. With a single parallel loop the results may
// also be placed BLOCKSIZE apart (ARRANGEMENT=1) so that a warp's accesses stay coalesced.
#include "RegisterTiling.h"
#include "StripMineJam.h"

#include "rtcuda/IR/Mutate.h"

#include <cstdlib>

namespace rtcuda {

using namespace ir;

std::vector<Stmt> parallelLoops(const Kernel &k) {
  std::vector<Stmt> loops;
  for (const Stmt &s : k.body->stmts) {
    if (s->kind != StmtKind::For || s->loopKind != LoopKind::Parallel) continue;
    for (Stmt l = s; l && l->kind == StmtKind::For && l->loopKind == LoopKind::Parallel;) {
      loops.push_back(l);
      Stmt next = l->body;
      while (next && next->kind == StmtKind::Block && next->stmts.size() == 1) next = next->stmts[0];
      l = next;
    }
    break;
  }
  return loops;
}

static Stmt replaceIn(const Stmt &s, const std::string &v, const Stmt &replacement) {
  if (!s) return s;
  if (s->kind == StmtKind::For && s->loopKind == LoopKind::Parallel && s->name == v)
    return replacement;
  if (s->kind == StmtKind::For && s->loopKind == LoopKind::Parallel) {
    auto copy = std::make_shared<StmtNode>(*s);
    copy->body = replaceIn(s->body, v, replacement);
    return copy;
  }
  if (s->kind == StmtKind::Block) {
    auto copy = std::make_shared<StmtNode>(*s);
    for (Stmt &c : copy->stmts) c = replaceIn(c, v, replacement);
    return copy;
  }
  return s;
}

Kernel replaceParallelLoop(const Kernel &k, const std::string &var, const Stmt &replacement) {
  Kernel out = k;
  out.body = replaceIn(k.body, var, replacement);
  return out;
}

int closestValue(const std::vector<int> &values, int wanted) {
  int best = values.front();
  for (int v : values)
    if (std::abs(v - wanted) < std::abs(best - wanted)) best = v;
  return best;
}

TuningParam factorParam(const Kernel &k, const std::string &name, const TuningRange &r,
                        int wanted) {
  std::vector<int> values;
  for (int v = 1; v <= r.max; v *= 2)
    if (v >= r.min) values.push_back(v);
  if (values.empty() || values.back() != r.max) values.push_back(r.max);
  return {name, k.macro(name), values, closestValue(values, wanted)};
}

static bool unitStep(const Stmt &loop) {
  int64_t step = 0;
  return isConst(loop->step, &step) && step == 1;
}

Kernel blockMerge(const Kernel &k, const PassContext &ctx) {
  if (!ctx.options.merge) return k;
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.empty()) return k;
  const Stmt &rows = loops.front();
  if (!unitStep(rows)) {
    Kernel out = k;
    out.remarks.push_back("merge: loop '" + rows->name + "' has a step other than 1; not merged");
    return out;
  }
  StripSpec spec;
  spec.factor = var(k.macro("MERGE_LEVEL"));
  spec.blockSize = var(k.macro("BLOCKSIZE"));
  spec.kind = LoopKind::Merge;
  spec.stripVarBase = "m";
  spec.outerSuffix = "_merged";
  if (loops.size() == 1) spec.striped = var(k.macro("MERGE_STRIPED"));
  Kernel out = replaceParallelLoop(k, rows->name, stripMineAndJam(k, rows, spec));
  out.passes.push_back("BlockMerge");
  out.tuning.push_back(factorParam(k, "MERGE_LEVEL", ctx.options.mergeLevel, 4));
  if (spec.striped) out.tuning.push_back({"MERGE_STRIPED", k.macro("MERGE_STRIPED"), {0, 1}, 1});
  out.remarks.push_back("merge: each thread computes " + k.macro("MERGE_LEVEL") +
                        " iterations of loop '" + rows->name + "'" +
                        (loops.size() == 1 ? " (" + k.macro("MERGE_STRIPED") +
                                                 "=1: BLOCKSIZE apart, coalesced)"
                                           : ""));
  return out;
}

Kernel blockSkew(const Kernel &k, const PassContext &ctx) {
  if (!ctx.options.skew) return k;
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.size() < 2) {
    Kernel out = k;
    out.remarks.push_back("skew: needs two parallel loops (rows and columns); not applied");
    return out;
  }
  const Stmt &cols = loops.back();
  if (!unitStep(cols)) {
    Kernel out = k;
    out.remarks.push_back("skew: loop '" + cols->name + "' has a step other than 1; not skewed");
    return out;
  }
  StripSpec spec;
  spec.factor = var(k.macro("SKEW_LEVEL"));
  // Striped columns are a warp's width of threads apart: BLOCKSIZE in a run of collapsed
  // indices, THREAD_COLS in the rectangle of a register tile.
  const bool tiled = findContraction(k, ctx.options);
  const std::string stride = tiled ? k.macro("THREAD_COLS") : k.macro("BLOCKSIZE");
  spec.blockSize = var(stride);
  spec.striped = var(k.macro("SKEW_STRIPED"));
  spec.kind = LoopKind::Skew;
  spec.stripVarBase = "s";
  spec.outerSuffix = "_skewed";
  Kernel out = replaceParallelLoop(k, cols->name, stripMineAndJam(k, cols, spec));
  out.passes.push_back("BlockSkew");
  out.tuning.push_back(factorParam(k, "SKEW_LEVEL", ctx.options.skewLevel, 2));
  out.tuning.push_back({"SKEW_STRIPED", k.macro("SKEW_STRIPED"), {0, 1}, 1});
  out.remarks.push_back("skew: each thread computes " + k.macro("SKEW_LEVEL") +
                        " iterations of loop '" + cols->name + "', consecutive (" +
                        k.macro("SKEW_STRIPED") + "=0) or " + stride + " apart (=1, coalesced)");
  return out;
}

}  // namespace rtcuda
