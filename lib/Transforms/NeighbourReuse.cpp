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
// A stencil's strips get a path without guards where they are whole (wholeStripsFirst): the
// thread's loads issue together and a value two outputs share is read once. A stencil of three
// or more parallel loops also gets ROW_LEVEL consecutive iterations of its middle loop per
// thread (the rows above and below then come from registers, not from other blocks through L2),
// with its own defaults (2 planes x 4 rows x 1 column, the fastest point measured). A nest of
// three or more parallel loops whose every load reads the element its store writes (add3d) gets
// MERGE_LEVEL planes per thread, also with the whole-strip path.
//
// Applies when the config turns neither `merge` nor `skew` on (when it does, it has chosen), the
// kernel has no reductions across threads and no atomics, every serial loop in the nest has a
// constant trip count (longer loops are reductions, which LaneReduction maps), and the nest
// either reads one array at two places a constant apart, or reads, inside a constant loop, a
// value that depends on none of the parallel loops, or is element-wise as above. Measured on
// an H100 (docs/performance/filters.md): the 5-point stencil 0.65x -> 0.90x copy bandwidth (merge and
// skew, session 6), 0.85x -> 0.89x with the whole-strip path (session 10); the 7-point 3-D
// stencil 0.79x -> 0.85x; add3d at 1031 x 257 x 131 0.79x -> 0.89x.
#include "StripMineJam.h"

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

// A body of plain stores whose loads all read the element the store writes (B[k][j][i] =
// A[k][j][i] + 2 * C[k][j][i]): no loop, no condition, and no array both read and written (in
// place, Y = a * X + Y: the compiler may not move a copy's loads of Y above the store of the
// copy before, so the copies' loads would not be in flight together; axpy3d ran at 0.68x copy
// bandwidth with 4 planes per thread, H100, session 10). The arrays read must be restrict
// (restrictArray) for the same reason.
bool elementwiseBody(const Stmt &body) {
  bool ok = true, any = false;
  std::set<std::string> stored, read;
  for (const Stmt &s : statementsOf(body)) {
    if (s->kind != StmtKind::Store || s->op != "=") return false;
    any = true;
    stored.insert(s->name);
    visitExpr(s->value, [&](const Expr &n) {
      if (n->kind != ExprKind::Load) return;
      read.insert(n->name);
      if (n->operands.size() != s->indices.size()) ok = false;
      for (size_t d = 0; ok && d < n->operands.size(); ++d)
        ok = equal(n->operands[d], s->indices[d]);
    });
  }
  for (const std::string &a : stored) ok &= !read.count(a);
  return ok && any;
}

// Whether the kernel's arrays will be `restrict` (what ReadOnlyCache keeps or adds): then the
// compiler may move a load above a store to another array, and a strip's loads can issue
// together. Checked the same way: the host program's calls where there is one, else the
// declaration.
bool restrictArray(const Kernel &k, const std::string &name, const PassContext &ctx) {
  const Param *p = k.findParam(name);
  if (!p || !p->isArray) return false;
  if (ctx.callSites && ctx.callSites->known) return !ctx.callSites->mayAlias.count(name);
  return p->isRestrict;
}

// Sets the default of the tuning parameter `name` (a pass's) to its value closest to `wanted`.
void setDefault(Kernel &k, const std::string &name, int wanted) {
  for (TuningParam &p : k.tuning)
    if (p.name == name) p.defaultValue = closestValue(p.values, wanted);
}

// The innermost parallel loop's body with the whole-strip path first.
Kernel withWholeStrips(const Kernel &k) {
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.empty()) return k;
  auto inner = std::make_shared<StmtNode>(*loops.back());
  inner->body = wholeStripsFirst(inner->body);
  return replaceParallelLoop(k, inner->name, inner);
}

