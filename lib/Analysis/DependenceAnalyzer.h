// Internal to lib/Analysis: the dependence analyzer's accesses and isl relations, shared by
// Dependence.cpp (loop-carried dependences) and OrderedDependence.cpp (reorderings).
#pragma once

#include "rtcuda/Analysis/Dependence.h"

#include "rtcuda/Analysis/Reductions.h"
#include "rtcuda/Analysis/ScheduleModel.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <isl/cpp.h>

#include <algorithm>
#include <functional>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rtcuda {
namespace dependence {

using namespace ir;

// ---- polynomials over loop variables ("L<depth>") and parameters ("P_<name>") ------------

using Monomial = std::vector<std::string>;  // sorted atoms; empty = the constant term
using Poly = std::map<Monomial, int64_t>;

inline bool isLoopAtom(const std::string &a) { return a[0] == 'L'; }

inline void addScaled(Poly &a, const Poly &b, int64_t scale) {
  for (const auto &[m, c] : b) {
    a[m] += scale * c;
    if (a[m] == 0) a.erase(m);
  }
}

inline std::optional<Poly> product(const Poly &a, const Poly &b) {
  Poly out;
  for (const auto &[ma, ca] : a)
    for (const auto &[mb, cb] : b) {
      Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      if (m.size() > 4) return std::nullopt;
      std::sort(m.begin(), m.end());
      addScaled(out, Poly{{m, ca * cb}}, 1);
    }
  if (out.size() > 32) return std::nullopt;
  return out;
}

inline int loopAtoms(const Monomial &m) {
  return int(std::count_if(m.begin(), m.end(), isLoopAtom));
}

// isl can take it: every term is a constant times one loop variable, or a product of
// parameters (a product of several becomes one opaque parameter).
inline bool affine(const Poly &p) {
  for (const auto &[m, c] : p) {
    int loops = loopAtoms(m);
    if (loops > 1 || (loops == 1 && m.size() > 1)) return false;
  }
  return true;
}

inline std::string atomName(const Monomial &m) {
  std::string name;
  for (const std::string &a : m) name += (name.empty() ? "" : "_x_") + a;
  return m.size() > 1 ? "Q_" + name : name;
}

inline std::string islText(const Poly &p, std::set<std::string> &params) {
  std::string s;
  for (const auto &[m, c] : p) {
    std::string term = std::to_string(c < 0 ? -c : c);
    if (!m.empty()) {
      std::string atom = atomName(m);
      if (!isLoopAtom(atom)) params.insert(atom);
      term = (c == 1 || c == -1) ? atom : term + "*" + atom;
    }
    s += s.empty() ? (c < 0 ? "-" + term : term) : (c < 0 ? " - " : " + ") + term;
  }
  return s.empty() ? "0" : s;
}

// ---- accesses -------------------------------------------------------------------------------

struct Access {
  Stmt stmt;
  std::string array;
  std::vector<Expr> indices;
  Type type;
  bool write = false;
  std::optional<std::string> update;  // an update store: reads and writes, with this operator
  std::vector<Stmt> loops;            // enclosing loops, outermost (the nest's) first
  std::vector<Expr> conds;            // conditions of enclosing ifs (then-branches)
  std::vector<Poly> out;              // subscripts as isl sees them (empty: any element)
  std::vector<bool> anyIndex;         // per subscript of `out`: not affine, any value
  std::string text() const { return print(load(array, indices, type)); }
};

class Analyzer {
public:
  Analyzer(const Kernel &k, const std::vector<Stmt> &loops) : k(k), nestLoops(loops) {
    std::map<std::string, int> decls, assigns;
    visitStmt(k.body, [&](const Stmt &s) {
      if (s->kind == StmtKind::Decl) ++decls[s->name];
      if (s->kind == StmtKind::Assign) ++assigns[s->name];
    });
    for (const Param &p : k.params)
      if (!p.isArray && p.type.isInteger() && !assigns.count(p.name)) invariant.insert(p.name);
    for (const Stmt &s : k.body->stmts)
      if (s->kind == StmtKind::Decl && !s->arraySize && s->type.isInteger() &&
          !assigns.count(s->name) && decls[s->name] == 1)
        invariant.insert(s->name);
    visitStmt(loops[0], [&](const Stmt &s) {
      if (s->kind == StmtKind::Decl && s->value && !s->arraySize && s->type.isInteger() &&
          decls[s->name] == 1 && !assigns.count(s->name))
        definitions[s->name] = s->value;
    });
    findLocalArrays(k.body, 0);
    walk(loops[0], {}, {});
  }

