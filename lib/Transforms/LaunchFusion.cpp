// LaunchFusion: two adjacent parallel nests at the same host level, which Outline would launch as
// two kernels, become one nest over a box holding both domains, each statement under its own
// domain's guard; two statements with the same body (after renaming the loop variables) over
// disjoint domains become one statement over the union (lu after Reschedule, per pivot c0):
//
//   for (c1 = c0 + 2; c1 < n; c1++)                  for (c1 = c0 + 1; c1 < n; c1++)
//     for (c2 = c0 + 1; c2 < c1; c2++)                 for (c2 = c0 + 1; c2 < n; c2++)
//       A[c1][c2] -= A[c1][c0] * A[c0][c2];    ==>       A[c1][c2] -= A[c1][c0] * A[c0][c2];
//   for (c1 = c0 + 1; c1 < n; c1++)
//     for (c2 = c1; c2 < n; c2++)                    (the union is the box: no guard)
//       A[c1][c2] -= A[c1][c0] * A[c0][c2];
//
// fdtd-2d's ey (i from 1) and ex (j from 1) updates: one nest over [0, nx) x [0, ny), ey's
// store under `if (i >= 1)`, ex's under `if (j >= 1)`.
// Legal when isl proves that no instance of one nest reads or writes an element that an instance
// of the other writes at another point (the same point is fine: the fused body keeps the source
// order). Kept when the fused box has no more points than the two nests' boxes together at
// extents of 64, and Outline then launches fewer kernels (docs/passes/LaunchFusion.md).
#include "rtcuda/Transforms/LaunchFusion.h"

#include "rtcuda/Analysis/ScheduleModel.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/options.h>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace rtcuda {

using namespace ir;

