// LaneScan: a running sum along a row (a prefix sum, cumsum) with one thread a row reads and
// writes addresses a row apart in neighbouring threads. LANES neighbouring threads share the row
// instead: the loop runs in chunks of LANES x ITEMS iterations; in each, the lanes first load ITEMS
// runs of LANES neighbouring elements (coalesced, all in flight together), then scan each run by
// warp shuffles (an inclusive scan of LANES values), store each element as the carry plus its
// prefix, and add the run's total to the carry of every lane:
//
//   int i = ...threadIdx.x...;            int i = ... threadIdx.x / lanes ...; int lane = threadIdx.x % lanes;
//   if (i < rows) {                       if (i < rows) { s = 0.0f; } else { s = 0.0f; }
//     float s = 0.0f;                     for (int j_chunk = 0; j_chunk < cols; j_chunk += lanes * ITEMS) {
//     for (j = 0; j < cols; j++) {  ==>     float v[ITEMS];
//       s += X[i][j];                       for (q < ITEMS) { j = j_chunk + q * lanes + lane; v[q] = 0; if (i < rows && j < cols) v[q] = X[i * cols + j]; }
//       Y[i][j] = s;                        for (q < ITEMS) { j = ...; float prefix = rtcuda_lane_scan(v[q], lanes, v_lanes);
//     }                                       if (i < rows && j < cols) Y[i * cols + j] = s + prefix;
//   }                                         s += rtcuda_lane_last(prefix, lanes, v_lanes); }
//                                         }
//
// The sums are regrouped (a prefix of LANES values added as a tree), as any parallel reduction
// is; rtcuda verify checks them within its floating-point tolerance. A store before the update
// (`Y[i][j] = s; s += v;`) stores the exclusive prefix; a sum in place (`A[i][j] += A[i][j - 1]`)
// is the running sum that starts from the element before the first. Runs after LaneReduction,
// on kernels it left alone; docs/passes/LaneScan.md.
#include "LaneReduction.h"

#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;

