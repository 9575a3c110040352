// HaloTile in one dimension with staged outputs: a block computes TILES tiles (a grid-stride loop
// over BLOCKSIZE * ITEMS outputs each) and copies the next tile's input (tile plus halo) into
// shared memory asynchronously (cp.async: rtcuda_copy_async in kernel.cu) while it computes the
// current one, so that the loads of one tile are in flight during the arithmetic of another
// within a block, not only across the few blocks an SM holds.
//
//   for (i = 0; i < n; i++)                  copy tile blockIdx.x into slot 0; commit
//     y[i] = sum of w[t] * x[i + t]   ==>    for (tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
//                                              wait for the copies; __syncthreads();
//                                              if (SLOTS == 2) copy tile + gridDim.x into the other slot
//                                              x_win = the thread's window of the slot; __syncthreads();
//                                              ITEMS outputs from x_win (registers) into the slot, staged
//                                              __syncthreads(); the block copies them out, coalesced
//                                              if (SLOTS == 1) { __syncthreads(); copy the next tile }
//                                              slot = SLOTS - 1 - slot;
//                                            }
//
// Two slots where both fit in 48 KB with the tuning point's sizes, else one (the copies then
// start once the slot is free: no overlap within the block, as before). A slot written by the
// copies of tile t + gridDim.x was last read before the barrier that precedes them. Elements
// past the last one the nest reads copy its first element instead (slots no output reads), so
// every source address lies inside the array.
#include "HaloTileParts.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda::halo {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

// Slot of element e of a tile: one padding word per 32, so that threads reading ITEMS
// consecutive elements each (ITEMS dividing 32) hit 32 different banks.
Expr padded(const Expr &e) { return add(e, div(e, intImm(kWarp))); }

struct Line : TileArray {
  std::string slotSize;
  Expr size;  // elements of the tile: BLOCKSIZE * ITEMS + halo
};

}  // namespace

