// HaloTile in two dimensions, a linear body: when the output is a linear form of the tiled
// reads, out = scale * sum_o w_o * A[i + o_0][j + o_1] + constant (the analysis of the 3-D sums,
// slideSums in HaloTileSlideSums.cpp), a thread need not hold the window's rows: it reads each
// row of its window once, into registers, and adds the row's terms to the accumulators of the
// output rows that read it (a row at offset c from the first is row c of output q - c); an
// output row whose last row offset has arrived is stored. A thread computes ITEMS rows of COLS
// consecutive outputs; its row holds COLS + halo elements, read with 128-bit loads where COLS is
// a multiple of 4.
//
//   s = 0; for a, b: s += K[a][b] * A[i + a][j + b];      for (r = 0; r < ITEMS + 6; r++)
//   B[i][j] = s;                                   ==>      A_row = the thread's row r (COLS + 6)
//                                                           acc[(r - 6) * COLS + x] += K_reg[42]
//                                                             * A_row[x] + ... ; B[...] = acc[..]
//                                                           ... acc[r * COLS + x] = K_reg[0] * ...
//
// Registers: span * COLS accumulators and a row per array, not span rows of COLS + halo
// elements; the shared reads: ITEMS + halo rows of COLS + halo elements per thread for ITEMS *
// COLS outputs. Each output sums its terms in the order of the rows, then the order of the C
// code within a row (a convolution's own order). With STAGE_STORES (the default) a complete
// output row goes through shared memory, so each store writes 32 consecutive elements.
#include "HaloTileRows.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda::halo {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

Expr roundUp4(const Expr &e) { return mul(div(add(e, intImm(3)), intImm(4)), intImm(4)); }
int64_t roundUp4(int64_t e) { return (e + 3) / 4 * 4; }

}  // namespace

Expr rowsPitch(const Kernel &k, const ReadWindow &w) {
  Expr cols = var(k.macro("COLS"));
  Expr row = roundUp4(add(cols, intImm(w.hi[1] - w.lo[1])));
  return simplify(roundUp4(add(mul(intImm(kWarp - 1), cols), row)));
}

int64_t rowsPitch(const ReadWindow &w, int64_t cols) {
  return roundUp4((kWarp - 1) * cols + roundUp4(cols + w.hi[1] - w.lo[1]));
}

int64_t rowsRegisters(const Kernel &k, const SlideSums &s, const Tiled &tiled, const Taps &taps,
                      int64_t cols) {
  int64_t lo = s.terms[0].at[0], hi = lo;
  for (const SumTerm &t : s.terms) lo = std::min(lo, t.at[0]), hi = std::max(hi, t.at[0]);
  int64_t words = kOtherRegisters + (hi - lo + 1) * cols * s.elem.bytes() / 4;
  for (const auto &[name, w] : tiled)
    words += (cols % 4 ? cols + w.hi[1] - w.lo[1] : roundUp4(cols + w.hi[1] - w.lo[1])) *
             k.findParam(name)->type.bytes() / 4;
  for (const auto &[name, t] : taps) {
    int64_t n = 1;
    for (size_t d = 0; d < t.second.lo.size(); ++d) n *= t.second.hi[d] - t.second.lo[d] + 1;
    words += n * k.findParam(name)->type.bytes() / 4;
  }
  return words;
}

