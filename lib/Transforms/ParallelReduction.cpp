// ParallelReduction: a scalar declared before the loop nest and combined across the parallel
// loops (s += x[i] * y[i]; m = fmaxf(m, x[i])) becomes a parallel reduction:
//
//   float s = 0.0f;                    float s = 0.0f;   // identity: the thread's partial value
//   int i = ...;                       int i = ...;
//   if (i < n) s += x[i] * y[i];  ==>  if (i < n) s += x[i] * y[i];
//                                      __shared__ float s_partial[1024];
//                                      s_partial[threadIdx.x] = s;  ... tree in the block ...
//                                      if (threadIdx.x == 0) atomicAdd(&s_total[0], s_partial[0]);
//   then once: r[0] = s;               then once: float s = 0.0f; s = s + s_total[0];
//                                                 s_total[0] = 0.0f; r[0] = s;
//
// Each thread folds its iterations (with at most kMaxBlocks blocks, every gridDim.x-th block's,
// where an iteration has no loop of its own) into a partial value that starts at the operator's
// identity;
// a block combines its threads' partials in shared memory (a halving tree that works for any
// block size, not only powers of two); one thread per block folds the block's value into a
// one-element device buffer with an atomic; the finish kernel, launched after every block is
// done, applies the sequential initial value and runs the statements after the nest. The
// buffer holds the identity before every launch (the launch function sets it once, the finish
// kernel sets it back), so it is correct for any grid, including an empty one.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);
// About the blocks of 256 threads an H100 holds at once (132 SMs x 8): a dot product of 67M
// floats then folds 256 iterations a thread.
constexpr int64_t kMaxBlocks = 1024;

Expr identity(const Reduction &r) {
  const Type &t = r.type;
  bool f = t.kind == ScalarKind::Float, d = t.kind == ScalarKind::Double;
  bool u = t.kind == ScalarKind::UInt;
  if (r.op == "+" || r.op == "*") {
    int one = r.op == "*";
    if (f) return floatImm(one, t, one ? "1.0f" : "0.0f");
    if (d) return floatImm(one, t, one ? "1.0" : "0.0");
    return intImm(one, t);
  }
  bool max = r.op == "max";  // max starts from the lowest value, min from the highest
  if (f) return floatImm(max ? -HUGE_VAL : HUGE_VAL, t, max ? "-INFINITY" : "INFINITY");
  if (d) return floatImm(max ? -HUGE_VAL : HUGE_VAL, t, max ? "-HUGE_VAL" : "HUGE_VAL");
  if (u) return intImm(max ? 0 : 4294967295LL, t);
  return max ? binary("-", intImm(-2147483647, t), intImm(1, t)) : intImm(2147483647, t);
}

Expr combine(const Reduction &r, const Expr &a, const Expr &b) {
  if (r.op == "+" || r.op == "*") return binary(r.op, a, b);
  std::string fn = r.type.kind == ScalarKind::Float    ? "f" + r.op + "f"
                   : r.type.kind == ScalarKind::Double ? "f" + r.op
                                                       : r.op;
  return call(fn, {a, b}, r.type);
}

Expr tid() { return var("threadIdx.x", Type::of(ScalarKind::UInt)); }

}  // namespace

