// BoundingBox: a loop that is the only statement of the loop around it, with bounds that use
// the variables of the loops around it (a triangular nest), runs over the bounding box of its
// iterations, its body guarded by the original bounds, so that ParallelLoops can map it on
// threads (which needs bounds of the scalar parameters):
//
//   for (i = 0; i < n; i++)                 for (i = 0; i < n; i++)
//     for (j = 0; j <= i; j++)       ==>      for (j = 0; j < n; j++)
//       C[i][j] += ...;                         if (j >= 0 && j < i + 1)
//                                                 C[i][j] += ...;
//
// The iterations that run, and their order, are the same. A bound must change by a constant
// from one iteration of an outer loop to the next (affine in it); its extreme value is then
// at the first or the last iteration of that loop, whose own bounds must be of the parameters.
// Runs after Fusion (syrk's triangular loops once fused) and before ParallelLoops; lowerKernel
// keeps the result only when the nest gets more parallel loops. docs/passes/Interchange.md.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

namespace {

bool mentionsLoop(const Expr &e, const std::vector<Stmt> &path) {
  for (const Stmt &l : path)
    if (mentions(e, l->name)) return true;
  return false;
}

// The least (`lowest`) or greatest value of `e` over the iterations of the loops in `path`;
// null when a bound is not affine in a loop or that loop's own bounds use loops.
Expr extreme(Expr e, const std::vector<Stmt> &path, bool lowest) {
  for (size_t d = path.size(); d-- > 0;) {
    const Stmt &l = path[d];
    if (!mentions(e, l->name)) continue;
    int64_t step = 0, slope = 0;
    if (!isConst(l->step, &step) || step != 1 || mentionsLoop(l->min, path) ||
        mentionsLoop(l->end, path))
      return nullptr;
    Expr next = substitute(e, {{l->name, add(var(l->name, l->type), intImm(1))}});
    if (!constantDifference(next, e, &slope)) return nullptr;
    Expr first = l->min, last = sub(l->end, intImm(1));
    e = simplify(substitute(e, {{l->name, (slope >= 0) == lowest ? first : last}}));
  }
  return mentionsLoop(e, path) ? nullptr : e;
}

class Boxer {
public:
  std::vector<std::string> remarks;

  // `sole`: `s` is the only statement (comments aside) of the body of path.back().
  Stmt visit(const Stmt &s, std::vector<Stmt> &path, bool sole) {
    if (!s) return s;
    Stmt current = s;
    if (s->kind == StmtKind::For && sole && !path.empty() &&
        (mentionsLoop(s->min, path) || mentionsLoop(s->end, path)))
      if (Stmt boxed = box(s, path)) return boxed;  // its body is looked at no further
    auto copy = std::make_shared<StmtNode>(*s);
    bool changed = false;
    if (s->kind == StmtKind::For) {
      path.push_back(s);
      std::vector<Stmt> body = statementsOf(s->body);
      size_t real = 0;
      for (const Stmt &c : body) real += c->kind != StmtKind::Comment;
      for (Stmt &c : body) {
        Stmt n = visit(c, path, real == 1 && c->kind != StmtKind::Comment);
        changed |= n != c;
        c = n;
      }
      path.pop_back();
      if (changed) copy->body = withLoc(block(body), s->body->loc);
      return changed ? Stmt(copy) : s;
    }
    for (Stmt &c : copy->stmts) {
      Stmt n = visit(c, path, false);
      changed |= n != c;
      c = n;
    }
    for (Stmt *c : {&copy->body, &copy->elseBody}) {
      Stmt n = visit(*c, path, false);
      changed |= n != *c;
      *c = n;
    }
    return changed ? Stmt(copy) : s;
  }

private:
  Stmt box(const Stmt &loop, const std::vector<Stmt> &path) {
    std::string head = "loop '" + loop->name + "' (" + loop->loc.str() + ") keeps its bounds: ";
    int64_t step = 0;
    if (!isConst(loop->step, &step) || step != 1) {
      remarks.push_back(head + "its step is not 1");
      return nullptr;
    }
    Expr lo = extreme(loop->min, path, true), hi = extreme(loop->end, path, false);
    if (!lo || !hi) {
      remarks.push_back(head + "the least or greatest value of its bounds over the loops around "
                               "it is not known (a bound is not affine in them, or their own "
                               "bounds use loops)");
      return nullptr;
    }
    Expr j = var(loop->name, loop->type);
    Expr inside = land(binary(">=", j, loop->min), lt(j, loop->end));
    auto copy = std::make_shared<StmtNode>(*loop);
    copy->min = lo;
    copy->end = hi;
    copy->body = withLoc(block({withLoc(ifThen(inside, loop->body), loop->loc)}), loop->loc);
    remarks.push_back("loop '" + loop->name + "' (" + loop->loc.str() + ") runs from " +
                      print(lo) + " to " + print(hi) + ", the bounding box of its iterations, "
                      "guarded by its bounds " + print(loop->min) + " and " + print(loop->end));
    return copy;
  }
};

}  // namespace

Kernel boundingBox(const Kernel &k) {
  Boxer b;
  std::vector<Stmt> path;
  Kernel out = k;
  out.body = b.visit(k.body, path, false);
  out.remarks.insert(out.remarks.end(), b.remarks.begin(), b.remarks.end());
  return out;
}

}  // namespace rtcuda
