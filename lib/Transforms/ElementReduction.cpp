// ElementReduction: a nest whose iterations all add into one element of an array (a sum or a
// norm written through a pointer: `*out += x[i] * x[i]`) sums in a scalar declared before the
// nest, added to the element once after it; the legality analysis then finds an ordinary
// scalar reduction (ParallelReduction: a tree per block, one atomic per block) where every
// iteration made a global atomic addition into the same address:
//
//   for (int i = 0; i < n; i++)          double out_sum = 0.0;
//     out[0] += x[i] * x[i];      ==>    for (int i = 0; i < n; i++)
//                                          out_sum += x[i] * x[i];
//                                        out[0] += out_sum;
//
// Applies to each loop nest of a function body (the second step of outlineProgram, after
// Delinearize, so that outlining sees the reduction), to updates
// `X[c] += v`, `X[c] -= v`, `X[c] = X[c] + v` (or `v + X[c]`, `X[c] - v`) whose subscripts c are
// constants or scalar parameters, where the nest reads no element of X and writes X only by
// such updates of that element, X of a type a scalar reduction takes (int, unsigned int, float,
// double). The sequential order of the additions becomes the reduction's
// (as the atomics already regrouped them).
// docs/passes/ElementReduction.md.
#include "rtcuda/Transforms/ElementReduction.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Transforms/Pass.h"

#include <map>
#include <optional>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

// One update of an element: its array and subscripts (as printed: the key), and the addend
// with its sign.
struct Update {
  std::string array;
  std::vector<Expr> indices;
  Expr addend;
  bool subtract = false;
};

// `s` as an update of one element by an addend, or nullopt.
std::optional<Update> asUpdate(const Stmt &s) {
  std::optional<ElementUpdate> u = elementUpdate(s);
  if (!u) return std::nullopt;
  return Update{s->name, s->indices, u->addend, u->subtract};
}

class Rewriter {
public:
  explicit Rewriter(const Kernel &k) : kernel(k), invariant(unassignedIntegerParams(k)) {}

  ElementReductionResult run() {
    ElementReductionResult result{kernel, {}};
    Kernel &out = result.kernel;
    std::vector<Stmt> body;
    std::map<std::string, int> perArray;
    for (const Stmt &nest : kernel.body->stmts) {
      if (nest->kind != StmtKind::For) {
        body.push_back(nest);
        continue;
      }
      std::map<std::string, Element> elements = collect(nest);
      std::map<std::string, std::string> sums;  // element key -> its scalar
      std::vector<Stmt> after;
      for (const auto &[key, e] : elements) {
        if (!e.ok) continue;
        const Param *p = kernel.findParam(e.array);
        int n = perArray[e.array]++;
        std::string sum = freshName(kernel, e.array + "_sum" + (n ? std::to_string(n) : ""));
        sums[key] = sum;
        Expr zero = p->type.isFloat() ? floatImm(0.0, p->type) : intImm(0, p->type);
        body.push_back(withLoc(decl(sum, p->type, zero), e.loc));
        after.push_back(withLoc(store(e.array, e.indices, "+=", var(sum, p->type)), e.loc));
        result.remarks.push_back({e.loc, "element reduction: every iteration of the nest adds into " +
                                             key + "; the sum is a reduction of scalar '" + sum +
                                             "', added to the element once after the nest"});
      }
      body.push_back(sums.empty() ? nest : mapStmt(nest, [&](const Stmt &s) -> Stmt {
        std::optional<Update> u = asUpdate(s);
        auto it = u ? sums.find(keyOf(*u)) : sums.end();
        if (it == sums.end()) return s;
        return withLoc(assign(it->second, u->subtract ? "-=" : "+=", u->addend), s->loc);
      }));
      body.insert(body.end(), after.begin(), after.end());
    }
    if (result.remarks.empty()) return result;
    out.body = withLoc(block(body), kernel.body->loc);
    return result;
  }

private:
  struct Element {
    std::string array;
    std::vector<Expr> indices;
    SourceLoc loc;
    bool ok = true;
  };
  const Kernel &kernel;
  const std::set<std::string> invariant;  // integer scalar parameters never assigned

  static std::string keyOf(const Update &u) {
    std::string key = u.array;
    for (const Expr &i : u.indices) key += "[" + print(i) + "]";
    return key;
  }

  // The elements `nest` updates, keyed by array and subscripts; ok where the nest touches
  // their array in no other way.
  std::map<std::string, Element> collect(const Stmt &nest) const {
    std::map<std::string, Element> elements;
    std::set<std::string> spoiled;  // arrays written otherwise, or read
    auto reads = [&](const Expr &e) {
      if (!e) return;
      visitExpr(e, [&](const Expr &n) {
        if (n->kind == ExprKind::Load) spoiled.insert(n->name);
      });
    };
    visitStmt(nest, [&](const Stmt &s) {
      std::optional<Update> u = asUpdate(s);
      const Param *p = kernel.findParam(s->name);
      // The element types a scalar reduction takes (docs/passes/ParallelReduction.md).
      bool reducible = p && (p->type.kind == ScalarKind::Int || p->type.kind == ScalarKind::UInt ||
                             p->type.isFloat());
      bool usable = u && p && p->isArray && reducible;
      for (const Expr &i : s->indices) usable = usable && madeOf(i, invariant);
      if (s->kind == StmtKind::Store && !usable) spoiled.insert(s->name);
      if (usable) {
        Element &e = elements[keyOf(*u)];
        if (e.array.empty()) e.array = u->array, e.indices = u->indices, e.loc = s->loc;
        reads(u->addend);  // the update's own X[c] in X[c] + v is not a read of another element
        return;
      }
      for (const Expr *e : {&s->cond, &s->value, &s->min, &s->end, &s->step}) reads(*e);
      for (const Expr &i : s->indices) reads(i);
    });
    for (auto &[key, e] : elements) e.ok = !spoiled.count(e.array);
    return elements;
  }
};

}  // namespace

ElementReductionResult elementReduction(const Kernel &fn) { return Rewriter(fn).run(); }

}  // namespace rtcuda
