// LaneReduction's epilogue loops: a loop after the reduction that the lanes split once every
// lane holds the row's (or column's) sums, instead of lane 0 walking it alone. gramschmidt's
// kernel_gramschmidt_4 sums R[k][j] down column j, then updates the whole column,
// `for (i < m) A[i][j] -= Q[i][k] * R[k][j]`: with lane 0 (the block's first warp) walking the
// m rows it ran at 986 us per call on an H100 at m = n = 4096. docs/passes/LaneReduction.md.
#include "LaneReduction.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <map>
#include <set>

namespace rtcuda {

using namespace ir;

Effects effectsOf(const Stmt &s) {
  Effects e;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind == StmtKind::Decl || n->kind == StmtKind::Assign) e.scalars.insert(n->name);
    if (n->kind == StmtKind::For) e.scalars.insert(n->name);
    if (n->kind == StmtKind::Store) e.stored.insert(n->name);
    if (n->kind == StmtKind::Break || n->kind == StmtKind::Continue ||
        n->kind == StmtKind::Barrier || n->kind == StmtKind::While)
      e.other = true;
  }, [&](const Expr &x) {
    visitExpr(x, [&](const Expr &n) {
      if (n->kind == ExprKind::Load) e.loaded.insert(n->name);
      if (n->kind == ExprKind::Var) e.vars.insert(n->name);
      if (n->kind == ExprKind::Call && n->name.rfind("atomic", 0) == 0) e.other = true;
    });
  });
  return e;
}

namespace {

bool sameIndices(const std::vector<Expr> &a, const std::vector<Expr> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!equal(a[i], b[i])) return false;
  return true;
}

}  // namespace

bool independentIterations(const Kernel &k, const Stmt &loop,
                           const std::vector<std::string> &sums) {
  // The loop's scalars stay inside one iteration: declared in its body, set nowhere else (but
  // the sums, which the lanes combine).
  std::set<std::string> local;
  bool ok = true;
  visitStmt(loop->body, [&](const Stmt &n) {
    if (n->kind == StmtKind::Decl || n->kind == StmtKind::For) local.insert(n->name);
    if (n->kind == StmtKind::Assign && !local.count(n->name) &&
        std::find(sums.begin(), sums.end(), n->name) == sums.end())
      ok = false;
  });
  if (!ok) return false;
  // Each array the loop stores into: one subscript, moving by a non-zero constant with the
  // loop's variable (so every iteration its own element) and reading no local of the body; the
  // loop reads the array only there.
  std::map<std::string, std::vector<Expr>> element;
  visitStmt(loop->body, [&](const Stmt &n) {
    if (n->kind != StmtKind::Store || local.count(n->name)) return;
    if (!k.findParam(n->name)) ok = false;
    auto [it, fresh] = element.emplace(n->name, n->indices);
    if (!fresh && !sameIndices(it->second, n->indices)) ok = false;
  });
  for (const auto &[array, indices] : element) {
    bool moves = false;
    for (const Expr &i : indices) {
      for (const std::string &v : varsOf(i))
        if (local.count(v)) ok = false;
      Expr next = substitute(i, {{loop->name, add(var(loop->name), intImm(1))}});
      int64_t c = 0;
      if (constantDifference(next, i, &c)) {
        moves |= c != 0;
        continue;
      }
      // A flattened subscript moving by a row (`i * n + j`): the product of the array's
      // trailing extents, not zero where the array has an element to store.
      const Param *p = k.findParam(array);
      Expr diff = simplify(sub(next, i)), row = intImm(1);
      bool rowMove = false;
      for (size_t t = p->dims.size(); t-- > 1 && p->dims[t];) {
        row = mul(row, p->dims[t]);
        rowMove |= equal(diff, simplify(row));
      }
      if (!rowMove) ok = false;
      moves |= rowMove;
    }
    ok &= moves;
  }
  visitStmt(loop->body, nullptr, [&](const Expr &x) {
    visitExpr(x, [&](const Expr &n) {
      if (n->kind != ExprKind::Load) return;
      auto it = element.find(n->name);
      if (it != element.end() && !sameIndices(it->second, n->operands)) ok = false;
    });
  });
  return ok;
}

