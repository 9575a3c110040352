// Delinearize: an array passed as a flat pointer and indexed a row at a time becomes an array
// of rows for every step after it, so that the analyses and mappings made for A[i][j] (register
// tiles, tiled transposes, halo tiles, ...) see the same nest however the user spelled it:
//
//   float *A:  A[i * cols + j]              ==>  A[i][j]      (rows of cols elements)
//              A[(i + 1) * (cols + 2) + j]  ==>  A[i + 1][j]  (rows of cols + 2)
//              A[(k * ny + j) * nx + i]     ==>  A[k][j][i]
//
// A row length S is a factor, made of scalar parameters and constants, of a product term of a
// subscript. The array is split at S only where every access to it has the form
// row * S + col with 0 <= col <= S - 1 proved from the loops' bounds (the ranges the footprint
// analysis computes): the new subscripts then address the same element as the flat one, and
// two different subscript pairs never name one element, which is what the dependence analysis
// assumes of [row][col]. ArrayFlatten turns them back into row * S + col at the end.
// The first step of outlineProgram, so that outlining decides on the nests as rows too.
// docs/passes/Delinearize.md.
#include "rtcuda/Transforms/Delinearize.h"

#include "rtcuda/Analysis/Footprint.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace rtcuda {

namespace {

using namespace ir;

constexpr size_t kMaxSplits = 2;  // up to three dimensions

bool same(const Expr &a, const Expr &b) {
  int64_t d;
  return constantDifference(a, b, &d) && d == 0;
}

void sumTerms(const Expr &e, int sign, std::vector<std::pair<int, Expr>> &out) {
  if (e->kind == ExprKind::Binary && (e->name == "+" || e->name == "-")) {
    sumTerms(e->operands[0], sign, out);
    sumTerms(e->operands[1], e->name == "+" ? sign : -sign, out);
    return;
  }
  out.push_back({sign, e});
}

void factorsOf(const Expr &e, std::vector<Expr> &out) {
  if (e->kind == ExprKind::Binary && e->name == "*") {
    factorsOf(e->operands[0], out);
    factorsOf(e->operands[1], out);
    return;
  }
  out.push_back(e);
}

struct Split {
  Expr row, col;
};

// e = row * S + col: the terms with a factor S go to row (that factor dropped), the rest to col.
// A term of sizes only that is a multiple of S (the `cols` of i * cols + cols - 1 - j) may be
// either: in row with `sizesInRow`, else in col.
Split splitAt(const Expr &e, const Expr &S, bool sizesInRow,
              const std::function<bool(const Expr &)> &isSize) {
  std::vector<std::pair<int, Expr>> terms;
  sumTerms(e, 1, terms);
  Expr row = intImm(0), col = intImm(0);
  for (const auto &[sign, term] : terms) {
    std::vector<Expr> factors;
    factorsOf(term, factors);
    auto it = std::find_if(factors.begin(), factors.end(), [&](const Expr &f) { return same(f, S); });
    bool sizesOnly = std::all_of(factors.begin(), factors.end(), isSize);
    bool inRow = it != factors.end() && (sizesInRow || !sizesOnly);
    Expr value = term;
    if (inRow) {
      factors.erase(it);
      value = intImm(1);
      for (const Expr &f : factors) value = mul(value, f);
    }
    Expr &part = inRow ? row : col;
    part = sign > 0 ? add(part, value) : sub(part, value);
  }
  return {simplify(row), simplify(col)};
}

class Delinearizer {
public:
  explicit Delinearizer(const Kernel &k) : kernel(k), sizes(unassignedIntegerParams(k)) {
    for (const Param &p : k.params)
      if (p.isArray && p.dims.size() == 1) flat.insert(p.name);
  }