// A nest of three or more parallel loops computing each element from the same element of its
// inputs: with one output per thread, each thread recovers three indices from the collapsed
// one (two divisions) and has its two or three loads alone in flight, which left add3d at
// 0.79x copy bandwidth on an H100 (1031 x 257 x 131). MERGE_LEVEL planes per thread share the
// divisions, and where the strip is whole their loads issue together (same run: 2 planes
// 0.89x, 4 planes 0.84x, 8 planes 0.82x; at 509^3 4 planes 0.97x; docs/performance/filters.md).
Kernel severalPlanes(const Kernel &k, const PassContext &ctx) {
  KernelOptions o = ctx.options;
  o.merge = true;
  o.mergeLevel = TuningRange{1, 8};
  PassContext c{o, ctx.diags, ctx.callSites};
  Kernel out = blockMerge(k, c);
  if (out.passes.size() == k.passes.size()) return k;
  out = withWholeStrips(out);
  setDefault(out, "MERGE_LEVEL", 2);
  out.passes.push_back("NeighbourReuse");
  const std::string planes = parallelLoops(k)[0]->name;
  out.remarks.push_back("several planes: each output reads only the element it writes; " +
                        k.macro("MERGE_LEVEL") + " iterations of loop '" + planes +
                        "' per thread share the index arithmetic, their loads in flight together");
  return out;
}

// ROW_LEVEL consecutive iterations per thread of the middle parallel loop (the rows of a 3-D
// stencil): the thread's rows share their neighbours along it in registers. With one row per
// thread the rows above and below come from other blocks through L2, which bounded the 7-point
// stencil (H100: 87-94% of L2 throughput, 3.5 sectors read from L2 per output). False when
// the loop's step is not 1.
bool stripRows(Kernel &out, const Kernel &k) {
  std::vector<Stmt> loops = parallelLoops(out);
  const Stmt middle = loops[loops.size() - 2];
  int64_t step = 0;
  if (!isConst(middle->step, &step) || step != 1) return false;
  StripSpec spec;
  spec.factor = var(k.macro("ROW_LEVEL"));
  spec.blockSize = var(k.macro("BLOCKSIZE"));  // unused: the rows are consecutive
  spec.kind = LoopKind::Merge;
  spec.stripVarBase = "r";
  spec.outerSuffix = "_rows";
  out = replaceParallelLoop(out, middle->name, stripMineAndJam(out, middle, spec));
  out.tuning.push_back(factorParam(k, "ROW_LEVEL", TuningRange{1, 4}, 4));
  out.remarks.push_back("rows: each thread computes " + k.macro("ROW_LEVEL") +
                        " consecutive iterations of loop '" + middle->name + "'");
  return true;
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
  bool elementwise = !r.neighbours && !r.sharedTaps && loops.size() >= 3 && !loads.empty() &&
                     elementwiseBody(loops.back()->body);
  for (const auto &[array, at] : loads) elementwise &= restrictArray(k, array, ctx);
  if (r.longLoop || !(r.neighbours || r.sharedTaps || elementwise)) return k;
  if (elementwise) return severalPlanes(k, ctx);

  KernelOptions o = ctx.options;
  o.merge = o.skew = true;
  o.mergeLevel = o.skewLevel = TuningRange{1, 8};
  PassContext c{o, ctx.diags, ctx.callSites};
  Kernel out = blockMerge(k, c);
  const bool rows = r.neighbours && loops.size() >= 3 &&
                    out.passes.size() > k.passes.size() && stripRows(out, k);
  out = blockSkew(out, c);
  if (out.passes.size() == k.passes.size()) return k;
  if (r.neighbours && !r.sharedTaps) out = withWholeStrips(out);
  // 3-D (H100, 509 x 511 x 513, same run; planes x rows x columns per thread): 4 x 2 x 2
  // 0.76x copy bandwidth, 2 x 2 x 2 0.82x, 4 x 2 x 1 0.81x, 4 x 4 x 1 0.79x, 8 x 2 x 1 0.78x,
  // 2 x 4 x 1 0.85x; 4 x 1 x 2 (the mapping before rows) 0.79x. Fewer planes and more rows
  // per thread read less through L2.
  if (rows) {
    setDefault(out, "MERGE_LEVEL", 2);
    setDefault(out, "SKEW_LEVEL", 1);
  }
  out.passes.push_back("NeighbourReuse");
  out.remarks.push_back(std::string("neighbour reuse: ") +
                        (r.neighbours ? "one array is read at places a constant apart"
                                      : "every iteration reads the same filter values") +
                        "; several outputs per thread (merge and skew), shared reads once");
  return out;
}

}  // namespace rtcuda
