#include "rtcuda/Analysis/Reductions.h"

#include "rtcuda/IR/Mutate.h"

#include <functional>

namespace rtcuda {

namespace {

using namespace ir;
using Pred = std::function<bool(const Expr &)>;

std::optional<std::string> minMaxCall(const std::string &fn) {
  if (fn == "fmaxf" || fn == "fmax" || fn == "max") return "max";
  if (fn == "fminf" || fn == "fmin" || fn == "min") return "min";
  return std::nullopt;
}

// `value` combines the old value (isSelf) with an operand that does not mention it.
std::optional<UpdateForm> matchValue(const Expr &v, const Pred &isSelf, const Pred &mentionsSelf) {
  auto other = [&](const Expr &a, const Expr &b) -> Expr {
    if (isSelf(a) && !mentionsSelf(b)) return b;
    if (isSelf(b) && !mentionsSelf(a)) return a;
    return nullptr;
  };
  if (v->kind == ExprKind::Binary) {
    const std::string &op = v->name;
    const Expr &a = v->operands[0], &b = v->operands[1];
    if (op == "+" || op == "*" || op == "|" || op == "&" || op == "^")
      if (Expr e = other(a, b)) return UpdateForm{op, e, false};
    if (op == "-" && isSelf(a) && !mentionsSelf(b)) return UpdateForm{"+", b, true};
    return std::nullopt;
  }
  if (v->kind == ExprKind::Call && v->operands.size() == 2) {
    auto op = minMaxCall(v->name);
    if (!op) return std::nullopt;
    if (Expr e = other(v->operands[0], v->operands[1])) return UpdateForm{*op, e, false};
    return std::nullopt;
  }
  if (v->kind == ExprKind::Select) {
    // a > b ? a : b is max(a, b); a > b ? b : a is min(a, b); likewise for <, >=, <=.
    const Expr &c = v->operands[0], &t = v->operands[1], &f = v->operands[2];
    if (c->kind != ExprKind::Binary) return std::nullopt;
    const std::string &cmp = c->name;
    bool greater = cmp == ">" || cmp == ">=", less = cmp == "<" || cmp == "<=";
    if (!greater && !less) return std::nullopt;
    const Expr &a = c->operands[0], &b = c->operands[1];
    Expr e = other(a, b);
    if (!e) return std::nullopt;
    bool takesA;
    if (equal(t, a) && equal(f, b)) takesA = true;
    else if (equal(t, b) && equal(f, a)) takesA = false;
    else return std::nullopt;
    return UpdateForm{greater == takesA ? "max" : "min", e, false};
  }
  return std::nullopt;
}

std::optional<UpdateForm> matchCompound(const std::string &op, const Expr &value,
                                        const Pred &mentionsSelf) {
  if (mentionsSelf(value)) return std::nullopt;
  if (op == "+=") return UpdateForm{"+", value, false};
  if (op == "-=") return UpdateForm{"+", value, true};
  if (op == "*=" || op == "|=" || op == "&=" || op == "^=")
    return UpdateForm{op.substr(0, 1), value, false};
  return std::nullopt;
}

std::optional<UpdateForm> matchUpdate(const std::string &op, const Expr &value,
                                      const Pred &isSelf, const Pred &mentionsSelf) {
  if (op == "=") return matchValue(value, isSelf, mentionsSelf);
  return matchCompound(op, value, mentionsSelf);
}

// if (e > m) m = e;  (max)   if (e < m) m = e;  (min), with either operand order.
std::optional<std::string> ifForm(const Stmt &s, const std::string &var) {
  if (s->elseBody || s->cond->kind != ExprKind::Binary) return std::nullopt;
  Stmt only = s->body;
  while (only && only->kind == StmtKind::Block && only->stmts.size() == 1) only = only->stmts[0];
  if (!only || only->kind != StmtKind::Assign || only->name != var || only->op != "=")
    return std::nullopt;
  const std::string &cmp = s->cond->name;
  bool greater = cmp == ">" || cmp == ">=", less = cmp == "<" || cmp == "<=";
  if (!greater && !less) return std::nullopt;
  const Expr &a = s->cond->operands[0], &b = s->cond->operands[1];
  const Expr &e = only->value;
  if (mentions(e, var)) return std::nullopt;
  bool varLeft = a->kind == ExprKind::Var && a->name == var && equal(b, e);
  bool varRight = b->kind == ExprKind::Var && b->name == var && equal(a, e);
  if (!varLeft && !varRight) return std::nullopt;
  // e > m (or m < e) replaces m by a larger value: max.
  bool eGreater = varRight ? greater : less;
  return eGreater ? "max" : "min";
}

class ScalarWalker {
public:
  explicit ScalarWalker(const std::string &var) : var(var) {}
  ScalarUse use;

