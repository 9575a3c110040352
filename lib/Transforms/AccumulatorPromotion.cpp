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
// LoopPartition) whose body is one store `X[e] = X[e] + v` (or `v + X[e]`, `X[e] += v`) into a
// parameter array, with `e` not using the loop's variable and `v` not reading X: no iteration
// reads another element of X, so the element's value flows only through the sum. A store
// `X[e] = c` right before the loop becomes the sum's initial value. The additions keep their
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

// The addend v of `loop`'s one statement `X[e] = X[e] + v` (or `v + X[e]`, `X[e] += v`), or
// null when the loop is not such a sum.
Expr addend(const Kernel &k, const Stmt &loop) {
  if (loop->kind != StmtKind::For || loop->loopKind != LoopKind::Serial) return nullptr;
  std::vector<Stmt> body;
  for (const Stmt &s : statementsOf(loop->body))
    if (s->kind != StmtKind::Comment) body.push_back(s);
  if (body.size() != 1 || body[0]->kind != StmtKind::Store) return nullptr;
  const Stmt &st = body[0];
  const Param *p = k.findParam(st->name);
  if (!p || !p->isArray) return nullptr;
  for (const Expr &i : st->indices)
    if (mentions(i, loop->name) || readsArray(i, st->name)) return nullptr;
  Expr v;
  if (st->op == "+=") {
    v = st->value;
  } else if (st->op == "=" && st->value->kind == ExprKind::Binary && st->value->name == "+") {
    Expr self = load(st->name, st->indices, p->type);
    const Expr &a = st->value->operands[0], &b = st->value->operands[1];
    if (equal(a, self)) v = b;
    else if (equal(b, self)) v = a;
  }
  if (!v || readsArray(v, st->name)) return nullptr;
  return v;
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
    Expr v = addend(k, body[s]);
    if (!v) {
      out.push_back(body[s]);
      continue;
    }
    const Stmt &loop = body[s];
    Stmt st;
    for (const Stmt &c : statementsOf(loop->body))
      if (c->kind == StmtKind::Store) st = c;
    Type t = k.findParam(st->name)->type;
    Expr init = load(st->name, st->indices, t);
    // `X[e] = c;` just before: the sum starts from c.
    if (!out.empty() && out.back()->kind == StmtKind::Store && out.back()->op == "=" &&
        out.back()->name == st->name && out.back()->indices.size() == st->indices.size() &&
        !readsArray(out.back()->value, st->name)) {
      bool same = true;
      for (size_t i = 0; i < st->indices.size(); ++i)
        same &= equal(out.back()->indices[i], st->indices[i]);
      if (same) init = out.back()->value, out.pop_back();
    }
    std::string acc = freshName(names, st->name + "_sum");
    std::vector<Stmt> taken = statementsOf(names.body);
    taken.push_back(decl(acc, t));
    names.body = block(taken);
    out.push_back(withLoc(decl(acc, t, init), st->loc));
    auto summed = std::make_shared<StmtNode>(*loop);
    summed->body = withLoc(block({withLoc(assign(acc, "+=", v), st->loc)}), loop->body->loc);
    out.push_back(summed);
    out.push_back(withLoc(store(st->name, st->indices, "=", var(acc, t)), st->loc));
    result.remarks.push_back("accumulator: loop '" + loop->name + "' adds into '" + acc +
                             "', stored into " + st->name + " once after it");
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
