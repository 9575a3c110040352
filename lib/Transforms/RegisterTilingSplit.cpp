// RegisterTiling's split k. A contraction whose grid of tiles leaves SMs idle (PolyBench LARGE's
// 1000 x 1100 result is 72 tiles of 128 x 128 for 132 SMs of an H100) can give each tile
// several blocks, each summing one chunk of the k loop: the launch sets gridDim.y, the number
// of chunks, from the extents and the SM count (LaunchFunction.cpp), and gridDim.y == 1 is the
// kernel as before. Each block of a split tile writes its partial sums into a __device__
// workspace (a slot per block, coalesced: element e of thread t at e * BLOCKSIZE + t), counts
// itself in for its tile, and the last block to count in adds the chunks' sums in the order of
// blockIdx.y (the same result whichever block is last) and runs the statements after k:
//
//   float sum[M * S]; (init)                 float sum[M * S]; (init)
//                                            if (blockIdx.y > 0) sum[..] = 0;  (chunks after the first)
//   for (k_tile = 0; k_tile < m; ...)  ==>   for (k_tile = k_begin; k_tile < k_stop; ...)
//     ...                                      ...
//   (store, guarded)                         int split_last = 1;
//                                            if (gridDim.y > 1) {
//                                              work[slot of this block] = sum[..];
//                                              split_last = rtcuda_tile_arrive(counts + blockIdx.x);
//                                              if (split_last) sum[..] = work[chunk 0] + work[chunk 1] ...;
//                                            }
//                                            if (split_last) { (store, guarded) }
//
// Legal where the k loop's body only adds or subtracts to the thread's own variables declared
// outside it (sum[m][s] += ..., whatever the factors), reads none of them and writes nothing
// else outside itself: the sum over k is then the first chunk's sum (from the initial value)
// plus the later chunks' sums (from zero). Floating-point sums are associated differently, as
// a different TILE_K would not; the result does not depend on the order the blocks ran in.
#include "RegisterTilingSplit.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <map>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

// Workspace: 16 MB of partial sums (4 Mi floats: 256 blocks of 128 x 128 results), counts for
// 4096 tiles; a launch that would need more is not split.
constexpr int64_t kWorkBytes = int64_t(16) << 20;
constexpr int64_t kCountSlots = 4096;

}  // namespace

