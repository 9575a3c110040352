// Fission (loop distribution): a loop whose body holds statements of different parallel
// structure becomes several loops, one per structure, so that each can run as well as it can
// (PolyBench's atax):
//
//   for (i = 0; i < m; i++) {               for (i = 0; i < m; i++) {      // parallel
//     tmp[i] = 0;                             tmp[i] = 0;
//     for (j = 0; j < n; j++)                 for (j = 0; j < n; j++)
//       tmp[i] += A[i][j] * x[j];     ==>       tmp[i] += A[i][j] * x[j];
//     for (j = 0; j < n; j++)               }
//       y[j] += A[i][j] * tmp[i];           for (j = 0; j < n; j++)         // parallel
//   }                                         for (i = 0; i < m; i++)       // no atomics
//                                               y[j] += A[i][j] * tmp[i];
//
// Each loop's statements (inner loops first distributed the same way, bicg's `j`) are cut
// where the cut is legal: no access of the statements before the cut at iteration x and one of
// the statements after it at y < x touch one element, one of them writing (isl,
// orderedDependence). The pieces are grouped by what the loop carries for them: nothing
// (parallel), only updates with one commutative operator (parallel with atomics), or more
// (serial); a piece joins an earlier group of its kind when it touches nothing of the groups
// between. A group whose loop still carries updates and is one loop `j` is interchanged when
// `j` outside then carries nothing. Kept only when some loop got a better kind than the loop
// as written (it adds parallelism or removes atomics). Runs on the kernel function before
// Outline, which makes each new loop a kernel of its own; docs/passes/Fission.md.
#include "rtcuda/Transforms/Fission.h"

#include "rtcuda/Analysis/Dependence.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/Transforms/Pass.h"

#include <set>

namespace rtcuda {

using namespace ir;

namespace {

// What a loop carries, worst first.
enum class Kind { Serial, Atomic, Free };

const char *kindText(Kind k) {
  return k == Kind::Free ? "parallel" : k == Kind::Atomic ? "parallel with atomic updates"
                                                          : "serial";
}

std::string at(const Stmt &loop) { return "loop '" + loop->name + "' (" + loop->loc.str() + ")"; }

Stmt withBody(const Stmt &loop, std::vector<Stmt> stmts) {
  auto copy = std::make_shared<StmtNode>(*loop);
  copy->body = withLoc(block(std::move(stmts)), loop->body ? loop->body->loc : loop->loc);
  return copy;
}

// One statement of a distributed body; `origin` is the inner loop it was cut from (null: a
// statement of the body as written).
struct Piece {
  Stmt stmt;
  const StmtNode *origin = nullptr;
};

// Whether `s` uses the scalar or local array `name` (a declaration before a cut must not be
// used after it: the piece after would have none).
bool mentionsName(const Stmt &s, const std::string &name) {
  bool found = false;
  visitStmt(s,
            [&](const Stmt &n) {
              found |= n->name == name &&
                       (n->kind == StmtKind::Assign || n->kind == StmtKind::Store);
            },
            [&](const Expr &e) {
              visitExpr(e, [&](const Expr &x) {
                found |= x->name == name && (x->kind == ExprKind::Var || x->kind == ExprKind::Load);
              });
            });
  return found;
}

class Distributor {
public:
  explicit Distributor(const Kernel &fn) : fn(fn) {}
  std::vector<std::pair<SourceLoc, std::string>> remarks;

