// HaloTile in three dimensions, a linear body: when the output is a linear form of the tiled
// reads, out = scale * sum_o w_o * A[k + o_0][j + o_1][i + o_2] + constant, with weights no
// parallel loop moves (constants, taps, scalar parameters), the sliding tile (HaloTileSlide.cpp)
// need not keep the halo planes in registers: the new plane's part adds, for each plane offset
// c, its partial sum P_c(q) = sum over the terms of plane c to the accumulator of the output
// plane c planes behind it; the oldest accumulator is complete and stored, and the others move
// down a plane (span * ITEMS moves instead of span * (ITEMS + halo) * columns).
//
//   s = 0; for c, b, a: s += A[k + c][j + b][i + a];      R[r] = x[r][0] + x[r][1] + x[r][2]
//   B[k][j][i] = s * (1.0f / 27.0f);               ==>    P[q] = R[q] + R[q + 1] + R[q + 2]
//                                                         acc[t][q] += P[q], t = 0, 1, 2
//                                                         B[...] = acc[0][q] * (1.0f / 27.0f)
//
// The analysis finds the sharing, not a name: one weight on every term is multiplied once at the
// store; planes whose terms (offsets and weights) agree share one partial sum; a plane whose rows
// all read the same columns with the same weights sums each row once for all ITEMS outputs;
// terms of one weight are summed before the multiplication. The 27-point box: 3 + 2 + 1
// additions per row and output instead of 26 and 24 register moves per two outputs.
// Floating-point sums are reassociated (within verify's tolerance; the GPU contracts to FMA
// anyway); the body's arithmetic must be in the arrays' type.
#include "HaloTileSlide.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace rtcuda::halo {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);
constexpr int64_t kMaxIterations = 4096;  // unrolled constant loops, in all

struct Form {
  std::vector<SumTerm> terms;
  Expr constant;  // null: 0
};

bool sameWeight(const Expr &a, const Expr &b) { return (!a && !b) || (a && b && equal(a, b)); }

// The body evaluated symbolically: scalars as linear forms of the tiled reads, constant loops
// unrolled, one store at the end.
class Linear {
 public:
  Linear(const std::vector<std::string> &vars, const Tiled &tiled, const Taps &taps, Type elem)
      : vars_(vars), taps_(taps), elem_(elem) {
    for (const auto &[name, w] : tiled) tiled_.insert(name);
  }

  bool statement(const Stmt &s) {
    if (!s) return true;
    switch (s->kind) {
    case StmtKind::Block:
      for (const Stmt &c : s->stmts)
        if (!statement(c)) return false;
      return true;
    case StmtKind::Comment: return true;
    case StmtKind::Decl: {
      if (s->arraySize || s->shared || stored_) return false;
      if (s->type.isInteger()) {
        if (!s->value || !pure(s->value)) return false;
        ints_[s->name] = simplify(substitute(s->value, values()));
        return true;
      }
      if (s->type != elem_) return false;
      std::optional<Form> f = s->value ? expr(s->value) : Form{};
      if (!f) return false;
      scalars_[s->name] = *f;
      return true;
    }
    case StmtKind::Assign: {
      auto it = scalars_.find(s->name);
      if (it == scalars_.end() || stored_) return false;
      std::optional<Form> f = expr(s->value);
      if (!f) return false;
      if (s->op == "=") it->second = *f;
      else if (s->op == "+=") it->second = sum(it->second, *f, false);
      else if (s->op == "-=") it->second = sum(it->second, *f, true);
      else if ((s->op == "*=" || s->op == "/=") && f->terms.empty() && f->constant)
        it->second = scale(it->second, s->op.substr(0, 1), f->constant);
      else return false;
      return true;
    }
    case StmtKind::For: {
      if (s->loopKind != LoopKind::Serial || stored_) return false;
      int64_t lo = 0, end = 0, step = 0;
      if (!constantDifference(substitute(s->min, values()), intImm(0), &lo) ||
          !constantDifference(substitute(s->end, values()), intImm(0), &end) ||
          !constantDifference(substitute(s->step, values()), intImm(0), &step) || step == 0)
        return false;
      for (int64_t v = lo; step > 0 ? v < end : v > end; v += step) {
        if (++iterations_ > kMaxIterations) return false;
        loops_[s->name] = v;
        if (!statement(s->body)) return false;
      }
      loops_.erase(s->name);
      return true;
    }
    case StmtKind::Store: {
      if (stored_ || s->op != "=" || tiled_.count(s->name)) return false;
      std::optional<Form> f = expr(s->value);
      if (!f) return false;
      stored_ = true;
      result_.out = s->name;
      for (const Expr &i : s->indices) result_.index.push_back(simplify(substitute(i, values())));
      result_.elem = elem_;
      result_.terms = f->terms;
      result_.constant = f->constant;
      return true;
    }
    default: return false;
    }
  }