Stmt splittableEpilogue(const Kernel &k, const std::vector<Stmt> &after,
                        const std::vector<std::string> &accs, std::vector<Stmt> &steps) {
  steps.clear();
  if (after.empty()) return nullptr;
  const Stmt &loop = after.back();
  int64_t step = 0;
  if (loop->kind != StmtKind::For || loop->loopKind != LoopKind::Serial ||
      !isConst(loop->step, &step) || step != 1)
    return nullptr;
  // Scalar steps (`s = sqrtf(s)`, `float r = 1 / s`): they set a scalar from the sums, the
  // kernel's parameters, arrays it never writes and other such steps. Every lane may run them
  // once it holds the sums, so the loop may read what they set.
  std::vector<bool> scalarStep(after.size() - 1, false);
  std::vector<Effects> effects;
  for (size_t s = 0; s + 1 < after.size(); ++s) {
    effects.push_back(effectsOf(after[s]));
    const Stmt &st = after[s];
    const Effects &e = effects.back();
    bool readOnly = true;
    for (const std::string &a : e.loaded) readOnly &= !storesTo(k.body, a);
    scalarStep[s] = ((st->kind == StmtKind::Decl && !st->arraySize && !st->shared) || st->kind == StmtKind::Assign) &&
                    e.stored.empty() && readOnly && !e.other;
  }
  // A step reads no scalar another kind of statement sets, and sets none that one sets.
  for (bool changed = true; changed;) {
    changed = false;
    std::set<std::string> lane0;
    for (size_t s = 0; s < scalarStep.size(); ++s)
      if (!scalarStep[s]) lane0.insert(effects[s].scalars.begin(), effects[s].scalars.end());
    for (size_t s = 0; s < scalarStep.size(); ++s) {
      bool clash = false;
      for (const std::string &v : effects[s].vars) clash |= lane0.count(v) > 0;
      for (const std::string &v : effects[s].scalars) clash |= lane0.count(v) > 0;
      if (scalarStep[s] && clash) scalarStep[s] = false, changed = true;
    }
  }
  Effects pre;
  std::set<std::string> stepScalars;
  for (size_t s = 0; s + 1 < after.size(); ++s) {
    const Effects &e = effects[s];
    (scalarStep[s] ? stepScalars : pre.scalars).insert(e.scalars.begin(), e.scalars.end());
    pre.stored.insert(e.stored.begin(), e.stored.end());
    pre.loaded.insert(e.loaded.begin(), e.loaded.end());
    pre.other |= e.other;
    if (scalarStep[s]) steps.push_back(after[s]);
  }
  Effects body = effectsOf(loop->body);
  if (pre.other || body.other) return nullptr;
  // Lane 0 alone sets pre's other scalars: the loop reads none of them (nor its bounds).
  std::set<std::string> read = body.vars;
  for (const Expr &e : {loop->min, loop->end})
    for (const std::string &v : varsOf(e)) read.insert(v);
  bool readsSteps = false;
  for (const std::string &v : read) {
    if (pre.scalars.count(v)) return nullptr;
    readsSteps |= stepScalars.count(v) > 0;
  }
  // Only the steps the loop needs are run again: none, where it reads none.
  if (!readsSteps) steps.clear();
  // Lane 0's pre runs beside the other lanes' loop: pre touches nothing the loop stores.
  for (const std::string &a : body.stored)
    if (pre.stored.count(a) || pre.loaded.count(a)) return nullptr;
  if (!independentIterations(k, loop, {})) return nullptr;
  bool ok = true;
  // Loads of what pre stored: only the stores `X[e] = acc`, read as acc.
  std::vector<Stmt> sums;
  for (size_t s = 0; s + 1 < after.size(); ++s)
    visitStmt(after[s], [&](const Stmt &n) {
      if (n->kind == StmtKind::Store) sums.push_back(n);
    });
  Stmt result = mapStmt(loop, nullptr, [&](const Expr &n) -> Expr {
    if (n->kind != ExprKind::Load || !pre.stored.count(n->name)) return n;
    const Stmt *only = nullptr;
    int stores = 0;
    for (const Stmt &st : sums)
      if (st->name == n->name) ++stores, only = &st;
    if (stores == 1 && (*only)->op == "=" && (*only)->value->kind == ExprKind::Var &&
        std::find(accs.begin(), accs.end(), (*only)->value->name) != accs.end() &&
        sameIndices((*only)->indices, n->operands))
      return (*only)->value;
    ok = false;
    return n;
  });
  return ok ? result : nullptr;
}

}  // namespace rtcuda
