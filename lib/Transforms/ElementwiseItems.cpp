// ElementwiseItems: an element-wise update in place of a collapsed nest (A[i][j] = A[i][j] -
// q[i] * r[j]: each iteration reads A at the element it stores; q and r are rows and columns the
// caches hold) gets ITEMS iterations a thread, a block apart, every load of every item before
// any arithmetic or store:
//
//   long long ij = blockIdx.x * B + threadIdx.x;    long long ij_base = blockIdx.x * (B * ITEMS) + threadIdx.x;
//   if (ij < n) {                                   float A_item[ITEMS], q_item[ITEMS], r_item[ITEMS]; long long A_at[ITEMS];
//     int i = ...; int j = ...;              ==>    for (item = 0; item < ITEMS; item++) {   // loads
//     A[i * m + j] = A[i * m + j] - q[i] * r[j];      long long ij = ij_base + item * B;
//   }                                                 if (ij < n) { int i = ...; int j = ...;
//                                                       A_item[item] = A[i * m + j]; q_item[item] = q[i];
//                                                       r_item[item] = r[j]; A_at[item] = i * m + j; } }
//                                                   for (item = 0; item < ITEMS; item++) {   // arithmetic, stores
//                                                     long long ij = ij_base + item * B;
//                                                     if (ij < n) A[A_at[item]] = A_item[item] - q_item[item] * r_item[item]; }
//
// One load of the streamed array per thread is too few bytes in flight to cover the memory's
// latency (H100: 0.73x copy bandwidth; 4 a block apart, loads first, 0.94x: docs/performance/elementwise.md).
// The compiler cannot do this itself: it cannot prove one item's store apart from another
// item's load, and a guarded item's arithmetic waits for its loads before the next item's
// guard. Legal because each iteration reads the stored array only at the element it stores.
// docs/passes/ElementwiseItems.md.
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

bool sameIndex(const Expr &a, const Expr &b) {
  int64_t c = 1;
  return constantDifference(a, b, &c) && c == 0;
}

// Whether a load of `e` runs only under a condition (a select's arm, the right side of && or
// ||): hoisting it above the condition could read out of bounds.
bool conditionalLoad(const Expr &e) {
  bool found = false;
  visitExpr(e, [&](const Expr &n) {
    if (n->kind == ExprKind::Select)
      found |= hasLoad(n->operands[1]) || hasLoad(n->operands[2]);
    if (n->kind == ExprKind::Binary && (n->name == "&&" || n->name == "||"))
      found |= hasLoad(n->operands[1]);
  });
  return found;
}

// The outermost loads of `e`, each once (equal loads share one register).
void outermostLoads(const Expr &e, std::vector<Expr> &out) {
  if (e->kind != ExprKind::Load) {
    for (const Expr &o : e->operands) outermostLoads(o, out);
  } else if (std::none_of(out.begin(), out.end(), [&](const Expr &o) { return equal(o, e); })) {
    out.push_back(e);
  }
}

// `e` with each outermost load equal to `from[i]` replaced by `to[i]`.
Expr replaceLoads(const Expr &e, const std::vector<Expr> &from, const std::vector<Expr> &to) {
  if (e->kind == ExprKind::Load)
    for (size_t i = 0; i < from.size(); ++i)
      if (equal(e, from[i])) return to[i];
  auto n = std::make_shared<ExprNode>(*e);
  for (Expr &o : n->operands) o = replaceLoads(o, from, to);
  return n;
}

}  // namespace

