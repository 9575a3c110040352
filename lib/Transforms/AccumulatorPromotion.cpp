// AccumulatorPromotion: a thread's serial loop that only adds into one array element sums in
// a scalar, stored once after the loop, so that LaneReduction can share the loop between lanes
// (PolyBench's atax, bicg, mvt write their sums into the array):
//
//   if (i < m) {                                  if (i < m) {
//     tmp[i] = 0.0f;                                float tmp_sum = 0.0f;
//     for (int j = 0; j < n; j++)          ==>      for (int j = 0; j < n; j++)
//       tmp[i] = tmp[i] + A[i * n + j] * x[j];        tmp_sum += A[i * n + j] * x[j];
//   }                                               tmp[i] = tmp_sum;
//                                                 }
//
// Applies to a loop of the thread's guarded body (one thread per iteration, after
// LoopPartition) whose body is only stores `X[e] = X[e] + v` (or `v + X[e]`, `X[e] += v`) into
// distinct parameter arrays, with no `e` using the loop's variable and no `v` or `e` reading
// any of the arrays: no iteration reads another element of them, so each element's value flows
// only through its sum (one scalar each: gesummv's tmp[i] and y[i]). Stores `X[e] = c` right
// before the loop become the sums' initial values. The additions keep their
// order. Kernels with atomics are left alone. docs/passes/AccumulatorPromotion.md.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

namespace {

bool readsArray(const Expr &e, const std::string &array) {
  bool found = false;
  visitExpr(e, [&](const Expr &n) { found |= n->kind == ExprKind::Load && n->name == array; });
  return found;
}

// One sum of a loop: the store `X[e] = X[e] + v` (or `v + X[e]`, `X[e] += v`) and its addend v.
struct Sum {
  Stmt store;
  Expr addend;
};

// The sums of `loop`, whose body is only such stores into distinct parameter arrays, with no
// subscript using the loop's variable and no addend or subscript reading any of the arrays; or
// nothing when the loop is not such a loop. Several sums (gesummv: tmp[i] and y[i]) each get a
// scalar of their own.
std::vector<Sum> sumsOf(const Kernel &k, const Stmt &loop) {
  if (loop->kind != StmtKind::For || loop->loopKind != LoopKind::Serial) return {};
  std::vector<Sum> sums;
  for (const Stmt &s : statementsOf(loop->body)) {
    if (s->kind == StmtKind::Comment) continue;
    if (s->kind != StmtKind::Store) return {};
    const Param *p = k.findParam(s->name);
    if (!p || !p->isArray) return {};
    for (const Sum &o : sums)
      if (o.store->name == s->name) return {};
    std::optional<ElementUpdate> u = elementUpdate(s);
    if (!u || u->subtract) return {};
    sums.push_back({s, u->addend});
  }
  for (const Sum &sum : sums) {
    for (const Expr &i : sum.store->indices) {
      if (mentions(i, loop->name)) return {};
      for (const Sum &o : sums)
        if (readsArray(i, o.store->name)) return {};
    }
    for (const Sum &o : sums)
      if (readsArray(sum.addend, o.store->name)) return {};
  }
  return sums;
}

bool sameElement(const Stmt &a, const Stmt &b) {
  if (a->name != b->name || a->indices.size() != b->indices.size()) return false;
  for (size_t i = 0; i < a->indices.size(); ++i)
    if (!equal(a->indices[i], b->indices[i])) return false;
  return true;
}

}  // namespace

Kernel accumulatorPromotion(const Kernel &k, const PassContext &) {
  if (!k.atomicArrays.empty()) return k;
  const size_t d = threadGuardIndex(k);
  if (d == k.body->stmts.size()) return k;
  const Stmt &guard = k.body->stmts[d + 1];
  std::vector<Stmt> body = statementsOf(guard->body), out;
  Kernel result = k, names = k;  // names: the kernel and the sums made so far (fresh names)
  for (size_t s = 0; s < body.size(); ++s) {
    std::vector<Sum> sums = sumsOf(k, body[s]);
    if (sums.empty()) {
      out.push_back(body[s]);
      continue;
    }
    const Stmt &loop = body[s];
    std::vector<Expr> inits;
    std::vector<bool> started(sums.size(), false);
    for (const Sum &sum : sums)
      inits.push_back(load(sum.store->name, sum.store->indices, k.findParam(sum.store->name)->type));
    // `X[e] = c;` just before (the zeroing, in any order): the sum starts from c. c reads none
    // of the loop's arrays, so taking it before the other zeroing stores changes nothing.
    for (bool took = true; took && !out.empty();) {
      took = false;
      const Stmt &prev = out.back();
      if (prev->kind != StmtKind::Store || prev->op != "=") break;
      for (size_t i = 0; i < sums.size() && !took; ++i) {
        bool readsAny = false;
        for (const Sum &o : sums) readsAny |= readsArray(prev->value, o.store->name);
        if (!sameElement(prev, sums[i].store) || readsAny || started[i]) continue;
        inits[i] = prev->value;
        started[i] = true;
        out.pop_back();
        took = true;
      }
    }
    std::vector<Stmt> summed, stored;
    for (size_t i = 0; i < sums.size(); ++i) {
      const Stmt &st = sums[i].store;
      Type t = k.findParam(st->name)->type;
      std::string acc = freshName(names, st->name + "_sum");
      std::vector<Stmt> taken = statementsOf(names.body);
      taken.push_back(decl(acc, t));
      names.body = block(taken);
      out.push_back(withLoc(decl(acc, t, inits[i]), st->loc));
      summed.push_back(withLoc(assign(acc, "+=", sums[i].addend), st->loc));
      stored.push_back(withLoc(store(st->name, st->indices, "=", var(acc, t)), st->loc));
      result.remarks.push_back("accumulator: loop '" + loop->name + "' adds into '" + acc +
                               "', stored into " + st->name + " once after it");
    }
    auto loopOut = std::make_shared<StmtNode>(*loop);
    loopOut->body = withLoc(block(summed), loop->body->loc);
    out.push_back(loopOut);
    out.insert(out.end(), stored.begin(), stored.end());
  }
  if (result.remarks.size() == k.remarks.size()) return k;
  auto newGuard = std::make_shared<StmtNode>(*guard);
  newGuard->body = withLoc(block(out), guard->body ? guard->body->loc : guard->loc);
  std::vector<Stmt> top = k.body->stmts;
  top[d + 1] = newGuard;
  result.body = withLoc(block(top), k.body->loc);
  result.passes.push_back("AccumulatorPromotion");
  return result;
}

}  // namespace rtcuda
