// RegisterTiling's staging: the operands of a contraction go through two shared-memory buffers.
//
// Before the slab loop the block stages slab 0 into buffer 0. Each iteration then loads the
// next slab from global memory into registers (`A_next`, `B_next`), multiplies the current
// buffer, stores the registers into the other buffer and meets one barrier: the loads are in
// flight while the multiply-adds run, and one barrier per slab is enough (a buffer is written
// only after the barrier that ended the last reads of it). Each thread takes groups of 4
// consecutive elements of a source row, read with one 128-bit load (`rtcuda_load4`, defined in
// kernel.cu) where the launch's arrays allow it: float elements, a row pitch that is a multiple
// of 4 and a 16-byte aligned base (decided per launch, in the kernel), and the group inside the
// matrix; otherwise, and at the edges, element by element with zeros outside.
//
//   int stage = 0;                                   A_next <- A[row0..][k..k+depth) (groups of 4)
//   fetch(k_min); put(0); __syncthreads();           put(s): A_tile[s][q][r] <- A_next (transposed)
//   for (k_tile = k_min; k_tile < K; k_tile += depth) {
//     if (k_tile + depth < K) fetch(k_tile + depth);
//     multiply-adds over buffer `stage`
//     if (k_tile + depth < K) put(1 - stage);
//     __syncthreads(); stage = 1 - stage;
//   }
#include "RegisterTilingStaging.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

Expr eq(Expr a, Expr b) { return binary("==", std::move(a), std::move(b)); }

// 1 where 128-bit loads of `p`'s rows are possible at this launch: float elements, a row
// pitch that is a multiple of 4, groups of 4 that start at a multiple of 4 (the slab's first
// column `firstCol` and its width `groupWidth` multiples of 4) and an aligned base.
Expr vectorizable(const Param &p, Expr groupWidth, Expr firstCol) {
  if (p.type.kind != ScalarKind::Float || p.dims.size() != 2 || !p.dims[1]) return intImm(0);
  auto four = [](Expr e) { return simplify(eq(mod(std::move(e), intImm(4)), intImm(0))); };
  Expr start = four(std::move(firstCol));
  int64_t known = 0;
  if (isConst(start, &known) && !known) return intImm(0);  // a constant first column off 4
  Expr all = four(std::move(groupWidth));
  if (!isConst(start)) all = land(all, start);
  return land(land(all, four(p.dims[1])),
              call("rtcuda_aligned16", {load(p.name, {intImm(0), intImm(0)}, p.type)}, kInt));
}

}  // namespace