Kernel elementwiseItems(const Kernel &k, const PassContext &) {
  if (k.grid.size() != 1 || !k.reductions.empty() || !k.atomicArrays.empty() || k.finish)
    return k;
  // A collapsed nest as LoopPartition mapped it, one iteration a thread.
  for (const std::string &p : k.passes)
    if (p != "LoopOrder" && p != "LoopCollapse" && p != "ArrayFlatten" && p != "LoopPartition")
      return k;
  if (std::find(k.passes.begin(), k.passes.end(), "LoopCollapse") == k.passes.end()) return k;
  const std::vector<Stmt> &top = k.body->stmts;
  const size_t d = threadGuardIndex(k);
  if (d == top.size() || d + 2 != top.size() || top[d + 1]->elseBody) return k;
  // The guarded body: the recovered indices, then one store.
  std::vector<Stmt> body = statementsOf(top[d + 1]->body);
  if (body.empty() || body.back()->kind != StmtKind::Store) return k;
  const Stmt &st = body.back();
  const Param *array = k.findParam(st->name);
  if (!array || st->indices.size() != 1) return k;
  // The declarations before the store; those whose values come from arrays are data.
  std::vector<Stmt> decls;
  std::set<std::string> data;
  for (size_t s = 0; s + 1 < body.size(); ++s) {
    if (body[s]->kind == StmtKind::Comment) continue;
    if (body[s]->kind != StmtKind::Decl || body[s]->arraySize || !body[s]->value ||
        mentions(body[s]->value, st->name))
      return k;
    decls.push_back(body[s]);
    if (hasLoad(body[s]->value) || mentionsAny(body[s]->value, data)) data.insert(body[s]->name);
  }
  // Where it stores follows from the iteration alone (no scatter such as hist[b] += 1).
  if (hasLoad(st->indices[0]) || mentionsAny(st->indices[0], data)) return k;
  Expr value;
  if (st->op == "=") value = st->value;
  else if (st->op == "+=" || st->op == "-=" || st->op == "*=")
    value = binary(st->op.substr(0, 1), load(st->name, st->indices, array->type), st->value);
  else return k;
  // In place: the stored array read at the stored element, nowhere else; no other array read at
  // that index (a second stream has its own loads in flight already).
  bool ok = !conditionalLoad(value);
  int here = 0, inPlace = 0;
  visitExpr(value, [&](const Expr &n) {
    if (n->kind == ExprKind::Var && n->name == st->name) ok = false;
    if (n->kind != ExprKind::Load) return;
    const bool at = n->operands.size() == 1 && sameIndex(n->operands[0], st->indices[0]);
    if (n->name == st->name && !at) ok = false;
    here += at;
    inPlace += at && n->name == st->name;
  });
  if (!ok || inPlace == 0 || here > 1) return k;

  Expr blockSize = var(k.macro("BLOCKSIZE")), items = var(k.macro("ITEMS"));
  const Stmt &index = top[d];
  const std::string item = freshName(k, "item"), base = freshName(k, index->name + "_base");
  // The thread's first iteration, then one a block further for each item.
  Stmt first = mapStmt(index, nullptr, [&](const Expr &n) -> Expr {
    return n->kind == ExprKind::Var && n->name == k.macro("BLOCKSIZE") ? mul(n, items) : n;
  });
  auto firstDecl = std::make_shared<StmtNode>(*first);
  firstDecl->name = base;
  Expr at = add(var(base, index->type), mul(cast(index->type, var(item)), blockSize));
  // Each load's value gets a register an item (`A_item`, `q_item`, ...); where each item stores
  // is kept too (`A_at`, in the index's type: the 64-bit kernel indexes past 2^31).
  std::vector<Stmt> out(top.begin(), top.begin() + d);
  out.push_back(withLoc(Stmt(firstDecl), index->loc));
  std::vector<Expr> reads, saved;
  outermostLoads(value, reads);
  std::vector<Stmt> loadPhase(body.begin(), body.end() - 1);
  std::map<std::string, int> uses;
  for (const Expr &l : reads) {
    const int n = ++uses[l->name];
    const std::string name = freshName(k, l->name + "_item" + (n > 1 ? std::to_string(n) : ""));
    out.push_back(decl(name, l->type, nullptr, items));
    loadPhase.push_back(store(name, {var(item)}, "=", l));
    saved.push_back(load(name, {var(item)}, l->type));
  }
  const Expr computed = replaceLoads(value, reads, saved);
  const std::string where = freshName(k, st->name + "_at");
  const Type whereType = index->type;
  out.push_back(decl(where, whereType, nullptr, items));
  loadPhase.push_back(store(where, {var(item)}, "=", st->indices[0]));
  auto phase = [&](std::vector<Stmt> guarded) {
    auto guard = std::make_shared<StmtNode>(*top[d + 1]);
    guard->body = block(guarded);
    Stmt loopBody = block({decl(index->name, index->type, at), Stmt(guard)});
    return withLoc(forLoop(item, kInt, intImm(0), items, intImm(1), loopBody, LoopKind::Merge),
                   st->loc);
  };
  out.push_back(phase(loadPhase));
  // The arithmetic and the store; the recovered indices again only where the value uses them.
  std::vector<Stmt> storePhase;
  std::set<std::string> declared;
  for (const Stmt &s : decls) declared.insert(s->name);
  if (mentionsAny(computed, declared)) storePhase = decls;
  storePhase.push_back(
      withLoc(store(st->name, {load(where, {var(item)}, whereType)}, "=", computed), st->loc));
  out.push_back(phase(storePhase));

  Kernel result = k;
  result.body = withLoc(block(out), k.body->loc);
  result.grid[0].perBlock = mul(blockSize, items);
  result.passes.push_back("ElementwiseItems");
  result.tuning.push_back({"ITEMS", k.macro("ITEMS"), {1, 2, 4, 8}, 4});
  result.remarks.push_back("element-wise update of '" + st->name + "' in place: " +
                           k.macro("ITEMS") + " iterations a thread, a block apart, every item's "
                           "loads before any item's arithmetic or store");
  return result;
}

}  // namespace rtcuda
