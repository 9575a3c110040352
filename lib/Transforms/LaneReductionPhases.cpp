// LaneReduction's later phases: a row's body that goes on after its first reduction loop with
// more of them. A softmax takes a row's maximum, then the sum of exp(x - max), then writes every
// element; a layer norm sums, divides, sums squares of differences, then writes. LaneReduction
// alone splits the first loop among the row's lanes and leaves the rest to lane 0, so two of the
// three walks of the row ran on one thread. Here every lane takes the first loop's results
// (the combine hands them to all the row's lanes), and the body goes on as a list of phases:
//
//   scalar steps (`mean /= cols`, `float s = 0`)     every lane, the same values
//   a reduction loop into scalars set just before it  split among the lanes, combined into all
//   a loop of independent iterations (`Y[i][j] = ..`) split among the lanes
//   a store of one element (`out[i] = s`)             lane 0
//   anything else, and all after it                   lane 0, as LaneReduction leaves it
//
// Lanes of one row meet only in the combines. So a phase may read an array that another phase
// stores only where a combine lies between them, the reader first (the in-place layer norm
// reads its row twice, then overwrites it); one phase at most stores each array. Otherwise the
// kernel keeps LaneReduction's single loop. docs/passes/LaneReduction.md, "Rows of several
// phases".
#include "LaneReduction.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>
#include <map>
#include <set>