  // `loop` (under the host loops `path`) as one or more loops; `changed` when it is not the
  // loop as written.
  std::vector<Stmt> distributeTop(const std::vector<Stmt> &path, const Stmt &loop, bool &changed) {
    changed = false;
    Kind before = kindOf(path, loop);
    if (before == Kind::Free) return splitNest(path, loop, changed);
    std::vector<std::pair<SourceLoc, std::string>> notes;
    std::vector<std::vector<Piece>> groups = split(path, loop, notes);
    std::vector<Stmt> loops;
    std::vector<Kind> kinds;
    std::vector<std::string> swaps;
    bool better = false;
    for (const std::vector<Piece> &g : groups) {
      Stmt l = withBody(loop, rejoin(g));
      Kind k = kindOf(path, l);
      if (k != Kind::Free)
        if (Stmt swapped = interchanged(path, l, k, swaps)) l = swapped, k = Kind::Free;
      better |= k > before;
      loops.push_back(l);
      kinds.push_back(k);
    }
    if (!better) {
      for (const auto &n : notes) remark(n.first, n.second);
      return {loop};
    }
    changed = true;
    std::string text = at(loop) + " (" + kindText(before) + ") distributed into " +
                       std::to_string(loops.size()) + " loop(s): ";
    for (size_t i = 0; i < loops.size(); ++i)
      text += std::string(i ? ", " : "") + "loop '" + loops[i]->name + "' " + kindText(kinds[i]);
    if (loops.size() > 1)
      remark(loop->loc, text + "; no statement depends on a later one in an earlier "
                               "iteration of loop '" + loop->name + "'");
    for (const std::string &s : swaps) remark(loop->loc, s);
    return loops;
  }

  // What `loop` (under `path`) carries.
  Kind kindOf(const std::vector<Stmt> &path, const Stmt &loop) {
    std::vector<Stmt> loops = probe(path, loop);
    Kind k = Kind::Free;
    for (const Dependence &d : carriedDependences(fn, loops)) {
      if (d.level != int(path.size())) continue;
      if (d.failed || !d.commutative) return Kind::Serial;
      k = Kind::Atomic;
    }
    return k;
  }

private:
  const Kernel &fn;
  std::set<std::string> said;

  // A parallel loop whose body is statements without loops around one parallel loop
  // (correlation: `corr[i][i] = 1; for j ...`): the statements go into loops of their own,
  // so that the two loops are one perfect parallel nest. Kept when both cuts are legal and
  // the inner loop's trip count is not a constant below 32 (then one more launch would not
  // pay for itself).
  std::vector<Stmt> splitNest(const std::vector<Stmt> &path, const Stmt &loop, bool &changed) {
    changed = false;
    std::vector<Piece> pieces;
    std::vector<size_t> inner;
    int64_t step = 0;
    if (!reorderBlocker(loop).empty() || !isConst(loop->step, &step) || step <= 0)
      return {loop};
    for (const Stmt &s : statementsOf(loop->body)) {
      if (s->kind == StmtKind::Comment) continue;
      bool nested = false;
      visitStmt(s, [&](const Stmt &n) {
        nested |= n->kind == StmtKind::For || n->kind == StmtKind::While;
      });
      if (s->kind == StmtKind::For) inner.push_back(pieces.size());
      else if (nested || s->kind == StmtKind::Decl) return {loop};
      pieces.push_back({s, nullptr});
    }
    if (inner.empty() || pieces.size() < 2) return {loop};
    std::vector<Stmt> nestPath = path;
    auto parallel = [&](const Stmt &j) {
      nestPath.resize(path.size());
      nestPath.push_back(withBody(loop, {j}));
      return reorderBlocker(j).empty() && kindOf(nestPath, j) == Kind::Free;
    };
    // The one inner loop that becomes the nest; other inner loops only when they walk down
    // columns (gramschmidt's column sum before its column update): fused, a block then holds
    // just 32 iterations of `loop` and the parallel loop after it only the block's warps.
    size_t pos = inner[0];
    if (inner.size() > 1) {
      std::vector<size_t> free;
      for (size_t at : inner)
        if (parallel(pieces[at].stmt)) free.push_back(at);
        else if (!walksDownColumns(pieces[at].stmt, loop->name)) return {loop};
      if (free.size() != 1) return {loop};
      pos = free[0];
    }
    const Stmt &j = pieces[pos].stmt;
    int64_t lo = 0, hi = 0;
    if (isConst(j->min, &lo) && isConst(j->end, &hi) && hi - lo < 32) return {loop};
    if (!parallel(j)) return {loop};
    std::vector<Stmt> loops = probe(path, withBody(loop, stmtsOf(pieces)));
    for (size_t cut : {pos, pos + 1}) {
      if (cut == 0 || cut == pieces.size()) continue;
      std::string why = cutBlocker(loops, pieces, cut);
      if (!why.empty()) {
        remark(loop->loc, at(loop) + " not distributed before " + describe(pieces[cut].stmt) +
                              ": " + why);
        return {loop};
      }
    }
    std::vector<Stmt> out;
    std::vector<Piece> before(pieces.begin(), pieces.begin() + pos);
    std::vector<Piece> after(pieces.begin() + pos + 1, pieces.end());
    if (!before.empty()) out.push_back(withBody(loop, stmtsOf(before)));
    out.push_back(withBody(loop, {j}));
    if (!after.empty()) out.push_back(withBody(loop, stmtsOf(after)));
    changed = true;
    remark(loop->loc, at(loop) + " distributed into " + std::to_string(out.size()) +
                          " loops: its statements outside " + at(j) + " in loops of their "
                          "own, so that loops '" + loop->name + "' and '" + j->name +
                          "' are one parallel nest; no statement depends on a later one in an "
                          "earlier iteration of loop '" + loop->name + "'");
    return out;
  }


