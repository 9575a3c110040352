// HaloTile in three dimensions: 2.5-D blocking. A block owns a column of the output, a tile of
// BLOCKSIZE * ITEMS / WIDTH rows of WIDTH columns in each of PLANES consecutive planes, and walks
// it plane by plane. Each plane of the input tile (the rows and columns plus their halo) is copied from
// global memory once, asynchronously (cp.async, an element a copy: rtcuda_copy_async in kernel.cu;
// with BULK on sm_90 a row a copy by the bulk-copy engine: rtcuda_copy_row), DEPTH planes
// ahead, into one of DEPTH + group shared slots; each thread keeps the planes its outputs still need
// in registers (its window: the halo planes of the outermost loop, ITEMS + halo rows, the column
// halo), moves them down one plane per step, and reads only the new plane's part from shared
// memory. The copies hold no registers and are in flight while the outputs are computed.
//
//   for (k ...) for (j ...) for (i ...)           for (tile = blockIdx.x; tile < tiles; ...) {
//     B[k][j][i] = sum of A[k + c][j + b][i + a]    copy planes k_first - 1 ... into slots 0 ..
//                                          ==>      for (z = 0; z < steps; z++) {
//                                                     every group planes: wait for their
//                                                       copies; __syncthreads();
//                                                     A_win[0..1] = A_win[1..2];   // registers
//                                                     A_win[2] = its part of slot z % slots
//                                                     copy plane z + DEPTH into its slot
//                                                     if (z >= 2) ITEMS outputs of plane k_first + z - 2
//                                                   }
//                                                   wait for all copies; __syncthreads();
//                                                 }
//
// One barrier per group of planes (GROUP: 1, or 2 where a step has little work) suffices with
// DEPTH + group slots: slot (z + DEPTH) % slots is written at step z and was last read at step
// z + DEPTH - slots <= z - group, before the group's barrier (see the step below). Unlike the
// 3-D tile of HaloTile.cpp, which reloads (ITEMS + halo) planes for ITEMS planes of outputs and
// holds their whole window, each plane is copied once per PLANES planes of outputs (plus the
// halo planes at the start of a block's column) and a thread holds only the halo planes' window.
// A body that is a linear form of the tiled reads (HaloTileSlideSums.cpp) keeps no halo planes
// at all: the new plane's part adds its partial sums to the accumulators of the outputs that
// read it. A copy's source coordinates are clamped to the last element the nest reads (no
// select; a thread's rows and columns stay the same from plane to plane).
#include "HaloTileSlide.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <set>

namespace rtcuda::halo {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

int64_t words(const Kernel &k, const std::string &array) {
  return (k.findParam(array)->type.bytes() + 3) / 4;
}

// One array's pieces: its shared slots, its copies per thread, its window.
struct Plane : TileArray {
  std::string j0, i0, shift;
  // A tile row's elements (WIDTH + halo), its pitch in the slot, the rows of a slot, a slot,
  // and a thread's window row and plane.
  Expr rowWidth, pitch, rows, elements, slice, wrow, wplane;
};

// Elements of 16 bytes, the bulk copies' alignment (rtcuda_copy_row in kernel.cu).
int64_t perSixteen(const Type &t) { return std::max<int64_t>(1, 16 / t.bytes()); }

}  // namespace

bool canSlide(const Tiled &tiled) {
  for (const auto &[name, w] : tiled)
    if (w.lo[0] != tiled[0].second.lo[0] || w.hi[0] != tiled[0].second.hi[0]) return false;
  return true;
}

int64_t slideWindowWords(const Kernel &k, const Tiled &tiled, int64_t items) {
  int64_t n = 0;
  for (const auto &[name, w] : tiled)
    n += (w.hi[0] - w.lo[0] + 1) * (items + w.hi[1] - w.lo[1]) * (w.hi[2] - w.lo[2] + 1) *
         words(k, name);
  return n;
}

// At 32 columns, the width a kernel falls back to where WIDTH's slots would not fit.
int64_t slideSharedBytes(const Kernel &k, const Tiled &tiled, int64_t items, int64_t blockSize) {
  int64_t bytes = 0;
  for (const auto &[name, w] : tiled) {  // rows padded for the bulk copies, their shifts
    const Type &t = k.findParam(name)->type;
    bytes += (kMaxDepth + 1) * (blockSize * items / kWarp + w.hi[1] - w.lo[1]) *
             ((kWarp + w.hi[2] - w.lo[2] + 2 * perSixteen(t) - 2) * t.bytes() + 4);
  }
  return bytes;
}