std::vector<Stmt> rowSums(const Kernel &k, const SlideSums &s, const std::vector<Stmt> &loops,
                          const std::map<std::string, std::pair<std::string, ReadWindow>> &tileOf,
                          const std::vector<std::string> &first) {
  const Expr items = var(k.macro("ITEMS")), cols = var(k.macro("COLS"));
  const Expr tid = cast(kInt, gpuBuiltin("threadIdx.x"));
  const std::string col = freshName(k, "col"), grp = freshName(k, "grp"), r = freshName(k, "r"),
                    e = freshName(k, "e"), x = freshName(k, "x"), acc = freshName(k, "acc");
  std::vector<Stmt> out{decl(col, kInt, mod(tid, intImm(kWarp))),
                        decl(grp, kInt, div(tid, intImm(kWarp)))};
  // Two rows of staged outputs a block (STAGE_STORES, below).
  const Expr bs = var(k.macro("BLOCKSIZE")), staging = var(k.macro("STAGE_STORES"));
  const std::string stage = freshName(k, s.out + "_stage");
  auto stageDecl = std::make_shared<StmtNode>(
      *decl(stage, s.elem, nullptr, simplify(mul(intImm(2), mul(bs, cols)))));
  stageDecl->shared = true;
  out.push_back(Stmt(stageDecl));
  // The output's indices (the nest's loop variables) at row q of the thread and column
  // `column` of its warp's 32 * COLS; `valid`: inside the nest.
  auto outputIndices = [&](const Expr &column, const Expr &q) {
    std::vector<Stmt> d;
    for (size_t n = 0; n < 2; ++n) {
      Expr at = n == 0 ? add(mul(var(grp), items), q) : column;
      d.push_back(
          withLoc(decl(loops[n]->name, loops[n]->type, add(var(first[n]), at)), loops[n]->loc));
    }
    return d;
  };
  Expr valid;
  for (size_t n = 0; n < 2; ++n) {
    Expr ok = lt(var(loops[n]->name, loops[n]->type), loops[n]->end);
    valid = valid ? land(valid, ok) : ok;
  }
  auto with = [](std::vector<Stmt> a, const Stmt &b) { a.push_back(b); return block(a); };
  // The terms by row offset, rows in order; within a row, the body's order.
  std::map<int64_t, std::vector<SumTerm>> rows;
  for (const SumTerm &t : s.terms) rows[t.at[0]].push_back(t);
  const int64_t lo = rows.begin()->first, hi = rows.rbegin()->first;
  // Each array's row of the thread's window: COLS + halo elements.
  std::map<std::string, std::string> rowOf;
  std::vector<Stmt> reads;
  for (const auto &[name, tw] : tileOf) {
    const ReadWindow &w = tw.second;
    const Type elem = k.findParam(name)->type;
    const int64_t halo = w.hi[1] - w.lo[1];
    std::string row = freshName(k, name + "_row");
    rowOf[name] = row;
    out.push_back(decl(row, elem, nullptr, simplify(roundUp4(add(cols, intImm(halo))))));
    // Step r holds the rows at offset lo + r of the outputs' first row; this array's window
    // row lo + r - lo_0, where its window has one.
    Expr at = add(add(mul(var(grp), items), var(r)), intImm(lo - w.lo[0]));
    Expr from = add(mul(at, rowsPitch(k, w)), mul(var(col), cols));
    Stmt scalar = forLoop(e, kInt, intImm(0), simplify(add(cols, intImm(halo))), intImm(1),
                          store(row, {var(e)}, "=", load(tw.first, {add(from, var(e))}, elem)),
                          LoopKind::Unrolled);
    Stmt read = scalar;
    if (elem == Type::of(ScalarKind::Float)) {  // 128-bit reads: the pitch and col * COLS are 4-aligned
      Stmt vector = forLoop(e, kInt, intImm(0), simplify(add(cols, intImm(halo))), intImm(4),
                            store(row, {var(e)}, "rtcuda_load4",
                                  load(tw.first, {add(from, var(e))}, elem)),
                            LoopKind::Unrolled);
      read = ifThen(binary("==", mod(cols, intImm(4)), intImm(0)), vector, scalar);
    }
    Expr has;
    if (lo < w.lo[0]) has = binary(">=", var(r), intImm(w.lo[0] - lo));
    if (w.hi[0] < hi) {
      Expr below = lt(add(var(r), intImm(lo - w.hi[0])), items);
      has = has ? land(has, below) : below;
    }
    reads.push_back(has ? ifThen(has, read) : read);
  }
  out.push_back(decl(acc, s.elem, nullptr, simplify(mul(items, cols))));
  std::vector<Stmt> step = reads;
  // The row's terms of one row offset, summed in order.
  auto termsOf = [&](const std::vector<SumTerm> &terms, Expr sum) {
    for (const SumTerm &t : terms) {
      const ReadWindow &w = tileOf.at(t.array).second;
      Expr v = load(rowOf[t.array], {simplify(add(var(x), intImm(t.at[1] - w.lo[1])))}, s.elem);
      Expr term = t.weight ? binary("*", t.weight, v) : v;
      sum = sum ? binary("+", sum, term) : term;
    }
    return sum;
  };
  // Row offsets whose terms agree (arrays, columns, weights: a box) share one partial sum per
  // row, computed once and added to each of their output rows.
  auto same = [](const std::vector<SumTerm> &a, const std::vector<SumTerm> &b) {
    if (a.size() != b.size()) return false;
    for (size_t t = 0; t < a.size(); ++t)
      if (a[t].array != b[t].array || a[t].at[1] != b[t].at[1] ||
          !((!a[t].weight && !b[t].weight) ||
            (a[t].weight && b[t].weight && equal(a[t].weight, b[t].weight))))
        return false;
    return true;
  };
  std::map<int64_t, std::string> partOf;  // row offset -> its shared partial sum
  for (auto a = rows.begin(); a != rows.end(); ++a) {
    if (partOf.count(a->first)) continue;
    std::string part;
    for (auto b = std::next(a); b != rows.end(); ++b)
      if (!partOf.count(b->first) && same(a->second, b->second)) {
        if (part.empty()) {
          part = freshName(k, "part" + std::to_string(partOf.size()));
          partOf[a->first] = part;
          out.push_back(decl(part, s.elem, nullptr, cols));
          step.push_back(forLoop(x, kInt, intImm(0), cols, intImm(1),
                                 store(part, {var(x)}, "=", termsOf(a->second, nullptr)),
                                 LoopKind::Unrolled));
        }
        partOf[b->first] = part;
      }
  }
  for (const auto &[c, terms] : rows) {
    Expr q = simplify(sub(var(r), intImm(c - lo)));  // the output row this row offset adds to
    Expr slot = add(mul(q, cols), var(x));
    Expr sum = c == lo ? nullptr : load(acc, {slot}, s.elem);
    if (partOf.count(c)) {
      Expr part = load(partOf[c], {var(x)}, s.elem);
      sum = sum ? binary("+", sum, part) : part;
    } else {
      sum = termsOf(terms, sum);
    }
    std::vector<Stmt> perColumn{store(acc, {slot}, "=", sum)};
    Stmt stores;
    if (c == hi) {  // the output row is complete
      Expr value = load(acc, {slot}, s.elem);
      if (s.scale) value = binary("*", s.scale, value);
      if (s.constant) value = binary("+", value, s.constant);
      // Staged: the warp's row of 32 * COLS outputs goes through shared memory (one of two
      // buffers a row, a barrier between), so each store writes 32 consecutive elements; else
      // each thread stores its COLS neighbours (a store instruction a warp spans 32 * COLS).
      const Expr warpRow =
          add(mul(mod(q, intImm(2)), mul(bs, cols)), mul(var(grp), mul(intImm(kWarp), cols)));
      Stmt direct = with(outputIndices(add(mul(var(col), cols), var(x)), q),
                         ifThen(valid, store(s.out, s.index, "=", value)));
      Stmt staged = store(stage, {add(warpRow, add(mul(var(col), cols), var(x)))}, "=", value);
      perColumn.push_back(ifThen(staging, staged, direct));
      const Expr e = add(mul(var(x), intImm(kWarp)), var(col));
      Expr held = load(stage, {add(warpRow, e)}, s.elem);
      Stmt fromStage = with(outputIndices(e, q), ifThen(valid, store(s.out, s.index, "=", held)));
      stores = ifThen(staging, block({barrier(), forLoop(x, kInt, intImm(0), cols, intImm(1),
                                                         fromStage, LoopKind::Unrolled)}));
    }
    std::vector<Stmt> row{
        forLoop(x, kInt, intImm(0), cols, intImm(1), block(perColumn), LoopKind::Unrolled)};
    if (stores) row.push_back(stores);
    Expr has = lt(q, items);
    if (c > lo) has = land(binary(">=", var(r), intImm(c - lo)), has);
    step.push_back(ifThen(has, block(row)));
  }
  out.push_back(forLoop(r, kInt, intImm(0), simplify(add(items, intImm(hi - lo))), intImm(1),
                        block(step), LoopKind::Unrolled));
  return out;
}

}  // namespace rtcuda::halo
