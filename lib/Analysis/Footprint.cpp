#include "rtcuda/Analysis/Footprint.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

#include <algorithm>
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

  // Called at every access, where `rangeOf` knows the ranges of the loops around it.
  AccessVisitor onAccess;

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
    if (onAccess) onAccess(array, indices, write, [this](const Expr &e) { return rangeOf(e); });
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

void visitAccessRanges(const ir::Kernel &k, const AccessVisitor &visit) {
  RangeWalker w(k);
  w.onAccess = visit;
  w.walk(k.body);
  w.walk(k.finish);
}

}  // namespace rtcuda

namespace rtcuda {

namespace {

using namespace ir;

// Constant bounds of an integer expression of constants and serial loop variables.
bool constantRange(const Expr &e, const std::map<std::string, std::pair<int64_t, int64_t>> &loops,
                   int64_t &lo, int64_t &hi) {
  int64_t c;
  if (constantDifference(e, intImm(0), &c)) return lo = hi = c, true;
  if (e->kind == ExprKind::Var) {
    auto it = loops.find(e->name);
    if (it == loops.end()) return false;
    lo = it->second.first, hi = it->second.second;
    return true;
  }
  if (e->kind == ExprKind::Cast && e->type.isInteger()) return constantRange(e->operands[0], loops, lo, hi);
  if (e->kind != ExprKind::Binary) return false;
  int64_t alo, ahi, blo, bhi;
  if (!constantRange(e->operands[0], loops, alo, ahi) ||
      !constantRange(e->operands[1], loops, blo, bhi))
    return false;
  if (e->name == "+") return lo = alo + blo, hi = ahi + bhi, true;
  if (e->name == "-") return lo = alo - bhi, hi = ahi - blo, true;
  if (e->name == "*") {
    int64_t p[] = {alo * blo, alo * bhi, ahi * blo, ahi * bhi};
    lo = *std::min_element(p, p + 4), hi = *std::max_element(p, p + 4);
    return true;
  }
  return false;
}

class WindowWalker {
public:
  WindowWalker(const std::vector<std::string> &vars) : parallel(vars) {}
  std::map<std::string, ReadWindow> windows;
  std::map<std::string, std::string> why;

  void walk(const Stmt &s, int64_t trips) {
    if (!s) return;
    if (s->kind == StmtKind::For) {
      int64_t min, step, lo, hi;
      Expr count = simplify(tripCount(s));
      int64_t n = 0;
      // constantDifference: a constant such as -1 may stay a negation after simplify.
      if (s->loopKind != LoopKind::Serial || !constantDifference(s->min, intImm(0), &min) ||
          !constantDifference(s->step, intImm(0), &step) ||
          step <= 0 || !isConst(count, &n)) {
        inexact = "a loop in the nest without constant bounds";
        return walkOther(s, trips);
      }
      if (n <= 0) return;
      lo = min, hi = min + (n - 1) * step;
      loops[s->name] = {lo, hi};
      walk(s->body, trips * n);
      loops.erase(s->name);
      return;
    }
    walkOther(s, trips);
  }

  void finish(const Stmt &body) {
    visitStmt(body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Store) spoil(s->name, "the nest writes it");
    });
  }

private:
  const std::vector<std::string> &parallel;
  std::map<std::string, std::pair<int64_t, int64_t>> loops;
  std::string inexact;

  void spoil(const std::string &array, const std::string &reason) {
    windows.erase(array);
    why.emplace(array, reason);
  }

  void walkOther(const Stmt &s, int64_t trips) {
    for (const Expr &e : {s->cond, s->value, s->min, s->end, s->step, s->arraySize}) note(e, trips);
    for (const Expr &e : s->indices) note(e, trips);
    for (const Stmt &c : s->stmts) walk(c, trips);
    walk(s->body, trips);
    walk(s->elseBody, trips);
  }

  void note(const Expr &e, int64_t trips) {
    if (!e) return;
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Load) load(n, trips);
    });
  }

  void load(const Expr &n, int64_t trips) {
    if (why.count(n->name)) return;
    if (!inexact.empty()) return spoil(n->name, inexact);
    std::set<std::string> all(parallel.begin(), parallel.end());
    ReadWindow w;
    w.invariant = true;
    for (const Expr &i : n->operands) w.invariant &= !mentionsAny(i, all);
    if (!w.invariant && n->operands.size() != parallel.size())
      return spoil(n->name, "its subscripts are not one per parallel loop");
    for (size_t d = 0; d < n->operands.size(); ++d) {
      Expr offset = w.invariant ? n->operands[d] : simplify(sub(n->operands[d], var(parallel[d])));
      int64_t lo, hi;
      if (mentionsAny(offset, all) || !constantRange(offset, loops, lo, hi))
        return spoil(n->name, "subscript " + std::to_string(d + 1) + " is not " +
                                  (w.invariant ? "" : "'" + parallel[d] + "' plus ") +
                                  "a constant or a constant loop's variable");
      w.lo.push_back(lo), w.hi.push_back(hi);
    }
    auto [it, fresh] = windows.emplace(n->name, w);
    if (!fresh && (it->second.invariant != w.invariant || it->second.lo.size() != w.lo.size()))
      return spoil(n->name, "it is read both around the iteration and at fixed places");
    for (size_t d = 0; !fresh && d < w.lo.size(); ++d) {
      it->second.lo[d] = std::min(it->second.lo[d], w.lo[d]);
      it->second.hi[d] = std::max(it->second.hi[d], w.hi[d]);
    }
    it->second.points += trips;
  }
};

}  // namespace

std::map<std::string, ReadWindow> readWindows(const ir::Stmt &body,
                                              const std::vector<std::string> &parallelVars,
                                              std::map<std::string, std::string> *why) {
  WindowWalker w(parallelVars);
  w.walk(body, 1);
  w.finish(body);
  if (why) *why = w.why;
  return w.windows;
}

}  // namespace rtcuda