namespace {

struct Decline : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A perfect nest: loops each the only statement of the one around it, then stores.
struct Nest {
  std::vector<Stmt> loops;
  std::vector<Stmt> body;
};

std::vector<Stmt> withoutComments(const Stmt &s) {
  std::vector<Stmt> out;
  for (const Stmt &c : s->kind == StmtKind::Block ? s->stmts : std::vector<Stmt>{s})
    if (c->kind != StmtKind::Comment) out.push_back(c);
  return out;
}

std::optional<Nest> perfectNest(const Stmt &s) {
  Nest n;
  Stmt cur = s;
  while (cur->kind == StmtKind::For) {
    int64_t step = 0;
    if (!isConst(cur->step, &step) || step != 1) return std::nullopt;
    n.loops.push_back(cur);
    std::vector<Stmt> inner = withoutComments(cur->body);
    if (inner.size() == 1 && inner[0]->kind == StmtKind::For) {
      cur = inner[0];
      continue;
    }
    for (const Stmt &b : inner)
      if (b->kind != StmtKind::Store) return std::nullopt;
    if (inner.empty()) return std::nullopt;
    n.body = inner;
    return n;
  }
  return std::nullopt;
}

// An affine expression of parameters and the nest's loop variables (`dims`: name -> L<k>) as isl
// text; parameters are named P_<scalar> as in the dependence analysis.
std::string islText(const Expr &e, const std::map<std::string, std::string> &dims,
                    std::set<std::string> &params) {
  switch (e->kind) {
  case ExprKind::IntImm: return "(" + std::to_string(e->intValue) + ")";
  case ExprKind::Var: {
    auto it = dims.find(e->name);
    if (it != dims.end()) return it->second;
    params.insert("P_" + e->name);
    return "P_" + e->name;
  }
  case ExprKind::Cast:
    if (!e->type.isInteger()) break;
    return islText(e->operands[0], dims, params);
  case ExprKind::Unary:
    if (e->name != "-") break;
    return "(-" + islText(e->operands[0], dims, params) + ")";
  case ExprKind::Binary: {
    const std::string &op = e->name;
    int64_t c = 0;
    if (op == "+" || op == "-")
      return "(" + islText(e->operands[0], dims, params) + " " + op + " " +
             islText(e->operands[1], dims, params) + ")";
    if (op == "*" && isConst(e->operands[0], &c))
      return "(" + std::to_string(c) + " * " + islText(e->operands[1], dims, params) + ")";
    if (op == "*" && isConst(e->operands[1], &c))
      return "(" + std::to_string(c) + " * " + islText(e->operands[0], dims, params) + ")";
    break;
  }
  default: break;
  }
  throw Decline("the bound '" + print(e) + "' is not affine");
}

std::string paramPrefix(const std::set<std::string> &params) {
  std::string s;
  for (const std::string &p : params) s += (s.empty() ? "" : ", ") + p;
  return "[" + s + "] -> ";
}

// One pair of adjacent nests, `a` before `b`; `b`'s loops renamed to `a`'s.
struct Pair {
  Nest a, b;
  std::set<std::string> names;                 // the fused nest's loop variables
  std::map<std::string, std::string> dims;     // loop variable -> isl name "x<k>"
};

std::string boxConstraint(const Expr &lo, const Expr &hi, size_t k, const Pair &p,
                          std::set<std::string> &params) {
  std::string x = "x" + std::to_string(k);
  return islText(lo, p.dims, params) + " <= " + x + " < " + islText(hi, p.dims, params);
}

std::string tupleText(size_t d) {
  std::string t;
  for (size_t k = 0; k < d; ++k) t += (t.empty() ? "" : ", ") + std::string("x") + std::to_string(k);
  return "[" + t + "]";
}

bool loopFree(const Expr &e, const std::set<std::string> &names) { return !mentionsAny(e, names); }

struct Fused {
  Stmt nest;
  std::string what;  // for the remark
};

// isl's checks and the fused nest, or a Decline with the reason.
Fused fusePair(const Kernel &fn, const Pair &p, const std::vector<Stmt> &hostLoops) {
  size_t d = p.a.loops.size();
  // The dependence model of both nests in one wrapper loop; host loops' variables are
  // parameters (fixed during one launch).
  Kernel probe = fn;
  for (const Stmt &h : hostLoops)
    if (!probe.findParam(h->name)) probe.params.push_back(Param{h->name, h->type, false, false, false, {}, h->loc});
  Stmt a = p.a.loops[0], b = p.b.loops[0];
  Stmt wrap = forLoop("rtcuda_lf", Type::of(ScalarKind::Int), intImm(0), intImm(1), intImm(1), block({a, b}));
  std::vector<Stmt> top;
  for (const Stmt &s : fn.body->stmts)
    if (s->kind == StmtKind::Decl && !s->arraySize) top.push_back(s);
  top.push_back(wrap);
  probe.body = block(top);
  NestModel model = nestModel(probe, wrap);
  if (!model.failure.empty()) throw Decline("no exact polyhedral model: " + model.failure);
  std::set<const StmtNode *> inA;
  for (const Stmt &s : p.a.body) inA.insert(s.get());
  std::vector<std::string> namesA, namesB;
  for (const ModelStatement &s : model.statements) {
    if (s.loops.size() != d + 1) throw Decline("a statement is not at the nests' depth");
    (inA.count(s.stmt.get()) ? namesA : namesB).push_back(s.name);
  }
  std::string inner = tupleText(d), lTuple;
  for (size_t k = 0; k <= d; ++k) lTuple += (k ? ", L" : "L") + std::to_string(k);
  auto strip = [&](const std::vector<std::string> &names) {  // S[L0, ...] -> [x0, ...]
    std::string s;
    for (const std::string &n : names) {
      std::string out;
      for (size_t k = 1; k <= d; ++k) out += (k > 1 ? ", L" : "L") + std::to_string(k);
      s += (s.empty() ? "" : "; ") + n + "[" + lTuple + "] -> [" + out + "]";
    }
    return "{ " + s + " }";
  };

  isl_ctx *raw = isl_ctx_alloc();
  isl_options_set_on_error(raw, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(raw, 20000000);
  Fused out;
  try {
    isl::ctx ctx(raw);
    isl::union_set dom(ctx, model.domain);
    isl::union_map reads = isl::union_map(ctx, model.reads).intersect_domain(dom);
    isl::union_map writes = isl::union_map(ctx, model.writes).intersect_domain(dom);
    isl::union_map toA(ctx, strip(namesA)), toB(ctx, strip(namesB));
    // Element conflicts, as pairs of points (A's, B's): a write of one and any access of the other.
    auto onA = [&](const isl::union_map &m) { return m.intersect_domain(toA.domain()); };
    auto onB = [&](const isl::union_map &m) { return m.intersect_domain(toB.domain()); };
    isl::union_map wA = onA(writes), rA = onA(reads), wB = onB(writes), rB = onB(reads);
    isl::union_map conflict = wA.apply_range(wB.reverse())
                                  .unite(wA.apply_range(rB.reverse()))
                                  .unite(rA.apply_range(wB.reverse()));
    isl::union_map points = toA.reverse().apply_range(conflict).apply_range(toB);
    isl::union_map same(ctx, "{ " + inner + " -> " + inner + " }");
    // Only maps: a nest whose instances at different points share an element (a reduction
    // along an inner loop, mvt's row and column sums) keeps its own kernel, whose mapping
    // (lanes for rows, threads for columns) the fused one would not have.
    auto selfConflict = [&](const isl::union_map &w, const isl::union_map &r, const isl::union_map &to) {
      isl::union_map c = w.apply_range(w.reverse()).unite(w.apply_range(r.reverse())).unite(r.apply_range(w.reverse()));
      return !to.reverse().apply_range(c).apply_range(to).is_subset(same);
    };
    if (selfConflict(wA, rA, toA) || selfConflict(wB, rB, toB))
      throw Decline("a nest is not parallel in all its loops (its instances at different points "
                    "share an element); it keeps its own kernel and mapping");
    if (!points.is_subset(same))
      throw Decline("an instance of one reads or writes an element that an instance of the other "
                    "writes at another point");
    isl::union_set domA = dom.apply(toA), domB = dom.apply(toB);
    isl::union_set both = domA.unite(domB).coalesce();

    // The box: per dimension, a bound of either nest that names no loop variable and holds
    // every point of both.
    std::vector<Expr> lo(d), hi(d);
    for (size_t k = 0; k < d; ++k) {
      for (const Stmt &l : {p.a.loops[k], p.b.loops[k]}) {
        std::set<std::string> params;
        std::string x = "x" + std::to_string(k);
        if (!lo[k] && loopFree(l->min, p.names)) {
          std::string c = islText(l->min, p.dims, params);
          if (both.is_subset(isl::union_set(ctx, paramPrefix(params) + "{ " + inner + " : " + x + " >= " + c + " }")))
            lo[k] = l->min;
        }
        params.clear();
        if (!hi[k] && loopFree(l->end, p.names)) {
          std::string c = islText(l->end, p.dims, params);
          if (both.is_subset(isl::union_set(ctx, paramPrefix(params) + "{ " + inner + " : " + x + " < " + c + " }")))
            hi[k] = l->end;
        }
      }
      if (!lo[k] || !hi[k])
        throw Decline("no bound of either nest holds both domains in loop '" + p.a.loops[k]->name + "'");
    }
    std::set<std::string> boxParams;
    std::string boxC;
    for (size_t k = 0; k < d; ++k)
      boxC += (k ? " and " : "") + boxConstraint(lo[k], hi[k], k, p, boxParams);
    isl::union_set box(ctx, paramPrefix(boxParams) + "{ " + inner + " : " + boxC + " }");

    // The cost rule: fused box points <= both nests' boxes' points, at extents of 64 (every
    // extent differing from the fused box's by a constant).
    auto ownBox = [&](const Nest &n, int64_t &points) {
      points = 1;
      for (size_t k = 0; k < d; ++k) {
        Expr nlo = loopFree(n.loops[k]->min, p.names) ? n.loops[k]->min : lo[k];
        Expr nhi = loopFree(n.loops[k]->end, p.names) ? n.loops[k]->end : hi[k];
        int64_t dlo = 0, dhi = 0;
        if (!constantDifference(nlo, lo[k], &dlo) || !constantDifference(hi[k], nhi, &dhi))
          return false;
        points *= std::max<int64_t>(0, 64 - dlo - dhi);
      }
      return true;
    };
    int64_t pa = 0, pb = 0, pf = 1;
    for (size_t k = 0; k < d; ++k) pf *= 64;
    if (!ownBox(p.a, pa) || !ownBox(p.b, pb))
      throw Decline("a nest's box differs from the fused box by more than a constant");
    if (pf > pa + pb)
      throw Decline("the fused box would launch " + std::to_string(pf) + " threads where the two "
                    "launch " + std::to_string(pa + pb) + " (extents of 64)");

    // Each statement under the conditions of its own domain the box does not already imply.
    auto guard = [&](const Nest &n) {
      Expr cond;
      for (size_t k = 0; k < n.loops.size(); ++k) {
        Expr x = var(n.loops[k]->name, n.loops[k]->type);
        for (Expr c : {binary(">=", x, n.loops[k]->min), binary("<", x, n.loops[k]->end)}) {
          std::set<std::string> params = boxParams;
          std::string t = islText(c->operands[0], p.dims, params) + " " + c->name + " " +
                          islText(c->operands[1], p.dims, params);
          if (box.is_subset(isl::union_set(ctx, paramPrefix(params) + "{ " + inner + " : " + t + " }")))
            continue;
          cond = cond ? binary("&&", cond, c) : c;
        }
      }
      return cond;
    };
    auto guarded = [&](const std::vector<Stmt> &stmts, const Expr &cond) {
      Stmt s = stmts.size() == 1 ? stmts[0] : block(stmts);
      return cond ? withLoc(ifThen(cond, s), s->loc) : s;
    };
    std::vector<Stmt> body;
    bool sameBody = p.a.body.size() == 1 && p.b.body.size() == 1 &&
                    print(p.a.body[0]) == print(p.b.body[0]);
    if (sameBody && domA.intersect(domB).is_empty()) {
      Expr ga = guard(p.a), gb = guard(p.b);
      Expr cond = both.is_equal(box) ? nullptr : ga && gb ? binary("||", ga, gb) : nullptr;
      if (!both.is_equal(box) && !cond) throw Decline("internal: the union is not the box but has no guard");
      body.push_back(guarded(p.a.body, cond));
      out.what = "one statement over the union" + std::string(cond ? " (guarded)" : ", which is the box");
    } else {
      body.push_back(guarded(p.a.body, guard(p.a)));
      body.push_back(guarded(p.b.body, guard(p.b)));
      out.what = std::string("each statement under its domain's guard") +
                 (sameBody ? " (the domains overlap)" : "");
    }
    Stmt nest = block(body);
    for (size_t k = d; k-- > 0;) {
      const Stmt &l = p.a.loops[k];
      nest = withLoc(forLoop(l->name, l->type, lo[k], hi[k], l->step, nest, l->loopKind), l->loc);
    }
    out.nest = nest;
  } catch (const isl::exception &e) {
    isl_ctx_free(raw);
    throw Decline(std::string("isl failed: ") + e.what());
  } catch (...) {
    isl_ctx_free(raw);
    throw;
  }
  isl_ctx_free(raw);
  return out;
}

// Pairs `s` (the nest after `prev`) with `prev` when both are perfect nests of one depth whose
// loops have the same types; `b`'s loop variables renamed to `a`'s.
std::optional<Pair> pairOf(const Stmt &prev, const Stmt &s) {
  std::optional<Nest> a = perfectNest(prev), b = perfectNest(s);
  if (!a || !b || a->loops.size() != b->loops.size()) return std::nullopt;
  Pair p{*a, *b, {}, {}};
  std::map<std::string, Expr> rename;
  for (size_t k = 0; k < a->loops.size(); ++k) {
    if (a->loops[k]->type != b->loops[k]->type) return std::nullopt;
    p.names.insert(a->loops[k]->name);
    p.dims[a->loops[k]->name] = "x" + std::to_string(k);
    rename[b->loops[k]->name] = var(a->loops[k]->name, a->loops[k]->type);
  }
  // A name of `a`'s loops read in `b` as something else would be captured.
  std::set<std::string> bNames;
  for (const Stmt &l : b->loops) bNames.insert(l->name);
  bool captured = false;
  visitStmt(s, nullptr, [&](const Expr &e) {
    for (const std::string &v : varsOf(e)) captured |= p.names.count(v) && !bNames.count(v);
  });
  if (captured) return std::nullopt;
  Stmt renamed = substitute(s, rename);
  // substitute leaves loop names: rebuild the loops with `a`'s.
  std::vector<Stmt> loops;
  Stmt cur = renamed;
  for (size_t k = 0; k < a->loops.size(); ++k) {
    std::vector<Stmt> inner = withoutComments(cur->body);
    loops.push_back(cur);
    if (k + 1 < a->loops.size()) cur = inner[0];
  }
  Stmt rebuilt = block(withoutComments(loops.back()->body));
  for (size_t k = loops.size(); k-- > 0;) {
    const Stmt &l = loops[k];
    rebuilt = withLoc(forLoop(a->loops[k]->name, l->type, l->min, l->end, l->step, rebuilt, l->loopKind), l->loc);
  }
  p.b = *perfectNest(rebuilt);
  return p;
}

// `root` with the node `old` replaced by `repl` (the nodes on the path rebuilt).
Stmt replaceStmt(const Stmt &root, const Stmt &old, const Stmt &repl) {
  if (!root) return root;
  if (root == old) return repl;
  auto n = std::make_shared<StmtNode>(*root);
  bool changed = false;
  for (Stmt &c : n->stmts) {
    Stmt r = replaceStmt(c, old, repl);
    changed |= r != c;
    c = r;
  }
  for (Stmt *c : {&n->body, &n->elseBody}) {
    Stmt r = replaceStmt(*c, old, repl);
    changed |= r != *c;
    *c = r;
  }
  return changed ? Stmt(n) : root;
}

}  // namespace

LaunchFusionResult fuseLaunches(const Kernel &fn, const LaunchShapeFn &shape) {
  LaunchFusionResult r{fn, {}};
  if (!fn.body) return r;
  // The function's shape, asked only once a pair is found (most functions have none).
  std::optional<LaunchShape> current;
  std::set<const StmtNode *> declined;  // first nests of pairs already tried and not fused
  std::vector<Stmt> keep;                // ... kept alive, so that no new node reuses an address
  // One pair at a time (a fused nest may pair with the next one), until none is fused.
  for (bool fused = true; fused;) {
    fused = false;
    std::vector<Stmt> hostLoops;
    std::function<void(const Stmt &)> visit = [&](const Stmt &s) {
      if (fused || !s) return;
      if (s->kind == StmtKind::For) {
        hostLoops.push_back(s);
        visit(s->body);
        hostLoops.pop_back();
        return;
      }
      if (s->kind == StmtKind::If) {
        visit(s->body);
        visit(s->elseBody);
        return;
      }
      if (s->kind != StmtKind::Block) return;
      const std::vector<Stmt> &stmts = s->stmts;
      for (size_t i = 0; i < stmts.size() && !fused; ++i) {
        size_t j = i + 1;
        while (j < stmts.size() && stmts[j]->kind == StmtKind::Comment) ++j;
        std::optional<Pair> p;
        if (j < stmts.size() && !declined.count(stmts[i].get())) p = pairOf(stmts[i], stmts[j]);
        if (!p) {
          visit(stmts[i]);
          continue;
        }
        std::string head = "loops '" + stmts[i]->name + "' (" + stmts[i]->loc.str() + ") and '" +
                           stmts[j]->name + "' (" + stmts[j]->loc.str() + "): ";
        auto decline = [&](const std::string &why) {
          r.remarks.push_back({stmts[i]->loc, head + "not fused: " + why});
          declined.insert(stmts[i].get());
          keep.push_back(stmts[i]);
        };
        if (!current) current = shape(r.kernel);
        if (!current->refusal.empty()) return;  // Outline refuses it as it is: left alone
        Fused f;
        try {
          f = fusePair(r.kernel, *p, hostLoops);
        } catch (const Decline &e) {
          decline(e.what());
          visit(stmts[i]);
          continue;
        }
        std::vector<Stmt> next = stmts;
        next.erase(next.begin() + long(i), next.begin() + long(j) + 1);
        next.insert(next.begin() + long(i), f.nest);
        Kernel c = r.kernel;
        c.body = replaceStmt(r.kernel.body, s, withLoc(block(next), s->loc));
        LaunchShape after = shape(c);
        if (!after.refusal.empty()) {
          decline("the fused nest could not be mapped: " + after.refusal);
        } else if (!fewerLaunches(after, *current)) {
          decline("Outline would not launch fewer kernels");
        } else {
          r.remarks.push_back({stmts[i]->loc, head + "fused into one launch, " + f.what});
          r.kernel = c;
          current = after;
          fused = true;
        }
      }
    };
    visit(r.kernel.body);
  }
  return r;
}

}  // namespace rtcuda