Expr streamLine(const Kernel &k, const Stmt &loop, const Tiled &tiled, const Taps &taps,
                const std::string &staged, std::vector<Stmt> &top) {
  const std::string p = loop->name;
  const Type pt = loop->type;
  Expr bs = var(k.macro("BLOCKSIZE")), items = var(k.macro("ITEMS")),
       tid = cast(kInt, gpuBuiltin("threadIdx.x")), per = mul(bs, items);
  Expr allTiles = simplify(div(add(simplify(tripCount(loop)), sub(per, intImm(1))), per));
  top.push_back(comment("halo tile, 1-D: a block computes " + k.macro("TILES") +
                        " tiles of " + k.macro("ITEMS") +
                        " outputs per thread; the next tile's copies are in flight meanwhile"));
  std::vector<Line> lines;
  Expr bytes = intImm(0);
  for (const auto &[name, w] : tiled) {
    Line a;
    static_cast<TileArray &>(a) = tileArray(k, name, w);
    a.slotSize = freshName(k, name + "_slot");
    a.size = simplify(add(per, intImm(w.hi[0] - w.lo[0])));
    top.push_back(constantDecl(a.slotSize, simplify(add(a.size, add(div(a.size, intImm(kWarp)), intImm(1))))));
    top.push_back(constantDecl(a.loads, simplify(div(add(a.size, sub(bs, intImm(1))), bs))));
    bytes = add(bytes, mul(var(a.slotSize), intImm(a.elem.bytes())));
    lines.push_back(a);
  }
  // Two slots per array where they fit in 48 KB of static shared memory at this point (with the
  // anchor word).
  std::string slots = freshName(k, "slots");
  top.push_back(constantDecl(slots, select(lt(mul(intImm(2), simplify(bytes)), intImm(kSharedBytes - 15)),
                                           intImm(2), intImm(1))));
  for (const Line &a : lines) {
    auto shared = std::make_shared<StmtNode>(*decl(a.tile, a.elem, nullptr, mul(var(slots), var(a.slotSize))));
    shared->shared = true;
    top.push_back(shared);
  }
  const std::string anchor = asyncAnchor(k, top);
  // The copies of tile `t` into slot `slot`: element e of an array's tile by thread
  // e % BLOCKSIZE, rows of BLOCKSIZE one after another; one commit group for all arrays.
  auto copies = [&](const Expr &t, const Expr &slot) {
    int64_t c = -1;
    const bool zero = isConst(slot, &c) && c == 0;
    std::vector<Stmt> all;
    for (const Line &a : lines) {
      std::string r = freshName(k, "r"), e = freshName(k, "e"), at = freshName(k, p + "_at");
      Expr ok = lt(var(at, pt), simplify(add(loop->end, intImm(a.w.hi[0]))));
      Expr first = simplify(add(loop->min, intImm(a.w.lo[0])));
      Stmt body = block(
          {decl(e, kInt, add(tid, mul(var(r), bs))),
           decl(at, pt, simplify(add(add(loop->min, intImm(a.w.lo[0])), add(mul(t, per), var(e))))),
           ifThen(lt(var(e), a.size),
                  store(a.tile, {zero ? padded(var(e)) : add(mul(slot, var(a.slotSize)), padded(var(e)))},
                        "rtcuda_copy_async",
                        select(ok, load(a.array, {var(at, pt)}, a.elem), load(a.array, {first}, a.elem))))});
      all.push_back(forLoop(r, kInt, intImm(0), var(a.loads), intImm(1), body, LoopKind::Unrolled));
    }
    return block(all);
  };
  std::string tile = freshName(k, "tile"), slot = freshName(k, "slot"), next = freshName(k, "next"),
              firstOut = freshName(k, p + "_first"), q = freshName(k, "q");
  Expr blockId = cast(kInt, gpuBuiltin("blockIdx.x")), gridDim = cast(kInt, gpuBuiltin("gridDim.x"));
  top.push_back(ifThen(lt(blockId, allTiles), copies(blockId, intImm(0))));
  top.push_back(asyncCommit(anchor));
  top.push_back(decl(slot, kInt, intImm(0)));

  std::vector<Stmt> perTile;
  perTile.push_back(decl(firstOut, pt, simplify(add(loop->min, mul(var(tile), per)))));
  perTile.push_back(decl(next, kInt, add(var(tile), gridDim)));
  perTile.push_back(asyncWait(anchor, intImm(0)));
  perTile.push_back(barrier());  // this tile's copies have landed; the other slot is free
  Expr more = lt(var(next), allTiles);
  perTile.push_back(ifThen(land(lt(intImm(1), var(slots)), more),
                           copies(var(next), sub(intImm(1), var(slot)))));
  perTile.push_back(asyncCommit(anchor));
  // Each thread's window of each tile: ITEMS + halo consecutive elements, into registers.
  Expr own = mul(tid, items);
  std::map<std::string, const Line *> lineOf;
  for (const Line &a : lines) {
    std::string e = freshName(k, "e");
    Expr wsize = simplify(add(items, intImm(a.w.hi[0] - a.w.lo[0])));
    perTile.push_back(decl(a.win, a.elem, nullptr, wsize));
    perTile.push_back(forLoop(e, kInt, intImm(0), wsize, intImm(1),
                              store(a.win, {var(e)}, "=",
                                    load(a.tile, {add(mul(var(slot), var(a.slotSize)),
                                                      padded(add(own, var(e))))},
                                         a.elem)),
                              LoopKind::Unrolled));
    lineOf[a.array] = &a;
  }
  perTile.push_back(barrier());  // every window read: the outputs may overwrite the slot
  const Line &out = lines[0];
  Expr outSlot = mul(var(slot), var(out.slotSize));
  const Stmt body = loop->body;
  Stmt computed = mapStmt(body, [&](const Stmt &s) {
    if (s->kind != StmtKind::Store || s->name != staged) return s;
    return store(out.tile, {add(outSlot, padded(add(own, var(q))))}, "=", s->value);
  }, [&](const Expr &e) {
    return mapExpr(e, [&](const Expr &n) -> Expr {
      if (n->kind != ExprKind::Load) return n;
      if (Expr t = tapRead(n, taps)) return t;
      auto it = lineOf.find(n->name);
      if (it == lineOf.end()) return n;
      // [p + a] -> window (q + a - lo)
      Expr c = simplify(sub(sub(n->operands[0], var(p, pt)), intImm(it->second->w.lo[0])));
      return load(it->second->win, {add(var(q), c)}, n->type);
    });
  });
  std::vector<Stmt> item{withLoc(decl(p, pt, add(var(firstOut, pt), add(own, var(q)))), loop->loc),
                         ifThen(lt(var(p, pt), loop->end), unrollAll(computed))};
  perTile.push_back(forLoop(q, kInt, intImm(0), items, intImm(1), block(item), LoopKind::Unrolled));
  perTile.push_back(barrier());  // the staged outputs are in the slot
  {
    std::string r = freshName(k, "r"), e = freshName(k, "e"), at = freshName(k, p + "_out");
    const Param *y = k.findParam(staged);
    Stmt copy = block({decl(e, kInt, add(tid, mul(var(r), bs))),
                       decl(at, pt, add(var(firstOut, pt), var(e))),
                       ifThen(lt(var(at, pt), loop->end),
                              store(staged, {var(at, pt)}, "=",
                                    load(out.tile, {add(outSlot, padded(var(e)))}, y->type)))});
    perTile.push_back(forLoop(r, kInt, intImm(0), items, intImm(1), copy, LoopKind::Unrolled));
  }
  // One slot: the next tile's copies once every thread has copied its outputs out of it.
  perTile.push_back(ifThen(lt(var(slots), intImm(2)),
                           block({barrier(), ifThen(more, copies(var(next), intImm(0)))})));
  perTile.push_back(asyncCommit(anchor));
  perTile.push_back(assign(slot, "=", sub(sub(var(slots), intImm(1)), var(slot))));
  top.push_back(withLoc(forLoop(tile, kInt, blockId, allTiles, gridDim, block(perTile),
                                LoopKind::Block),
                        loop->loc));
  top.push_back(asyncWait(anchor, intImm(0)));
  return allTiles;
}

}  // namespace rtcuda::halo