namespace rtcuda {

using namespace ir;

namespace {

enum class PhaseKind { Reduce, Split, Store, Tail };

struct Phase {
  PhaseKind kind;
  std::vector<Stmt> before;  // scalar steps every lane runs first (Tail: its statements)
  Stmt stmt;                 // the loop or the store
  std::vector<std::string> accs, ops;
  std::set<std::string> loads, stores;  // the kernel's arrays
  std::set<std::string> stepLoads;      // what its scalar steps (`before`) read
  bool combine = false;                 // ends with the lanes' combine
};

// The kernel's arrays that `s` loads and stores, into `loads` and `stores`; `other` where it
// jumps, waits at a barrier, loops with while or updates atomically.
void effectsInto(const Kernel &k, const Stmt &s, std::set<std::string> &loads,
                 std::set<std::string> &stores, bool &other) {
  Effects e = effectsOf(s);
  for (const std::string &a : e.loaded)
    if (k.findParam(a)) loads.insert(a);
  for (const std::string &a : e.stored)
    if (k.findParam(a)) stores.insert(a);
  other |= e.other;
}

// A step every lane may run: it declares or sets a scalar the lanes hold, stores nothing.
bool scalarStep(const Stmt &s, const std::map<std::string, Type> &held) {
  if (s->kind == StmtKind::Comment) return true;
  bool ok = (s->kind == StmtKind::Decl && !s->arraySize && !s->shared && !held.count(s->name)) ||
            (s->kind == StmtKind::Assign && held.count(s->name));
  return ok && !effectsOf(s).other;
}

bool serialUnitLoop(const Stmt &s) {
  int64_t step = 0;
  return s->kind == StmtKind::For && s->loopKind == LoopKind::Serial && isConst(s->step, &step) && step == 1;
}

// One phase stores each array; a phase reading an array another stores comes before it with a
// combine between (the combine orders every lane's reads before any lane's stores); a phase's
// scalar steps read nothing its own loop or store writes (every lane runs them while the others
// may already be storing).
bool ordered(const std::vector<Phase> &phases) {
  std::map<std::string, size_t> storer;
  for (size_t p = 0; p < phases.size(); ++p)
    for (const std::string &a : phases[p].stores)
      if (!storer.emplace(a, p).second) return false;
  for (size_t p = 0; p < phases.size(); ++p)
    if (phases[p].kind != PhaseKind::Tail)
      for (const std::string &a : phases[p].stepLoads)
        if (phases[p].stores.count(a)) return false;
  for (size_t q = 0; q < phases.size(); ++q)
    for (const std::string &a : phases[q].loads) {
      auto it = storer.find(a);
      if (it == storer.end() || it->second == q) continue;
      if (q > it->second) return false;
      bool combined = false;
      for (size_t c = q; c < it->second; ++c) combined |= phases[c].combine;
      if (!combined) return false;
    }
  return true;
}

// The row cache. An array read along the row by two or more of the loops (the first reduction's
// and the later phases'), at X[base + j] with one base and j from a constant up to one end E,
// and written by nothing: its row is copied once into shared memory and the loops read the
// copy, so the row comes from DRAM once instead of once a phase (a softmax read it three times:
// 0.59x copy bandwidth at 8191 x 8193 on an H100). Where BLOCKSIZE / LANES rows do not fit in
// the static shared memory left (about 43 KB; long rows), or ROW_CACHE is 0, the loops read the
// array as before.
struct CachedRow {
  std::string array, copy, flag;
  Type type;
  Expr base, end;
  int64_t start = 0;
};

// `base` where every load of `array` in `loop` is array[base + loop's variable] (base not
// naming it), the same for every load; null otherwise.
Expr rowBase(const Stmt &loop, const std::string &array) {
  Expr base;
  bool ok = true;
  visitStmt(loop->body, nullptr, [&](const Expr &e) {
    visitExpr(e, [&](const Expr &n) {
      if (n->kind != ExprKind::Load || n->name != array) return;
      if (n->operands.size() != 1) return void(ok = false);
      Expr b = simplify(sub(n->operands[0], var(loop->name, loop->type)));
      if (mentions(b, loop->name) || (base && !equal(base, b))) return void(ok = false);
      base = b;
    });
  });
  return ok ? base : nullptr;
}

std::optional<CachedRow> cachedRow(const Kernel &k, const std::vector<Stmt> &loops) {
  std::map<std::string, int> readers;
  for (const Stmt &l : loops) {
    std::set<std::string> names;
    visitStmt(l->body, nullptr, [&](const Expr &e) {
      visitExpr(e, [&](const Expr &n) {
        if (n->kind == ExprKind::Load && k.findParam(n->name)) names.insert(n->name);
      });
    });
    for (const std::string &n : names) ++readers[n];
  }
  for (const auto &[array, count] : readers) {

    if (count < 2 || storesTo(k.body, array)) continue;
    CachedRow row;
    row.array = array;
    row.type = k.findParam(array)->type;
    bool ok = true;
    row.start = -1;
    int uses = 0;
    for (const Stmt &l : loops) {
      Expr base = rowBase(l, array);
      int64_t min = 0;
      if (!base) continue;  // reads it otherwise, or not at all: that loop keeps the array
      ++uses;
      if (!isConst(l->min, &min) || min < 0 || (row.base && !equal(row.base, base)) ||
          (row.end && !equal(row.end, l->end))) {
        ok = false;
        break;
      }
      row.base = base, row.end = l->end;
      row.start = row.start < 0 ? min : std::min(row.start, min);
    }
    if (ok && uses >= 2 && row.type.bytes() > 0) return row;
  }
  return std::nullopt;
}


}  // namespace

std::optional<RowPhases> rowPhases(const Kernel &k, const std::vector<Stmt> &after,
                                   const RowPhaseInput &in) {
  std::map<std::string, Type> held;  // the scalars every lane holds, and their types
  for (const Stmt &d : in.locals) held[d->name] = d->type;
  Phase first{PhaseKind::Reduce, {}, nullptr, {}, {}, {}, {}, {}, true};
  first.loads.insert(in.firstLoads.begin(), in.firstLoads.end());
  std::vector<Phase> phases{first};
  std::vector<Stmt> segment;
  size_t p = 0;
  int reductions = 0, splits = 0;
  bool other = false;
  for (; p < after.size(); ++p) {
    const Stmt &s = after[p];
    if (scalarStep(s, held)) {
      if (s->kind == StmtKind::Decl) held[s->name] = s->type;
      segment.push_back(s);
      continue;
    }
    Phase phase{PhaseKind::Tail, segment, s, {}, {}, {}, {}, {}, false};
    std::set<std::string> stepStores;  // none: scalar steps store nothing
    for (const Stmt &b : segment) effectsInto(k, b, phase.stepLoads, stepStores, other);
    phase.loads = phase.stepLoads;
    effectsInto(k, s, phase.loads, phase.stores, other);
    if (other) return std::nullopt;
    if (serialUnitLoop(s)) {
      std::vector<std::string> names;
      for (const auto &[n, t] : held) names.push_back(n);
      phase.accs = updatedBy(s, segment, names, phase.ops);
      bool reduce = !phase.accs.empty() && addsInto(k, s, phase.accs, phase.ops) &&
                    startsReadNoSum(segment, phase.accs);
      for (const std::string &a : phase.accs) reduce &= held.count(a) && shuffleable(held[a]);
      bool storesInLoop = false;
      visitStmt(s->body, [&](const Stmt &n) { storesInLoop |= n->kind == StmtKind::Store; });
      if (reduce && !storesInLoop) {
        phase.kind = PhaseKind::Reduce;
        phase.combine = true;
        ++reductions;
      } else if (independentIterations(k, s, {})) {
        phase.kind = PhaseKind::Split;
        phase.accs.clear();
        phase.ops.clear();
        ++splits;
      } else {
        break;
      }
    } else if (s->kind == StmtKind::Store && k.findParam(s->name)) {
      phase.kind = PhaseKind::Store;
    } else {
      break;
    }
    phases.push_back(phase);
    segment.clear();
  }
  Phase tail{PhaseKind::Tail, segment, nullptr, {}, {}, {}, {}, {}, false};
  tail.before.insert(tail.before.end(), after.begin() + p, after.end());
  for (const Stmt &s : tail.before) effectsInto(k, s, tail.loads, tail.stores, other);
  phases.push_back(tail);
  // Nothing for the lanes to split: lane 0's, as LaneReduction leaves it.
  if (reductions == 0 && splits == 0) return std::nullopt;
  if (!ordered(phases)) return std::nullopt;

  RowPhases out;
  Expr blockSize = var(k.macro("BLOCKSIZE"));
  std::vector<Stmt> loops{in.firstLoop};
  for (const Phase &ph : phases)  // the first phase's loop is in.firstLoop
    if (ph.stmt && (ph.kind == PhaseKind::Reduce || ph.kind == PhaseKind::Split)) loops.push_back(ph.stmt);
  if (std::optional<CachedRow> row = cachedRow(k, loops)) {
    // What is left of 48 KB of static shared memory beside the partial results (BLOCKSIZE
    // values each, 8 bytes counted) and 1 KB: 11008 floats at 256 threads and two results.
    size_t results = in.accs.size();
    for (const Phase &ph : phases) results += ph.accs.size();
    Expr capacity = simplify(div(sub(intImm(48 * 1024 - 1024), mul(intImm(8 * static_cast<int64_t>(results)), blockSize)),
                                 intImm(row->type.bytes())));
    row->copy = freshName(k, row->array + "_row");
    row->flag = freshName(k, row->array + "_cached");
    Expr tid = cast(Type::of(ScalarKind::Int), gpuBuiltin("threadIdx.x"));
    Expr slotStart = mul(div(tid, in.lanes), row->end);  // this row's place in the copy
    auto copy = std::make_shared<StmtNode>(*decl(row->copy, row->type, nullptr, capacity));
    copy->shared = true;
    out.shared.push_back(Stmt(copy));
    // The rows of a block fit: E <= capacity / (BLOCKSIZE / LANES), no product to overflow.
    out.declared.push_back(decl(row->flag, Type::of(ScalarKind::Int),
                                land(var(k.macro("ROW_CACHE")),
                                     binary("<=", row->end, div(capacity, div(blockSize, in.lanes))))));
    const std::string j = freshName(k, "j");
    Expr at = add(row->base, var(j));
    out.fill.push_back(comment("the row of '" + row->array + "' read by " + std::to_string(loops.size()) +
                               " loops, copied once where the block's rows fit (" + k.macro("ROW_CACHE") + ")"));
    out.fill.push_back(ifThen(land(in.guard, var(row->flag)),
                              forLoop(j, Type::of(ScalarKind::Int), add(intImm(row->start), in.lane), row->end,
                                      in.lanes, store(row->copy, {add(slotStart, var(j))}, "=",
                                                      load(row->array, {at}, row->type)))));
    out.fill.push_back(barrier());
    CachedRow r = *row;
    out.cached = [r, slotStart](const Stmt &loop) -> Stmt {
      if (!rowBase(loop, r.array)) return loop;
      Stmt fromCopy = mapStmt(loop, nullptr, [&](const Expr &n) -> Expr {
        if (n->kind != ExprKind::Load || n->name != r.array) return n;
        return load(r.copy, {add(slotStart, var(loop->name, loop->type))}, n->type);
      });
      return ifThen(var(r.flag), block({fromCopy}), block({loop}));
    };
    out.remark = "; the row of '" + row->array + "', read by " + std::to_string(loops.size()) +
                 " loops, is copied once into shared memory where the block's rows fit (about 43 KB; " +
                 k.macro("ROW_CACHE") + ")";
  }
  Expr lane0 = binary("==", in.lane, intImm(0));
  std::map<std::string, std::string> partialOf;
  for (size_t a = 0; a < in.accs.size(); ++a) partialOf[in.accs[a]] = in.partials[a];
  std::string said;
  for (size_t q = 1; q < phases.size(); ++q) {
    Phase &ph = phases[q];
    std::vector<Type> types;
    for (const std::string &a : ph.accs) types.push_back(held[a]);
    std::vector<Stmt> guarded;
    if (ph.kind == PhaseKind::Tail) {
      if (!ph.before.empty()) out.stmts.push_back(ifThen(land(in.guard, lane0), block(ph.before)));
      continue;
    }
    startLanes(ph.before, ph.accs, ph.ops, types, in.lane->name, out.declared, guarded);
    if (ph.kind == PhaseKind::Store) {
      if (!guarded.empty()) out.stmts.push_back(ifThen(in.guard, block(guarded)));
      out.stmts.push_back(ifThen(land(in.guard, lane0), ph.stmt));
      said += std::string(said.empty() ? "" : ", ") + "a store by lane 0";
      continue;
    }
    Stmt strided = laneStrided(ph.stmt, in.lane, in.lanes);
    guarded.push_back(out.cached ? out.cached(strided) : strided);
    out.stmts.push_back(ifThen(in.guard, block(guarded)));
    std::string names;
    for (const std::string &a : ph.accs) names += (names.empty() ? "'" : ", '") + a + "'";
    said += std::string(said.empty() ? "" : ", ") + "loop '" + ph.stmt->name + "'" +
            (ph.kind == PhaseKind::Reduce ? " (combining " + names + ")" : "");
    if (ph.kind != PhaseKind::Reduce) continue;
    std::string plain;
    for (const std::string &a : ph.accs) plain += (plain.empty() ? "" : ", ") + a;
    const bool sums = std::all_of(ph.ops.begin(), ph.ops.end(), [](const std::string &o) { return o == "+"; });
    out.stmts.push_back(comment("combine the lanes' " + std::string(sums ? "partial sums" : "partial results") + " of " + plain +
                                " into every lane (warp shuffles)"));
    std::vector<std::string> partials;
    for (size_t a = 0; a < ph.accs.size(); ++a) {
      const std::string &acc = ph.accs[a];
      if (!partialOf.count(acc)) {
        partialOf[acc] = freshName(k, acc + "_lanes");
        auto array = std::make_shared<StmtNode>(*decl(partialOf[acc], types[a], nullptr, blockSize));
        array->shared = true;
        out.shared.push_back(Stmt(array));
      }
      partials.push_back(partialOf[acc]);
    }
    for (const Stmt &st : shuffleCombine(in.guard, in.lanes, ph.accs, ph.ops, types, partials, true,
                                         [&](const std::string &base) { return freshName(k, base); }))
      out.stmts.push_back(st);
  }
  out.remark = "; every lane takes the results and the lanes go on with " + said + out.remark;
  return out;
}

}  // namespace rtcuda
