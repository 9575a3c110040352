// SharedHistogram: atomic additions into a small array (a histogram's bins) go to a copy of the
// array in the block's shared memory; each block adds its copy to the global array once.
//
// With one global atomic per element, every thread of the grid queues on a few bins (5.5 GB/s
// for 64 bins on an H200). Shared-memory atomics are much faster, and with ITEMS elements per
// thread the global atomics fall to one per bin per block. ITEMS defaults to 64: on an H100,
// 256 bins ran at 0.44x copy bandwidth with 16 and 0.63x with 64 (docs/performance/kinds-runs.md).
//
//   int i = blockIdx.x * BLOCKSIZE + threadIdx.x;     RTCUDA_SHARED_ARRAY(int, hist_block, 64);
//   if (i < n) {                                      for (t = threadIdx.x; t < 64; t += BLOCKSIZE) hist_block[t] = 0;
//     atomicAdd(&hist[data[i] & 63], 1);    ==>       __syncthreads();
//   }                                                 for (r = 0; r < ITEMS; r++) {
//                                                       int i = (blockIdx.x * ITEMS + r) * BLOCKSIZE + threadIdx.x;
//                                                       if (i < n) atomicAdd(&hist_block[data[i] & 63], 1);
//                                                     }
//                                                     __syncthreads();
//                                                     for (t = threadIdx.x; t < 64; t += BLOCKSIZE)
//                                                       if (hist_block[t] != 0) atomicAdd(&hist[t], hist_block[t]);
//
// Applies to a one-dimensional mapping whose atomic arrays have constant extents (at most
// kMaxElements elements) and are touched only by atomicAdd / atomicSub. Integer sums are exact in
// any order; floating-point sums are regrouped, as the atomics already did.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);
// 4096 elements: 16 KB of shared memory for int bins, 32 KB for double.
constexpr int64_t kMaxElements = 4096;

// The number of elements of an array with constant extents, or 0.
int64_t constantElements(const Param *p) {
  if (!p || !p->isArray || p->dims.empty()) return 0;
  int64_t n = 1, d = 0;
  for (const Expr &e : p->dims) {
    if (!e || !isConst(simplify(e), &d) || d <= 0) return 0;
    n *= d;
  }
  return n;
}

// Every access of `array` in `s` is an atomicAdd or atomicSub of one element.
bool onlyAtomicAdds(const Stmt &s, const std::string &array) {
  bool ok = true;
  visitStmt(s, [&](const Stmt &n) {
    if (n->kind == StmtKind::Store && n->name == array)
      ok &= (n->op == "atomicAdd" || n->op == "atomicSub") && n->indices.size() == 1;
  }, [&](const Expr &e) {
    // A read of the array (x[i] -= L[i][j] * x[j]) would miss the per-block copies.
    visitExpr(e, [&](const Expr &n) {
      ok &= !(n->kind == ExprKind::Var || n->kind == ExprKind::Load) || n->name != array;
    });
  });
  return ok;
}

// for (t = threadIdx.x; t < size; t += BLOCKSIZE) body(t)
Stmt blockStrided(const std::string &t, int64_t size, const Expr &blockSize, Stmt body) {
  return forLoop(t, kInt, cast(kInt, gpuBuiltin("threadIdx.x")), intImm(size), blockSize, body);
}

}  // namespace

Kernel sharedHistogram(const Kernel &k, const PassContext &) {
  if (k.grid.size() != 1 || k.atomicArrays.empty() || !k.reductions.empty()) return k;
  const std::vector<Stmt> &top = k.body->stmts;
  const size_t d = threadGuardIndex(k);
  if (d == top.size() || d + 2 != top.size()) return k;
  struct Bins { std::string array, copy; int64_t size; Type type; };
  std::vector<Bins> bins;
  for (const std::string &a : k.atomicArrays) {
    const Param *p = k.findParam(a);
    int64_t n = constantElements(p);
    if (n == 0 || n > kMaxElements || !onlyAtomicAdds(k.body, a)) return k;
    bins.push_back({a, freshName(k, a + "_block"), n, p->type});
  }
  Expr blockSize = var(k.macro("BLOCKSIZE")), items = var(k.macro("ITEMS"));
  std::string r = freshName(k, "r"), t = freshName(k, "t");

  std::vector<Stmt> out(top.begin(), top.begin() + d);
  out.push_back(comment("per-block copies of the bins, added to the arrays once per block"));
  for (const Bins &b : bins) {
    auto shared = std::make_shared<StmtNode>(*decl(b.copy, b.type, nullptr, intImm(b.size)));
    shared->shared = true;
    out.push_back(shared);
    Expr zero = b.type.isFloat() ? floatImm(0, b.type) : cast(b.type, intImm(0));
    out.push_back(blockStrided(t, b.size, blockSize, store(b.copy, {var(t)}, "=", zero)));
  }
  out.push_back(barrier());
  // ITEMS consecutive strips of BLOCKSIZE iterations per block, each read coalesced.
  std::vector<Stmt> toCopies;
  for (auto it = top.begin() + d; it != top.end(); ++it)
    toCopies.push_back(mapStmt(*it, [&](const Stmt &n) -> Stmt {
      auto b = std::find_if(bins.begin(), bins.end(), [&](const Bins &b) { return b.array == n->name; });
      if (n->kind != StmtKind::Store || b == bins.end()) return n;
      auto copy = std::make_shared<StmtNode>(*n);
      copy->name = b->copy;
      return copy;
    }));
  Expr strip = add(mul(gpuBuiltin("blockIdx.x"), items), var(r));
  out.push_back(forLoop(r, kInt, intImm(0), items, intImm(1), block(withBlockIndex(toCopies, strip))));
  out.push_back(barrier());
  for (const Bins &b : bins) {
    Expr mine = load(b.copy, {var(t)}, b.type);
    Expr zero = b.type.isFloat() ? floatImm(0, b.type) : cast(b.type, intImm(0));
    out.push_back(blockStrided(t, b.size, blockSize,
                               ifThen(binary("!=", mine, zero),
                                      store(b.array, {var(t)}, "atomicAdd", mine))));
  }

  Kernel result = k;
  result.body = withLoc(block(out), k.body->loc);
  result.grid[0].perBlock = mul(blockSize, items);
  result.passes.push_back("SharedHistogram");
  result.tuning.push_back({"ITEMS", k.macro("ITEMS"), {1, 4, 16, 64}, 64});
  std::string names;
  for (const Bins &b : bins) names += (names.empty() ? "'" : ", '") + b.array + "'";
  result.remarks.push_back("histogram: atomic additions into " + names + " go to per-block " +
                           "copies in shared memory, added to the array once per block; " +
                           k.macro("ITEMS") + " strips of iterations per block");
  return result;
}

}  // namespace rtcuda