namespace {

const Type kInt = Type::of(ScalarKind::Int);

// The running sum of a row: `s += v; Y[e] = s;` (or the store first), `v` reading neither s nor
// Y but at e, `e` moving by one element along the loop, `s` declared before the loop.
struct Scan {
  size_t loop = 0;                // among the guarded statements
  std::string sum;                // s
  Type type;                      // its type
  std::vector<Stmt> locals;       // the iteration's declarations before the update
  Expr value;                     // v
  Stmt store;                     // Y[e] = s
  bool exclusive = false;         // the store comes before the update
};

std::optional<Scan> findScan(const Kernel &k, const std::vector<Stmt> &body, const std::string &index) {
  const size_t l = firstSerialLoop(body);
  if (l == body.size()) return std::nullopt;
  const Stmt &loop = body[l];
  int64_t step = 0;
  if (!isConst(loop->step, &step) || step != 1) return std::nullopt;
  // Bounds of the parameters only: every row's lanes run the same chunks.
  for (const Expr &b : {loop->min, loop->end})
    for (const std::string &v : varsOf(b))
      if (!k.findParam(v)) return std::nullopt;
  Scan scan;
  scan.loop = l;
  std::vector<Stmt> stmts = statementsOf(loop->body);
  size_t update = stmts.size(), store = stmts.size();
  for (size_t s = 0; s < stmts.size(); ++s) {
    const Stmt &st = stmts[s];
    if (st->kind == StmtKind::Decl && update == stmts.size() && store == stmts.size() && st->value &&
        !st->arraySize && !st->shared)
      scan.locals.push_back(st);
    else if (st->kind == StmtKind::Assign && st->op == "+=" && update == stmts.size())
      update = s;
    else if (st->kind == StmtKind::Store && st->op == "=" && store == stmts.size())
      store = s;
    else
      return std::nullopt;
  }
  if (update == stmts.size() || store == stmts.size()) return std::nullopt;
  scan.sum = stmts[update]->name;
  scan.value = stmts[update]->value;
  scan.store = stmts[store];
  scan.exclusive = store < update;
  if (!isVar(scan.store->value, scan.sum) || mentions(scan.value, scan.sum)) return std::nullopt;
  for (const Stmt &d : scan.locals)
    if (mentions(d->value, scan.sum)) return std::nullopt;
  // s: a scalar of the thread, declared before the loop and read after it only.
  bool declared = false;
  for (size_t s = 0; s < l; ++s)
    if (body[s]->kind == StmtKind::Decl && body[s]->name == scan.sum && !body[s]->arraySize) {
      declared = true;
      scan.type = body[s]->type;
    }
  if (!declared || !shuffleable(scan.type)) return std::nullopt;
  // Y[e]: one element an iteration, the next along the row, Y read only there.
  const Param *y = k.findParam(scan.store->name);
  if (!y || !y->isArray || scan.store->indices.size() != 1) return std::nullopt;
  const Expr &e = scan.store->indices[0];
  std::optional<int64_t> along = stride(e, loop->name), across = stride(e, index);
  if (!along || *along != 1 || (across && *across == 1)) return std::nullopt;
  bool readsElsewhere = false;
  auto checkLoads = [&](const Expr &x) {
    visitExpr(x, [&](const Expr &n) {
      if (n->kind == ExprKind::Load && n->name == scan.store->name && !equal(n->operands[0], e))
        readsElsewhere = true;
      if (n->kind == ExprKind::Call && n->name.rfind("atomic", 0) == 0) readsElsewhere = true;
    });
  };
  checkLoads(scan.value);
  for (const Stmt &d : scan.locals) checkLoads(d->value);
  if (readsElsewhere) return std::nullopt;
  return scan;
}

// A running sum written in place, `Y[e] += Y[e']` with e' the element before e along the loop
// (`A[i][j] += A[i][j - 1]`, or `Y[e] = Y[e] + Y[e']`): the same as the running sum `s` that
// starts from the element before the first, `s += Y[e]; Y[e] = s;`. Returns the guarded body in
// that form (the start read only where the loop runs), or the body as it was.
std::vector<Stmt> runningSumForm(const Kernel &k, const std::vector<Stmt> &body) {
  const size_t l = firstSerialLoop(body);
  if (l == body.size()) return body;
  const Stmt &loop = body[l];
  std::vector<Stmt> stmts = statementsOf(loop->body);
  if (stmts.size() != 1 || stmts[0]->kind != StmtKind::Store || stmts[0]->indices.size() != 1)
    return body;
  const Stmt &st = stmts[0];
  const Expr &e = st->indices[0];
  const Param *y = k.findParam(st->name);
  std::optional<ElementUpdate> update = elementUpdate(st);
  if (!y || !y->isArray || !update || update->subtract) return body;
  // The addend: the element before, along the loop.
  const Expr previous = simplify(substitute(e, {{loop->name, sub(var(loop->name, loop->type), intImm(1))}}));
  const Expr &addend = update->addend;
  if (addend->kind != ExprKind::Load || addend->name != st->name ||
      !equal(simplify(addend->operands[0]), previous))
    return body;
  const std::string sum = freshName(k, "running");
  const Expr start = substitute(e, {{loop->name, sub(loop->min, intImm(1))}});
  Expr first = select(lt(loop->min, loop->end), load(st->name, {simplify(start)}, y->type), zeroOf(y->type));
  auto form = std::make_shared<StmtNode>(*loop);
  form->body = withLoc(block({withLoc(assign(sum, "+=", load(st->name, {e}, y->type)), st->loc),
                              withLoc(store(st->name, {e}, "=", var(sum, y->type)), st->loc)}),
                       loop->body->loc);
  std::vector<Stmt> out(body.begin(), body.begin() + l);
  out.push_back(withLoc(decl(sum, y->type, first), loop->loc));
  out.push_back(Stmt(form));
  out.insert(out.end(), body.begin() + l + 1, body.end());
  return out;
}

}  // namespace

