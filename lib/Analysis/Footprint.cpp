#include "rtcuda/Analysis/Footprint.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

#include <set>

namespace rtcuda {

namespace {

using namespace ir;

class RangeWalker {
public:
  explicit RangeWalker(const Kernel &k) : kernel(k) {
    for (const Param &p : k.params)
      if (!p.isArray) symbols.insert(p.name);
    // Locals assigned after their declaration have no single definition to take a range from.
    visitStmt(k.body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Assign) reassigned.insert(s->name);
    });
  }

  void walk(const Stmt &s) {
    if (!s) return;
    switch (s->kind) {
    case StmtKind::For: {
      int64_t step = 1;
      isConst(s->step, &step);
      SymRange first = rangeOf(s->min);
      SymRange last = rangeOf(step > 0 ? sub(s->end, intImm(1)) : add(s->end, intImm(1)));
      env[s->name] = step > 0 ? SymRange{first.lo, last.hi} : SymRange{last.lo, first.hi};
      noteExpr(s->min);  // bounds may read arrays (CSR row pointers)
      noteExpr(s->end);
      walk(s->body);
      return;
    }
    case StmtKind::Decl:
      if (s->value && !s->arraySize && !reassigned.count(s->name) && s->type.isInteger())
        env[s->name] = rangeOf(s->value);
      else
        env.erase(s->name);
      noteExpr(s->value);
      return;
    case StmtKind::Store:
      note(s->name, s->indices, true, s->op != "=");
      for (const Expr &i : s->indices) noteExpr(i);
      noteExpr(s->value);
      return;
    default:
      for (const Expr *e : {&s->cond, &s->value, &s->min, &s->end}) noteExpr(*e);
      for (const Stmt &c : s->stmts) walk(c);
      walk(s->body);
      walk(s->elseBody);
    }
  }

  std::map<std::string, ArrayFootprint> result() {
    std::map<std::string, ArrayFootprint> out;
    for (const Param &p : kernel.params) {
      if (!p.isArray) continue;
      ArrayFootprint f;
      f.read = reads.count(p.name) > 0;
      f.written = writes.count(p.name) > 0;
      if (p.dims[0]) {
        f.rows = p.dims[0];
      } else if (!unknownRows.count(p.name) && rowMax.count(p.name)) {
        for (const Expr &hi : rowMax[p.name]) f.rows = f.rows ? maxOf(f.rows, hi) : hi;
        f.rows = simplify(add(f.rows, intImm(1)));
      }
      if (f.rows) {
        Expr total = f.rows;
        for (size_t d = 1; d < p.dims.size(); ++d) total = mul(total, p.dims[d]);
        f.elements = simplify(total);
      }
      out[p.name] = f;
    }
    return out;
  }

private:
  const Kernel &kernel;
  std::set<std::string> symbols, reassigned, reads, writes, unknownRows;
  std::map<std::string, SymRange> env;
  std::map<std::string, std::vector<Expr>> rowMax;

  static Expr maxOf(const Expr &a, const Expr &b) {
    int64_t d;
    if (constantDifference(a, b, &d)) return d >= 0 ? a : b;
    return call("rtcuda_max", {a, b}, Type::of(ScalarKind::LongLong));
  }

  void note(const std::string &array, const std::vector<Expr> &indices, bool write, bool read) {
    (write ? writes : reads).insert(array);
    if (read) reads.insert(array);
    SymRange r = indices.empty() ? SymRange{} : rangeOf(indices[0]);
    if (!r.hi) {
      unknownRows.insert(array);
      return;
    }
    auto &list = rowMax[array];
    Expr hi = simplify(r.hi);
    for (Expr &known : list) {
      int64_t d;
      if (constantDifference(hi, known, &d)) {
        if (d > 0) known = hi;
        return;
      }
    }
    list.push_back(hi);
  }

  void noteExpr(const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Load) note(n->name, n->operands, false, true);
    });
  }

  SymRange rangeOf(const Expr &e) {
    int64_t c;
    if (isConst(e, &c)) return {e, e};
    switch (e->kind) {
    case ExprKind::Var: {
      if (symbols.count(e->name)) return {e, e};
      auto it = env.find(e->name);
      return it != env.end() ? it->second : SymRange{};
    }
    case ExprKind::Cast:
      return e->type.isInteger() ? rangeOf(e->operands[0]) : SymRange{};
    case ExprKind::Unary:
      if (e->name == "-") {
        SymRange a = rangeOf(e->operands[0]);
        if (a.lo && a.hi) return {unary("-", a.hi), unary("-", a.lo)};
      }
      return {};
    case ExprKind::Binary: {
      const std::string &op = e->name;
      const Expr &x = e->operands[0], &y = e->operands[1];
      if (op == "&" && isConst(y, &c) && c >= 0) return {intImm(0), y};
      if (op == "&" && isConst(x, &c) && c >= 0) return {intImm(0), x};
      if (op == "%" && isConst(y, &c) && c > 0) return {intImm(-(c - 1)), intImm(c - 1)};
      SymRange a = rangeOf(x), b = rangeOf(y);
      if (!a.lo || !a.hi) return {};
      if (op == "+" && b.lo && b.hi) return {add(a.lo, b.lo), add(a.hi, b.hi)};
      if (op == "-" && b.lo && b.hi) return {sub(a.lo, b.hi), sub(a.hi, b.lo)};
      if (op == "*" || op == "/") {
        // A constant or an expression of sizes (assumed >= 0) scales monotonically.
        bool constant = isConst(y, &c);
        bool symbolic = !constant && isSize(y);
        if (op == "/" && !(constant && c > 0)) return {};
        if (constant && c < 0) return {binary(op, a.hi, y), binary(op, a.lo, y)};
        if (constant || symbolic) return {binary(op, a.lo, y), binary(op, a.hi, y)};
        if (op == "*" && isSize(x) && b.lo && b.hi) return {mul(x, b.lo), mul(x, b.hi)};
      }
      return {};
    }
    default:
      return {};
    }
  }

  // An expression of scalar parameters and constants only.
  bool isSize(const Expr &e) const {
    bool ok = true;
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Var && !symbols.count(n->name)) ok = false;
      if (n->kind == ExprKind::Load || n->kind == ExprKind::Call) ok = false;
      if (n->kind == ExprKind::Unary && n->name == "-") ok = false;
    });
    return ok;
  }
};

}  // namespace

std::map<std::string, ArrayFootprint> computeFootprints(const ir::Kernel &k) {
  RangeWalker w(k);
  w.walk(k.body);
  w.walk(k.finish);  // the statements after the nest (a reduction's result)
  return w.result();
}

}  // namespace rtcuda