  // Whether `inner` reads some array down a column: `outer` is the last subscript of the load
  // and `inner`'s variable is in an earlier one (neighbouring iterations of `outer` read
  // neighbouring elements, each iteration of `inner` a row further).
  static bool walksDownColumns(const Stmt &inner, const std::string &outer) {
    bool found = false;
    visitStmt(inner->body, nullptr, [&](const Expr &e) {
      visitExpr(e, [&](const Expr &n) {
        if (n->kind != ExprKind::Load || n->operands.size() < 2) return;
        if (!isVar(n->operands.back(), outer)) return;
        for (size_t d = 0; d + 1 < n->operands.size(); ++d)
          found |= mentions(n->operands[d], inner->name);
      });
    });
    return found;
  }

  // Each remark once (a serial loop's inner loops are looked at again on their own).
  void remark(const SourceLoc &loc, const std::string &text) {
    if (said.insert(text).second) remarks.push_back({loc, text});
  }

  // Copies of the host loops `path`, each holding only the next, around `loop`: the nest the
  // dependence analysis takes (loops[0] holds the others).
  static std::vector<Stmt> probe(const std::vector<Stmt> &path, const Stmt &loop) {
    std::vector<Stmt> loops{loop};
    Stmt inner = loop;
    for (size_t i = path.size(); i-- > 0;) {
      inner = withBody(path[i], {inner});
      loops.insert(loops.begin(), inner);
    }
    return loops;
  }

  // The statements of `loop`'s body, distributed, grouped by kind (each group one loop's body).
  std::vector<std::vector<Piece>> split(const std::vector<Stmt> &path, const Stmt &loop,
                                        std::vector<std::pair<SourceLoc, std::string>> &notes) {
    std::vector<Piece> pieces;
    // The cuts' test orders iterations by the loop variable: a positive constant step.
    int64_t step = 0;
    if (!reorderBlocker(loop).empty() || !isConst(loop->step, &step) || step <= 0) {
      for (const Stmt &s : statementsOf(loop->body)) pieces.push_back({s, nullptr});
      return {pieces};
    }
    std::vector<Stmt> inner = path;
    inner.push_back(loop);
    for (const Stmt &s : statementsOf(loop->body)) {
      if (s->kind == StmtKind::Comment) continue;
      if (s->kind != StmtKind::For) {
        pieces.push_back({s, nullptr});
        continue;
      }
      std::vector<std::vector<Piece>> sub = split(inner, s, notes);
      for (const std::vector<Piece> &g : sub)
        pieces.push_back({sub.size() > 1 ? withBody(s, rejoin(g)) : s, sub.size() > 1 ? s.get() : nullptr});
    }
    if (pieces.size() < 2) return {pieces};
    Stmt whole = withBody(loop, stmtsOf(pieces));
    std::vector<Stmt> loops = probe(path, whole);
    // Runs of pieces between the legal cuts: each must stay in one loop.
    std::vector<std::vector<Piece>> runs{{pieces[0]}};
    for (size_t cut = 1; cut < pieces.size(); ++cut) {
      std::string why = cutBlocker(loops, pieces, cut);
      if (!why.empty()) {
        notes.push_back({loop->loc, at(loop) + " not distributed before " +
                                        describe(pieces[cut].stmt) + ": " + why});
        runs.back().push_back(pieces[cut]);
      } else {
        runs.push_back({pieces[cut]});
      }
    }
    // Group the runs by kind; a run may join an earlier group of its kind when it shares
    // nothing written with the groups between (it then runs before them).
    std::vector<std::vector<Piece>> groups;
    std::vector<Kind> kinds;
    for (const std::vector<Piece> &run : runs) {
      Kind k = kindOf(path, withBody(loop, stmtsOf(run)));
      bool placed = false;
      for (size_t g = groups.size(); g-- > 0 && !placed;) {
        if (kinds[g] == k) {
          std::vector<Piece> merged = groups[g];
          merged.insert(merged.end(), run.begin(), run.end());
          if (kindOf(path, withBody(loop, stmtsOf(merged))) == k) {
            groups[g] = merged;
            placed = true;
            break;
          }
        }
        if (conflict(path, loop, groups[g], run)) break;
      }
      if (!placed) groups.push_back(run), kinds.push_back(k);
    }
    return groups;
  }