  void walk(const Stmt &s) {
    if (!s || use.blocker) return;
    if (s->kind == StmtKind::Assign && s->name == var) {
      Pred self = [&](const Expr &e) { return e->kind == ExprKind::Var && e->name == var; };
      Pred mentionsSelf = [&](const Expr &e) { return mentions(e, var); };
      auto form = matchUpdate(s->op, s->value, self, mentionsSelf);
      use.assigned = true;
      note(form ? std::optional<std::string>(form->op) : std::nullopt, s);
      return;
    }
    if (s->kind == StmtKind::If) {
      if (auto op = ifForm(s, var)) {
        use.assigned = true;
        note(op, s);
        return;
      }
    }
    if (s->kind == StmtKind::Decl && s->name == var) return block(s);  // shadowed: keep it simple
    bool reads = false;
    for (const Expr *e : {&s->min, &s->end, &s->step, &s->cond, &s->value, &s->arraySize})
      reads |= *e && mentions(*e, var);
    for (const Expr &i : s->indices) reads |= mentions(i, var);
    if (reads) return block(s);
    for (const Stmt &c : s->stmts) walk(c);
    walk(s->body);
    walk(s->elseBody);
  }

private:
  std::string var;

  void block(const Stmt &s) {
    if (!use.blocker) use.blocker = s;
    use.op.reset();
  }

  void note(const std::optional<std::string> &op, const Stmt &s) {
    if (!op || (use.op && *use.op != *op)) return block(s);
    if (!seen) use.op = op;
    seen = true;
  }

  bool seen = false;
};

}  // namespace

std::optional<UpdateForm> arrayUpdate(const Stmt &store) {
  if (store->kind != StmtKind::Store) return std::nullopt;
  const std::string &array = store->name;
  Pred self = [&](const Expr &e) {
    if (e->kind != ExprKind::Load || e->name != array ||
        e->operands.size() != store->indices.size())
      return false;
    for (size_t i = 0; i < e->operands.size(); ++i)
      if (!equal(e->operands[i], store->indices[i])) return false;
    return true;
  };
  // The operand may read other elements of the array (x[i] -= L[i][j] * x[j]): the dependence
  // analysis tests those reads against the updates like any other access. It must not read the
  // updated element itself.
  Pred mentionsSelf = [&](const Expr &e) {
    bool found = false;
    visitExpr(e, [&](const Expr &n) { found |= self(n); });
    return found;
  };
  for (const Expr &i : store->indices) {
    bool readsArray = false;
    visitExpr(i, [&](const Expr &n) { readsArray |= n->kind == ExprKind::Load && n->name == array; });
    if (readsArray) return std::nullopt;
  }
  return matchUpdate(store->op, store->value, self, mentionsSelf);
}

ScalarUse classifyScalar(const Stmt &nest, const std::string &var) {
  ScalarWalker w(var);
  w.walk(nest);
  if (w.use.blocker) w.use.op.reset();
  return w.use;
}

bool reducibleType(const Type &t, const std::string &op) {
  bool bitwise = op == "|" || op == "&" || op == "^";
  switch (t.kind) {
  case ScalarKind::Int: case ScalarKind::UInt: return true;
  case ScalarKind::Float: case ScalarKind::Double: return !bitwise;
  default: return false;
  }
}

}  // namespace rtcuda
