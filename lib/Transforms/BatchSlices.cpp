// BatchSlices: a batch of contractions, C[b] = A[b] B[b], is one contraction for each value of
// its outer parallel loop. The loop is taken out of the nest and every array it indexes as
// X[b][...] is seen as one slice X[...] (the kernel's view of X starts at slice b), so the
// passes map the two-loop contraction that is left as any other (RegisterTiling tiles it).
// BatchBlocks, the last pass of the list, then gives the grid every slice's blocks and each
// block its slice:
//
//   for (b = 0; b < nb; b++)            // parallel      int blocks_per_slice = <the tiles of one slice>;
//     for (i = 0; i < n; i++)           // parallel      int b = (int)blockIdx.x / blocks_per_slice;
//       for (j = 0; j < m; j++) {       // parallel ==>  int block_in_slice = (int)blockIdx.x - b * blocks_per_slice;
//         s = 0;                                          A += (long long)b * ((long long)n * p); B += ...; C += ...;
//         for (k ...) s += A[b][i][k] * B[b][k][j];       <one slice's kernel, block_in_slice for blockIdx.x>
//         C[b][i][j] = s;
//       }
//
// lowerKernel keeps the slices only where the passes then tile each one: a batch of rows,
// transposes or element-wise updates has mappings that take b as one more parallel loop.
// docs/passes/BatchSlices.md.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Support/Diagnostics.h"
#include "rtcuda/Transforms/Pass.h"

#include <map>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int), kWide = Type::of(ScalarKind::LongLong);

}  // namespace

Kernel batchSlices(const Kernel &k) {
  if (k.batch.extent || !k.reductions.empty() || !k.atomicArrays.empty() || k.finish ||
      !k.buffers.empty() || !k.deviceArrays.empty())
    return k;
  std::vector<Stmt> loops = parallelLoops(k);
  if (loops.size() < 3 || soleStatement(k) != loops[0]) return k;
  const Stmt &b = loops[0];
  if (!countsFromZero(b) || hasLoad(b->end)) return k;
  // The arrays indexed by b: X[b][...] with b in no other subscript, in every access to X.
  std::map<std::string, Expr> slices;  // array -> elements of one slice
  std::set<std::string> whole;         // arrays accessed without b
  bool ok = true;
  visitAccesses(b->body, [&](const std::string &name, const std::vector<Expr> &x) {
    bool uses = false;
    for (const Expr &i : x) uses |= mentions(i, b->name);
    if (!uses) return void(whole.insert(name));
    const Param *p = k.findParam(name);
    if (!p || !p->isArray || p->dims.size() < 2 || x.size() != p->dims.size() || !isVar(x[0], b->name))
      return void(ok = false);
    Expr elements;
    for (size_t d = 1; d < x.size(); ++d) {
      ok &= !mentions(x[d], b->name) && p->dims[d] != nullptr;
      if (p->dims[d]) elements = elements ? mul(elements, p->dims[d]) : p->dims[d];
    }
    if (ok) slices[name] = elements;
  });
  for (const std::string &name : whole) ok &= !slices.count(name);
  if (!ok || slices.empty()) return k;
  Stmt inner = mapStmt(
      b->body,
      [&](const Stmt &s) -> Stmt {
        if (s->kind != StmtKind::Store || !slices.count(s->name)) return s;
        auto c = std::make_shared<StmtNode>(*s);
        c->indices.erase(c->indices.begin());
        return c;
      },
      [&](const Expr &x) -> Expr {
        if (x->kind != ExprKind::Load || !slices.count(x->name)) return x;
        auto c = std::make_shared<ExprNode>(*x);
        c->operands.erase(c->operands.begin());
        return c;
      });
  // b may stay a value (the block's slice number) but bound no loop: the launch counts the
  // slice's iterations without it.
  bool bounds = false;
  visitStmt(inner, [&](const Stmt &n) {
    if (n->kind == StmtKind::For || n->kind == StmtKind::While)
      for (const Expr &e : {n->min, n->end, n->step, n->cond}) bounds |= e && mentions(e, b->name);
    bounds |= n->kind != StmtKind::Comment && n->name == b->name;
  });
  if (bounds) return k;
  Kernel out = k;
  std::vector<Stmt> top;
  for (const Stmt &s : statementsOf(k.body)) {
    if (s != b) top.push_back(s);
    else for (const Stmt &t : statementsOf(inner)) top.push_back(t);
  }
  out.body = withLoc(block(top), k.body->loc);
  std::string names;
  for (Param &p : out.params)
    if (slices.count(p.name)) {
      p.dims.erase(p.dims.begin());
      names += (names.empty() ? "'" : ", '") + p.name + "'";
    }
  out.batch = {b->name, b->type, simplify(b->end), {slices.begin(), slices.end()}, b->loc};
  out.passes.push_back("BatchSlices");
  out.remarks.push_back("batch: loop '" + b->name + "' is the first subscript of every access to " +
                        names + " and bounds no loop: each of its " + print(out.batch.extent) +
                        " values is one slice of those arrays, the rest of the nest a contraction "
                        "of that slice; a block computes in one slice, '" + b->name + "' its number");
  return out;
}

