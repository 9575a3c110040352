// Interchange: a loop `k` inside another loop whose body is one loop `j` becomes `j` around
// `k`, when no dependence forbids it, so that `j` can join the parallel loops around it:
//
//   for (i ...) {                         for (i ...) {
//     for (k = 0; k < nk; k++)              for (j = 0; j < nj; j++)
//       for (j = 0; j < nj; j++)     ==>      for (k = 0; k < nk; k++)
//         C[i][j] += A[i][k] * B[k][j];         C[i][j] += A[i][k] * B[k][j];
//   }                                     }
//
// Legal when no two accesses to one element (one of them a write) run at iterations x before
// y of the same outer loops with x_k < y_k and x_j > y_j (direction (<, >) on (k, j)): those
// are the only pairs whose order the interchange reverses. isl decides that
// (orderedDependence, lib/Analysis/Dependence.cpp). The bounds of `j` must not use `k`, both
// steps are positive constants, and the body assigns no scalar declared outside it. Only a
// `k` that carries a dependence is moved (one that does not is parallel as it is). Runs
// before ParallelLoops; lowerKernel keeps it only when the nest gets more parallel loops.
// Loops it changes are not looked at again; docs/passes/Interchange.md.
//
// Triangular (asked for by lowerKernel where the nest would otherwise need atomics): bounds of
// `j` that use `k` with slope 1, one of them (`for k; for j <= k` or `for k; for j >= k`), the
// other of the parameters. Both loops' new bounds follow from the same inequalities (Fourier-
// Motzkin on two variables), where they need no min or max:
//
//   for (j = 0; j < n; j++)                  for (i = 0; i < n; i++)
//     for (i = 0; i <= j; i++)       ==>       for (j = i; j < n; j++)
//       y[i] += U[i][j] * x[j];                  y[i] += U[i][j] * x[j];
#include "rtcuda/Analysis/Dependence.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <array>
#include <optional>

namespace rtcuda {

using namespace ir;

namespace {

// The one loop a body consists of (comments aside), or null.
Stmt soleLoop(const Stmt &body) {
  Stmt found;
  for (const Stmt &s : statementsOf(body)) {
    if (s->kind == StmtKind::Comment) continue;
    if (found || s->kind != StmtKind::For) return nullptr;
    found = s;
  }
  return found;
}

std::string at(const Stmt &loop) { return "loop '" + loop->name + "' (" + loop->loc.str() + ")"; }

class Interchanger {
public:
  Interchanger(const Kernel &k, bool triangular) : k(k), triangular(triangular) {}
  std::vector<std::string> remarks;

  Stmt visit(const Stmt &s, std::vector<Stmt> &path) {
    if (!s) return s;
    // The outermost pair too where the interchange is triangular: its outer loop then becomes
    // the parallel one (ParallelLoops needs parameter bounds there, the box would need atomics).
    if (s->kind == StmtKind::For && (!path.empty() || triangular))
      if (Stmt swapped = tryInterchange(s, path)) return swapped;
    auto copy = std::make_shared<StmtNode>(*s);
    bool changed = false;
    if (s->kind == StmtKind::For) path.push_back(s);
    for (Stmt &c : copy->stmts) {
      Stmt n = visit(c, path);
      changed |= n != c;
      c = n;
    }
    for (Stmt *c : {&copy->body, &copy->elseBody}) {
      Stmt n = visit(*c, path);
      changed |= n != *c;
      *c = n;
    }
    if (s->kind == StmtKind::For) path.pop_back();
    return changed ? Stmt(copy) : s;
  }

private:
  const Kernel &k;
  bool triangular;

  // The bounds after the interchange of `outer` (k in [a, b)) and `inner` (j in [c, d)), one of
  // c, d being k plus a constant and the other free of k, both steps 1; null where the new
  // bounds would need a min or a max. With d = k + d0: j runs over [c, b - 1 + d0) and k over
  // [j - d0 + 1, b), which needs c - d0 + 1 >= a. With c = k + c0: j over [a + c0, d), k over
  // [a, j - c0 + 1), which needs d - c0 <= b.
  std::optional<std::array<Expr, 4>> triangularBounds(const Stmt &outer, const Stmt &inner) const {
    const std::string &o = outer->name;
    const Expr &a = outer->min, &b = outer->end, &c = inner->min, &d = inner->end;
    int64_t so = 0, si = 0;
    if (!isConst(outer->step, &so) || !isConst(inner->step, &si) || so != 1 || si != 1) return std::nullopt;
    for (const Expr &e : {a, b})
      if (mentions(e, inner->name)) return std::nullopt;
    // v - outer's variable, where v is that variable plus a constant.
    Expr ko = var(o, outer->type);
    auto offset = [&](const Expr &v) -> std::optional<int64_t> {
      int64_t slope = 0, off = 0;
      if (!constantDifference(substitute(v, {{o, add(ko, intImm(1))}}), v, &slope) || slope != 1 ||
          !constantDifference(v, ko, &off))
        return std::nullopt;
      return off;
    };
    const bool lowUses = mentions(c, o), highUses = mentions(d, o);
    if (lowUses == highUses) return std::nullopt;
    Expr ji = var(inner->name, inner->type);
    int64_t gap = 0;
    if (highUses) {
      std::optional<int64_t> d0 = offset(d);
      if (!d0 || !constantDifference(c, a, &gap) || gap < *d0 - 1) return std::nullopt;
      return std::array<Expr, 4>{c, simplify(add(sub(b, intImm(1)), intImm(*d0))),
                                 simplify(add(sub(ji, intImm(*d0)), intImm(1))), b};
    }
    std::optional<int64_t> c0 = offset(c);
    if (!c0 || !constantDifference(b, d, &gap) || gap < -*c0) return std::nullopt;
    return std::array<Expr, 4>{simplify(add(a, intImm(*c0))), d, a,
                               simplify(add(sub(ji, intImm(*c0)), intImm(1)))};
  }

