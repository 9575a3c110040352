// Dependence analysis with isl (docs/legality.md).
//
// Every access to an array parameter inside the nest becomes an isl relation from the
// iterations of the nest's loops to the elements it touches:
//
//   a[i] = a[i - 1] + b[i];   ==>   [P_n] -> { [L0] -> a[L0 - 1] : 1 <= L0 < P_n }   (the read)
//
// Loops inside the nest, steps and affine if-conditions are existentially quantified
// constraints; loop-invariant scalars are isl parameters. Two accesses, at least one a write,
// depend across loop l when the relation "same element" contains a pair of iterations equal in
// loops 0..l-1 and different in loop l: isl decides that exactly. A subscript that is not
// affine (hist[data[i] & 63], y[perm[i]]) may touch any element: the conservative answer.
#include "rtcuda/Analysis/Dependence.h"

#include "rtcuda/Analysis/Reductions.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <isl/cpp.h>
#include <isl/options.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace rtcuda {

namespace {

using namespace ir;

// ---- polynomials over loop variables ("L<depth>") and parameters ("P_<name>") ------------

using Monomial = std::vector<std::string>;  // sorted atoms; empty = the constant term
using Poly = std::map<Monomial, int64_t>;

bool isLoopAtom(const std::string &a) { return a[0] == 'L'; }

void addScaled(Poly &a, const Poly &b, int64_t scale) {
  for (const auto &[m, c] : b) {
    a[m] += scale * c;
    if (a[m] == 0) a.erase(m);
  }
}

std::optional<Poly> product(const Poly &a, const Poly &b) {
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

int loopAtoms(const Monomial &m) {
  return int(std::count_if(m.begin(), m.end(), isLoopAtom));
}

// isl can take it: every term is a constant times one loop variable, or a product of
// parameters (a product of several becomes one opaque parameter).
bool affine(const Poly &p) {
  for (const auto &[m, c] : p) {
    int loops = loopAtoms(m);
    if (loops > 1 || (loops == 1 && m.size() > 1)) return false;
  }
  return true;
}

std::string atomName(const Monomial &m) {
  std::string name;
  for (const std::string &a : m) name += (name.empty() ? "" : "_x_") + a;
  return m.size() > 1 ? "Q_" + name : name;
}

std::string islText(const Poly &p, std::set<std::string> &params) {
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
    Expr size;
    size_t depth = 0;
  };
  std::map<std::string, LocalArray> localArrays;
  void findLocalArrays(const Stmt &s, size_t depth) {
    if (!s) return;
    if (s->kind == StmtKind::Decl && s->arraySize) localArrays[s->name] = {s->type, s->arraySize, depth};
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
    return p && p->isArray ? p->dims : std::vector<Expr>{localArrays.at(name).size};
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

  // -- dependences --

  std::optional<Dependence> test(isl::ctx ctx, const Access &a, const Access &b, size_t level);
  std::string describe(const Access &first, const Access &second, size_t level, bool fixed);
  std::string couldNotAnalyze(const Access &a, const Access &b, size_t level,
                              const std::string &why);
};

// The subscripts of each array in isl's terms: per dimension for arrays declared with several
// dimensions (C leaves an inner subscript outside its row undefined), linear or delinearized
// for one-dimensional ones, or unknown (any element).
void Analyzer::shapeArrays(isl::ctx ctx) {
  std::map<std::string, std::vector<Access *>> byArray;
  for (Access &a : accesses) byArray[a.array].push_back(&a);
  for (auto &[array, list] : byArray) {
    std::vector<Expr> dims = dimsOf(array);
    bool ok = true;
    std::vector<std::vector<Poly>> subs;
    for (Access *a : list) {
      std::vector<Poly> s;
      if (a->indices.size() != dims.size()) ok = false;
      for (const Expr &i : a->indices) {
        auto q = poly(i, a->loops);
        if (!q) ok = false;
        else s.push_back(*q);
      }
      subs.push_back(s);
    }
    if (ok) {
      bool allAffine = true;
      for (const auto &s : subs)
        for (const Poly &q : s) allAffine &= affine(q);
      if (allAffine) {
        for (size_t i = 0; i < list.size(); ++i) list[i]->out = subs[i];
        continue;
      }
    }
    if (dims.size() >= 2) {
      // Declared dimensions are independent: a subscript isl cannot take only frees its own
      // dimension (B[perm[i]][j] still has j exact).
      bool shaped = true;
      for (Access *a : list) shaped &= a->indices.size() == dims.size();
      if (shaped) {
        for (Access *a : list) {
          a->out.assign(a->indices.size(), Poly{});
          a->anyIndex.assign(a->indices.size(), true);
          for (size_t d = 0; d < a->indices.size(); ++d) {
            auto q = poly(a->indices[d], a->loops);
            if (q && affine(*q)) a->out[d] = *q, a->anyIndex[d] = false;
          }
        }
        unknownArrays.insert(array);
        continue;
      }
    }
    if (ok) {
      if (dims.size() == 1) {
        // Interleaved elements (A[(i * m + j) * 3 + 1]): the element's position in its group
        // of g becomes one more, innermost, subscript.
        int64_t g = 0;
        for (const auto &sub : subs)
          for (const auto &[m, c] : sub[0])
            if (loopAtoms(m)) g = std::gcd(g, c < 0 ? -c : c);
        std::vector<int64_t> rests;
        bool grouped = g > 1;
        for (size_t i = 0; i < list.size() && grouped; ++i) {
          Poly q = subs[i][0];
          int64_t c = q.count({}) ? q.at({}) : 0, r = ((c % g) + g) % g;
          addScaled(q, Poly{{{}, r}}, -1);
          for (auto &[m, x] : q) grouped &= x % g == 0, x /= g;
          list[i]->out = {q};
          rests.push_back(r);
        }
        if (grouped && (delinearize(ctx, list) || delinearizeByPoly(ctx, list))) {
          for (size_t i = 0; i < list.size(); ++i) list[i]->out.push_back(Poly{{{}, rests[i]}});
          continue;
        }
        for (size_t i = 0; i < list.size(); ++i) list[i]->out = subs[i];
        if (delinearize(ctx, list) || delinearizeByPoly(ctx, list)) continue;
      }
    }
    unknownArrays.insert(array);
    for (Access *a : list) a->out.clear(), a->anyIndex.clear();
  }
}

// A[i * n + j] with 0 <= j < n on every iteration is A[i][j] for a row width n: rewrite the
// one-dimensional subscripts of `list` with the strides (parameter products) multiplying loop
// variables, and check with isl that each inner part stays within its row.
bool Analyzer::delinearize(isl::ctx ctx, std::vector<Access *> &list) {
  std::set<Monomial> strideSet;
  for (Access *a : list)
    for (const auto &[m, c] : a->out[0]) {
      int loops = loopAtoms(m);
      if (loops > 1) return false;
      if (loops == 1 && m.size() > 1) {
        Monomial params;
        for (const std::string &x : m)
          if (!isLoopAtom(x)) params.push_back(x);
        strideSet.insert(params);
      }
    }
  // Strides must form a chain, each a multiple of the previous: n, then n * m, ...
  std::vector<Monomial> strides(strideSet.begin(), strideSet.end());
  std::sort(strides.begin(), strides.end(),
            [](const Monomial &a, const Monomial &b) { return a.size() < b.size(); });
  auto divides = [](const Monomial &d, const Monomial &m) {
    return std::includes(m.begin(), m.end(), d.begin(), d.end());
  };
  auto quotient = [](const Monomial &m, const Monomial &d) {
    Monomial q;
    std::set_difference(m.begin(), m.end(), d.begin(), d.end(), std::back_inserter(q));
    return q;
  };
  for (size_t s = 1; s < strides.size(); ++s)
    if (!divides(strides[s - 1], strides[s]) || strides[s].size() == strides[s - 1].size())
      return false;
  strides.insert(strides.begin(), Monomial{});  // stride 1 for the innermost part
  std::vector<std::vector<Poly>> result;
  for (Access *a : list) {
    std::vector<Poly> parts(strides.size());
    for (const auto &[m, c] : a->out[0]) {
      size_t s = strides.size();
      while (s-- > 0)
        if (divides(strides[s], m)) break;
      addScaled(parts[s], Poly{{quotient(m, strides[s]), c}}, 1);
    }
    for (const Poly &q : parts)
      if (!affine(q)) return false;
    // 0 <= part < (next stride / this stride) for every part but the outermost.
    std::vector<Poly> widths;
    for (size_t s = 0; s + 1 < strides.size(); ++s)
      widths.push_back(Poly{{quotient(strides[s + 1], strides[s]), 1}});
    if (!withinRows(ctx, *a, std::vector<Poly>(parts.begin(), parts.end() - 1), widths))
      return false;
    std::reverse(parts.begin(), parts.end());
    result.push_back(parts);
  }
  for (size_t i = 0; i < list.size(); ++i) list[i]->out = result[i];
  return true;
}

// isl: on every iteration of `a`, 0 <= inner[d] < widths[d].
bool Analyzer::withinRows(isl::ctx ctx, const Access &a, const std::vector<Poly> &inner,
                          const std::vector<Poly> &widths) {
  std::string range;
  for (size_t d = 0; d < inner.size(); ++d)
    range += (d ? " and 0 <= " : "0 <= ") + islText(inner[d], params) + " < " +
             islText(widths[d], params);
  if (range.empty()) return true;
  isl::set dom = fullDomain(ctx, a);
  isl::set inRow(ctx, paramList() + "{ " + tuple(a.loops.size()) + " : " + range + " }");
  return dom.is_subset(inRow);
}

// A[i * (n - 16) + j]: one row width that is a polynomial of the parameters. Every loop
// variable's coefficient (and the constant part) must be an integer multiple of the width
// plus an integer: c = q * width + r; the row index collects the q's, the column the r's.
bool Analyzer::delinearizeByPoly(isl::ctx ctx, std::vector<Access *> &list) {
  Poly width;
  auto split = [&](const Poly &c, int64_t &q, int64_t &r) {
    q = 0;
    for (const auto &[m, coef] : width)
      if (!m.empty()) {
        auto it = c.find(m);
        int64_t cm = it == c.end() ? 0 : it->second;
        if (cm % coef) return false;
        q = cm / coef;
        break;
      }
    Poly rest = c;
    addScaled(rest, width, -q);
    for (const auto &[m, coef] : rest)
      if (!m.empty()) return false;
    r = rest.count({}) ? rest.at({}) : 0;
    return true;
  };
  std::vector<std::vector<Poly>> result;
  for (Access *a : list) {
    // Coefficient (a polynomial of the parameters) of each loop variable, and the rest.
    std::map<std::string, Poly> coef;
    for (const auto &[m, c] : a->out[0]) {
      if (loopAtoms(m) > 1) return false;
      std::string loop;
      Monomial params;
      for (const std::string &x : m) {
        if (isLoopAtom(x)) loop = x;
        else params.push_back(x);
      }
      addScaled(coef[loop], Poly{{params, c}}, 1);
    }
    for (const auto &[loop, c] : coef) {
      bool constant = c.empty() || (c.size() == 1 && c.count({}));
      if (!constant && width.empty() && !loop.empty()) {
        // The row width: the first such coefficient, without its integer factor and sign.
        width = c;
        int64_t g = 0;
        for (const auto &[m, x] : width) g = std::gcd(g, x < 0 ? -x : x);
        for (const auto &[m, x] : width)
          if (!m.empty()) {
            if (x < 0) g = -g;
            break;
          }
        for (auto &[m, x] : width) x /= g;
      }
    }
    if (width.empty()) return false;
    Poly row, column;
    for (const auto &[loop, c] : coef) {
      int64_t q, r;
      if (!split(c, q, r)) return false;
      Monomial atom = loop.empty() ? Monomial{} : Monomial{loop};
      addScaled(row, Poly{{atom, q}}, 1);
      addScaled(column, Poly{{atom, r}}, 1);
    }
    if (!withinRows(ctx, *a, {column}, {width})) return false;
    result.push_back({row, column});
  }
  for (size_t i = 0; i < list.size(); ++i) list[i]->out = result[i];
  return true;
}

std::string shortText(const Stmt &s) {
  std::string t = print(s);
  t = t.substr(0, t.find('\n'));
  size_t start = t.find_first_not_of(' ');
  t = start == std::string::npos ? t : t.substr(start);
  if (!t.empty() && t.back() == '{') t = t.substr(0, t.size() - 2);
  if (t.size() > 72) t = t.substr(0, 69) + "...";
  return "'" + t + "'";
}

std::string Analyzer::describe(const Access &first, const Access &second, size_t level,
                               bool adjacent) {
  const std::string loop = "loop '" + nestLoops[level]->name + "'";
  std::string where = first.stmt == second.stmt ? "" : " (" + first.text() + " at " +
                                                       first.stmt->loc.str() + ")";
  std::string m;
  bool firstWrites = first.write, secondWrites = second.write;
  if (first.update && second.update && *first.update == *second.update)
    m = shortText(second.stmt) + " updates " + second.text() + ", which other iterations of " +
        loop + " update too" + where;
  else if (firstWrites && (!secondWrites || second.update))
    m = shortText(second.stmt) + " reads " + second.text() + ", written by " +
        (adjacent ? "the previous iteration" : "an earlier iteration") + " of " + loop + where;
  else if (!firstWrites)
    m = shortText(first.stmt) + " reads " + first.text() + ", which " +
        (adjacent ? "the next iteration" : "a later iteration") + " of " + loop +
        " overwrites" + (first.stmt == second.stmt ? "" : " (" + second.text() + " at " +
                                                             second.stmt->loc.str() + ")");
  else
    m = shortText(second.stmt) + " writes " + second.text() + ", which other iterations of " +
        loop + " also write" + where;
  if (unknownArrays.count(first.array))
    m += "; the subscripts of '" + first.array + "' are not affine functions of the loop "
         "variables and parameters, so any iteration may touch any element";
  return m;
}

// Whether `a` and `b` touch one element in two iterations that first differ in `level`;
// reported with the access that runs first in the sequential order first.
std::optional<Dependence> Analyzer::test(isl::ctx ctx, const Access &a, const Access &b,
                                         size_t level) {
  size_t n = nestLoops.size();
  isl::map same = relation(ctx, a).apply_range(relation(ctx, b).reverse());
  int64_t step = 1;
  isConst(nestLoops[level]->step, &step);
  for (int direction : {1, -1}) {
    if (direction == -1 && &a == &b) break;  // symmetric
    // direction 1: a's iteration x runs before b's iteration y.
    std::string c;
    for (size_t d = 0; d < level; ++d) c += "x" + std::to_string(d) + " = y" + std::to_string(d) + " and ";
    bool xFirst = direction == 1;
    bool xSmaller = (step > 0) == xFirst;
    c += "x" + std::to_string(level) + (xSmaller ? " < " : " > ") + "y" + std::to_string(level);
    isl::map order(ctx, "{ " + tuple(n, "x") + " -> " + tuple(n, "y") + " : " + c + " }");
    isl::map carried = same.intersect(order);
    if (carried.is_empty()) continue;
    const Access &first = xFirst ? a : b, &second = xFirst ? b : a;
    // Distance of exactly one iteration: "the previous iteration".
    std::string fixed = "{ " + tuple(n, "d") + " : d" + std::to_string(level) + " = " +
                        std::to_string(xFirst ? step : -step) + " }";
    bool adjacent = carried.deltas().is_subset(isl::set(ctx, fixed));
    Dependence dep;
    dep.level = int(level);
    dep.array = a.array;
    dep.commutative = a.update && b.update && *a.update == *b.update;
    dep.exact = !unknownArrays.count(a.array);
    dep.loc = (!first.write ? first : second).stmt->loc;
    dep.otherLoc = (!first.write ? second : first).stmt->loc;
    dep.message = describe(first, second, level, adjacent);
    return dep;
  }
  return std::nullopt;
}

// isl's message without the location in isl's own sources ("isl_input.c:123: ").
std::string islMessage(const isl::exception &e) {
  std::string m = e.what();
  size_t colon = m.find(": ");
  if (colon != std::string::npos && m.find(' ') > colon &&
      m.find_last_of("0123456789", colon) == colon - 1)
    m = m.substr(colon + 2);
  return m;
}

// isl's bound on the operations of one dependence test (0: none); RTCUDA_ISL_MAX_OPERATIONS
// lowers it, e.g. to exercise the path of a failed analysis.
unsigned long maxOperations() {
  const char *env = std::getenv("RTCUDA_ISL_MAX_OPERATIONS");
  if (!env || !*env) return 0;
  char *end = nullptr;
  unsigned long v = std::strtoul(env, &end, 10);
  return *end ? 0 : v;
}

std::string Analyzer::couldNotAnalyze(const Access &a, const Access &b, size_t level,
                                      const std::string &why) {
  std::string where = a.text() + " at " + a.stmt->loc.str();
  if (&a != &b) where += " and " + b.text() + " at " + b.stmt->loc.str();
  return "could not analyze whether different iterations of loop '" + nestLoops[level]->name +
         "' touch one element of '" + a.array + "' (" + where + "): isl: " + why;
}

std::vector<Dependence> Analyzer::run() {
  std::vector<Dependence> out;
  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  {
    isl::ctx ctx(raw);
    isl_ctx_set_max_operations(raw, maxOperations());
    std::string shapeFailure;
    try {
      shapeArrays(ctx);
    } catch (const isl::exception &e) {
      shapeFailure = islMessage(e);
    }
    for (size_t level = 0; level < nestLoops.size(); ++level)
      for (size_t i = 0; i < accesses.size(); ++i)
        for (size_t j = i; j < accesses.size(); ++j) {
          const Access &a = accesses[i], &b = accesses[j];
          if (a.array != b.array || (!a.write && !b.write)) continue;
          auto local = localArrays.find(a.array);
          if (local != localArrays.end() && local->second.depth > level) continue;
          std::optional<Dependence> dep;
          std::string failure = shapeFailure;
          isl_ctx_reset_operations(raw);
          if (failure.empty()) try {
              dep = test(ctx, a, b, level);
            } catch (const isl::exception &e) {
              failure = islMessage(e);
            }
          if (!failure.empty()) {
            // Nothing is known about this pair: say so, never a dependence that was not found.
            dep = Dependence{int(level), a.array, false, false, b.stmt->loc,
                             couldNotAnalyze(a, b, level, failure), a.stmt->loc};
            dep->failed = true;
          }
          // A thread's local array: no atomics can make other threads' updates meet in it.
          if (dep && local != localArrays.end()) dep->commutative = false;
          if (dep) out.push_back(*dep);
        }
  }
  isl_ctx_free(raw);
  // Per loop: dependences that atomics cannot remove first, exact ones before the others.
  std::stable_sort(out.begin(), out.end(), [](const Dependence &x, const Dependence &y) {
    if (x.level != y.level) return x.level < y.level;
    if (x.commutative != y.commutative) return !x.commutative;
    return x.exact && !y.exact;
  });
  return out;
}

// The statements of `s`'s subtree (an access's `stmt` is one of them when it lies inside).
std::set<const StmtNode *> subtree(const Stmt &s) {
  std::set<const StmtNode *> out;
  visitStmt(s, [&](const Stmt &n) { out.insert(n.get()); });
  return out;
}

std::optional<Dependence> Analyzer::ordered(const Stmt &source, const Stmt &sink,
                                            const std::string &order, const std::string &phrase) {
  std::set<const StmtNode *> inSource = subtree(source), inSink = subtree(sink);
  size_t n = nestLoops.size();
  std::vector<const Access *> from, to;
  for (const Access &a : accesses) {
    if (!inSource.count(a.stmt.get()) && !inSink.count(a.stmt.get())) continue;
    if (a.loops.size() < n) {
      // Read in the bounds of one of the loops: not an iteration of the whole nest.
      Dependence d{0, a.array, false, false, a.stmt->loc,
                   "could not analyze " + a.text() + " at " + a.stmt->loc.str() +
                       ": it is read outside the loops being reordered", a.stmt->loc};
      d.failed = true;
      return d;
    }
    if (inSource.count(a.stmt.get())) from.push_back(&a);
    if (inSink.count(a.stmt.get())) to.push_back(&a);
  }
  std::optional<Dependence> found;
  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  {
    isl::ctx ctx(raw);
    isl_ctx_set_max_operations(raw, maxOperations());
    try {
      shapeArrays(ctx);
      isl::map relates(ctx, "{ " + tuple(n, "x") + " -> " + tuple(n, "y") + " : " + order + " }");
      for (const Access *a : from) {
        for (const Access *b : to) {
          if (a->array != b->array || (!a->write && !b->write)) continue;
          isl_ctx_reset_operations(raw);
          isl::map same = relation(ctx, *a).apply_range(relation(ctx, *b).reverse());
          if (same.intersect(relates).is_empty()) continue;
          std::string what = !a->write ? "reads" : b->write ? "also writes" : "writes";
          Dependence d;
          d.array = a->array;
          d.commutative = a->update && b->update && *a->update == *b->update;
          d.exact = !unknownArrays.count(a->array);
          d.loc = b->stmt->loc;
          d.otherLoc = a->stmt->loc;
          d.message = shortText(b->stmt) + " " + (b->write ? "writes " : "reads ") + b->text() +
                      ", which " + shortText(a->stmt) + " (" + a->stmt->loc.str() + ") " + what +
                      " " + phrase;
          if (!d.exact)
            d.message += "; the subscripts of '" + a->array + "' are not affine functions of "
                         "the loop variables and parameters, so any iteration may touch any "
                         "element";
          found = d;
          break;
        }
        if (found) break;
      }
    } catch (const isl::exception &e) {
      Dependence d{0, "", false, false, source->loc,
                   "could not analyze the reordering: isl: " + islMessage(e), sink->loc};
      d.failed = true;
      found = d;
    }
  }
  isl_ctx_free(raw);
  return found;
}

}  // namespace

std::string sameIterationsOrder(size_t depth) {
  std::string order;
  for (size_t d = 0; d < depth; ++d)
    order += "x" + std::to_string(d) + " = y" + std::to_string(d) + " and ";
  return order;
}

std::optional<Dependence> orderedDependence(const Kernel &k, const std::vector<Stmt> &loops,
                                            const Stmt &source, const Stmt &sink,
                                            const std::string &order, const std::string &phrase) {
  if (loops.empty()) return std::nullopt;
  Analyzer a(k, loops);
  return a.ordered(source, sink, order, phrase);
}

std::vector<Dependence> carriedDependences(const Kernel &k, const std::vector<Stmt> &loops) {
  if (loops.empty()) return {};
  Analyzer a(k, loops);
  return a.run();
}

}  // namespace rtcuda