bool planSplitK(const Kernel &k, const Stmt &kLoop, const Expr &depth, const Expr &blockSize,
                const Expr &tileK, const std::function<std::string(const std::string &)> &fresh,
                SplitPlan &plan, std::string &why) {
  if (k.batch.extent) {  // a tile's arrivals are counted at blockIdx.x, which numbers every slice's
    why = "a batch of slices: their tiles fill the grid together";
    return false;
  }
  // Declarations outside the k loop, by name (the thread's own variables and arrays).
  std::map<std::string, Stmt> outside;
  visitStmt(k.body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl && !s->shared) outside.emplace(s->name, s);
  });
  std::vector<std::string> inside, accumulators;
  visitStmt(kLoop->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Decl) inside.push_back(s->name);
  });
  auto isInside = [&](const std::string &n) {
    return std::find(inside.begin(), inside.end(), n) != inside.end();
  };
  bool ok = true;
  visitStmt(kLoop->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Break || s->kind == StmtKind::Continue || s->kind == StmtKind::Barrier) {
      ok = false;
      why = "loop '" + kLoop->name + "' has a break, continue or barrier";
    }
    if (s->kind != StmtKind::Assign && s->kind != StmtKind::Store) return;
    if (isInside(s->name)) return;
    auto d = outside.find(s->name);
    if (d == outside.end() || k.findParam(s->name) || (s->op != "+=" && s->op != "-=")) {
      ok = false;
      why = "loop '" + kLoop->name + "' writes '" + s->name + "' other than by adding to a "
            "variable of the thread";
      return;
    }
    if (std::find(accumulators.begin(), accumulators.end(), s->name) == accumulators.end())
      accumulators.push_back(s->name);
  });
  if (!ok) return false;
  if (accumulators.empty()) {
    why = "loop '" + kLoop->name + "' adds to no variable of the thread";
    return false;
  }
  // No read of a sum inside the loop (s += s * x is no sum of chunks).
  visitStmt(kLoop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if ((n->kind == ExprKind::Load || n->kind == ExprKind::Var) &&
          std::find(accumulators.begin(), accumulators.end(), n->name) != accumulators.end()) {
        ok = false;
        why = "loop '" + kLoop->name + "' reads the sum '" + n->name + "'";
      }
    });
  });
  if (!ok) return false;
  const Type t = outside.at(accumulators[0])->type;
  for (const std::string &a : accumulators)
    if (outside.at(a)->type != t || !t.isFloat()) {
      why = "the sums of loop '" + kLoop->name + "' are not all float or all double";
      return false;
    }

  // The block's chunk of k: whole slabs, the same number for every chunk but the last.
  std::string slabs = fresh(kLoop->name + "_slabs"), chunk = fresh(kLoop->name + "_chunk");
  std::string begin = fresh(kLoop->name + "_begin"), stop = fresh(kLoop->name + "_stop");
  // <PREFIX>_SPLIT_CODE: 0 in the kernel at its tuning point (nvcc folds the split away: the
  // large grids keep the code they had), 1 in the small-grid instantiations (KernelFile.cpp).
  Expr code = var(k.macro("SPLIT_CODE"));
  Expr chunks = select(code, cast(kInt, gpuBuiltin("gridDim.y")), intImm(1));
  Expr chunkIndex = select(code, cast(kInt, gpuBuiltin("blockIdx.y")), intImm(0));
  Expr span = sub(kLoop->end, kLoop->min);
  plan.range = {
      decl(slabs, kInt, select(lt(kLoop->min, kLoop->end),
                               div(add(span, sub(depth, intImm(1))), depth), intImm(0))),
      decl(chunk, kInt, mul(div(add(var(slabs), sub(chunks, intImm(1))), chunks), depth)),
      decl(begin, kInt, add(kLoop->min, mul(chunkIndex, var(chunk)))),
      decl(stop, kInt, select(code, select(lt(kLoop->end, add(var(begin), var(chunk))), kLoop->end,
                                           add(var(begin), var(chunk))),
                              kLoop->end))};
  plan.kBegin = var(begin);
  plan.kStop = var(stop);

  // Every element of every sum, in a fixed order: (name, element count) and its offset.
  Expr elements = intImm(0);
  std::vector<std::pair<Stmt, Expr>> sums;  // declaration, offset
  for (const std::string &a : accumulators) {
    const Stmt &d = outside.at(a);
    sums.push_back({d, elements});
    elements = add(elements, d->arraySize ? d->arraySize : intImm(1));
  }
  std::string e = fresh("e"), c = fresh("c");
  auto eachElement = [&](const std::function<Stmt(const Stmt &, Expr element, Expr at)> &f) {
    std::vector<Stmt> out;
    for (const auto &[d, offset] : sums) {
      if (!d->arraySize) {
        out.push_back(f(d, nullptr, offset));
        continue;
      }
      out.push_back(forLoop(e, kInt, intImm(0), d->arraySize, intImm(1),
                            f(d, var(e), add(offset, var(e))), LoopKind::Unrolled));
    }
    return out;
  };
  auto setSum = [&](const Stmt &d, const Expr &element, Expr value) {
    return element ? store(d->name, {element}, "=", value) : assign(d->name, "=", value);
  };
  auto readSum = [&](const Stmt &d, const Expr &element) {
    return element ? load(d->name, {element}, t) : var(d->name, t);
  };
  Expr zero = floatImm(0, t, t.kind == ScalarKind::Float ? "0.0f" : "0.0");
  plan.reset = ifThen(binary(">", chunkIndex, intImm(0)),
                      block(eachElement([&](const Stmt &d, Expr el, Expr) {
                        return setSum(d, el, zero);
                      })));

  std::string work = fresh(k.name + "_split_work"), counts = fresh(k.name + "_split_counts");
  std::string slot = fresh("split_slot"), tileSlot = fresh("tile_slot");
  std::string total = fresh("total");
  plan.last = fresh("split_last");
  Expr workPerBlock = mul(elements, blockSize);
  Expr tid = cast(kInt, gpuBuiltin("threadIdx.x")), tile = cast(kInt, gpuBuiltin("blockIdx.x"));
  Expr tiles = cast(kInt, gpuBuiltin("gridDim.x"));
  auto at = [&](Expr base, Expr element) { return add(base, mul(element, blockSize)); };
  std::vector<Stmt> writes = {decl(slot, kInt, add(mul(add(mul(chunkIndex, tiles), tile), workPerBlock), tid))};
  for (const Stmt &s : eachElement([&](const Stmt &d, Expr el, Expr offset) {
         // An op that names a function prints as rtcuda_work_put(&work[..], value).
         return store(work, {at(var(slot), offset)}, "rtcuda_work_put", readSum(d, el));
       }))
    writes.push_back(s);
  writes.push_back(assign(plan.last, "=",
                          call("rtcuda_tile_arrive", {binary("+", var(counts), tile)}, kInt)));
  Expr stride = mul(tiles, workPerBlock);
  auto ldcg = [&](Expr index) { return call("rtcuda_work_get", {binary("+", var(work), index)}, t); };
  std::vector<Stmt> adds = {decl(tileSlot, kInt, add(mul(tile, workPerBlock), tid))};
  for (const Stmt &s : eachElement([&](const Stmt &d, Expr el, Expr offset) {
         Expr first = at(var(tileSlot), offset);
         return block({decl(total, t, ldcg(first)),
                       forLoop(c, kInt, intImm(1), chunks, intImm(1),
                               assign(total, "+=", ldcg(add(first, mul(var(c), stride))))),
                       setSum(d, el, var(total, t))});
       }))
    adds.push_back(s);
  writes.push_back(ifThen(var(plan.last), block(adds)));
  plan.combine = {
      comment("split k: the blocks of a tile add their chunks' sums; the last one stores"),
      decl(plan.last, kInt, intImm(1)),
      ifThen(binary(">", chunks, intImm(1)), block(writes))};

  plan.info.names = {slabs, chunk, begin, stop, plan.last};
  plan.info.values = {intImm(0), intImm(0), kLoop->min, kLoop->end, intImm(1)};
  plan.info.trip = simplify(span);
  plan.info.workPerBlock = workPerBlock;
  plan.info.tileK = tileK;
  plan.info.capacity = kWorkBytes / t.bytes();
  plan.info.tiles = kCountSlots;
  plan.arrays = {{work, t, plan.info.capacity}, {counts, Type::of(ScalarKind::UInt), kCountSlots}};
  return true;
}

}  // namespace rtcuda
