// Fusion: two adjacent loops with the same bounds, inside another loop, become one loop whose
// body is the first body followed by the second, when no dependence forbids it:
//
//   for (i ...) {                           for (i ...) {
//     for (j = 0; j < nj; j++)                for (j = 0; j < nj; j++) {
//       C[i][j] *= beta;              ==>       C[i][j] *= beta;
//     for (j = 0; j < nj; j++)                  for (k = 0; k < nk; k++)
//       for (k = 0; k < nk; k++)                  C[i][j] += A[i][k] * B[k][j];
//         C[i][j] += A[i][k] * B[k][j];       }
//   }                                       }
//
// Every iteration of the first loop ran before every iteration of the second; fused, iteration
// y of the second runs before iteration x of the first exactly when y < x. So fusion is legal
// when no access of the first loop at x and access of the second at y (same iterations of the
// loops around them) touch one element, one of them writing, with x > y: isl decides that
// (orderedDependence, lib/Analysis/Dependence.cpp). Both steps are the same positive constant,
// neither body assigns a scalar declared outside it, they declare no name twice. Runs after
// Interchange (which makes gemm's second loop a `j` loop) and before ParallelLoops; lowerKernel
// keeps the result only when the nest gets more parallel loops. docs/passes/Interchange.md.
#include "rtcuda/Analysis/Dependence.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

using namespace ir;

namespace {

std::string at(const Stmt &loop) { return "loop '" + loop->name + "' (" + loop->loc.str() + ")"; }

std::set<std::string> declaredIn(const Stmt &s) {
  std::set<std::string> names;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind == StmtKind::Decl || n->kind == StmtKind::For) names.insert(n->name);
  });
  return names;
}

class Fuser {
public:
  explicit Fuser(const Kernel &k) : k(k) {}
  std::vector<std::string> remarks;
  std::set<std::pair<const StmtNode *, const StmtNode *>> declined;

  // Fuses the first pair of loops that can be fused (in the body of a loop); null if none.
  Stmt fuseOne(const Stmt &s, std::vector<Stmt> &path) {
    if (!s) return nullptr;
    if (s->kind == StmtKind::For) path.push_back(s);
    Stmt result;
    if (s->kind == StmtKind::Block && !path.empty()) {
      const std::vector<Stmt> &stmts = s->stmts;
      for (size_t i = 0; i + 1 < stmts.size() && !result; ++i) {
        size_t j = i + 1;
        while (j < stmts.size() && stmts[j]->kind == StmtKind::Comment) ++j;
        if (j == stmts.size()) break;
        if (Stmt fused = tryFuse(stmts[i], stmts[j], path)) {
          std::vector<Stmt> copy(stmts.begin(), stmts.begin() + i);
          copy.push_back(fused);
          copy.insert(copy.end(), stmts.begin() + j + 1, stmts.end());
          auto b = std::make_shared<StmtNode>(*s);
          b->stmts = copy;
          result = b;
        }
      }
    }
    auto copy = std::make_shared<StmtNode>(*s);
    for (size_t i = 0; i < copy->stmts.size() && !result; ++i)
      if (Stmt n = fuseOne(copy->stmts[i], path)) copy->stmts[i] = n, result = copy;
    for (Stmt *c : {&copy->body, &copy->elseBody})
      if (!result)
        if (Stmt n = fuseOne(*c, path)) *c = n, result = copy;
    if (s->kind == StmtKind::For) path.pop_back();
    return result;
  }

private:
  const Kernel &k;

  Stmt tryFuse(const Stmt &a, const Stmt &b, const std::vector<Stmt> &path) {
    if (a->kind != StmtKind::For || b->kind != StmtKind::For) return nullptr;
    int64_t sa = 0, sb = 0;
    if (!isConst(a->step, &sa) || !isConst(b->step, &sb) || sa != sb || sa <= 0) return nullptr;
    // Same iterations: the same bounds once the second loop's variable is the first's.
    std::map<std::string, Expr> rename{{b->name, var(a->name, a->type)}};
    if (a->type.kind != b->type.kind || !equal(simplify(a->min), simplify(b->min)) ||
        !equal(simplify(a->end), simplify(b->end)))
      return nullptr;
    if (!declined.insert({a.get(), b.get()}).second) return nullptr;
    std::string head = at(a) + " and " + at(b) + " not fused: ";
    for (const Stmt &l : {a, b})
      if (std::string why = reorderBlocker(l); !why.empty()) {
        remarks.push_back(head + why);
        return nullptr;
      }
    std::set<std::string> da = declaredIn(a->body), db = declaredIn(b->body);
    db.erase(b->name);
    for (const std::string &n : db)
      if (da.count(n) || n == a->name) {
        remarks.push_back(head + "both declare '" + n + "'");
        return nullptr;
      }
    if (b->name != a->name) {
      bool clash = false;
      visitStmt(b->body, [](const Stmt &) {}, [&](const Expr &e) { clash |= mentions(e, a->name); });
      if (clash) {
        remarks.push_back(head + "the second uses '" + a->name + "', the first's variable");
        return nullptr;
      }
    }
    std::vector<Stmt> loops = path;
    loops.push_back(a);
    std::string order = sameIterationsOrder(path.size());
    order += "x" + std::to_string(path.size()) + " > y" + std::to_string(path.size());
    std::optional<Dependence> dep = orderedDependence(
        k, loops, a, b, order, "in a later iteration of the first loop");
    if (dep) {
      remarks.push_back(head + (dep->failed ? dep->message
                                            : "the dependence analysis found a dependence from "
                                              "a later iteration of the first to an earlier "
                                              "one of the second: " + dep->message));
      return nullptr;
    }
    std::vector<Stmt> body = statementsOf(a->body);
    for (const Stmt &s : statementsOf(b->body))
      body.push_back(b->name == a->name ? s : substitute(s, rename));
    auto fused = std::make_shared<StmtNode>(*a);
    fused->body = withLoc(block(body), a->body ? a->body->loc : a->loc);
    remarks.push_back(at(a) + " and " + at(b) + " fused: no dependence from a later iteration "
                      "of the first to an earlier one of the second");
    return fused;
  }
};

}  // namespace

Kernel fuseLoops(const Kernel &k) {
  Kernel out = k;
  std::vector<std::string> remarks;
  std::set<std::pair<const StmtNode *, const StmtNode *>> declined;
  // One fusion at a time: the next one is analyzed on the kernel as fused so far.
  for (int round = 0; round < 64; ++round) {
    Fuser f(out);
    f.declined = declined;
    std::vector<Stmt> path;
    Stmt body = f.fuseOne(out.body, path);
    remarks.insert(remarks.end(), f.remarks.begin(), f.remarks.end());
    declined = f.declined;
    if (!body) break;
    out.body = body;
  }
  out.remarks.insert(out.remarks.end(), remarks.begin(), remarks.end());
  return out;
}

}  // namespace rtcuda