  std::vector<Dependence> run();
  std::optional<Dependence> ordered(const Stmt &source, const Stmt &sink, const std::string &order,
                                    const std::string &phrase);
  NestModel model();  // ScheduleModel.cpp

private:
  const Kernel &k;
  const std::vector<Stmt> &nestLoops;
  std::set<std::string> invariant;        // become isl parameters
  std::map<std::string, Expr> definitions;  // locals with one definition, substituted
  std::vector<Access> accesses;
  std::set<std::string> unknownArrays;    // some subscript not affine: any element
  std::set<std::string> params;

  // -- collecting --

  // Local arrays of the kernel: declared inside `depth` of the nest's loops, each iteration of
  // those has its own (C gives it a fresh array), so only deeper loops can carry a dependence.
  struct LocalArray {
    Type type;
    std::vector<Expr> dims;  // the size, or the logical dimensions of an expanded array
    size_t depth = 0;
  };
  std::map<std::string, LocalArray> localArrays;
  void findLocalArrays(const Stmt &s, size_t depth) {
    if (!s) return;
    if (s->kind == StmtKind::Decl && s->arraySize) localArrays[s->name] = {s->type, s->indices.empty() ? std::vector<Expr>{s->arraySize} : s->indices, depth};
    if (s->kind == StmtKind::For &&
        std::find(nestLoops.begin(), nestLoops.end(), s) != nestLoops.end())
      ++depth;
    for (const Stmt &c : s->stmts) findLocalArrays(c, depth);
    findLocalArrays(s->body, depth);
    findLocalArrays(s->elseBody, depth);
  }
  bool isArrayParam(const std::string &name) const {
    const Param *p = k.findParam(name);
    return (p && p->isArray) || localArrays.count(name);
  }
  Type elementType(const std::string &name) const {
    const Param *p = k.findParam(name);
    return p && p->isArray ? p->type : localArrays.at(name).type;
  }
  std::vector<Expr> dimsOf(const std::string &name) const {
    const Param *p = k.findParam(name);
    return p && p->isArray ? p->dims : localArrays.at(name).dims;
  }