  std::optional<SlideSums> result() const {
    if (!stored_ || result_.terms.empty()) return std::nullopt;
    return result_;
  }

 private:
  std::map<std::string, Expr> values() const {
    std::map<std::string, Expr> v(ints_.begin(), ints_.end());
    for (const auto &[name, value] : loops_) v[name] = intImm(value);
    for (const auto &[name, f] : scalars_)
      if (f.terms.empty()) v[name] = f.constant ? f.constant : floatImm(0, elem_);
    return v;
  }

  // No parallel loop variable, no tiled read, no scalar that holds one.
  bool pure(const Expr &e) const {
    bool ok = true;
    visitExpr(e, [&](const Expr &n) {
      if (n->kind == ExprKind::Var) {
        ok &= std::find(vars_.begin(), vars_.end(), n->name) == vars_.end();
        auto it = scalars_.find(n->name);
        ok &= it == scalars_.end() || it->second.terms.empty();
      }
      if (n->kind == ExprKind::Load) ok &= !tiled_.count(n->name);
    });
    return ok;
  }

  Expr constantOf(const Expr &e) const {
    Expr c = simplify(substitute(e, values()));
    return mapExpr(c, [&](const Expr &n) -> Expr {
      Expr t = tapRead(n, taps_);
      return t ? t : n;
    });
  }

  Form sum(Form a, const Form &b, bool minus) {
    for (SumTerm t : b.terms) {
      if (minus) t.weight = t.weight ? unary("-", t.weight) : floatImm(-1, elem_);
      auto same = std::find_if(a.terms.begin(), a.terms.end(), [&](const SumTerm &x) {
        return x.array == t.array && x.at == t.at;
      });
      if (same == a.terms.end()) {
        a.terms.push_back(t);
        continue;
      }
      Expr one = floatImm(1, elem_);
      same->weight = binary("+", same->weight ? same->weight : one, t.weight ? t.weight : one);
    }
    if (b.constant) {
      Expr c = minus ? unary("-", b.constant) : b.constant;
      a.constant = a.constant ? binary(minus ? "-" : "+", a.constant, b.constant) : c;
    }
    return a;
  }

  Form scale(Form a, const std::string &op, const Expr &c) {
    for (SumTerm &t : a.terms)
      t.weight = t.weight ? binary(op, t.weight, c)
                          : op == "*" ? c : binary("/", floatImm(1, elem_), c);
    if (a.constant) a.constant = binary(op, a.constant, c);
    return a;
  }

  std::optional<Form> expr(const Expr &e) {
    if (pure(e)) {
      Expr c = constantOf(e);
      if (c->type.isInteger()) c = cast(elem_, c);
      if (c->type != elem_) return std::nullopt;
      if (c->kind == ExprKind::FloatImm && c->floatValue == 0) return Form{};  // s = 0.0f
      return Form{{}, c};
    }
    if (e->type != elem_) return std::nullopt;
    switch (e->kind) {
    case ExprKind::Var: {
      auto it = scalars_.find(e->name);
      if (it == scalars_.end()) return std::nullopt;
      return it->second;
    }
    case ExprKind::Load: {
      if (!tiled_.count(e->name) || e->operands.size() != vars_.size()) return std::nullopt;
      SumTerm t{e->name, {}, nullptr};
      for (size_t d = 0; d < vars_.size(); ++d) {
        int64_t c = 0;
        if (!constantDifference(substitute(e->operands[d], values()), var(vars_[d]), &c))
          return std::nullopt;
        t.at.push_back(c);
      }
      return Form{{t}, nullptr};
    }
    case ExprKind::Cast: return expr(e->operands[0]);
    case ExprKind::Unary: {
      if (e->name != "-") return std::nullopt;
      std::optional<Form> a = expr(e->operands[0]);
      if (!a) return std::nullopt;
      return sum(Form{}, *a, true);
    }
    case ExprKind::Binary: {
      std::optional<Form> a = expr(e->operands[0]), b = expr(e->operands[1]);
      if (!a || !b) return std::nullopt;
      if (e->name == "+" || e->name == "-") return sum(*a, *b, e->name == "-");
      if (e->name == "*" && a->terms.empty() && a->constant) return scale(*b, "*", a->constant);
      if ((e->name == "*" || e->name == "/") && b->terms.empty() && b->constant)
        return scale(*a, e->name, b->constant);
      return std::nullopt;
    }
    default: return std::nullopt;
    }
  }