Kernel laneScan(const Kernel &k, const PassContext &) {
  if (k.grid.size() != 1 || !equal(k.grid[0].perBlock, var(k.macro("BLOCKSIZE"))) ||
      !k.reductions.empty() || !k.atomicArrays.empty() || k.finish)
    return k;
  const std::vector<Stmt> &top = k.body->stmts;
  const size_t d = threadGuardIndex(k);
  if (d == top.size() || d + 2 != top.size()) return k;
  const Stmt &index = top[d], &guard = top[d + 1];
  const std::vector<Stmt> body = runningSumForm(k, statementsOf(guard->body));
  std::optional<Scan> scan = findScan(k, body, index->name);
  if (!scan) return k;
  const Stmt &loop = body[scan->loop];
  std::vector<Stmt> before(body.begin(), body.begin() + scan->loop);
  std::vector<Stmt> after(body.begin() + scan->loop + 1, body.end());
  // Every lane runs the statements before the loop: they only set the thread's scalars.
  if (!setsOnlyLocals(before, {})) return k;
  // The rest reads the final sum on lane 0; it may not read what the loop stores.
  for (const Stmt &st : after)
    if (effectsOf(st).loaded.count(scan->store->name)) return k;

  const Expr blockSize = var(k.macro("BLOCKSIZE")), lanes = var(freshName(k, "lanes"));
  const std::string lane = freshName(k, "lane"), chunk = freshName(k, loop->name + "_chunk");
  const std::string v = freshName(k, "v"), slots = freshName(k, "v_lanes");
  const Expr guardCond = guard->cond, laneVar = var(lane);
  Stmt rowIndex = mapStmt(index, nullptr, [&](const Expr &n) -> Expr {
    if (isVar(n, "threadIdx.x")) return binary("/", n, lanes);
    if (isVar(n, k.macro("BLOCKSIZE"))) return div(n, lanes);
    return n;
  });
  std::vector<Stmt> out(top.begin(), top.begin() + d);
  out.push_back(decl(lanes->name, kInt, var(k.macro("LANES"))));
  out.push_back(rowIndex);
  out.push_back(decl(lane, kInt, cast(kInt, binary("%", gpuBuiltin("threadIdx.x"), lanes))));
  auto slotArray = std::make_shared<StmtNode>(*decl(slots, scan->type, nullptr, blockSize));
  slotArray->shared = true;
  out.push_back(Stmt(slotArray));
  // The statements before the loop, every lane; the sum of a row past the end is zero.
  std::vector<Stmt> declared, guarded;
  std::vector<Type> noSums;  // every lane starts the sum from its value, as a maximum
  startLanes(before, {}, {}, noSums, lane, declared, guarded);
  out.insert(out.end(), declared.begin(), declared.end());
  out.push_back(ifThen(guardCond, block(guarded), block({assign(scan->sum, "=", zeroOf(scan->type))})));
  // A chunk of LANES x ITEMS iterations a trip, the same trips for every lane of the block: the
  // lanes load ITEMS runs of LANES neighbouring elements first (their loads in flight together),
  // then scan them one after the other.
  const std::string q = freshName(k, "q"), prefix = freshName(k, "prefix");
  const Expr items = var(k.macro("ITEMS"));
  const Expr j = var(loop->name, loop->type), inRow = land(guardCond, lt(j, loop->end));
  const Expr sum = var(scan->sum, scan->type), own = load(v, {var(q)}, scan->type);
  const Expr part = var(prefix, scan->type);
  const Stmt jDecl = decl(loop->name, loop->type, add(add(var(chunk, loop->type), mul(var(q), lanes)), laneVar));
  std::vector<Stmt> take(scan->locals.begin(), scan->locals.end());
  take.push_back(store(v, {var(q)}, "=", scan->value));
  auto element = std::make_shared<StmtNode>(*scan->store);
  element->value = binary("+", sum, scan->exclusive ? Expr(binary("-", part, own)) : part);
  Stmt loads = forLoop(q, kInt, intImm(0), items, intImm(1),
                       block({jDecl, store(v, {var(q)}, "=", zeroOf(scan->type)), ifThen(inRow, block(take))}),
                       LoopKind::Unrolled);
  Stmt scans = forLoop(q, kInt, intImm(0), items, intImm(1),
                       block({jDecl, decl(prefix, scan->type, call("rtcuda_lane_scan", {own, lanes, var(slots)}, scan->type)),
                              ifThen(inRow, block({Stmt(element)})),
                              assign(scan->sum, "+=", call("rtcuda_lane_last", {part, lanes, var(slots)}, scan->type))}),
                       LoopKind::Unrolled);
  out.push_back(comment("the row's running sum of " + scan->sum + ", " + lanes->name + " x " +
                        items->name + " iterations a trip (warp shuffles)"));
  out.push_back(withLoc(forLoop(chunk, loop->type, loop->min, loop->end, mul(lanes, items),
                                block({decl(v, scan->type, nullptr, items), loads, scans})),
                        loop->loc));
  if (!after.empty()) out.push_back(ifThen(land(guardCond, binary("==", laneVar, intImm(0))), block(after)));

  Kernel result = k;
  result.body = withLoc(block(out), k.body->loc);
  result.grid[0].perBlock = div(blockSize, var(k.macro("LANES")));
  result.passes.push_back("LaneScan");
  result.tuning.push_back({"LANES", k.macro("LANES"), {4, 8, 16, 32}, 32});
  // 8 measured best on an H100 (bench/results/h100-2026-11-26-s21/scan-5): 1031 x 65537 0.65x the
  // copy bandwidth against 0.47x at 4, 0.17x at 1; the other shapes within 2% of 4.
  result.tuning.push_back({"ITEMS", k.macro("ITEMS"), {1, 2, 4, 8}, 8});
  result.remarks.push_back("scan: " + k.macro("LANES") + " threads share each iteration of '" +
                           index->name + "', loop '" + loop->name + "' in chunks of " +
                           k.macro("LANES") + " x " + k.macro("ITEMS") + " iterations (the loads of a chunk first): the running sum '" + scan->sum +
                           "' by warp shuffles (an " + (scan->exclusive ? "exclusive" : "inclusive") +
                           " prefix of each chunk plus the carry of the chunks before)");
  return result;
}

}  // namespace rtcuda
