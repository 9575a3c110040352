// RedundantLoadElim: a value loaded in every iteration of a merge or skew loop, from the same
// address, is loaded once, into a register, before the loop.
//
// After BlockMerge a thread runs the body once per row of its strip, so a load that does not
// depend on the row (B[k][j] in a matrix multiply) repeats MERGE_LEVEL times; nested merge x
// skew loops repeat the row operand SKEW_LEVEL times and the column operand MERGE_LEVEL times.
// Two rewrites, innermost loop first:
//
//   invariant in the loop:                     float B_reg = B[k * p + j];
//     for m { int i = ..;           ==>        for m { int i = ..;
//       sum[m] += A[i * m + k] * B[k * p + j];     sum[m] += A[i * m + k] * B_reg;
//
//   invariant in the outer loop, varying       float B_reg[S];
//   with the inner one:                        for s { int j = ..; B_reg[s] = B[k * p + j]; }
//     for m { .. for s { int j = ..;    ==>    for m { .. for s { int j = ..;
//       sum[..] += a * B[k * p + j];               sum[..] += a * B_reg[s];
//
// Only loads that run unconditionally in the loop's body or under the strip's own guard
// (`if (i < n)`) move, never out of a user's `if` or a serial loop, and only from arrays the
// loop does not write. A load that was under a guard is loaded under the first iteration's
// guard (the weakest: the strip's index grows with the iteration), so it reads no address the
// original program would not have read.
#include "StripMineJam.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

// Loads that every run of statement `s` evaluates (not inside a select's branches or the right
// side of && and ||).
void unconditionalLoads(const Expr &e, std::vector<Expr> &out) {
  if (!e) return;
  if (e->kind == ExprKind::Load) out.push_back(e);
  if (e->kind == ExprKind::Select) return unconditionalLoads(e->operands[0], out);
  if (e->kind == ExprKind::Binary && (e->name == "&&" || e->name == "||"))
    return unconditionalLoads(e->operands[0], out);
  for (const Expr &o : e->operands) unconditionalLoads(o, out);
}

void statementLoads(const Stmt &s, std::vector<Expr> &out) {
  for (const Expr &e : {s->value, s->cond}) unconditionalLoads(e, out);
  for (const Expr &i : s->indices) unconditionalLoads(i, out);
}

class Eliminator {
public:
  explicit Eliminator(const Kernel &k) : k(k) {}

  // Bottom-up over the kernel: inner strips are rewritten before the strips around them.
  Stmt run(const Stmt &body) {
    return mapStmt(body, [&](const Stmt &s) { return isStrip(s) ? rewrite(s) : s; });
  }
  int hoisted = 0;

private:
  const Kernel &k;
  std::set<std::string> taken;

  std::string name(const std::string &base) {
    std::string n = freshName(k, base);
    while (taken.count(n)) n += "_";
    taken.insert(n);
    return n;
  }

  static std::set<std::string> declaredIn(const Stmt &s) {
    std::set<std::string> names;
    visitStmt(s, [&](const Stmt &n) {
      if (n->kind == StmtKind::Decl || n->kind == StmtKind::For) names.insert(n->name);
    });
    return names;
  }

  static Expr zero(const Type &t) { return cast(t, intImm(0)); }

  static Stmt replaceLoad(const Stmt &s, const Expr &from, const Expr &to) {
    return mapStmt(s, [](const Stmt &n) { return n; },
                   [&](const Expr &e) { return equal(e, from) ? to : e; });
  }

