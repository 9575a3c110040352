// HaloTile's load phase: a block copies one array's tile (its outputs' part plus the halo) from
// global into shared memory, coalesced, before the barrier that precedes the outputs.
//
// Element form: element e of the tile by thread e % BLOCKSIZE, rows one after another, a
// thread's loads (up to kInFlight) into registers before it stores any of them.
//
// Row form (two dimensions, where ASYNC_FILL holds): rows of the tile by warps (warp w copies
// rows w, w + BLOCKSIZE / 32, ...), columns by lanes (lane l copies columns l, l + 32, ...), each
// element by cp.async straight into shared memory (rtcuda_copy_async in kernel.cu): every copy of
// the thread in flight at once, no registers held, no store instruction, and a thread's row and
// column computed once per row and per column instead of e / width and e % width per element.
// The 2-D filters with many terms are bound by instruction issue, and the row form costs them
// the fewest instructions per element; a row that is not a multiple of 32 wide leaves lanes
// idle in its last copy, which the small filters feel more (docs/passes/HaloTile.md).
//
// Elements past the last one the nest reads are not read: their slots get 0 (element form) or a
// copy of the tile's first element (which the nest reads), so that the whole tile is written.
#include "HaloTileParts.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda::halo {

using namespace ir;

namespace {

constexpr int64_t kInFlight = 16;  // loads a thread holds in registers before its stores

// Element form, through registers.
Stmt elementFill(const Kernel &k, const TileFill &f, std::vector<Stmt> &top) {
  const Type kInt = Type::of(ScalarKind::Int);
  std::string r0 = freshName(k, "r0"), r = freshName(k, "r"), v = freshName(k, f.array + "_v"),
              e = freshName(k, "e");
  // Loads per thread, and per chunk of loads in flight: named constants (sizes of the chunk).
  std::string perName = freshName(k, f.array + "_loads"), chunkName = freshName(k, f.array + "_chunk");
  Expr per = var(perName), chunk = var(chunkName);
  top.push_back(constantDecl(perName, simplify(div(add(f.size, sub(f.bs, intImm(1))), f.bs))));
  top.push_back(constantDecl(chunkName, select(lt(per, intImm(kInFlight + 1)), per, intImm(kInFlight))));
  Expr slot = add(f.tid, mul(add(var(r0), var(r)), f.bs));
  std::vector<Stmt> loads{decl(e, kInt, slot)};
  std::vector<Expr> at;
  Expr inside = lt(var(e), f.size);
  for (size_t d = 0; d < f.widths.size(); ++d) {
    std::string g = freshName(k, f.vars[d] + "_at");
    const Type &t = f.loops[d]->type;
    loads.push_back(decl(g, t, add(var(f.base[d], t), coordinate(var(e), f.widths, d))));
    at.push_back(var(g, t));
    inside = land(inside, lt(var(g, t), f.lastRead[d]));
  }
  loads.push_back(store(v, {var(r)}, "=", select(inside, load(f.array, at, f.elem),
                                                  cast(f.elem, intImm(0)))));
  Stmt put = block({decl(e, kInt, slot),
                    ifThen(lt(var(e), f.size), store(f.tile, {var(e)}, "=",
                                                      load(v, {var(r)}, f.elem)))});
  Stmt chunkBody = block({decl(v, f.elem, nullptr, chunk),
                          forLoop(r, kInt, intImm(0), chunk, intImm(1), block(loads),
                                  LoopKind::Unrolled),
                          forLoop(r, kInt, intImm(0), chunk, intImm(1), put, LoopKind::Unrolled)});
  return forLoop(r0, kInt, intImm(0), per, chunk, chunkBody);
}

// Row form (two dimensions), cp.async.
Stmt rowCopies(const Kernel &k, const TileFill &f, std::vector<Stmt> &top) {
  const Type kInt = Type::of(ScalarKind::Int);
  const Type &ti = f.loops[0]->type, &tj = f.loops[1]->type;
  const Expr rows = f.widths[0], width = f.widths[1];
  std::string perWarpName = freshName(k, f.array + "_rows_a_warp"),
              perRowName = freshName(k, f.array + "_copies_a_row");
  Expr warps = div(f.bs, intImm(kWarp));
  top.push_back(constantDecl(perWarpName, simplify(div(add(rows, sub(warps, intImm(1))), warps))));
  top.push_back(constantDecl(perRowName, simplify(div(add(width, intImm(kWarp - 1)), intImm(kWarp)))));
  // Row r = warp + rr * warps of the tile, column jj = lane + 32 * c.
  std::string rr = freshName(k, "rr"), c = freshName(k, "c"), r = freshName(k, "r"),
              jj = freshName(k, "jj"), iAt = freshName(k, f.vars[0] + "_at"),
              jAt = freshName(k, f.vars[1] + "_at");
  Expr inTile = land(lt(var(r), rows), lt(var(jj), width));
  Expr inRead = land(lt(var(iAt, ti), f.lastRead[0]), lt(var(jAt, tj), f.lastRead[1]));
  Expr first = load(f.array, {var(f.base[0], ti), var(f.base[1], tj)}, f.elem);
  Stmt copy = block(
      {decl(r, kInt, add(div(f.tid, intImm(kWarp)), mul(var(rr), warps))),
       decl(jj, kInt, add(mod(f.tid, intImm(kWarp)), mul(var(c), intImm(kWarp)))),
       decl(iAt, ti, add(var(f.base[0], ti), var(r))), decl(jAt, tj, add(var(f.base[1], tj), var(jj))),
       ifThen(inTile, store(f.tile, {add(mul(var(r), width), var(jj))}, "rtcuda_copy_async",
                            select(inRead, load(f.array, {var(iAt, ti), var(jAt, tj)}, f.elem), first)))});
  return forLoop(rr, kInt, intImm(0), var(perWarpName), intImm(1),
                 forLoop(c, kInt, intImm(0), var(perRowName), intImm(1), copy, LoopKind::Unrolled),
                 LoopKind::Unrolled);
}

}  // namespace

std::string asyncAnchor(const Kernel &k, std::vector<Stmt> &top) {
  std::string anchor = freshName(k, "pending");
  auto word = std::make_shared<StmtNode>(*decl(anchor, Type::of(ScalarKind::Int), nullptr, intImm(1)));
  word->shared = true;
  top.push_back(word);
  return anchor;
}

Stmt asyncCommit(const std::string &anchor) {
  return store(anchor, {intImm(0)}, "rtcuda_async_commit", intImm(0));
}

Stmt asyncWait(const std::string &anchor, const Expr &pending) {
  return store(anchor, {intImm(0)}, "rtcuda_async_wait", pending);
}

Stmt fillTile(const Kernel &k, const TileFill &f, std::vector<Stmt> &top) {
  if (!f.asyncFill) return elementFill(k, f, top);
  return ifThen(f.asyncFill, rowCopies(k, f, top), elementFill(k, f, top));
}

}  // namespace rtcuda::halo