Kernel batchBlocks(const Kernel &k, const PassContext &) {
  if (!k.batch.extent) return k;
  // BatchSlices kept the slices only where RegisterTiling tiles them: blocks that each compute a
  // part of one slice, numbered by blockIdx.x alone.
  if (k.grid.size() != 1 || k.grid[0].maxBlocks != 2147483647 || !k.deviceArrays.empty() ||
      !k.buffers.empty() || k.finish || k.splitK.trip)
    throw CompileError(k.loc, "internal error: kernel '" + k.name + "' has a batch of slices, but "
                              "the passes gave it a grid other than blocks of one slice each");
  const LaunchDim &g = k.grid[0];
  Expr perSlice = div(add(g.iterations, sub(g.perBlock, intImm(1))), g.perBlock);
  // The batch's variable keeps its name: the body may read it (passes named theirs apart).
  const std::string &b = k.batch.var;
  std::string blocks = freshName(k, "blocks_per_slice");
  std::string inSlice = freshName(k, "block_in_slice");
  Expr blockIdx = gpuBuiltin("blockIdx.x");
  Expr slice = div(cast(kInt, blockIdx), var(blocks));
  if (k.batch.type != kInt) slice = cast(k.batch.type, slice);
  std::vector<Stmt> top{
      comment("one slice of the batch a block: " + blocks + " blocks a slice"),
      decl(blocks, kInt, perSlice), decl(b, k.batch.type, slice),
      decl(inSlice, kInt, sub(cast(kInt, blockIdx), mul(var(b), var(blocks))))};
  for (const auto &[array, elements] : k.batch.slices)
    top.push_back(assign(array, "+=", mul(cast(kWide, var(b, k.batch.type)), widenParams(elements, k, kWide))));
  // The slice's kernel as the passes wrote it, its block the block within the slice (bottom-up:
  // blockIdx.x first, then the cast to int around it).
  const Type kUInt = Type::of(ScalarKind::UInt);
  auto isOurs = [&](const Expr &e) {  // (unsigned)block_in_slice, (unsigned)blocks_per_slice
    return e->kind == ExprKind::Cast && e->type == kUInt &&
           (isVar(e->operands[0], inSlice) || isVar(e->operands[0], blocks));
  };
  Stmt body = mapStmt(k.body, [](const Stmt &s) { return s; }, [&](const Expr &n) -> Expr {
    if (isVar(n, "blockIdx.x")) return cast(kUInt, var(inSlice));
    if (isVar(n, "gridDim.x")) return cast(kUInt, var(blocks));
    if (n->kind == ExprKind::Cast && n->type == kInt && isOurs(n->operands[0])) return n->operands[0]->operands[0];
    return n;
  });
  for (const Stmt &s : statementsOf(body)) top.push_back(s);
  Kernel out = k;
  out.body = withLoc(block(top), k.body->loc);
  out.grid[0].iterations = simplify(mul(mul(k.batch.extent, perSlice), g.perBlock));
  out.passes.push_back("BatchBlocks");
  out.remarks.push_back("batch: one grid for the " + print(k.batch.extent) + " slices, " + blocks +
                        " blocks each; a block's slice is blockIdx.x / " + blocks);
  return out;
}

}  // namespace rtcuda
