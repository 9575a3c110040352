// Overlapping arguments at the host program's calls (issue 16): a kernel written
// y[i] = x[i] + x[i + 1] and called k(n, a, a) is a recurrence in C. The launch copies every
// array parameter to the GPU on its own, and the threads run in any order, so such a call is
// refused with its line unless neither parameter is written or one is restrict (then the C
// itself promises that they do not overlap).
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/Pass.h"

#include <optional>

namespace rtcuda {

namespace {

// The same array passed for read-only `x` and written `y` (cg: scaleaddstore(p, p, r, ...),
// C[i] = A[i] * alpha + B[i]) computes what C computes when every access to either uses one
// subscript list (each iteration of the parallel loops owns its element) and every read of x
// comes before the iteration's first store to y and outside serial loops: then x's separate
// copy holds what C would read.
class InPlace {
public:
  InPlace(const std::string &x, const std::string &y) : x(x), y(y) {}
  bool ok = true;

  void walk(const ir::Stmt &s, int serialDepth) {
    if (!s || !ok) return;
    bool readsX = false;
    auto look = [&](const ir::Expr &e) {
      ir::visitExpr(e, [&](const ir::Expr &n) {
        if (n->kind != ir::ExprKind::Load || (n->name != x && n->name != y)) return;
        sameSubscripts(n->operands);
        readsX |= n->name == x;
      });
    };
    for (const ir::Expr &e : {s->min, s->end, s->step, s->cond, s->value, s->arraySize})
      if (e) look(e);
    for (const ir::Expr &i : s->indices) look(i);
    if (readsX && (stored || serialDepth > 0)) ok = false;
    if (s->kind == ir::StmtKind::Store && (s->name == x || s->name == y)) {
      sameSubscripts(s->indices);
      if (s->name == x) ok = false;
      stored = true;
    }
    int depth = serialDepth;
    if ((s->kind == ir::StmtKind::For && s->loopKind != ir::LoopKind::Parallel) ||
        s->kind == ir::StmtKind::While)
      ++depth;
    for (const ir::Stmt &c : s->stmts) walk(c, depth);
    walk(s->body, depth);
    walk(s->elseBody, depth);
  }

private:
  std::string x, y;
  bool stored = false;
  std::optional<std::vector<ir::Expr>> subscripts;

  void sameSubscripts(const std::vector<ir::Expr> &idx) {
    if (!subscripts) {
      subscripts = idx;
      return;
    }
    if (subscripts->size() != idx.size()) ok = false;
    for (size_t i = 0; ok && i < idx.size(); ++i) ok = ir::equal((*subscripts)[i], idx[i]);
  }
};

}  // namespace

void checkCallAliasing(const ir::Kernel &k, const CallSites &sites) {
  for (const ir::SourceLoc &use : sites.indirectUses)
    throw CompileError(use, "kernel '" + k.name + "' is used here other than by a direct call "
                            "(a function pointer or its address); rtcuda replaces direct calls "
                            "by launches only: call it directly");
  auto written = [&](const std::string &name) {
    bool w = false;
    ir::visitStmt(k.body, [&](const ir::Stmt &s) {
      w |= s->kind == ir::StmtKind::Store && s->name == name;
    });
    ir::visitStmt(k.finish, [&](const ir::Stmt &s) {
      w |= s->kind == ir::StmtKind::Store && s->name == name;
    });
    return w;
  };
  for (const CallSites::Overlap &o : sites.overlaps) {
    const ir::Param *a = k.findParam(o.first), *b = k.findParam(o.second);
    if (!a || !b || a->isRestrict || b->isRestrict) continue;
    if (!written(a->name) && !written(b->name)) continue;
    const ir::Param &w = written(a->name) ? *a : *b;
    const ir::Param &other = &w == a ? *b : *a;
    if (o.same && !written(other.name) && !k.finish) {
      InPlace check(other.name, w.name);
      check.walk(k.body, 0);
      if (check.ok) continue;
    }
    throw CompileError(o.call, "the arguments " + o.args + " of this call of kernel '" + k.name +
                                   "' may overlap, and the kernel writes '" + w.name +
                                   "' and reads or writes '" + other.name + "', neither restrict: "
                                   "in C one sees what the other writes, on the GPU each is "
                                   "copied separately and the iterations run in any order; "
                                   "pass arrays that do not overlap");
  }
}

}  // namespace rtcuda