  const std::vector<std::string> &vars_;
  const Taps &taps_;
  Type elem_;
  std::set<std::string> tiled_;
  std::map<std::string, Expr> ints_;
  std::map<std::string, int64_t> loops_;
  std::map<std::string, Form> scalars_;
  int64_t iterations_ = 0;
  bool stored_ = false;
  SlideSums result_;
};

// weight_1 * (x + x' + ...) + weight_2 * (...): the terms of one weight summed first.
Expr weightedSum(const std::vector<std::pair<Expr, Expr>> &xs) {  // (value, weight)
  std::vector<std::pair<Expr, Expr>> groups;                      // (weight, sum)
  for (const auto &[x, w] : xs) {
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const auto &p) { return sameWeight(p.first, w); });
    if (g == groups.end()) groups.push_back({w, x});
    else g->second = binary("+", g->second, x);
  }
  Expr total;
  for (const auto &[w, s] : groups) {
    Expr t = w ? binary("*", w, s) : s;
    total = total ? binary("+", total, t) : t;
  }
  return total;
}

// One plane's terms, (row, column) -> weight, in a fixed order.
using PlaneMap = std::vector<std::pair<std::pair<int64_t, int64_t>, SumTerm>>;

bool sameMap(const PlaneMap &a, const PlaneMap &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].first != b[i].first || a[i].second.array != b[i].second.array ||
        !sameWeight(a[i].second.weight, b[i].second.weight))
      return false;
  return true;
}

}  // namespace

std::optional<SlideSums> slideSums(const Kernel &k, const Stmt &body,
                                   const std::vector<std::string> &vars, const Tiled &tiled,
                                   const Taps &taps) {
  const Type elem = k.findParam(tiled[0].first)->type;
  if (!elem.isFloat()) return std::nullopt;
  for (const auto &[name, w] : tiled)
    if (k.findParam(name)->type != elem) return std::nullopt;
  Linear l(vars, tiled, taps, elem);
  if (!l.statement(body)) return std::nullopt;
  std::optional<SlideSums> s = l.result();
  if (!s) return std::nullopt;
  const Param *out = k.findParam(s->out);
  if (!out || !out->isArray || out->type != elem) return std::nullopt;
  // One weight on every term: multiplied once, at the store.
  bool one = true;
  for (const SumTerm &t : s->terms) one &= t.weight && sameWeight(t.weight, s->terms[0].weight);
  if (one) {
    s->scale = s->terms[0].weight;
    for (SumTerm &t : s->terms) t.weight = nullptr;
  }
  return s;
}

int64_t sumsWords(const Kernel &k, const SlideSums &s, const Tiled &tiled, int64_t items) {
  const ReadWindow &w = tiled[0].second;
  std::set<std::tuple<std::string, int64_t, int64_t>> used;  // the new plane's entries read
  for (const SumTerm &t : s.terms)
    for (int64_t q = 0; q < items; ++q) used.insert({t.array, q + t.at[1], t.at[2]});
  // Plus the accumulators, a row sum per row and a plane's sum per output.
  int64_t n = int64_t(used.size()) + (w.hi[0] - w.lo[0] + 1) * items + (items + w.hi[1] - w.lo[1]) +
              items;
  (void)k;
  return n * ((s.elem.bytes() + 3) / 4);
}

