// BatchCollapse: two outer parallel loops that every array they touch takes as its first two
// subscripts, X[r][q][...], become one loop over the rows of those arrays seen as
// two-dimensional, so a batched contraction is the two-loop contraction RegisterTiling tiles
// (doitgen after ArrayExpansion):
//
//   for (r = 0; r < nr; r++)          // parallel        for (rq = 0; rq < (nr - 1) * 256 + nq; rq++)
//     for (q = 0; q < nq; q++)        // parallel   ==>    for (p = 0; p < np; p++)
//       for (p = 0; p < np; p++) {    // parallel            if (rq % 256 < nq) {
//         T[r][q][p] = 0;                                      T[rq][p] = 0;
//         for (s ...) T[r][q][p] += A[r][q][s] * C4[s][p];     for (s ...) T[rq][p] += A[rq][s] * C4[s][p];
//       }                                                    }
//
// with A and T of dims [NR][256][...] taken as [NR * 256][...] in this kernel: row r * 256 + q is
// the same element. The guard skips the rows of q >= nq (none when nq is the dimension); the
// same elements are touched in the same order per thread. Runs after ParallelLoops, before the
// contraction mapping is chosen; docs/passes/BatchCollapse.md.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <map>

namespace rtcuda {

using namespace ir;

namespace {

// Whether some serial loop inside `s` reads one of `arrays`: a row operand of a contraction.
bool readsInSerialLoop(const Stmt &s, const std::map<std::string, Expr> &arrays) {
  bool found = false;
  visitStmt(s, [&](const Stmt &l) {
    if (l->kind != StmtKind::For || l->loopKind != LoopKind::Serial) return;
    visitStmt(l->body, nullptr, [&](const Expr &e) {
      visitExpr(e, [&](const Expr &x) {
        found |= x->kind == ExprKind::Load && arrays.count(x->name);
      });
    });
  });
  return found;
}

}  // namespace

Kernel batchCollapse(const Kernel &k) {
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.size() < 3 || !k.reductions.empty() || !k.atomicArrays.empty()) return k;
  const Stmt &r = loops[0], &q = loops[1];
  std::vector<Stmt> rBody = statementsOf(r->body), qBody = statementsOf(q->body);
  if (rBody.size() != 1 || rBody[0] != q || qBody.size() != 1 || qBody[0] != loops[2]) return k;
  if (!countsFromZero(r) || !countsFromZero(q) || mentions(q->end, r->name)) return k;
  // Every access that uses r or q: X[r][q][...] of an array parameter whose second dimension
  // D is the same for all; the new row is r * D + q.
  std::map<std::string, Expr> arrays;  // array -> D
  std::map<std::string, int> accesses, batched;
  bool ok = true;
  auto note = [&](const std::string &name, const std::vector<Expr> &x) {
    ++accesses[name];
    bool uses = false;
    for (const Expr &i : x) uses |= mentions(i, r->name) || mentions(i, q->name);
    if (!uses) return;
    const Param *p = k.findParam(name);
    if (!p || !p->isArray || p->dims.size() < 3 || x.size() != p->dims.size() || !p->dims[1] ||
        !isVar(x[0], r->name) || !isVar(x[1], q->name)) {
      ok = false;
      return;
    }
    for (size_t d = 2; d < x.size(); ++d)
      ok &= !mentions(x[d], r->name) && !mentions(x[d], q->name);
    ++batched[name];
    arrays[name] = p->dims[1];
  };
  visitAccesses(q->body, note);
  if (!ok || arrays.empty()) return k;
  // The arrays' accesses outside this nest count too (the whole kernel takes the new shape).
  std::map<std::string, int> all;
  for (const Stmt &part : {k.body, k.finish})
    visitAccesses(part, [&](const std::string &name, const std::vector<Expr> &) { ++all[name]; });
  Expr D = arrays.begin()->second;
  for (const auto &[name, d] : arrays)
    if (!equal(d, D) || batched[name] != all[name]) return k;
  if (!readsInSerialLoop(q->body, arrays)) return k;
  std::string row = freshName(k, r->name + q->name);
  Expr rowVar = var(row, r->type);
  Stmt inner = mapStmt(
      q->body,
      [&](const Stmt &s) -> Stmt {
        if (s->kind != StmtKind::Store || !arrays.count(s->name)) return s;
        auto c = std::make_shared<StmtNode>(*s);
        c->indices.erase(c->indices.begin(), c->indices.begin() + 1);
        c->indices[0] = rowVar;
        return c;
      },
      [&](const Expr &x) -> Expr {  // mapStmt applies it to every node
        if (x->kind != ExprKind::Load || !arrays.count(x->name)) return x;
        auto c = std::make_shared<ExprNode>(*x);
        c->operands.erase(c->operands.begin(), c->operands.begin() + 1);
        c->operands[0] = rowVar;
        return c;
      });
  bool left = false;
  visitStmt(inner, [&](const Stmt &s) { left |= s->kind == StmtKind::For && (s->name == r->name || s->name == q->name); },
            [&](const Expr &e) { left |= mentions(e, r->name) || mentions(e, q->name); });
  if (left) return k;
  bool full = equal(simplify(q->end), simplify(D));
  Expr rows = full ? mul(r->end, D) : add(mul(sub(r->end, intImm(1)), D), q->end);
  // p's body runs only for the rows of q < nq.
  Stmt p = statementsOf(inner)[0];
  auto pGuarded = std::make_shared<StmtNode>(*p);
  if (!full)
    pGuarded->body = withLoc(block({withLoc(ifThen(lt(mod(rowVar, D), q->end), p->body), p->loc)}),
                             p->body->loc);
  auto collapsed = std::make_shared<StmtNode>(*r);
  collapsed->name = row;
  collapsed->end = simplify(rows);
  collapsed->body = withLoc(block({pGuarded}), r->body->loc);
  Kernel out = k;
  std::vector<Stmt> top = statementsOf(k.body);
  bool placed = false;
  for (Stmt &s : top)
    if (s == r) s = collapsed, placed = true;
  if (!placed) return k;
  out.body = withLoc(block(top), k.body->loc);
  for (Param &prm : out.params)
    if (arrays.count(prm.name)) {
      Expr first = prm.dims[0] ? simplify(mul(prm.dims[0], D)) : nullptr;
      prm.dims.erase(prm.dims.begin());
      prm.dims[0] = first;
    }
  std::string names;
  for (const auto &a : arrays) names += (names.empty() ? "'" : ", '") + a.first + "'";
  out.passes.push_back("BatchCollapse");
  out.remarks.push_back("batch: loops '" + r->name + "' and '" + q->name + "' are the first two "
                        "subscripts of every access to " + names + " (rows of " + print(D) +
                        "): one loop '" + row + "' over the " + print(collapsed->end) +
                        " rows of those arrays taken as two-dimensional" +
                        (full ? "" : ", guarded by " + row + " % " + print(D) + " < " +
                                         print(q->end)));
  return out;
}

}  // namespace rtcuda