Staging buildStaging(const Kernel &k, const Contraction &c, const StagingNames &n,
                     const StagingShape &s) {
  Staging out;
  auto quads = [&](Expr total) {
    return div(add(div(add(total, intImm(3)), intImm(4)), sub(s.blockSize, intImm(1))),
               s.blockSize);
  };
  // Groups of 4 consecutive columns per thread where SKEW_LEVEL allows (a multiple of 4), one
  // (striped) with SKEW_STRIPED=1, else the thread's SKEW_LEVEL columns consecutive.
  Expr skew = var(k.macro("SKEW_LEVEL"));
  Expr group = select(eq(mod(skew, intImm(4)), intImm(0)), intImm(4), skew);
  bool striped = false;
  for (const TuningParam &t : k.tuning) striped |= t.name == "SKEW_STRIPED";
  if (striped) group = select(var(k.macro("SKEW_STRIPED")), intImm(1), group);

  // One operand: the slab is `total` elements, `width` per source row; element (r, q) of the
  // slab is the source's [srcRow(r)][srcCol(q)], inside where `inside(r, q)`. A tile is k-major
  // (`tileWidth` apart); the source is read along its rows: R[x][k] (k minor) by consecutive
  // k, R[k][x] (k major) by consecutive x (rows of A, or columns of B).
  struct Operand {
    const Param &p;
    std::string next, quads, vec, tile;
    Expr total, width;
    std::function<Expr(Expr, Expr, Expr)> srcRow, srcCol, inside;  // (k0, r, q)
    std::function<Expr(Expr, Expr, Expr)> tileIndex;                // (stage, r, q)
    Expr vecOk;
    bool kMajor;     // the tile's rows are the source's rows: a group is 4 tile-consecutive elements
    Expr tileWidth;  // elements between two k of the tile
    Expr rows;       // source rows of a slab (total / width)
  };
  std::vector<Operand> ops;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    const ContractionOperand &op = c.operands[i];
    const OperandNames &names = n.operands[i];
    const Param &p = *k.findParam(op.array);
    Expr ext = op.column ? s.tileCols : s.tileRows, x0 = op.column ? s.col0 : s.row0;
    Expr xEnd = op.column ? s.colsEnd : s.rowsEnd, tileWidth = op.column ? s.tileCols : s.aPitch;
    Expr buffer = mul(s.depth, tileWidth);
    out.offsets.push_back(names.tile + "_base");
    if (!op.kMajor)
      ops.push_back({p, names.next, names.quads, names.vec, names.tile, mul(ext, s.depth), s.depth,
                     [=](Expr, Expr r, Expr) { return add(x0, r); },
                     [=](Expr k0, Expr, Expr q) { return add(k0, q); },
                     [=](Expr k0, Expr r, Expr q) { return land(lt(add(x0, r), xEnd), lt(add(k0, q), s.kEnd)); },
                     [=](Expr st, Expr r, Expr q) { return add(add(mul(st, buffer), mul(q, tileWidth)), r); },
                     vectorizable(p, s.depth, s.kMin), false, tileWidth, ext});
    else
      ops.push_back({p, names.next, names.quads, names.vec, names.tile, mul(s.depth, ext), ext,
                     [=](Expr k0, Expr r, Expr) { return add(k0, r); },
                     [=](Expr, Expr, Expr q) { return add(x0, q); },
                     [=](Expr k0, Expr r, Expr q) { return land(lt(add(k0, r), s.kEnd), lt(add(x0, q), xEnd)); },
                     [=](Expr st, Expr r, Expr q) { return add(add(mul(st, buffer), mul(r, tileWidth)), q); },
                     vectorizable(p, ext, x0), true, tileWidth, s.depth});
  }
  out.head = {decl(n.colGroup, kInt, group)};
  for (const Operand &o : ops) out.head.push_back(decl(o.quads, kInt, quads(o.total)));
  for (const Operand &o : ops)
    out.head.push_back(decl(o.next, o.p.type, nullptr, mul(var(o.quads), intImm(4))));
  out.head.push_back(comment("128-bit loads where this launch's arrays allow them"));
  for (const Operand &o : ops) out.head.push_back(decl(o.vec, kInt, o.vecOk));
  Expr tid = cast(kInt, gpuBuiltin("threadIdx.x"));

  // for (v < quads) { int t = tid + v * BLOCKSIZE; <body(t)> }, unrolled.
  auto perQuad = [=](const Operand &o, Stmt body) {
    return forLoop(n.v, kInt, intImm(0), var(o.quads), intImm(1),
                   block({decl(n.t, kInt, add(tid, mul(var(n.v), s.blockSize))), body}),
                   LoopKind::Unrolled);
  };
  // for (e < 4) { int r = (4t + e) / width, q = (4t + e) % width; <body(elem)> }, unrolled.
  auto perElement = [=](const Operand &o, const std::function<Stmt(Expr)> &body) {
    Expr elem = add(mul(var(n.t), intImm(4)), var(n.e));
    return forLoop(n.e, kInt, intImm(0), intImm(4), intImm(1),
                   block({decl(n.r, kInt, div(elem, o.width)), decl(n.q, kInt, mod(elem, o.width)),
                          body(elem)}),
                   LoopKind::Unrolled);
  };
  auto reg = [=](Expr e) {
    return std::vector<Expr>{add(mul(var(n.v), intImm(4)), std::move(e))};
  };

  // Whether an operand can take 128-bit loads at all (doubles cannot: rtcuda_load4 reads floats).
  auto vectorCapable = [](const Operand &o) {
    int64_t never = 1;
    return !(isConst(o.vecOk, &never) && never == 0);
  };
  // The slab at `k0` lies wholly inside every operand (its last element is inside) and every
  // operand that can takes 128-bit loads: one test for the whole block, so the interior slabs
  // run loads with no per-group guards (fewer instructions and live registers in the slab loop,
  // which measured 0.65x -> 0.82x cuBLAS at 4096^3 with TILE_K 16), the edge slabs the guarded
  // code.
  auto interior = [=](Expr k0) {
    Expr all;
    for (const Operand &o : ops) {
      Expr in = o.inside(k0, sub(o.rows, intImm(1)), sub(o.width, intImm(1)));
      if (vectorCapable(o)) in = land(var(o.vec), in);
      all = all ? land(all, in) : in;
    }
    return all;
  };
  auto unguarded = [=](Expr k0) {
    std::vector<Stmt> loops;
    for (const Operand &o : ops) {
      Expr first = mul(var(n.t), intImm(4));
      Expr r0 = div(first, o.width), q0 = mod(first, o.width);
      Stmt body = vectorCapable(o)
          ? ifThen(lt(first, o.total),
                   store(o.next, reg(intImm(0)), "rtcuda_load4",
                         load(o.p.name, {o.srcRow(k0, r0, q0), o.srcCol(k0, r0, q0)}, o.p.type)))
          : perElement(o, [&](Expr elem) {
              Expr rr = var(n.r), qq = var(n.q);
              return ifThen(lt(elem, o.total),
                            store(o.next, reg(var(n.e)), "=",
                                  load(o.p.name, {o.srcRow(k0, rr, qq), o.srcCol(k0, rr, qq)},
                                       o.p.type)));
            });
      loops.push_back(perQuad(o, body));
    }
    return block(loops);
  };
  auto guarded = [=](Expr k0) {
    std::vector<Stmt> loops;
    for (const Operand &o : ops) {
      Expr first = mul(var(n.t), intImm(4));
      Expr r0 = div(first, o.width), q0 = mod(first, o.width);
      // The group's 4 elements are one row's consecutive ones (width % 4 == 0 under `vec`).
      Expr whole = land(land(var(o.vec), lt(first, o.total)),
                        o.inside(k0, r0, add(q0, intImm(3))));
      Stmt vector = store(o.next, reg(intImm(0)), "rtcuda_load4",
                          load(o.p.name, {o.srcRow(k0, r0, q0), o.srcCol(k0, r0, q0)}, o.p.type));
      Stmt scalar = perElement(o, [&](Expr elem) {
        Expr rr = var(n.r), qq = var(n.q);
        return store(o.next, reg(var(n.e)), "=",
                     select(land(lt(elem, o.total), o.inside(k0, rr, qq)),
                            load(o.p.name, {o.srcRow(k0, rr, qq), o.srcCol(k0, rr, qq)}, o.p.type),
                            cast(o.p.type, intImm(0))));
      });
      // No 128-bit path where it can never be taken (doubles: rtcuda_load4 reads floats).
      int64_t never = 1;
      loops.push_back(perQuad(o, isConst(o.vecOk, &never) && never == 0
                                     ? scalar
                                     : ifThen(whole, vector, scalar)));
    }
    return block(loops);
  };
  out.fetch = [=](Expr k0) { return ifThen(interior(k0), unguarded(k0), guarded(k0)); };
  out.put = [=](Expr stage) {
    std::vector<Stmt> loops;
    for (const Operand &o : ops) {
      Stmt scalar = perElement(o, [&](Expr elem) {
        return ifThen(lt(elem, o.total),
                      store(o.tile, {o.tileIndex(stage, var(n.r), var(n.q))}, "=",
                            load(o.next, reg(var(n.e)), o.p.type)));
      });
      // A k-major operand's group of 4 is 4 consecutive elements of one tile row where the
      // slab's width and the tile's are multiples of 4 (known when nvcc folds the macros): one
      // 128-bit shared store (`rtcuda_store4`), aligned since the tile is and the group starts
      // at a multiple of 4.
      if (o.kMajor && o.p.type.kind == ScalarKind::Float) {
        Expr first = mul(var(n.t), intImm(4));
        Stmt vector = ifThen(lt(first, o.total),
                             store(o.tile, {o.tileIndex(stage, div(first, o.width),
                                                        mod(first, o.width))},
                                   "rtcuda_store4", load(o.next, reg(intImm(0)), o.p.type)));
        Expr fours = eq(mod(o.width, intImm(4)), intImm(0));
        if (!equal(o.width, o.tileWidth))
          fours = land(fours, eq(mod(o.tileWidth, intImm(4)), intImm(0)));
        scalar = ifThen(fours, vector, scalar);
      }
      loops.push_back(perQuad(o, scalar));
    }
    return block(loops);
  };
  return out;
}

}  // namespace rtcuda