  Stmt rewrite(const Stmt &loop) {
    StripView outer = viewStrip(loop);
    std::set<std::string> inside = declaredIn(loop);
    std::vector<Stmt> before;
    Stmt result = loop;
    std::vector<Expr> seen;
    auto already = [&](const Expr &e) {
      for (const Expr &s : seen)
        if (equal(s, e)) return true;
      seen.push_back(e);
      return false;
    };
    // Loads at the strip's own level: invariant ones become one register.
    for (const Stmt &s : outer.rest) {
      std::vector<Expr> loads;
      if (isStrip(s)) continue;
      if (s->kind == StmtKind::Decl || s->kind == StmtKind::Assign || s->kind == StmtKind::Store)
        statementLoads(s, loads);
      for (const Expr &l : loads) {
        if (mentionsAny(l, inside) || storesTo(loop, l->name) || already(l)) continue;
        std::string reg = name(l->name + "_reg");
        Expr value = outer.guard ? select(outer.guardAtFirst(), l, zero(l->type)) : l;
        before.push_back(decl(reg, l->type, value));
        result = replaceLoad(result, l, var(reg, l->type));
        ++hoisted;
      }
    }
    // Loads of a nested strip that vary with it but not with this one: a register per
    // iteration of the nested strip, loaded before this loop.
    for (const Stmt &s : outer.rest) {
      if (!isStrip(s)) continue;
      StripView inner = viewStrip(s);
      std::set<std::string> outerOnly;
      for (const std::string &n : inside)
        if (!inner.names.count(n)) outerOnly.insert(n);
      bool headerFree = true;
      for (const Stmt &h : inner.header) headerFree &= !mentionsAny(h->value, outerOnly);
      if (!headerFree || (inner.guard && mentionsAny(inner.guard, outerOnly))) continue;
      for (const Stmt &t : inner.rest) {
        std::vector<Expr> loads;
        if (t->kind == StmtKind::Decl || t->kind == StmtKind::Assign || t->kind == StmtKind::Store)
          statementLoads(t, loads);
        for (const Expr &l : loads) {
          if (mentionsAny(l, outerOnly) || !mentionsAny(l, inner.names) ||
              storesTo(loop, l->name) || already(l))
            continue;
          std::string reg = name(l->name + "_reg");
          Expr slot = simplify(sub(var(inner.loop->name), inner.loop->min));
          Expr cond = inner.guard;
          if (outer.guard) cond = cond ? land(outer.guardAtFirst(), cond) : outer.guardAtFirst();
          std::vector<Stmt> fill(inner.header.begin(), inner.header.end());
          fill.push_back(store(reg, {slot}, "=", cond ? select(cond, l, zero(l->type)) : l));
          before.push_back(decl(reg, l->type, nullptr, simplify(tripCount(inner.loop))));
          before.push_back(forLoop(inner.loop->name, inner.loop->type, inner.loop->min,
                                   inner.loop->end, inner.loop->step, block(fill),
                                   inner.loop->loopKind));
          result = replaceLoad(result, l, load(reg, {slot}, l->type));
          ++hoisted;
        }
      }
    }
    if (before.empty()) return loop;
    before.push_back(result);
    return block(before);
  }
};

// Scalar declarations nothing after them reads any more (a strip's index whose only use was a
// load that moved): dropped, so the output compiles without unused-variable warnings.
Stmt dropUnusedDecls(const Stmt &body) {
  return mapStmt(body, [](const Stmt &s) -> Stmt {
    if (s->kind != StmtKind::Block) return s;
    std::vector<Stmt> kept;
    for (size_t i = 0; i < s->stmts.size(); ++i) {
      const Stmt &d = s->stmts[i];
      bool candidate = d->kind == StmtKind::Decl && d->value && !d->arraySize && !d->shared;
      visitExpr(candidate ? d->value : nullptr, [&](const Expr &e) {
        candidate &= e->kind != ExprKind::Call;  // keep calls: they may have effects
      });
      bool used = false;
      for (size_t j = i + 1; candidate && !used && j < s->stmts.size(); ++j)
        visitStmt(s->stmts[j], [&](const Stmt &n) {
          used |= (n->kind == StmtKind::Assign || n->kind == StmtKind::Store) && n->name == d->name;
        }, [&](const Expr &e) { used |= mentions(e, d->name); });
      if (!candidate || used) kept.push_back(d);
    }
    if (kept.size() == s->stmts.size()) return s;
    auto copy = std::make_shared<StmtNode>(*s);
    copy->stmts = kept;
    return copy;
  });
}

}  // namespace

Kernel redundantLoadElim(const Kernel &k, const PassContext &) {
  Eliminator e(k);
  Stmt body = e.run(k.body);
  if (!e.hoisted) return k;
  Kernel out = k;
  out.body = dropUnusedDecls(body);
  out.passes.push_back("RedundantLoadElim");
  out.remarks.push_back("redundant loads: " + std::to_string(e.hoisted) + " load(s) repeated "
                        "across merge/skew iterations now read once into registers");
  return out;
}

}  // namespace rtcuda