  DelinearizeResult run() {
    visitAccessRanges(kernel, [&](const std::string &array, const std::vector<Expr> &indices,
                                  bool, const auto &) {
      if (flat.count(array) && indices.size() == 1) collectCandidates(array, indices[0]);
    });
    visitAccessRanges(kernel, [&](const std::string &array, const std::vector<Expr> &indices,
                                  bool, const std::function<SymRange(const Expr &)> &rangeAt) {
      if (!flat.count(array)) return;
      Array &a = arrays[array];
      ++a.accesses;
      if (indices.size() != 1) return;
      // A subscript that reads a flat array (A[idx[i * n + j] * m + k]) would change under the
      // rewrite of that array before its own is looked up: such an array stays flat.
      bool readsFlat = false;
      visitExpr(indices[0], [&](const Expr &n) {
        readsFlat |= n->kind == ExprKind::Load && flat.count(n->name);
      });
      if (readsFlat) return;
      std::vector<size_t> chain;
      std::vector<Expr> cols;
      countChains(a, print(indices[0]), indices[0], chain, cols, rangeAt);
    });
    DelinearizeResult result{kernel, {}};
    Kernel &out = result.kernel;
    std::map<std::string, std::vector<size_t>> chosen;
    for (Param &p : out.params) {
      auto it = arrays.find(p.name);
      if (it == arrays.end()) continue;
      const Array &a = it->second;
      std::vector<size_t> chain = longestChain(a);
      if (chain.empty()) continue;
      // A declared extent (float A[restrict rows * cols]) must be whole rows, else the host
      // would not know how many rows to copy.
      Expr rows = p.dims[0];
      for (size_t c : chain) {
        if (!rows) break;
        Split s = splitAt(rows, a.candidates[c], true, sizeTest());
        rows = same(s.col, intImm(0)) ? s.row : nullptr;
      }
      if (p.dims[0] && !rows) continue;
      std::vector<Expr> dims = {rows};
      std::string shape;
      for (auto c = chain.rbegin(); c != chain.rend(); ++c) {
        dims.push_back(a.candidates[*c]);
        shape += "[" + print(a.candidates[*c]) + "]";
      }
      p.dims = dims;
      chosen[p.name] = chain;
      result.remarks.push_back({p.loc, "delinearize: '" + p.name + "' is indexed a row at a time; "
                                       "the passes see it as an array of rows: " + p.name +
                                       "[...]" + shape});
    }
    if (chosen.empty()) return result;
    auto split = [&](const std::string &array, const std::vector<Expr> &indices) {
      auto it = chosen.find(array);
      if (it == chosen.end() || indices.size() != 1) return indices;
      const auto &decided = arrays.at(array).decided;
      auto d = decided.find({print(indices[0]), it->second});
      return d != decided.end() ? d->second : indices;  // (the verifier names a miss)
    };
    auto onExpr = [&](const Expr &e) -> Expr {
      if (e->kind != ExprKind::Load || !chosen.count(e->name)) return e;
      auto copy = std::make_shared<ExprNode>(*e);
      copy->operands = split(e->name, e->operands);
      return copy;
    };
    auto onStmt = [&](const Stmt &s) -> Stmt {
      if (s->kind != StmtKind::Store || !chosen.count(s->name)) return s;
      auto copy = std::make_shared<StmtNode>(*s);
      copy->indices = split(s->name, s->indices);
      return copy;
    };
    out.body = mapStmt(kernel.body, onStmt, onExpr);
    out.finish = mapStmt(kernel.finish, onStmt, onExpr);
    return result;
  }

private:
  using Chain = std::vector<size_t>;  // candidates, innermost row length first
  struct Array {
    std::vector<Expr> candidates;  // row lengths seen in product terms
    std::map<Chain, int> fits;     // accesses each chain fits (-1: two accesses disagree)
    int accesses = 0;
    // The subscripts, outermost first, of a flat index (as printed) split along a chain.
    std::map<std::pair<std::string, Chain>, std::vector<Expr>> decided;
  };
  const Kernel &kernel;
  const std::set<std::string> sizes;  // integer scalar parameters never assigned
  std::set<std::string> flat;
  std::map<std::string, Array> arrays;