  static std::vector<Stmt> stmtsOf(const std::vector<Piece> &pieces) {
    std::vector<Stmt> out;
    for (const Piece &p : pieces) out.push_back(p.stmt);
    return out;
  }

  // The group's statements, with neighbouring pieces of one inner loop joined back into it.
  static std::vector<Stmt> rejoin(const std::vector<Piece> &group) {
    std::vector<Stmt> out;
    for (size_t i = 0; i < group.size(); ++i) {
      if (!group[i].origin || i == 0 || group[i - 1].origin != group[i].origin) {
        out.push_back(group[i].stmt);
        continue;
      }
      std::vector<Stmt> body = statementsOf(out.back()->body);
      for (const Stmt &s : statementsOf(group[i].stmt->body)) body.push_back(s);
      out.back() = withBody(out.back(), body);
    }
    return out;
  }

  static std::string describe(const Stmt &s) {
    if (s->kind == StmtKind::For) return at(s);
    return "'" + shortText(s) + "' (" + s->loc.str() + ")";
  }

  static std::string shortText(const Stmt &s) {
    std::string t = print(s, PrintMode::C);
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    size_t nl = t.find('\n');
    return nl == std::string::npos ? t : t.substr(0, nl) + " ...";
  }

  // Why the body of loops.back() may not be cut before pieces[cut]; empty when it may.
  std::string cutBlocker(const std::vector<Stmt> &loops, const std::vector<Piece> &pieces,
                         size_t cut) {
    std::vector<Stmt> before, after;
    for (size_t i = 0; i < pieces.size(); ++i) (i < cut ? before : after).push_back(pieces[i].stmt);
    for (const Stmt &s : before)
      if (s->kind == StmtKind::Decl)
        for (const Stmt &t : after)
          if (mentionsName(t, s->name))
            return "'" + s->name + "', declared before, is used after";
    // Bodies in the probe: the accesses are found by statement, under loops.back().
    std::vector<Stmt> inProbe = statementsOf(loops.back()->body);
    Stmt first = block(std::vector<Stmt>(inProbe.begin(), inProbe.begin() + cut));
    Stmt second = block(std::vector<Stmt>(inProbe.begin() + cut, inProbe.end()));
    size_t d = loops.size() - 1;
    std::string order = sameIterationsOrder(d) + "x" + std::to_string(d) + " > y" + std::to_string(d);
    std::optional<Dependence> dep = orderedDependence(
        fn, loops, first, second, order, "in a later iteration of loop '" + loops.back()->name + "'");
    if (!dep) return "";
    return dep->failed ? dep->message : "the dependence analysis found " + dep->message;
  }

