// LoopPartition: map the parallel iteration space onto blocks and threads, with a guard so
// that any problem size works (primes included); the host launches ceil-div blocks.
//
// 1-D (one parallel or collapsed loop):
//   for ij in [0, E)                      int ij = blockIdx.x * BLOCKSIZE + threadIdx.x;
//     body                     ==>        if (ij < E) { body }
//
// The index is 64-bit: `(long)blockIdx.x * ...` for a loop whose variable is 64-bit (`long i`,
// a collapsed or strip loop); an `int` loop's variable takes the 64-bit index clamped to the
// loop's end, `int i = (int)llmin((long long)blockIdx.x * BLOCKSIZE + threadIdx.x, (long long)n)`,
// so that the last block's threads past the end fail the guard instead of wrapping around
// (n near 2^31 - 1) and a loop of more than 2^31 - 1 iterations (i from -n to n) is covered.
//
// 2-D (collapse off): the outer loop walks blockIdx.y with a grid-stride loop (the grid's y
// dimension is limited to 65535 blocks); the inner loop is spread over x as above.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

namespace rtcuda {

using namespace ir;

namespace {

// The type of a thread's index for `loop`: 64-bit from the first multiplication on (issue 16:
// launches of more than 2^31 threads, ends near 2^31 - 1), the loop's own type if that is
// 64-bit already.
Type indexType(const Stmt &loop) { return wideIndexType(loop->type); }

// The loop over x: its variable is computed from the thread's global index and guarded.
std::vector<Stmt> spreadOverThreads(const Stmt &loop, const Expr &blockSize, const Kernel &k) {
  const Type index = indexType(loop);
  Expr global = binary("+", binary("*", cast(index, gpuBuiltin("blockIdx.x")), blockSize),
                       gpuBuiltin("threadIdx.x"));
  int64_t step = 1, min = 1;
  isConst(loop->step, &step);
  std::vector<Stmt> out;
  if (step == 1) {
    bool zero = isConst(loop->min, &min) && min == 0;
    Expr value = zero ? global : binary("+", loop->min, global);
    if (!(loop->type == index))  // clamped: an index past the end fails the guard
      value = cast(loop->type, call("llmin", {value, cast(index, loop->end)}, index));
    out.push_back(withLoc(decl(loop->name, loop->type, value), loop->loc));
    out.push_back(ifThen(lt(var(loop->name, loop->type), loop->end), loop->body));
    return out;
  }
  std::string t = loop->name + "_thread";
  out.push_back(decl(t, index, global));
  std::vector<Stmt> body{withLoc(decl(loop->name, loop->type,
                                      simplify(add(loop->min, mul(var(t, index), loop->step)))),
                                 loop->loc)};
  body.push_back(loop->body);
  out.push_back(
      ifThen(lt(var(t, index), widenParams(simplify(tripCount(loop)), k, index)), block(body)));
  return out;
}

Stmt innerParallelLoop(const Stmt &outer) {
  Stmt s = outer->body;
  while (s && s->kind == StmtKind::Block && s->stmts.size() == 1) s = s->stmts[0];
  if (s && s->kind == StmtKind::For &&
      (s->loopKind == LoopKind::Parallel || s->loopKind == LoopKind::Collapsed))
    return s;
  return nullptr;
}

}  // namespace

// The host computes the grid from the scalar parameters only: values the kernel declares
// before its loops (hoisted extents) are substituted back.
static Expr hostExpr(const Expr &e, const Kernel &k) {
  std::map<std::string, Expr> values;
  for (const Stmt &s : k.body->stmts)
    if (s->kind == StmtKind::Decl && s->value && !s->arraySize) values[s->name] = s->value;
  Expr out = e;
  for (size_t i = 0; i < values.size(); ++i) out = substitute(out, values);
  return simplify(out);
}

Kernel loopPartition(const Kernel &k, const PassContext &) {
  if (!k.grid.empty()) return k;  // RegisterTiling mapped the nest onto tiles already
  Kernel out = k;
  Expr blockSize = var(k.macro("BLOCKSIZE"));
  std::vector<Stmt> body;
  bool mapped = false;
  for (const Stmt &s : k.body->stmts) {
    bool parallel = s->kind == StmtKind::For &&
                    (s->loopKind == LoopKind::Parallel || s->loopKind == LoopKind::Collapsed);
    if (!parallel || mapped) {
      body.push_back(s);
      continue;
    }
    mapped = true;
    Stmt inner = s->loopKind == LoopKind::Parallel ? innerParallelLoop(s) : nullptr;
    if (!inner) {
      for (const Stmt &x : spreadOverThreads(s, blockSize, k)) body.push_back(x);
      out.grid = {LaunchDim{hostExpr(tripCount(s), k), blockSize, 2147483647}};
      continue;
    }
    // 2-D: x over the inner loop, a grid-stride loop over blockIdx.y for the outer one.
    std::vector<Stmt> xPart = spreadOverThreads(inner, blockSize, k);
    int64_t step = 1;
    isConst(s->step, &step);
    Expr row = cast(indexType(s), gpuBuiltin("blockIdx.y"));
    Expr stride = cast(indexType(s), gpuBuiltin("gridDim.y"));
    std::shared_ptr<StmtNode> rows;
    // A variable narrower than 64 bits walks a 64-bit row number: i += gridDim.y would pass
    // 2^31 - 1 after the last row when the end is near it.
    if (step == 1 && s->type == indexType(s)) {
      rows = std::make_shared<StmtNode>(*forLoop(s->name, s->type, simplify(add(s->min, row)),
                                                 s->end, stride, block(xPart), LoopKind::Block));
    } else {
      // Other steps (negative ones too): walk the iteration numbers, recover the variable.
      std::string t = freshName(k, s->name + "_row");
      std::vector<Stmt> rowBody{withLoc(decl(s->name, s->type,
                                             simplify(add(s->min, mul(var(t, indexType(s)),
                                                                      s->step)))),
                                        s->loc)};
      rowBody.insert(rowBody.end(), xPart.begin(), xPart.end());
      rows = std::make_shared<StmtNode>(
          *forLoop(t, indexType(s), row, widenParams(simplify(tripCount(s)), k, indexType(s)),
                   stride, block(rowBody), LoopKind::Block));
    }
    rows->loc = s->loc;
    body.push_back(rows);
    out.grid = {LaunchDim{hostExpr(tripCount(inner), k), blockSize, 2147483647},
                LaunchDim{hostExpr(tripCount(s), k), intImm(1), 65535}};
  }
  if (!mapped) throw CompileError(k.loc, "kernel '" + k.name + "' has no parallel loop to map");
  out.body = withLoc(block(body), k.body->loc);
  out.blockThreads = blockSize;
  out.passes.push_back("LoopPartition");
  return out;
}

}  // namespace rtcuda
