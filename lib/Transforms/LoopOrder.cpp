// LoopOrder: in a nest of parallel loops, the loop that moves the last subscript of the most
// array accesses by one element goes innermost, so that neighbouring threads (the innermost
// loop's neighbouring iterations, once the nest is collapsed or mapped onto a grid) touch
// neighbouring addresses however the nest was written:
//
//   for (j = 0; j < cols; j++)  // parallel          for (i = 0; i < rows; i++)  // parallel
//     for (i = 0; i < rows; i++)  // parallel  ==>     for (j = 0; j < cols; j++)  // parallel
//       A[i][j] -= q[i] * r[j];                           A[i][j] -= q[i] * r[j];
//
// The loops carry nothing, so any order computes the same. Runs after ParallelLoops, before
// every mapping pass; docs/passes/LoopOrder.md.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

namespace {

// How many array accesses of `body` have `v` moving their last subscript by one element.
int contiguousAccesses(const Stmt &body, const std::string &v) {
  int count = 0;
  auto unitStride = [&](const Expr &last) {
    std::optional<int64_t> s = stride(last, v);
    return s && (*s == 1 || *s == -1);
  };
  visitStmt(body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Store && !s->indices.empty()) count += unitStride(s->indices.back());
  }, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Load && !n->operands.empty()) count += unitStride(n->operands.back());
    });
  });
  return count;
}

}  // namespace

Kernel loopOrder(const Kernel &k, const KernelOptions &o) {
  // A config that names the nest's loops means them as written.
  if (o.parallelLoops > 0 || o.matrix2D || o.assumeParallelAll || !o.assumeParallel.empty())
    return k;
  std::vector<Stmt> nest = parallelLoops(k);
  if (nest.size() < 2) return k;
  // Bounds that use another loop's variable fix the order (BoundingBox made triangles
  // rectangles where that gave more parallel loops).
  for (const Stmt &l : nest)
    for (const Stmt &other : nest)
      if (mentions(l->min, other->name) || mentions(l->end, other->name) ||
          mentions(l->step, other->name))
        return k;
  const Stmt &body = nest.back()->body;
  size_t best = nest.size() - 1;
  int bestCount = contiguousAccesses(body, nest[best]->name);
  for (size_t d = 0; d + 1 < nest.size(); ++d) {
    int c = contiguousAccesses(body, nest[d]->name);
    if (c > bestCount) best = d, bestCount = c;  // a tie keeps the order as written
  }
  if (best == nest.size() - 1) return k;
  std::vector<Stmt> order;
  for (size_t d = 0; d < nest.size(); ++d)
    if (d != best) order.push_back(nest[d]);
  order.push_back(nest[best]);
  Stmt inner = body;  // rebuilt innermost first: each loop a copy around the next
  for (size_t d = order.size(); d-- > 0;) {
    auto l = std::make_shared<StmtNode>(*order[d]);
    l->body = inner;
    inner = l;
  }
  Kernel out = k;
  std::vector<Stmt> stmts = k.body->stmts;
  for (Stmt &s : stmts)
    if (s == nest.front()) s = inner;
  out.body = withLoc(block(stmts), k.body->loc);
  out.remarks.push_back("loop '" + nest[best]->name + "' (" + nest[best]->loc.str() +
                        ") moved innermost: it moves the last subscript of " +
                        std::to_string(bestCount) + " access(es) by one element, loop '" +
                        nest.back()->name + "' of " +
                        std::to_string(contiguousAccesses(body, nest.back()->name)) +
                        ", so neighbouring threads touch neighbouring addresses");
  out.passes.push_back("LoopOrder");
  return out;
}

}  // namespace rtcuda