  // Whether `run` touches an element that `group` touches, one of them writing, in any
  // iterations (then it may not move before the group).
  bool conflict(const std::vector<Stmt> &path, const Stmt &loop, const std::vector<Piece> &group,
                const std::vector<Piece> &run) {
    std::vector<Piece> both = group;
    both.insert(both.end(), run.begin(), run.end());
    std::vector<Stmt> loops = probe(path, withBody(loop, stmtsOf(both)));
    std::vector<Stmt> inProbe = statementsOf(loops.back()->body);
    Stmt first = block(std::vector<Stmt>(inProbe.begin(), inProbe.begin() + group.size()));
    Stmt second = block(std::vector<Stmt>(inProbe.begin() + group.size(), inProbe.end()));
    std::string x = "x" + std::to_string(path.size()), y = "y" + std::to_string(path.size());
    std::string order = sameIterationsOrder(path.size()) + "(" + x + " <= " + y + " or " + x +
                        " > " + y + ")";
    return orderedDependence(fn, loops, first, second, order, "").has_value();
  }

  // `l` (a loop whose body is one loop `j`) with `j` outside, when that is legal and `j` then
  // carries nothing; null otherwise.
  Stmt interchanged(const std::vector<Stmt> &path, const Stmt &l, Kind k,
                    std::vector<std::string> &swaps) {
    std::vector<Stmt> body = statementsOf(l->body);
    if (body.size() != 1 || body[0]->kind != StmtKind::For) return nullptr;
    Stmt j = body[0];
    int64_t so = 0, si = 0;
    if (!isConst(l->step, &so) || !isConst(j->step, &si) || so <= 0 || si <= 0) return nullptr;
    if (mentions(j->min, l->name) || mentions(j->end, l->name)) return nullptr;
    if (!reorderBlocker(l).empty() || !reorderBlocker(j).empty()) return nullptr;
    std::vector<Stmt> loops = probe(path, l);
    loops.push_back(statementsOf(loops.back()->body)[0]);
    size_t d = path.size();
    std::string xo = "x" + std::to_string(d), yo = "y" + std::to_string(d);
    std::string xi = "x" + std::to_string(d + 1), yi = "y" + std::to_string(d + 1);
    std::string order = sameIterationsOrder(d) + xo + " < " + yo + " and " + xi + " > " + yi;
    if (orderedDependence(fn, loops, loops[d], loops[d], order, "")) return nullptr;
    auto newInner = std::make_shared<StmtNode>(*l);
    newInner->body = j->body;
    Stmt outer = withBody(j, {Stmt(newInner)});
    if (kindOf(path, outer) != Kind::Free) return nullptr;
    swaps.push_back(at(l) + " and " + at(j) + " interchanged after distribution: loop '" +
                    j->name + "' outside is " + kindText(Kind::Free) + ", loop '" + l->name +
                    "' outside was " + kindText(k));
    return outer;
  }
};

// Distributes the loops of `stmts` (under the host loops `path`); loops that stay serial as a
// whole are looked into, as Outline keeps them on the host.
std::vector<Stmt> distributeSeq(Distributor &d, const std::vector<Stmt> &stmts,
                                std::vector<Stmt> &path, bool &any) {
  std::vector<Stmt> out;
  for (const Stmt &s : stmts) {
    if (s->kind != StmtKind::For) {
      out.push_back(s);
      continue;
    }
    bool changed = false;
    std::vector<Stmt> loops = d.distributeTop(path, s, changed);
    if (changed) {
      any = true;
      out.insert(out.end(), loops.begin(), loops.end());
      continue;
    }
    // Its own scalars and jumps do not matter here: the loop stays as written around its
    // inner loops, each of which is checked on its own (gramschmidt's `k` sets `nrm`).
    if (d.kindOf(path, s) == Kind::Serial) {
      path.push_back(s);
      bool inner = false;
      std::vector<Stmt> body = distributeSeq(d, statementsOf(s->body), path, inner);
      path.pop_back();
      if (inner) {
        any = true;
        out.push_back(withBody(s, body));
        continue;
      }
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

FissionResult distributeLoops(const Kernel &fn) {
  FissionResult r{fn, {}};
  if (!fn.body) return r;
  Distributor d(fn);
  std::vector<Stmt> path;
  bool any = false;
  std::vector<Stmt> body = distributeSeq(d, statementsOf(fn.body), path, any);
  if (any) r.kernel.body = withLoc(block(body), fn.body->loc);
  r.remarks = d.remarks;
  return r;
}

}  // namespace rtcuda