  // Made of integer scalar parameters the function never assigns, and integer constants.
  bool isSize(const Expr &e) const {
    bool plain = true;
    visitExpr(e, [&](const Expr &n) {
      plain &= n->kind != ExprKind::Select && n->kind != ExprKind::FloatImm;
    });
    return plain && madeOf(e, sizes);
  }
  std::function<bool(const Expr &)> sizeTest() const {
    return [this](const Expr &e) { return isSize(e); };
  }

  // Row lengths: the size factors of product terms that also have a factor that is not a size.
  void collectCandidates(const std::string &array, const Expr &index) {
    std::vector<std::pair<int, Expr>> terms;
    sumTerms(index, 1, terms);
    auto &list = arrays[array].candidates;
    for (const auto &term : terms) {
      std::vector<Expr> factors;
      factorsOf(term.second, factors);
      if (std::all_of(factors.begin(), factors.end(), sizeTest())) continue;
      for (const Expr &f : factors) {
        int64_t c = 0;
        if (isSize(f) && (!isConst(f, &c) || c >= 2) &&
            std::none_of(list.begin(), list.end(), [&](const Expr &l) { return same(l, f); }))
          list.push_back(f);
        // A row index that is itself row * S + col (the 3-D form (k * ny + j) * nx + i).
        if (factors.size() > 1 && !isSize(f) && f->kind == ExprKind::Binary &&
            (f->name == "+" || f->name == "-"))
          collectCandidates(array, f);
      }
    }
  }

  // At one access: every chain of splits whose column parts provably stay in their rows.
  void countChains(Array &a, const std::string &key, const Expr &index, Chain &chain,
                   std::vector<Expr> &cols,
                   const std::function<SymRange(const Expr &)> &rangeAt) {
    if (!chain.empty()) {
      std::vector<Expr> subscripts = {index};
      subscripts.insert(subscripts.end(), cols.rbegin(), cols.rend());
      auto [it, fresh] = a.decided.emplace(std::pair{key, chain}, subscripts);
      bool agrees = fresh || std::equal(subscripts.begin(), subscripts.end(), it->second.begin(),
                                        it->second.end(), ir::equal);
      int &fits = a.fits[chain];
      if (fits >= 0) fits = agrees ? fits + 1 : -1;
    }
    if (chain.size() == kMaxSplits) return;
    for (size_t c = 0; c < a.candidates.size(); ++c) {
      if (std::find(chain.begin(), chain.end(), c) != chain.end()) continue;
      const Expr &S = a.candidates[c];
      for (bool sizesInRow : {true, false}) {
        Split s = splitAt(index, S, sizesInRow, sizeTest());
        if (!withinRow(s.col, S, rangeAt)) continue;
        chain.push_back(c);
        cols.push_back(s.col);
        countChains(a, key, s.row, chain, cols, rangeAt);
        chain.pop_back();
        cols.pop_back();
        break;
      }
    }
  }

  // 0 <= col <= S - 1 wherever the access runs.
  static bool withinRow(const Expr &col, const Expr &S,
                        const std::function<SymRange(const Expr &)> &rangeAt) {
    SymRange r = rangeAt(col);
    int64_t low, room;
    return r.lo && r.hi && constantDifference(simplify(r.lo), intImm(0), &low) && low >= 0 &&
           constantDifference(simplify(sub(S, intImm(1))), simplify(r.hi), &room) && room >= 0;
  }

  // The longest chain that fits every access of the array (the first found of equal length).
  static Chain longestChain(const Array &a) {
    Chain best;
    for (const auto &[chain, fits] : a.fits)
      if (fits == a.accesses && chain.size() > best.size()) best = chain;
    return best;
  }
};

}  // namespace

DelinearizeResult delinearize(const Kernel &fn) { return Delinearizer(fn).run(); }

}  // namespace rtcuda