std::vector<Stmt> sumsStep(const Kernel &k, const SlideSums &s, const std::vector<PlanePart> &parts,
                           const std::string &acc, int64_t span, const std::string &q,
                           const std::vector<Stmt> &at, const Expr &valid, const Expr &ready) {
  Expr items = var(k.macro("ITEMS"));
  const ReadWindow &w0 = parts[0].w;
  auto partOf = [&](const std::string &array) {
    return *std::find_if(parts.begin(), parts.end(),
                         [&](const PlanePart &p) { return p.array == array; });
  };
  // The new plane's value at row offset b (of the body) from row `at` of the thread's rows,
  // column offset a: row at + b - lo_1 of the array's part.
  auto x = [&](const std::string &array, const Expr &at, int64_t b, int64_t a) {
    const PlanePart &p = partOf(array);
    Expr row = simplify(add(at, intImm(b - p.w.lo[1])));
    return load(p.win, {simplify(add(mul(row, p.wrow), intImm(a - p.w.lo[2])))}, s.elem);
  };
  auto accAt = [&](int64_t t, const Expr &i) {
    return std::vector<Expr>{simplify(add(mul(intImm(t), items), i))};
  };
  // Each plane offset's terms; offsets with the same terms share one partial sum.
  std::vector<std::pair<PlaneMap, std::vector<int64_t>>> maps;
  for (int64_t c = w0.lo[0]; c <= w0.hi[0]; ++c) {
    PlaneMap m;
    for (const SumTerm &t : s.terms)
      if (t.at[0] == c) m.push_back({{t.at[1], t.at[2]}, t});
    if (m.empty()) continue;
    std::sort(m.begin(), m.end(), [](const auto &a, const auto &b) {
      return a.first != b.first ? a.first < b.first : a.second.array < b.second.array;
    });
    auto same = std::find_if(maps.begin(), maps.end(), [&](const auto &p) { return sameMap(p.first, m); });
    if (same != maps.end()) same->second.push_back(c);
    else maps.push_back({m, {c}});
  }
  std::vector<Stmt> out;
  int n = 0;
  for (auto [m, planes] : maps) {
    ++n;
    // One weight on every term of the plane: multiplied once, after the sums.
    Expr weight = m[0].second.weight;
    for (const auto &[ba, t] : m) weight = weight && sameWeight(t.weight, weight) ? weight : nullptr;
    if (weight)
      for (auto &[ba, t] : m) t.weight = nullptr;
    // Rows: the (array, column, weight) list per row offset b; all alike: sum each row once.
    std::map<int64_t, std::vector<SumTerm>> rows;
    for (const auto &[ba, t] : m) rows[ba.first].push_back(t);
    bool alike = rows.size() > 1;
    for (const auto &[b, r] : rows) {
      const std::vector<SumTerm> &r0 = rows.begin()->second;
      alike &= r.size() == r0.size();
      for (size_t i = 0; alike && i < r.size(); ++i)
        alike &= r[i].array == r0[i].array && r[i].at[2] == r0[i].at[2] &&
                 sameWeight(r[i].weight, r0[i].weight);
    }
    const int64_t bmin = rows.begin()->first, bmax = rows.rbegin()->first;
    std::function<Expr(const Expr &)> partial;
    if (alike) {
      std::string rs = freshName(k, "rows" + std::to_string(n)), r = freshName(k, "r");
      Expr count = simplify(add(items, intImm(bmax - bmin)));
      std::vector<std::pair<Expr, Expr>> xs;
      for (const SumTerm &t : rows.begin()->second)
        xs.push_back({x(t.array, var(r), bmin, t.at[2]), t.weight});
      out.push_back(decl(rs, s.elem, nullptr, count));
      out.push_back(forLoop(r, kInt, intImm(0), count, intImm(1),
                            store(rs, {var(r)}, "=", weightedSum(xs)), LoopKind::Unrolled));
      partial = [&, rs](const Expr &qv) {
        Expr total;
        for (const auto &[b, r] : rows) {
          Expr v = load(rs, {simplify(add(qv, intImm(b - bmin)))}, s.elem);
          total = total ? binary("+", total, v) : v;
        }
        return total;
      };
    } else {
      partial = [&](const Expr &qv) {
        std::vector<std::pair<Expr, Expr>> xs;
        for (const auto &[ba, t] : m) xs.push_back({x(t.array, qv, ba.first, ba.second), t.weight});
        return weightedSum(xs);
      };
    }
    std::vector<Stmt> add;
    Expr value = partial(var(q));
    if (weight) value = binary("*", weight, value);
    if (planes.size() > 1) {
      std::string ps = freshName(k, "plane" + std::to_string(n));
      out.push_back(decl(ps, s.elem, nullptr, items));
      out.push_back(forLoop(q, kInt, intImm(0), items, intImm(1), store(ps, {var(q)}, "=", value),
                            LoopKind::Unrolled));
      value = load(ps, {var(q)}, s.elem);
    }
    // Plane offset c adds to the output c - lo planes behind the new one: accumulator hi - c.
    for (int64_t c : planes) add.push_back(store(acc, accAt(w0.hi[0] - c, var(q)), "+=", value));
    out.push_back(forLoop(q, kInt, intImm(0), items, intImm(1), block(add), LoopKind::Unrolled));
  }
  // The oldest plane's outputs are complete.
  Expr v = load(acc, {var(q)}, s.elem);
  if (s.scale) v = binary("*", v, s.scale);
  if (s.constant) v = binary("+", v, s.constant);
  std::vector<Stmt> item = at;
  item.push_back(ifThen(valid, store(s.out, s.index, "=", v)));
  out.push_back(ifThen(ready, forLoop(q, kInt, intImm(0), items, intImm(1), block(item),
                                      LoopKind::Unrolled)));
  // Down a plane.
  std::vector<Stmt> move;
  for (int64_t t = 0; t + 1 < span; ++t)
    move.push_back(store(acc, accAt(t, var(q)), "=", load(acc, accAt(t + 1, var(q)), s.elem)));
  move.push_back(store(acc, accAt(span - 1, var(q)), "=", floatImm(0, s.elem)));
  out.push_back(forLoop(q, kInt, intImm(0), items, intImm(1), block(move), LoopKind::Unrolled));
  return out;
}

}  // namespace rtcuda::halo
