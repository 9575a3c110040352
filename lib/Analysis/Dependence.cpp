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
#include "DependenceAnalyzer.h"

#include <isl/options.h>

#include <cstdlib>

namespace rtcuda {

using namespace ir;

namespace dependence {

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
void withIslContext(const std::function<void(isl::ctx)> &body) {
  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(raw, maxOperations());
  try {
    body(isl::ctx(raw));
  } catch (...) {
    isl_ctx_free(raw);
    throw;
  }
  isl_ctx_free(raw);
}

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

}  // namespace dependence

std::vector<Dependence> carriedDependences(const Kernel &k, const std::vector<Stmt> &loops) {
  if (loops.empty()) return {};
  dependence::Analyzer a(k, loops);
  return a.run();
}

}  // namespace rtcuda
