#include "rtcuda/IR/Simplify.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <algorithm>
#include <optional>

namespace rtcuda::ir {

namespace {

// A polynomial over opaque integer atoms: sum of coeff * (atom * atom * ...), plus a constant.
struct Term {
  std::vector<std::string> key;  // sorted printed atoms: identifies the monomial
  std::vector<Expr> atoms;       // in the order the user wrote them
  int64_t coeff = 0;
};

struct Poly {
  std::vector<Term> terms;
  int64_t constant = 0;
  Type type = Type::of(ScalarKind::Int);

  void addTerm(const Term &t) {
    for (Term &u : terms)
      if (u.key == t.key) {
        u.coeff += t.coeff;
        return;
      }
    terms.push_back(t);
  }
};

constexpr size_t kMaxTerms = 32;

bool isIntArith(const Expr &e) {
  return e->kind == ExprKind::Binary && e->type.isInteger() &&
         (e->name == "+" || e->name == "-" || e->name == "*") &&
         e->operands[0]->type.isInteger() && e->operands[1]->type.isInteger() &&
         e->operands[0]->type.bytes() <= e->type.bytes() &&
         e->operands[1]->type.bytes() <= e->type.bytes();
}

Expr fromPoly(const Poly &p);

size_t liveTerms(const Poly &p) {
  size_t n = p.constant != 0;
  for (const Term &t : p.terms) n += t.coeff != 0;
  return n;
}

// expand: distribute products of sums; otherwise such a product stays one atom.
std::optional<Poly> toPoly(const Expr &e, bool expand) {
  Poly p;
  p.type = e->type;
  if (e->kind == ExprKind::IntImm) {
    p.constant = e->intValue;
    return p;
  }
  if (e->kind == ExprKind::Unary && e->name == "-" && e->type.isInteger()) {
    auto a = toPoly(e->operands[0], expand);
    if (!a) return std::nullopt;
    for (Term &t : a->terms) t.coeff = -t.coeff;
    a->constant = -a->constant;
    return a;
  }
  if (isIntArith(e)) {
    auto a = toPoly(e->operands[0], expand);
    auto b = toPoly(e->operands[1], expand);
    if (!a || !b) return std::nullopt;
    if (e->name == "*" && !expand && (liveTerms(*a) > 1 || liveTerms(*b) > 1) &&
        !a->terms.empty() && !b->terms.empty()) {
      // (x + 1) * (y - 2) stays a product: an atom whose factors are simplified.
      Term t;
      t.coeff = 1;
      t.atoms = {binary("*", fromPoly(*a), fromPoly(*b))};
      t.key = {print(t.atoms[0])};
      p.terms.push_back(t);
      return p;
    }
    if (e->name == "+" || e->name == "-") {
      int sign = e->name == "+" ? 1 : -1;
      p = *a;
      p.type = e->type;
      for (Term t : b->terms) {
        t.coeff *= sign;
        p.addTerm(t);
      }
      p.constant += sign * b->constant;
    } else {
      p.constant = a->constant * b->constant;
      for (const Term &x : a->terms)
        for (const Term &y : b->terms) {
          Term t;
          t.coeff = x.coeff * y.coeff;
          t.atoms = x.atoms;
          t.atoms.insert(t.atoms.end(), y.atoms.begin(), y.atoms.end());
          t.key = x.key;
          t.key.insert(t.key.end(), y.key.begin(), y.key.end());
          std::sort(t.key.begin(), t.key.end());
          p.addTerm(t);
        }
      for (const Term &t : a->terms) {
        Term scaled = t;
        scaled.coeff *= b->constant;
        p.addTerm(scaled);
      }
      for (const Term &t : b->terms) {
        Term scaled = t;
        scaled.coeff *= a->constant;
        p.addTerm(scaled);
      }
    }
    if (p.terms.size() > kMaxTerms) return std::nullopt;
    return p;
  }
  if (!e->type.isInteger()) return std::nullopt;
  Term t;
  t.coeff = 1;
  t.atoms = {e};
  t.key = {print(e)};
  p.terms.push_back(t);
  return p;
}

Expr fromPoly(const Poly &p) {
  Expr result;
  for (const Term &t : p.terms) {
    if (t.coeff == 0) continue;
    Expr product;
    for (const Expr &a : t.atoms) product = product ? binary("*", product, a) : a;
    int64_t mag = t.coeff < 0 ? -t.coeff : t.coeff;
    if (mag != 1) product = binary("*", intImm(mag, p.type), product);
    if (!result)
      result = t.coeff < 0 ? unary("-", product) : product;
    else
      result = binary(t.coeff < 0 ? "-" : "+", result, product);
  }
  if (!result) return intImm(p.constant, p.type);
  if (p.constant > 0) result = binary("+", result, intImm(p.constant, p.type));
  if (p.constant < 0) result = binary("-", result, intImm(-p.constant, p.type));
  // Keep the node's type (a polynomial built from int atoms under a long node stays long).
  auto typed = std::make_shared<ExprNode>(*result);
  typed->type = p.type;
  return typed;
}

Expr foldNode(const Expr &e) {
  int64_t a, b;
  if (e->kind == ExprKind::Binary && e->type.isInteger() && isConst(e->operands[0], &a) &&
      isConst(e->operands[1], &b)) {
    const std::string &op = e->name;
    if (op == "/" && b != 0) return intImm(a / b, e->type);
    if (op == "%" && b != 0) return intImm(a % b, e->type);
    if (op == "<") return intImm(a < b, e->type);
    if (op == "<=") return intImm(a <= b, e->type);
    if (op == ">") return intImm(a > b, e->type);
    if (op == ">=") return intImm(a >= b, e->type);
    if (op == "==") return intImm(a == b, e->type);
    if (op == "!=") return intImm(a != b, e->type);
  }
  if (e->kind == ExprKind::Binary && e->type.isInteger() && isConst(e->operands[1], &b) &&
      b == 1 && (e->name == "/"))
    return e->operands[0];
  if (e->kind == ExprKind::Binary && e->type.isInteger() && isConst(e->operands[1], &b) &&
      b == 1 && e->name == "%")
    return intImm(0, e->type);
  if (isIntArith(e)) {
    // Only normalize at the root of a +,-,* tree: the parent will do it otherwise.
    // Expand products of sums only where that makes the expression shorter:
    // (N - 1) * N + N becomes N * N, (N - 16) * (N - 16) stays as written.
    auto kept = toPoly(e, false);
    auto expanded = toPoly(e, true);
    if (expanded && (!kept || liveTerms(*expanded) < liveTerms(*kept))) return fromPoly(*expanded);
    if (kept) return fromPoly(*kept);
  }
  return e;
}

}  // namespace

Expr simplify(const Expr &e) { return mapExpr(e, foldNode); }

Stmt simplify(const Stmt &s) { return mapStmt(s, nullptr, foldNode); }

bool constantDifference(const Expr &a, const Expr &b, int64_t *diff) {
  Expr d = simplify(binary("-", a, b));
  return isConst(d, diff);
}

}  // namespace rtcuda::ir