// WIDTH's default for the element copies: the width up to 128 (the widths they were measured
// at) whose plane tile moves the fewest 32-byte sectors (a row of `e` elements of `b` bytes that
// starts anywhere spans at most ceil((e - 1) * b / 32) + 1 of them; a tile plane has
// blockSize * items / width rows of outputs plus the halo rows), the wider on a tie (fewer,
// longer rows). Every width has blockSize * items outputs per plane.
int64_t slideElementWidth(const Kernel &k, const Tiled &tiled, int64_t items, int64_t blockSize) {
  int64_t best = kWarp, bestSectors = -1;
  for (int64_t width : kSlideWidths) {
    if (width > 128 || blockSize % width || blockSize * items < width) continue;
    int64_t sectors = 0;
    for (const auto &[name, w] : tiled) {
      int64_t b = k.findParam(name)->type.bytes(), e = width + w.hi[2] - w.lo[2];
      sectors += (blockSize * items / width + w.hi[1] - w.lo[1]) * (((e - 1) * b + 31) / 32 + 1);
    }
    if (bestSectors < 0 || sectors <= bestSectors) best = width, bestSectors = sectors;
  }
  return best;
}

// Words of the window that stay live: entry x of window plane p is read at plane p, or moves
// down to plane p - 1 where it is live, so plane p holds the union of the offsets read at planes
// 0..p. Offsets are exact where every read's subscripts are the loop variables plus constants
// (a stencil written out); with a constant loop in the subscripts, the whole box.
int64_t liveWindowWords(const Kernel &k, const Stmt &body, const std::vector<std::string> &vars,
                        const Tiled &tiled, int64_t items) {
  int64_t n = 0;
  for (const auto &[name, w] : tiled) {
    std::set<std::vector<int64_t>> offsets;
    bool exact = true;
    visitStmt(body, nullptr, [&](const Expr &e) {
      visitExpr(e, [&](const Expr &r) {
        if (r->kind != ExprKind::Load || r->name != name) return;
        std::vector<int64_t> o;
        for (size_t d = 0; d < 3; ++d) {
          int64_t c = 0;
          exact &= constantDifference(r->operands[d], var(vars[d]), &c);
          o.push_back(c - w.lo[d]);
        }
        offsets.insert(o);
      });
    });
    if (!exact) {
      n += slideWindowWords(k, {{name, w}}, items);
      continue;
    }
    std::set<std::pair<int64_t, int64_t>> live;  // (row, column) of the window
    for (int64_t p = 0; p <= w.hi[0] - w.lo[0]; ++p) {
      for (const auto &o : offsets)
        if (o[0] == p)
          for (int64_t q = 0; q < items; ++q) live.insert({q + o[1], o[2]});
      n += int64_t(live.size()) * words(k, name);
    }
  }
  return n;
}

int64_t slideHeldWords(const Kernel &k, const Stmt &body, const std::vector<std::string> &vars,
                       const Tiled &tiled, int64_t items) {
  std::optional<SlideSums> sums = slideSums(k, body, vars, tiled, {});
  return sums ? sumsWords(k, *sums, tiled, items) : slideWindowWords(k, tiled, items);
}

int64_t slideRegisters(const Kernel &k, const Stmt &body, const std::vector<std::string> &vars,
                       const Tiled &tiled, const Taps &taps, int64_t items) {
  std::optional<SlideSums> sums = slideSums(k, body, vars, tiled, taps);
  int64_t n = kOtherRegisters +
              (sums ? sumsWords(k, *sums, tiled, items) : liveWindowWords(k, body, vars, tiled, items));
  for (const auto &[name, t] : taps) {
    int64_t taps = 1;
    for (size_t d = 0; d < t.second.lo.size(); ++d) taps *= t.second.hi[d] - t.second.lo[d] + 1;
    n += taps * words(k, name);
  }
  return n;
}