  // `outer` with `inner` (its only statement) moved around it; null (with a remark saying
  // why, when the shape is there) when not legal.
  Stmt tryInterchange(const Stmt &outer, const std::vector<Stmt> &path) {
    Stmt inner = soleLoop(outer->body);
    if (!inner) return nullptr;
    std::string head = at(outer) + " and " + at(inner) + " not interchanged: ";
    int64_t so = 0, si = 0;
    if (!isConst(outer->step, &so) || !isConst(inner->step, &si) || so <= 0 || si <= 0) {
      remarks.push_back(head + "their steps are not both positive constants");
      return nullptr;
    }
    std::optional<std::array<Expr, 4>> bounds;
    if (mentions(inner->min, outer->name) || mentions(inner->end, outer->name)) {
      if (triangular) bounds = triangularBounds(outer, inner);
      if (!bounds) {
        remarks.push_back(head + "the bounds of loop '" + inner->name + "' depend on loop '" +
                          outer->name + "'");
        return nullptr;
      }
    }
    for (const Stmt &l : {outer, inner})
      if (std::string why = reorderBlocker(l); !why.empty()) {
        remarks.push_back(head + why);
        return nullptr;
      }
    std::vector<Stmt> loops = path;
    loops.push_back(outer);
    std::string order = sameIterationsOrder(path.size());
    std::string xo = "x" + std::to_string(path.size()), yo = "y" + std::to_string(path.size());
    std::string xi = "x" + std::to_string(path.size() + 1), yi = "y" + std::to_string(path.size() + 1);
    // Only a loop that carries a dependence is worth moving in: one that does not is parallel
    // as it is.
    if (!orderedDependence(k, loops, outer, outer, order + xo + " < " + yo, "earlier"))
      return nullptr;
    loops.push_back(inner);
    order += xo + " < " + yo + " and " + xi + " > " + yi;
    std::optional<Dependence> dep =
        orderedDependence(k, loops, outer, outer, order,
                          "in an earlier iteration of loop '" + outer->name +
                              "' and a later one of loop '" + inner->name + "'");
    if (dep) {
      remarks.push_back(head + (dep->failed ? dep->message
                                            : "the dependence analysis found a dependence with "
                                              "direction (<, >) on ('" + outer->name + "', '" +
                                              inner->name + "'): " + dep->message));
      return nullptr;
    }
    auto newInner = std::make_shared<StmtNode>(*outer);
    newInner->body = inner->body;
    newInner->loopKind = LoopKind::Serial;
    auto newOuter = std::make_shared<StmtNode>(*inner);
    newOuter->body = block({Stmt(newInner)});
    newOuter->loopKind = LoopKind::Serial;
    if (bounds) {
      newOuter->min = (*bounds)[0], newOuter->end = (*bounds)[1];
      newInner->min = (*bounds)[2], newInner->end = (*bounds)[3];
    }
    remarks.push_back(at(outer) + " and " + at(inner) + " interchanged: loop '" + inner->name +
                      "' now runs outside loop '" + outer->name + "' (no dependence with "
                      "direction (<, >) on them)" +
                      (bounds ? "; over the same triangle, '" + inner->name + "' from " +
                                    print((*bounds)[0]) + " to " + print((*bounds)[1]) + ", '" +
                                    outer->name + "' from " + print((*bounds)[2]) + " to " +
                                    print((*bounds)[3])
                              : std::string()));
    return newOuter;
  }
};

}  // namespace

Kernel interchangeLoops(const Kernel &k, bool triangular) {
  Interchanger ic(k, triangular);
  std::vector<Stmt> path;
  Kernel out = k;
  out.body = ic.visit(k.body, path);
  out.remarks.insert(out.remarks.end(), ic.remarks.begin(), ic.remarks.end());
  return out;
}

}  // namespace rtcuda