  void reads(const Expr &e, const Stmt &s, const std::vector<Stmt> &loops,
             const std::vector<Expr> &conds) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Load && isArrayParam(n->name))
        accesses.push_back({s, n->name, n->operands, n->type, false, std::nullopt, loops, conds, {}});
    });
  }

  void walk(const Stmt &s, std::vector<Stmt> loops, std::vector<Expr> conds) {
    if (!s) return;
    auto readAll = [&](std::initializer_list<Expr> es) {
      for (const Expr &e : es)
        if (e) reads(e, s, loops, conds);
    };
    switch (s->kind) {
    case StmtKind::For:
      readAll({s->min, s->end, s->step});
      loops.push_back(s);
      walk(s->body, loops, conds);
      return;
    case StmtKind::While:
      readAll({s->cond});
      walk(s->body, loops, conds);
      return;
    case StmtKind::If: {
      readAll({s->cond});
      walk(s->elseBody, loops, conds);
      conds.push_back(s->cond);
      walk(s->body, loops, conds);
      return;
    }
    case StmtKind::Decl: readAll({s->value, s->arraySize}); return;
    case StmtKind::Assign: readAll({s->value}); return;
    case StmtKind::Store: {
      for (const Expr &i : s->indices) reads(i, s, loops, conds);
      if (!isArrayParam(s->name)) {
        readAll({s->value});
        return;
      }
      Type elem = elementType(s->name);
      auto form = arrayUpdate(s);
      if (form) {
        accesses.push_back({s, s->name, s->indices, elem, true, form->op, loops, conds, {}});
        reads(form->value, s, loops, conds);
      } else {
        accesses.push_back({s, s->name, s->indices, elem, true, std::nullopt, loops, conds, {}});
        readAll({s->value});
      }
      return;
    }
    default:
      for (const Stmt &c : s->stmts) walk(c, loops, conds);
      walk(s->body, loops, conds);
      walk(s->elseBody, loops, conds);
    }
  }

  // -- expressions as polynomials --

  std::optional<Poly> poly(const Expr &e, const std::vector<Stmt> &loops, int depth = 0) {
    if (!e || depth > 8) return std::nullopt;
    switch (e->kind) {
    case ExprKind::IntImm:
      return e->intValue ? Poly{{{}, e->intValue}} : Poly{};
    case ExprKind::Var: {
      for (size_t d = loops.size(); d-- > 0;)
        if (loops[d]->name == e->name) return Poly{{{"L" + std::to_string(d)}, 1}};
      auto def = definitions.find(e->name);
      if (def != definitions.end()) return poly(def->second, loops, depth + 1);
      if (invariant.count(e->name)) return Poly{{{"P_" + e->name}, 1}};
      return std::nullopt;
    }
    case ExprKind::Cast:
      if (!e->type.isInteger() || !e->operands[0]->type.isInteger()) return std::nullopt;
      return poly(e->operands[0], loops, depth);
    case ExprKind::Unary: {
      if (e->name != "-") return std::nullopt;
      auto a = poly(e->operands[0], loops, depth);
      if (!a) return std::nullopt;
      Poly out;
      addScaled(out, *a, -1);
      return out;
    }
    case ExprKind::Binary: {
      const std::string &op = e->name;
      if (op != "+" && op != "-" && op != "*") return std::nullopt;
      auto a = poly(e->operands[0], loops, depth), b = poly(e->operands[1], loops, depth);
      if (!a || !b) return std::nullopt;
      if (op == "*") return product(*a, *b);
      addScaled(*a, *b, op == "+" ? 1 : -1);
      return a;
    }
    default:
      return std::nullopt;
    }
  }

  // -- isl text --

  std::string tuple(size_t n, const char *prefix = "L") const {
    std::string s = "[";
    for (size_t d = 0; d < n; ++d) s += (d ? ", " : "") + std::string(prefix) + std::to_string(d);
    return s + "]";
  }

  // Constraints of the iterations in which `a` runs: loop bounds, steps, if-conditions.
  std::string domain(const Access &a) {
    std::vector<std::string> parts;
    for (size_t d = 0; d < a.loops.size(); ++d) {
      const Stmt &l = a.loops[d];
      std::vector<Stmt> outer(a.loops.begin(), a.loops.begin() + d);
      int64_t step = 0;
      if (!isConst(l->step, &step) || step == 0) continue;
      std::string v = "L" + std::to_string(d);
      auto lo = poly(l->min, outer), hi = poly(l->end, outer);
      if (lo && affine(*lo)) {
        parts.push_back(v + (step > 0 ? " >= " : " <= ") + islText(*lo, params));
        if (step != 1 && step != -1)
          parts.push_back("exists (T" + std::to_string(d) + " : " + v + " = " +
                          islText(*lo, params) + " + " + std::to_string(step) + "*T" +
                          std::to_string(d) + " and T" + std::to_string(d) + " >= 0)");
      }
      if (hi && affine(*hi)) parts.push_back(v + (step > 0 ? " < " : " > ") + islText(*hi, params));
    }
    for (const Expr &c : a.conds) condition(c, a.loops, parts);
    for (const Expr &c : k.assumptions) condition(c, a.loops, parts);
    std::string s;
    for (const std::string &p : parts) s += (s.empty() ? "" : " and ") + p;
    return s.empty() ? "true" : s;
  }

  void condition(const Expr &c, const std::vector<Stmt> &loops, std::vector<std::string> &parts) {
    if (c->kind != ExprKind::Binary) return;
    const std::string &op = c->name;
    if (op == "&&") {
      condition(c->operands[0], loops, parts);
      condition(c->operands[1], loops, parts);
      return;
    }
    if (op != "<" && op != "<=" && op != ">" && op != ">=" && op != "==") return;
    auto a = poly(c->operands[0], loops), b = poly(c->operands[1], loops);
    if (!a || !b || !affine(*a) || !affine(*b)) return;
    parts.push_back(islText(*a, params) + " " + (op == "==" ? "=" : op) + " " + islText(*b, params));
  }

  std::string paramList() const {
    std::string s;
    for (const std::string &p : params) s += (s.empty() ? "" : ", ") + p;
    return "[" + s + "] -> ";
  }

  // All iterations of `a`, over all its loops (for the delinearization's range checks).
  isl::set fullDomain(isl::ctx ctx, const Access &a) {
    std::string body = domain(a);
    return isl::set(ctx, paramList() + "{ " + tuple(a.loops.size()) + " : " + body + " }");
  }

  // The relation from the nest's iterations to the elements `a` touches. The element's
  // tuple is named o0, o1, ... and each subscript an equality, so that a subscript of an inner
  // loop's variable (existentially quantified) names that variable only in the `exists`.
  isl::map relation(isl::ctx ctx, const Access &a) {
    size_t n = nestLoops.size();
    std::string inner;
    for (size_t d = n; d < a.loops.size(); ++d) inner += (inner.empty() ? "" : ", ") + ("L" + std::to_string(d));
    std::string cond = domain(a);
    for (size_t d = 0; d < a.out.size(); ++d)
      if (d >= a.anyIndex.size() || !a.anyIndex[d])
        cond += " and o" + std::to_string(d) + " = " + islText(a.out[d], params);
    if (!inner.empty()) cond = "exists (" + inner + " : " + cond + ")";
    // Array names are C identifiers, some of them isl keywords (min, mod, floor): prefixed.
    return isl::map(ctx, paramList() + "{ " + tuple(n) + " -> A_" + a.array +
                             tuple(std::max<size_t>(a.out.size(), 1), "o") + " : " + cond + " }");
  }

  // -- subscripts --

  void shapeArrays(isl::ctx ctx);
  bool delinearize(isl::ctx ctx, std::vector<Access *> &list);
  bool delinearizeByPoly(isl::ctx ctx, std::vector<Access *> &list);
  bool withinRows(isl::ctx ctx, const Access &a, const std::vector<Poly> &inner,
                  const std::vector<Poly> &widths);

  // -- the model of ScheduleModel.cpp --

  struct Leaf {
    Stmt stmt;
    std::vector<Stmt> loops;
    std::vector<Expr> conds;
    std::vector<std::string> position;  // source order: sequence indices and loop variables
  };
  std::string collectLeaves(const Stmt &s, std::vector<Stmt> &loops, std::vector<Expr> &conds,
                            std::vector<std::string> &position, std::vector<Leaf> &out);
  bool exactCondition(const Expr &c, const std::vector<Stmt> &loops);

  // -- dependences --

  std::optional<Dependence> test(isl::ctx ctx, const Access &a, const Access &b, size_t level);
  std::string describe(const Access &first, const Access &second, size_t level, bool fixed);
  std::string couldNotAnalyze(const Access &a, const Access &b, size_t level,
                              const std::string &why);
};

// Shared by both files (Dependence.cpp).
std::string shortText(const Stmt &s);
std::string islMessage(const isl::exception &e);
unsigned long maxOperations();
// Runs `body` with a fresh isl context (errors as exceptions, operations bounded); freed after.
void withIslContext(const std::function<void(isl::ctx)> &body);

}  // namespace dependence
}  // namespace rtcuda