Expr slidePlanes(const Kernel &k, const std::vector<Stmt> &loops, const Tiled &tiled,
                 const Taps &taps, std::vector<Stmt> &top) {
  std::vector<std::string> vars;
  for (const Stmt &l : loops) vars.push_back(l->name);
  Expr bs = var(k.macro("BLOCKSIZE")), items = var(k.macro("ITEMS")),
       planes = var(k.macro("PLANES")), depth = var(k.macro("DEPTH")),
       tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  // GROUP planes per barrier (at most DEPTH, and the slots at most kMaxDepth + 1):
  // group = min(GROUP, DEPTH, kMaxDepth + 1 - DEPTH), slots = DEPTH + group.
  const std::string groupName = freshName(k, "group"), slotsName = freshName(k, "slots");
  {
    Expr g = var(k.macro("GROUP")), room = sub(intImm(kMaxDepth + 1), depth);
    g = select(lt(depth, g), depth, g);
    top.push_back(constantDecl(groupName, select(lt(room, g), room, g)));
    top.push_back(constantDecl(slotsName, add(depth, var(groupName))));
  }
  Expr group = var(groupName), slots = var(slotsName);
  // BULK where the device has the bulk-copy engine (rtcuda_bulk_engine: a constant of each
  // device's build, so a kernel holds one form of the copies), else the element copies below.
  const std::string bulk = freshName(k, "bulk"), bars = freshName(k, "bars"),
                    phase = freshName(k, "phase");
  top.push_back(constantDecl(bulk, land(var(k.macro("BULK")), call("rtcuda_bulk_engine", {}, kInt))));
  // A tile row's pitch in its slot at row width `w`: with BULK a row starts at 16 bytes, its
  // first element up to 16 bytes further (the copies start at the 16 bytes holding it).
  auto pitchOf = [&](const Expr &w, const ReadWindow &rw, const Type &elem) {
    const int64_t v = perSixteen(elem);
    Expr row = add(w, intImm(rw.hi[2] - rw.lo[2]));
    return select(var(k.macro("BULK")), mul(div(add(row, intImm(2 * v - 2)), intImm(v)), intImm(v)), row);
  };
  // WIDTH columns per tile row where the block size is a multiple of it and the most slots
  // (kMaxDepth + 1) fit in shared memory, else 32 (which always fits: slideSharedBytes); a
  // constant of the kernel, and the launch's grid counts the tiles with its expression.
  const std::string widthName = freshName(k, "width");
  Expr wanted = var(k.macro("WIDTH")), bytes = intImm(0);
  for (const auto &[name, w] : tiled) {
    const Type &elem = k.findParam(name)->type;
    Expr rows = add(div(mul(bs, items), wanted), intImm(w.hi[1] - w.lo[1]));
    bytes = add(bytes, mul(rows, add(mul(pitchOf(wanted, w, elem), intImm(elem.bytes())), intImm(4))));
  }
  const Expr widthOf =
      select(land(binary("==", mod(bs, wanted), intImm(0)),
                  binary("<=", mul(intImm(kMaxDepth + 1), bytes), intImm(kSharedBytes - 64))),
             wanted, intImm(kWarp));
  top.push_back(constantDecl(widthName, widthOf));
  Expr width = var(widthName);
  const int64_t lo0 = tiled[0].second.lo[0], span0 = tiled[0].second.hi[0] - lo0 + 1;
  const std::optional<SlideSums> sums = slideSums(k, loops.back()->body, vars, tiled, taps);
  auto tilesOf = [&](const Expr &w) {  // tiles per dimension at width w
    std::vector<Expr> extents{planes, div(mul(bs, items), w), w}, tiles;
    for (size_t d = 0; d < 3; ++d)
      tiles.push_back(simplify(
          div(add(simplify(tripCount(loops[d])), sub(extents[d], intImm(1))), extents[d])));
    return tiles;
  };
  std::vector<Expr> extents{planes, div(mul(bs, items), width), width}, tiles = tilesOf(width),
                    grid = tilesOf(widthOf);
  // With BULK a row's columns are split evenly among its tiles (a multiple of 8, 32 bytes of
  // floats, each): the last tile of a row is not left with a few columns; threads past a tile's
  // columns compute nothing.
  const std::string spanName = freshName(k, "cols_a_tile");
  {
    Expr row = select(lt(tiles[2], intImm(1)), intImm(1), tiles[2]);  // no division by 0
    Expr even = div(add(simplify(tripCount(loops[2])), sub(row, intImm(1))), row);
    top.push_back(constantDecl(
        spanName, simplify(select(var(bulk), mul(div(add(even, intImm(7)), intImm(8)), intImm(8)), width))));
    extents[2] = var(spanName);
  }
  Expr allTiles = simplify(mul(mul(tiles[0], tiles[1]), tiles[2]));
  top.push_back(comment("halo tile, 2.5-D: a block walks " + k.macro("PLANES") +
                        " planes of its tile; each plane of " + std::to_string(tiled.size()) +
                        " array(s) plus the halo is read once, the halo planes stay in registers"));

  std::string tile = freshName(k, "tile"), col = freshName(k, "col"), grp = freshName(k, "grp"),
              z = freshName(k, "z"), steps = freshName(k, "steps"), q = freshName(k, "q");
  std::vector<Stmt> perTile;
  std::vector<std::string> first;
  for (size_t d = 0; d < 3; ++d) {  // the tile's origin, the innermost loop's tiles fastest
    first.push_back(freshName(k, vars[d] + "_first"));
    perTile.push_back(decl(first[d], loops[d]->type,
                           simplify(add(loops[d]->min, mul(coordinate(var(tile), tiles, d),
                                                           extents[d])))));
  }
  perTile.push_back(decl(col, kInt, mod(tid, width)));
  perTile.push_back(decl(grp, kInt, div(tid, width)));
  // Steps: one per plane of the block's window, the last tile of a column may hold fewer planes.
  Expr left = sub(loops[0]->end, var(first[0], loops[0]->type));
  perTile.push_back(decl(steps, kInt,
                         add(select(lt(planes, left), planes, left), intImm(span0 - 1))));

  std::vector<Plane> arrays;
  for (const auto &[name, w] : tiled) {
    Plane a;
    static_cast<TileArray &>(a) = tileArray(k, name, w);
    a.j0 = freshName(k, name + "_" + vars[1] + "0");
    a.i0 = freshName(k, name + "_" + vars[2] + "0");
    a.rowWidth = simplify(add(width, intImm(w.hi[2] - w.lo[2])));
    const std::string pitchName = freshName(k, name + "_pitch");
    top.push_back(constantDecl(pitchName, simplify(pitchOf(width, w, a.elem))));
    a.pitch = var(pitchName);
    a.rows = simplify(add(extents[1], intImm(w.hi[1] - w.lo[1])));
    a.elements = simplify(mul(a.rows, a.rowWidth));
    a.slice = simplify(mul(a.rows, a.pitch));
    a.shift = freshName(k, name + "_shift");
    a.wrow = intImm(w.hi[2] - w.lo[2] + 1);
    a.wplane = simplify(mul(add(items, intImm(w.hi[1] - w.lo[1])), a.wrow));
    auto shared = std::make_shared<StmtNode>(
        *decl(a.tile, a.elem, nullptr, simplify(mul(slots, a.slice))));
    shared->shared = true;
    top.push_back(shared);
    auto shifts = std::make_shared<StmtNode>(
        *decl(a.shift, kInt, nullptr, simplify(mul(slots, a.rows))));
    shifts->shared = true;
    top.push_back(shifts);
    top.push_back(constantDecl(a.loads, simplify(div(add(a.elements, sub(bs, intImm(1))), bs))));
    perTile.push_back(decl(a.j0, loops[1]->type,
                           simplify(add(var(first[1], loops[1]->type), intImm(w.lo[1])))));
    perTile.push_back(decl(a.i0, loops[2]->type,
                           simplify(add(var(first[2], loops[2]->type), intImm(w.lo[2])))));
    // A linear body keeps only the new plane's part (its sums go to the accumulators).
    Expr winSize = sums ? a.wplane : simplify(mul(intImm(span0), a.wplane));
    perTile.push_back(decl(a.win, a.elem, nullptr, winSize));
    if (!sums) {
      std::string e = freshName(k, "e");  // a defined window before the first planes arrive
      perTile.push_back(forLoop(e, kInt, intImm(0), winSize, intImm(1),
                                store(a.win, {var(e)}, "=", cast(a.elem, intImm(0))),
                                LoopKind::Unrolled));
    }
    arrays.push_back(a);
  }
  // BULK: one mbarrier per slot expects one arrival per row of each array's plane; a thread's
  // `phase` holds the parity it waits for next at each slot.
  {
    auto word = std::make_shared<StmtNode>(
        *decl(bars, Type::of(ScalarKind::ULongLong), nullptr, intImm(kMaxDepth + 1)));
    word->shared = true;
    top.push_back(word);
    Expr arrivals = arrays[0].rows;
    for (size_t i = 1; i < arrays.size(); ++i) arrivals = add(arrivals, arrays[i].rows);
    top.push_back(ifThen(land(var(bulk), binary("==", tid, intImm(0))),
                         store(bars, {intImm(0)}, "rtcuda_bulk_init", simplify(arrivals))));
    top.push_back(barrier());
    top.push_back(decl(phase, Type::of(ScalarKind::UInt), intImm(0)));
  }
  std::string acc = freshName(k, "acc");  // a linear body's outputs of the planes in flight
  if (sums) {
    Expr size = simplify(mul(intImm(span0), items));
    std::string e = freshName(k, "e");
    perTile.push_back(decl(acc, sums->elem, nullptr, size));
    perTile.push_back(forLoop(e, kInt, intImm(0), size, intImm(1),
                              store(acc, {var(e)}, "=", floatImm(0, sums->elem)),
                              LoopKind::Unrolled));
  }

  // The copies of plane `plane` (absolute) into slot `slot`, asynchronous (cp.async where the
  // device has it, rtcuda_copy_async in kernel.cu): element e of the plane's tile by thread
  // e % BLOCKSIZE, rows one after another. Elements outside what the nest reads copy its first
  // element instead (slots no output reads); a copy always has a source inside the array.
  const std::string anchor = asyncAnchor(k, top);
  // Source coordinates are clamped to the last element the nest reads (an element past it
  // lands in a slot no output reads): no select, and the row and column of each of a thread's
  // copies stay the same from plane to plane (nvcc keeps them, and steps the address by a
  // plane). Only a thread's last copy can fall past the slice: the others need no guard.
  auto upTo = [](const Expr &x, const Expr &last) { return select(lt(x, last), x, last); };
  auto firstRead = [&](const Plane &a) {
    std::vector<Expr> first;
    for (size_t d = 0; d < 3; ++d) first.push_back(simplify(add(loops[d]->min, intImm(a.w.lo[d]))));
    return first;
  };
  auto lastRead = [&](const Plane &a) {
    std::vector<Expr> last;
    for (size_t d = 0; d < 3; ++d)
      last.push_back(simplify(add(loops[d]->end, intImm(a.w.hi[d] - 1))));
    return last;
  };
  // BULK: row r of the plane's tile by thread r (one copy, rtcuda_copy_row in kernel.cu: the
  // Hopper bulk-copy engine, completing on the slot's mbarrier), from its first element rounded
  // down to 16 bytes; the thread records in `shift` where the row's first element landed.
  // Rows past the last one the nest reads copy that one (a slot no output reads); a row's copy
  // stops at the last element the nest reads. Every row arrives once on the slot's barrier.
  auto bulkPlane = [&](const Plane &a, const Expr &plane, const Expr &slot) {
    std::string r = freshName(k, "r"), jat = freshName(k, vars[1] + "_at");
    std::vector<Expr> last = lastRead(a);
    Expr row = call("rtcuda_row",
                    {load(a.tile, {simplify(add(mul(slot, a.slice), mul(var(r), a.pitch)))}, a.elem),
                     load(a.shift, {simplify(add(mul(slot, a.rows), var(r)))}, kInt),
                     load(a.array, {upTo(plane, last[0]), var(jat, loops[1]->type),
                                    var(a.i0, loops[2]->type)}, a.elem),
                     simplify(add(extents[2], intImm(a.w.hi[2] - a.w.lo[2]))),
                     load(a.array, firstRead(a), a.elem), load(a.array, last, a.elem)},
                    Type::of(ScalarKind::ULongLong));
    return forLoop(r, kInt, tid, a.rows, bs,
                   block({decl(jat, loops[1]->type,
                               upTo(add(var(a.j0, loops[1]->type), var(r)), last[1])),
                          store(bars, {slot}, "rtcuda_copy_row", row)}));
  };
  // The element copies of the plane (above).
  auto elementPlane = [&](const Plane &a, const Expr &plane, const Expr &slot) {
    std::string r = freshName(k, "r"), e = freshName(k, "e"), jat = freshName(k, vars[1] + "_at"),
                iat = freshName(k, vars[2] + "_at");
    std::vector<Expr> last = lastRead(a);
    Stmt body = block(
        {decl(e, kInt, add(tid, mul(var(r), bs))),
         decl(jat, loops[1]->type, upTo(add(var(a.j0, loops[1]->type), div(var(e), a.rowWidth)), last[1])),
         decl(iat, loops[2]->type, upTo(add(var(a.i0, loops[2]->type), mod(var(e), a.rowWidth)), last[2])),
         ifThen(binary("||", lt(var(r), simplify(sub(var(a.loads), intImm(1)))), lt(var(e), a.elements)),
                store(a.tile, {simplify(add(mul(slot, a.slice),
                                            add(var(e), mul(div(var(e), a.rowWidth), sub(a.pitch, a.rowWidth)))))},
                      "rtcuda_copy_async",
                      load(a.array, {upTo(plane, last[0]), var(jat, loops[1]->type),
                                     var(iat, loops[2]->type)},
                           a.elem)))});
    return forLoop(r, kInt, intImm(0), var(a.loads), intImm(1), body, LoopKind::Unrolled);
  };
  // Planes 0 .. DEPTH - 1 of the block's window first, one commit group each.
  {
    std::string d = freshName(k, "d"), at0 = freshName(k, vars[0] + "_at");
    std::vector<Stmt> first0{decl(at0, loops[0]->type,
                                  simplify(add(var(first[0], loops[0]->type), add(var(d), intImm(lo0)))))};
    for (const Plane &a : arrays)
      first0.push_back(ifThen(lt(var(d), var(steps)),
                              ifThen(var(bulk), bulkPlane(a, var(at0, loops[0]->type), var(d)),
                                     elementPlane(a, var(at0, loops[0]->type), var(d)))));
    first0.push_back(asyncCommit(anchor));
    perTile.push_back(forLoop(d, kInt, intImm(0), depth, intImm(1), block(first0), LoopKind::Unrolled));
  }
  // Step z: where z is a multiple of the group, wait for the copies of planes z .. z + group - 1
  // (DEPTH - group later commit groups may be pending, one per plane) and a barrier (every
  // thread's copies of those planes have landed; every thread has read the planes before z).
  // Each thread moves its window down a plane and reads the new plane's part; the copies of
  // plane z + DEPTH go to slot (z + DEPTH) % slots, which held plane z + DEPTH - slots <=
  // z - group, read before the last barrier (slots = DEPTH + group); then the outputs, while
  // those copies are in flight. A group of one: one barrier per plane.
  std::string slot = freshName(k, "slot");
  std::vector<Stmt> step{
      ifThen(binary("==", mod(var(z), group), intImm(0)),
             block({asyncWait(anchor, sub(depth, group)),
                    barrier()})),
      decl(slot, kInt, mod(var(z), slots)),
      // BULK: the slot's rows have landed (its barrier's phase completed).
      ifThen(var(bulk),
             block({store(bars, {var(slot)}, "rtcuda_bulk_wait",
                          binary("&", binary(">>", var(phase, Type::of(ScalarKind::UInt)), var(slot)),
                                 intImm(1))),
                    assign(phase, "^=", binary("<<", intImm(1), var(slot)))}))};
  for (const Plane &a : arrays) {
    std::string p = freshName(k, "p"), e = freshName(k, "e");
    if (span0 > 1 && !sums)
      step.push_back(forLoop(
          p, kInt, intImm(0), intImm(span0 - 1), intImm(1),
          forLoop(e, kInt, intImm(0), a.wplane, intImm(1),
                  store(a.win, {add(mul(var(p), a.wplane), var(e))}, "=",
                        load(a.win, {add(mul(add(var(p), intImm(1)), a.wplane), var(e))}, a.elem)),
                  LoopKind::Unrolled),
          LoopKind::Unrolled));
    int64_t one = 0;
    bool narrow = isConst(a.wrow, &one) && one == 1;
    Expr row = add(mul(var(grp), items), narrow ? var(e) : div(var(e), a.wrow));
    Expr column = narrow ? var(col) : add(var(col), mod(var(e), a.wrow));
    // With BULK the row's first element lies `shift` past the row's start in the slot.
    Expr shifted = select(var(bulk), load(a.shift, {add(mul(var(slot), a.rows), row)}, kInt), intImm(0));
    step.push_back(forLoop(
        e, kInt, intImm(0), a.wplane, intImm(1),
        store(a.win, {sums ? var(e) : add(simplify(mul(intImm(span0 - 1), a.wplane)), var(e))}, "=",
              load(a.tile, {add(mul(var(slot), a.slice), add(add(mul(row, a.pitch), shifted), column))},
                   a.elem)),
        LoopKind::Unrolled));
  }
  std::string next = freshName(k, vars[0] + "_next");
  Expr ahead = add(var(z), depth);
  step.push_back(decl(next, loops[0]->type,
                      simplify(add(var(first[0], loops[0]->type), add(ahead, intImm(lo0))))));
  for (const Plane &a : arrays)
    step.push_back(ifThen(land(lt(ahead, var(steps)), unary("!", var(bulk))),
                          elementPlane(a, var(next, loops[0]->type), mod(ahead, slots))));
  step.push_back(asyncCommit(anchor));
  // The outputs of plane first + z - (span0 - 1), once its last halo plane has arrived.
  std::map<std::string, const Plane *> planeOf;
  for (const Plane &a : arrays) planeOf[a.array] = &a;
  std::vector<Stmt> item;
  std::vector<Expr> at{sub(var(z), intImm(span0 - 1)), add(mul(var(grp), items), var(q)), var(col)};
  Expr valid;
  for (size_t d = 0; d < 3; ++d) {
    item.push_back(withLoc(decl(vars[d], loops[d]->type,
                                add(var(first[d], loops[d]->type), at[d])),
                           loops[d]->loc));
    Expr ok = lt(var(vars[d], loops[d]->type), loops[d]->end);
    valid = valid ? land(valid, ok) : ok;
  }
  valid = land(valid, lt(var(col), extents[2]));  // the tile's columns (BULK: fewer than width)
  if (sums) {
    std::vector<PlanePart> parts;
    for (const Plane &a : arrays) parts.push_back({a.array, a.win, a.w, a.wrow});
    for (Stmt &s : sumsStep(k, *sums, parts, acc, span0, q, item, valid,
                            lt(intImm(span0 - 2), var(z))))
      step.push_back(s);
  } else {
    const Stmt body = loops.back()->body;
    Stmt computed = mapStmt(body, nullptr, [&](const Expr &e) {
      return mapExpr(e, [&](const Expr &n) -> Expr {
        if (n->kind != ExprKind::Load) return n;
        if (Expr t = tapRead(n, taps)) return t;
        auto it = planeOf.find(n->name);
        if (it == planeOf.end()) return n;
        const ReadWindow &w = it->second->w;
        // [p_d + a_d] -> window (a_0 - lo_0, q + a_1 - lo_1, a_2 - lo_2)
        std::vector<Expr> c;
        for (size_t d = 0; d < 3; ++d)
          c.push_back(simplify(sub(sub(n->operands[d], var(vars[d], loops[d]->type)), intImm(w.lo[d]))));
        Expr index = add(mul(add(mul(c[0], add(items, intImm(w.hi[1] - w.lo[1]))), add(var(q), c[1])),
                             it->second->wrow),
                         c[2]);
        return load(it->second->win, {simplify(index)}, n->type);
      });
    });
    item.push_back(ifThen(valid, unrollAll(computed)));
    step.push_back(ifThen(lt(intImm(span0 - 2), var(z)),
                          forLoop(q, kInt, intImm(0), items, intImm(1), block(item),
                                  LoopKind::Unrolled)));
  }
  // BULK: the copies of plane z + DEPTH after the outputs, when the window's registers are free
  // (the slot was free from the step's barrier on, as for the element copies).
  for (const Plane &a : arrays)
    step.push_back(ifThen(land(lt(ahead, var(steps)), var(bulk)),
                          bulkPlane(a, var(next, loops[0]->type), mod(ahead, slots))));
  perTile.push_back(forLoop(z, kInt, intImm(0), var(steps), intImm(1), block(step)));
  // Pending copies (planes past the window) land before the slots serve the next tile.
  perTile.push_back(asyncWait(anchor, intImm(0)));
  perTile.push_back(barrier());  // the slots are free before the next tile's first plane
  top.push_back(withLoc(forLoop(tile, kInt, cast(kInt, gpuBuiltin("blockIdx.x")), allTiles,
                                cast(kInt, gpuBuiltin("gridDim.x")), block(perTile),
                                LoopKind::Block),
                        loops[0]->loc));
  return simplify(mul(mul(grid[0], grid[1]), grid[2]));
}

}  // namespace rtcuda::halo
