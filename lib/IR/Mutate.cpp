#include "rtcuda/IR/Mutate.h"

namespace rtcuda::ir {

void visitExpr(const Expr &e, const std::function<void(const Expr &)> &fn) {
  if (!e) return;
  fn(e);
  for (const Expr &op : e->operands) visitExpr(op, fn);
}

static void visitStmtExprs(const Stmt &s, const std::function<void(const Expr &)> &fn) {
  for (const Expr *e : {&s->min, &s->end, &s->step, &s->cond, &s->value, &s->arraySize})
    if (*e) fn(*e);
  for (const Expr &i : s->indices) fn(i);
}

void visitStmt(const Stmt &s, const std::function<void(const Stmt &)> &onStmt,
               const std::function<void(const Expr &)> &onExpr) {
  if (!s) return;
  if (onStmt) onStmt(s);
  if (onExpr) visitStmtExprs(s, onExpr);
  for (const Stmt &c : s->stmts) visitStmt(c, onStmt, onExpr);
  visitStmt(s->body, onStmt, onExpr);
  visitStmt(s->elseBody, onStmt, onExpr);
}

Expr mapExpr(const Expr &e, const ExprFn &fn) {
  if (!e) return e;
  std::vector<Expr> ops;
  bool changed = false;
  for (const Expr &op : e->operands) {
    ops.push_back(mapExpr(op, fn));
    changed |= ops.back() != op;
  }
  Expr rebuilt = e;
  if (changed) {
    auto copy = std::make_shared<ExprNode>(*e);
    copy->operands = std::move(ops);
    rebuilt = copy;
  }
  return fn(rebuilt);
}

Stmt mapStmt(const Stmt &s, const StmtFn &stmtFn, const ExprFn &exprFn) {
  if (!s) return s;
  auto copy = std::make_shared<StmtNode>(*s);
  bool changed = false;
  auto mapE = [&](Expr &e) {
    if (!e || !exprFn) return;
    Expr n = mapExpr(e, exprFn);
    changed |= n != e;
    e = n;
  };
  for (Expr *e : {&copy->min, &copy->end, &copy->step, &copy->cond, &copy->value,
                  &copy->arraySize})
    mapE(*e);
  for (Expr &i : copy->indices) mapE(i);
  for (Stmt &c : copy->stmts) {
    Stmt n = mapStmt(c, stmtFn, exprFn);
    changed |= n != c;
    c = n;
  }
  for (Stmt *c : {&copy->body, &copy->elseBody}) {
    if (!*c) continue;
    Stmt n = mapStmt(*c, stmtFn, exprFn);
    changed |= n != *c;
    *c = n;
  }
  Stmt rebuilt = changed ? Stmt(copy) : s;
  return stmtFn ? stmtFn(rebuilt) : rebuilt;
}

Expr substitute(const Expr &e, const std::map<std::string, Expr> &values) {
  return mapExpr(e, [&](const Expr &n) -> Expr {
    if (n->kind == ExprKind::Var) {
      auto it = values.find(n->name);
      if (it != values.end()) return it->second;
    }
    return n;
  });
}

Stmt substitute(const Stmt &s, const std::map<std::string, Expr> &values) {
  return mapStmt(s, nullptr, [&](const Expr &n) -> Expr {
    if (n->kind == ExprKind::Var) {
      auto it = values.find(n->name);
      if (it != values.end()) return it->second;
    }
    return n;
  });
}

bool mentions(const Expr &e, const std::string &name) {
  bool found = false;
  visitExpr(e, [&](const Expr &n) {
    if (n->kind == ExprKind::Var && n->name == name) found = true;
  });
  return found;
}

bool mentionsAny(const Expr &e, const std::set<std::string> &names) {
  bool found = false;
  visitExpr(e, [&](const Expr &n) {
    if (n->kind == ExprKind::Var && names.count(n->name)) found = true;
  });
  return found;
}

std::set<std::string> varsOf(const Expr &e) {
  std::set<std::string> out;
  visitExpr(e, [&](const Expr &n) {
    if (n->kind == ExprKind::Var) out.insert(n->name);
  });
  return out;
}

bool equal(const Expr &a, const Expr &b) {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->kind != b->kind || a->name != b->name || a->intValue != b->intValue ||
      a->floatValue != b->floatValue || a->type != b->type ||
      a->operands.size() != b->operands.size())
    return false;
  for (size_t i = 0; i < a->operands.size(); ++i)
    if (!equal(a->operands[i], b->operands[i])) return false;
  return true;
}

}  // namespace rtcuda::ir