Kernel parallelReduction(const Kernel &k, const PassContext &ctx) {
  if (k.reductions.empty()) return k;
  Kernel out = k;
  std::vector<Stmt> body = k.body->stmts;
  for (const Reduction &r : k.reductions)
    for (Stmt &s : body)
      if (s->kind == StmtKind::Decl && s->name == r.var) {
        s = withLoc(decl(s->name, s->type, identity(r)), s->loc);
      }
  // Threads: at most kMaxBlocks blocks, each walking every gridDim.x-th block of iterations,
  // where the mapping is one-dimensional and an iteration has no loop of its own (LaneReduction
  // may yet share one between lanes): a large reduction folds many iterations a thread, with
  // one tree and one atomic a block; a small one keeps its block per BLOCKSIZE iterations.
  const size_t d = threadGuardIndex(k);
  bool strided = k.grid.size() == 1 && d + 2 == body.size();
  for (size_t i = d; strided && i < body.size(); ++i)
    visitStmt(body[i], [&](const Stmt &s) { strided &= s->kind != StmtKind::For; });
  if (strided) {
    std::string b = freshName(k, "b");
    const LaunchDim &g = k.grid[0];
    Expr blocks = cast(kInt, div(add(g.iterations, sub(g.perBlock, intImm(1))), g.perBlock));
    std::vector<Stmt> mapping = withBlockIndex({body.begin() + d, body.end()}, var(b, kInt));
    body.resize(d);
    body.push_back(forLoop(b, kInt, cast(kInt, gpuBuiltin("blockIdx.x")), blocks,
                           cast(kInt, gpuBuiltin("gridDim.x")), block(mapping), LoopKind::Block));
    out.grid[0].maxBlocks = std::min(out.grid[0].maxBlocks, kMaxBlocks);
  }
  // Block: a halving tree over the threads' partial values in shared memory.
  int maxThreads = std::max(32, ctx.options.blockSize.max);
  std::string width = freshName(k, "width"), half = freshName(k, "half");
  std::vector<Stmt> tree, last;
  body.push_back(comment("combine the threads' partial values: in the block, then across blocks"));
  for (const Reduction &r : k.reductions) {
    std::string partial = freshName(k, r.var + "_partial"), total = freshName(k, r.var + "_total");
    auto shared = std::make_shared<StmtNode>(*decl(partial, r.type, nullptr, intImm(maxThreads)));
    shared->shared = true;  // one per block, sized for the largest block of the tuning space
    body.push_back(shared);
    body.push_back(store(partial, {tid()}, "=", var(r.var, r.type)));
    Expr mine = load(partial, {tid()}, r.type);
    Expr other = load(partial, {binary("+", tid(), var(half, kInt))}, r.type);
    tree.push_back(store(partial, {tid()}, "=", combine(r, mine, other)));
    last.push_back(store(total, {intImm(0)}, atomicFunction(r.op, r.type),
                         load(partial, {intImm(0)}, r.type)));
    out.buffers.push_back({total, r.type, identity(r)});
  }
  body.push_back(barrier());
  body.push_back(decl(width, kInt, k.blockThreads));
  Expr w = var(width, kInt), h = var(half, kInt);
  body.push_back(whileLoop(binary(">", w, intImm(1)),
                           block({decl(half, kInt, div(add(w, intImm(1)), intImm(2))),
                                  ifThen(lt(cast(kInt, tid()), sub(w, h)), block(tree)),
                                  barrier(), assign(width, "=", h)})));
  body.push_back(ifThen(binary("==", tid(), intImm(0)), block(last)));
  out.body = withLoc(block(body), k.body->loc);

  // Finish: the sequential initial value, combined with the total, then the user's statements.
  std::vector<Stmt> finish, prologue;
  for (const Stmt &s : k.body->stmts)
    if (s->kind == StmtKind::Decl && !s->arraySize) prologue.push_back(s);
  // Only the declarations the finish kernel uses (the initial values may use earlier ones).
  std::set<std::string> needed;
  for (const Reduction &r : k.reductions) needed.insert(r.var);
  visitStmt(k.finish, nullptr, [&](const Expr &e) {
    for (const std::string &v : varsOf(e)) needed.insert(v);
  });
  std::vector<Stmt> kept;
  for (auto it = prologue.rbegin(); it != prologue.rend(); ++it)
    if (needed.count((*it)->name)) {
      kept.insert(kept.begin(), *it);
      if ((*it)->value)
        for (const std::string &v : varsOf((*it)->value)) needed.insert(v);
    }
  finish = kept;
  for (size_t i = 0; i < k.reductions.size(); ++i) {
    const Reduction &r = k.reductions[i];
    Expr total = load(out.buffers[out.buffers.size() - k.reductions.size() + i].name, {intImm(0)},
                      r.type);
    finish.push_back(withLoc(assign(r.var, "=", combine(r, var(r.var, r.type), total)), r.loc));
    // Ready for the next launch: the launch function sets the buffer only once.
    finish.push_back(store(total->name, {intImm(0)}, "=", identity(r)));
  }
  if (k.finish) finish.push_back(k.finish);
  out.finish = block(finish);
  out.passes.push_back("ParallelReduction");
  return out;
}

}  // namespace rtcuda
