// Small helpers the passes share (declared in Pass.h).
#include "rtcuda/Transforms/Pass.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

#include <functional>
#include <set>

namespace rtcuda {

using namespace ir;

std::vector<Stmt> statementsOf(const Stmt &s) {
  if (s && s->kind == StmtKind::Block) return s->stmts;
  return s ? std::vector<Stmt>{s} : std::vector<Stmt>{};
}

std::string reorderBlocker(const Stmt &loop) {
  for (const Expr &b : {loop->min, loop->end, loop->step})
    if (hasLoad(b)) return "the bounds of loop '" + loop->name + "' read an array";
  std::set<std::string> declared;
  std::string why;
  std::function<void(const Stmt &, int)> scan = [&](const Stmt &s, int depth) {
    if (!s || !why.empty()) return;
    if (s->kind == StmtKind::Decl || s->kind == StmtKind::For) declared.insert(s->name);
    if (s->kind == StmtKind::Assign && !declared.count(s->name))
      why = "loop '" + loop->name + "' assigns scalar '" + s->name + "' (" + s->loc.str() +
            "), declared outside it";
    if ((s->kind == StmtKind::Break || s->kind == StmtKind::Continue) && depth == 0)
      why = "loop '" + loop->name + "' has a break or continue (" + s->loc.str() + ")";
    int d = depth + (s->kind == StmtKind::For || s->kind == StmtKind::While);
    for (const Stmt &c : s->stmts) scan(c, d);
    scan(s->body, d);
    scan(s->elseBody, d);
  };
  scan(loop->body, 0);
  return why;
}

std::optional<int64_t> stride(const Expr &index, const std::string &v) {
  Expr moved = substitute(index, {{v, add(var(v), intImm(1))}});
  int64_t c = 0;
  if (!constantDifference(moved, index, &c)) return std::nullopt;
  return c;
}

bool hasLoad(const Expr &e) {
  bool found = false;
  visitExpr(e, [&](const Expr &n) { found |= n->kind == ExprKind::Load; });
  return found;
}

void visitAccesses(const Stmt &s,
                   const std::function<void(const std::string &, const std::vector<Expr> &)> &f) {
  if (!s) return;
  visitStmt(
      s, [&](const Stmt &n) { if (n->kind == StmtKind::Store) f(n->name, n->indices); },
      [&](const Expr &e) {
        visitExpr(e, [&](const Expr &x) { if (x->kind == ExprKind::Load) f(x->name, x->operands); });
      });
}

bool countsFromZero(const Stmt &loop) {
  int64_t lo = -1, step = 0;
  return isConst(loop->min, &lo) && lo == 0 && isConst(loop->step, &step) && step == 1;
}

bool storesTo(const Stmt &s, const std::string &array) {
  bool found = false;
  if (s) visitStmt(s, [&](const Stmt &n) { found |= n->kind == StmtKind::Store && n->name == array; });
  return found;
}

bool isVar(const Expr &e, const std::string &name) {
  return e->kind == ExprKind::Var && e->name == name;
}

size_t threadGuardIndex(const Kernel &k) {
  const std::vector<Stmt> &stmts = k.body->stmts;
  for (size_t d = 0; d + 1 < stmts.size(); ++d) {
    const Stmt &index = stmts[d], &guard = stmts[d + 1];
    if (index->kind != StmtKind::Decl || !index->value || guard->kind != StmtKind::If ||
        guard->elseBody)
      continue;
    bool usesThread = false;
    visitExpr(index->value, [&](const Expr &e) {
      usesThread |= e->kind == ExprKind::Var && e->name == "threadIdx.x";
    });
    const Expr &cond = guard->cond;
    if (usesThread && cond->kind == ExprKind::Binary && cond->name == "<" &&
        cond->operands[0]->kind == ExprKind::Var && cond->operands[0]->name == index->name)
      return d;
  }
  return stmts.size();
}

std::vector<Stmt> withBlockIndex(const std::vector<Stmt> &mapping, const Expr &block) {
  std::vector<Stmt> out;
  for (const Stmt &s : mapping)
    out.push_back(mapStmt(s, nullptr, [&](const Expr &n) -> Expr {  // every node, bottom-up
      return n->kind == ExprKind::Var && n->name == "blockIdx.x" ? block : n;
    }));
  return out;
}

std::optional<ElementUpdate> elementUpdate(const Stmt &s) {
  if (s->kind != StmtKind::Store) return std::nullopt;
  if (s->op == "+=" || s->op == "-=") return ElementUpdate{s->value, s->op == "-="};
  if (s->op != "=" || s->value->kind != ExprKind::Binary) return std::nullopt;
  auto self = [&](const Expr &e) {
    if (e->kind != ExprKind::Load || e->name != s->name || e->operands.size() != s->indices.size())
      return false;
    for (size_t d = 0; d < s->indices.size(); ++d)
      if (!equal(e->operands[d], s->indices[d])) return false;
    return true;
  };
  const Expr &a = s->value->operands[0], &b = s->value->operands[1];
  if (s->value->name == "+" && self(a)) return ElementUpdate{b, false};
  if (s->value->name == "+" && self(b)) return ElementUpdate{a, false};
  if (s->value->name == "-" && self(a)) return ElementUpdate{b, true};
  return std::nullopt;
}

std::set<std::string> unassignedIntegerParams(const Kernel &k) {
  std::set<std::string> names;
  for (const Param &p : k.params)
    if (!p.isArray && p.type.isInteger()) names.insert(p.name);
  auto unassign = [&](const Stmt &s) {
    if (s->kind == StmtKind::Assign || s->kind == StmtKind::Decl) names.erase(s->name);
  };
  visitStmt(k.body, unassign);
  visitStmt(k.finish, unassign);
  return names;
}

bool madeOf(const Expr &e, const std::set<std::string> &names) {
  bool ok = true;
  visitExpr(e, [&](const Expr &n) {
    if (n->kind == ExprKind::Var && !names.count(n->name)) ok = false;
    if (n->kind == ExprKind::Load || n->kind == ExprKind::Call) ok = false;
  });
  return ok;
}

Stmt soleStatement(const Kernel &k) {
  Stmt nest;
  for (const Stmt &s : k.body->stmts) {
    if (s->kind == StmtKind::Comment) continue;
    if (nest) return nullptr;
    nest = s;
  }
  return nest;
}

Expr gpuBuiltin(const std::string &name) { return var(name, Type::of(ScalarKind::UInt)); }

Type wideIndexType(const Type &t) {
  return t.isInteger() && t.bytes() == 8 ? t : Type::of(ScalarKind::LongLong);
}

Expr widenParams(const Expr &e, const Kernel &k, const Type &wide) {
  std::map<std::string, Expr> widened;
  for (const Param &p : k.params)
    if (!p.isArray && p.type.isInteger() && p.type.bytes() < 8)
      widened[p.name] = cast(wide, var(p.name, p.type));
  // A parameter widened before stays cast once.
  return mapExpr(substitute(e, widened), [&](const Expr &n) {
    const bool twice = n->kind == ExprKind::Cast && n->operands[0]->kind == ExprKind::Cast &&
                       n->type == n->operands[0]->type;
    return twice ? n->operands[0] : n;
  });
}

}  // namespace rtcuda
