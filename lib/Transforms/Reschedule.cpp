// Reschedule: a new order for a loop nest whose source order keeps its parallel work inside two
// or more sequential loops, computed by isl's scheduler as PPCG does (PolyBench's lu, the
// left-looking form: every (i, j) waits for the one before, 2 launches per (i, j)):
//
//   for (i = 0; i < n; i++) {                       for (c0 = 0; c0 < n - 1; c0++) { // host
//     for (j = 0; j < i; j++) {                       for (c1 = c0 + 1; c1 < n; c1++)
//       for (k = 0; k < j; k++)                         A[c1][c0] /= A[c0][c0];
//         A[i][j] -= A[i][k] * A[k][j];      ==>      for (c1 = c0 + 2; c1 < n; c1++)
//       A[i][j] /= A[j][j];                             for (c2 = c0 + 1; c2 < c1; c2++)
//     }                                                   A[c1][c2] -= A[c1][c0] * A[c0][c2];
//     for (j = i; j < n; j++)                         for (c1 = c0 + 1; c1 < n; c1++)
//       for (k = 0; k < i; k++)                         for (c2 = c1; c2 < n; c2++)
//         A[i][j] -= A[i][k] * A[k][j];                   A[c1][c2] -= A[c1][c0] * A[c0][c2];
//   }                                               }   // 3 launches per c0 (right-looking)
//
// The nest's polyhedral model (ScheduleModel.cpp: domains, reads, writes, source order) gives
// the dependences (isl's dataflow analysis: flow, anti and output); the schedule respects all
// of them (validity), with coincidence and proximity on the same dependences and isl's
// outer-coincidence and maximize-coincidence options, as PPCG asks for GPU code. isl's AST
// generator turns it into loops and guards; each statement is the original store with its loop
// variables replaced by isl's expressions. The result replaces the nest only when Fission and
// Outline then launch fewer kernels at the deepest host-loop level. docs/passes/Reschedule.md.
#include "rtcuda/Transforms/Reschedule.h"

#include "rtcuda/Analysis/ScheduleModel.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/flow.h>
#include <isl/id.h>
#include <isl/options.h>
#include <isl/schedule.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#include <map>
#include <set>
#include <stdexcept>

namespace rtcuda {

using namespace ir;

namespace {

// Why a schedule or its code could not be had: becomes the remark.
struct Decline : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int loopDepth(const Stmt &s) {
  if (!s) return 0;
  int inner = 0;
  for (const Stmt &c : s->stmts) inner = std::max(inner, loopDepth(c));
  inner = std::max({inner, loopDepth(s->body), loopDepth(s->elseBody)});
  return inner + (s->kind == StmtKind::For || s->kind == StmtKind::While ? 1 : 0);
}

// Whether `s` reads one of `vars` other than as the variable of a loop of its own (the nest's
// loop variables end with other values, or none, once it is rescheduled).
bool readsUnbound(const Stmt &s, std::set<std::string> vars) {
  if (!s) return false;
  if (s->kind == StmtKind::For) {
    for (const Expr &e : {s->min, s->end, s->step})
      if (e && mentionsAny(e, vars)) return true;
    vars.erase(s->name);
    return readsUnbound(s->body, vars);
  }
  for (const Expr &e : {s->cond, s->value, s->arraySize, s->min, s->end, s->step})
    if (e && mentionsAny(e, vars)) return true;
  for (const Expr &e : s->indices)
    if (mentionsAny(e, vars)) return true;
  for (const Stmt &c : s->stmts)
    if (readsUnbound(c, vars)) return true;
  return readsUnbound(s->body, vars) || readsUnbound(s->elseBody, vars);
}

std::string islError(isl_ctx *ctx) {
  const char *msg = isl_ctx_last_error_msg(ctx);
  return msg ? msg : isl_ctx_last_error(ctx) == isl_error_quota ? "too many operations"
                                                                 : "unknown error";
}

// Owns an isl object of one type for the length of a scope.
template <typename T, T *(*Copy)(T *), T *(*Free)(T *)> struct Own {
  T *p = nullptr;
  explicit Own(T *p = nullptr) : p(p) {}
  Own(const Own &) = delete;
  Own &operator=(const Own &) = delete;
  ~Own() { if (p) Free(p); }
  T *copy() const { return Copy(p); }
  T *release() { T *r = p; p = nullptr; return r; }
};
using UMap = Own<isl_union_map, isl_union_map_copy, isl_union_map_free>;
using USet = Own<isl_union_set, isl_union_set_copy, isl_union_set_free>;
using AstExpr = Own<isl_ast_expr, isl_ast_expr_copy, isl_ast_expr_free>;
using AstNode = Own<isl_ast_node, isl_ast_node_copy, isl_ast_node_free>;

// isl's AST -> the IR: loops, guards and the model's statements with their loop variables
// replaced by the expressions isl gives for them.
class Builder {
public:
  Builder(const Kernel &fn, const NestModel &model, Type loopType, SourceLoc loc)
      : fn(fn), model(model), loopType(loopType), loc(loc) {}

  Stmt node(isl_ast_node *n) {
    switch (isl_ast_node_get_type(n)) {
    case isl_ast_node_for: return forNode(n);
    case isl_ast_node_if: {
      AstExpr c(isl_ast_node_if_get_cond(n));
      AstNode t(isl_ast_node_if_get_then_node(n));
      Stmt then = node(t.p), otherwise;
      if (isl_ast_node_if_has_else_node(n) == isl_bool_true) {
        AstNode e(isl_ast_node_if_get_else_node(n));
        otherwise = node(e.p);
      }
      return withLoc(ifThen(expr(c.p), then, otherwise), loc);
    }
    case isl_ast_node_block: {
      isl_ast_node_list *list = isl_ast_node_block_get_children(n);
      std::vector<Stmt> stmts;
      for (isl_size i = 0, e = isl_ast_node_list_n_ast_node(list); i < e; ++i) {
        AstNode c(isl_ast_node_list_get_at(list, i));
        Stmt s = node(c.p);
        if (s->kind == StmtKind::Block) stmts.insert(stmts.end(), s->stmts.begin(), s->stmts.end());
        else stmts.push_back(s);
      }
      isl_ast_node_list_free(list);
      return withLoc(block(stmts), loc);
    }
    case isl_ast_node_mark: {
      AstNode c(isl_ast_node_mark_get_node(n));
      return node(c.p);
    }
    case isl_ast_node_user: {
      AstExpr c(isl_ast_node_user_get_expr(n));
      return user(c.p);
    }
    default: throw Decline("isl's code for the new order holds a node the IR cannot express");
    }
  }

private:
  const Kernel &fn;
  const NestModel &model;
  Type loopType;
  SourceLoc loc;

  Stmt forNode(isl_ast_node *n) {
    AstExpr it(isl_ast_node_for_get_iterator(n)), init(isl_ast_node_for_get_init(n));
    AstNode b(isl_ast_node_for_get_body(n));
    std::string name = idName(it.p);
    Stmt body = node(b.p);
    if (isl_ast_node_for_is_degenerate(n) == isl_bool_true)
      return substitute(body, std::map<std::string, Expr>{{name, expr(init.p)}});
    AstExpr cond(isl_ast_node_for_get_cond(n)), inc(isl_ast_node_for_get_inc(n));
    int64_t step = 0;
    if (!isConst(expr(inc.p), &step) || step <= 0)
      throw Decline("isl's loop '" + name + "' has no constant positive step");
    if (isl_ast_expr_get_type(cond.p) != isl_ast_expr_op || isl_ast_expr_op_get_n_arg(cond.p) != 2)
      throw Decline("isl's loop '" + name + "' has a condition that is not one comparison");
    isl_ast_expr_op_type op = isl_ast_expr_op_get_type(cond.p);
    AstExpr lhs(isl_ast_expr_op_get_arg(cond.p, 0)), rhs(isl_ast_expr_op_get_arg(cond.p, 1));
    if (isl_ast_expr_get_type(lhs.p) != isl_ast_expr_id || idName(lhs.p) != name ||
        (op != isl_ast_expr_op_lt && op != isl_ast_expr_op_le))
      throw Decline("isl's loop '" + name + "' has a condition that is not an upper bound");
    Expr end = expr(rhs.p);
    if (op == isl_ast_expr_op_le) end = add(end, intImm(1, end->type));
    return withLoc(forLoop(name, loopType, expr(init.p), end, intImm(step, loopType), body), loc);
  }

  static std::string idName(isl_ast_expr *e) {
    isl_id *id = isl_ast_expr_id_get_id(e);
    std::string s = id ? isl_id_get_name(id) : "";
    isl_id_free(id);
    return s;
  }

  // A statement instance S<k>(L0, ..., Ld): the store with its loop variables replaced.
  Stmt user(isl_ast_expr *call) {
    AstExpr target(isl_ast_expr_op_get_arg(call, 0));
    std::string name = idName(target.p);
    for (const ModelStatement &s : model.statements) {
      if (s.name != name) continue;
      if (isl_ast_expr_op_get_n_arg(call) != isl_size(s.loops.size() + 1))
        throw Decline("isl's call of " + name + " has the wrong number of arguments");
      std::map<std::string, Expr> values;
      for (size_t d = 0; d < s.loops.size(); ++d) {
        AstExpr a(isl_ast_expr_op_get_arg(call, int(d + 1)));
        Expr v = expr(a.p);
        values[s.loops[d]->name] = v->type == s.loops[d]->type ? v : cast(s.loops[d]->type, v);
      }
      return substitute(s.stmt, values);
    }
    throw Decline("isl's code calls an unknown statement '" + name + "'");
  }

  Expr scalar(const std::string &name) {
    if (const Param *p = fn.findParam(name)) return var(name, p->type);
    for (const Stmt &s : fn.body->stmts)
      if (s->kind == StmtKind::Decl && s->name == name) return var(name, s->type);
    return var(name, loopType);  // an iterator of the new nest
  }

  Expr expr(isl_ast_expr *e) {
    switch (isl_ast_expr_get_type(e)) {
    case isl_ast_expr_int: {
      isl_val *v = isl_ast_expr_get_val(e);
      bool fits = isl_val_is_int(v) == isl_bool_true;
      long value = fits ? isl_val_get_num_si(v) : 0;
      isl_val_free(v);
      if (!fits) throw Decline("isl's code holds a constant that is not an integer");
      return intImm(value, loopType);
    }
    case isl_ast_expr_id: {
      std::string name = idName(e);
      if (name.rfind("P_", 0) == 0) return scalar(name.substr(2));
      if (name.rfind("Q_", 0) == 0) {  // a product of parameters: Q_P_a_x_P_b
        Expr product;
        std::string rest = name.substr(2);
        for (size_t at = 0; at < rest.size();) {
          size_t next = rest.find("_x_", at);
          std::string atom = rest.substr(at, next == std::string::npos ? std::string::npos : next - at);
          Expr factor = scalar(atom.substr(2));
          product = product ? mul(product, factor) : factor;
          at = next == std::string::npos ? rest.size() : next + 3;
        }
        return product;
      }
      return scalar(name);
    }
    case isl_ast_expr_op: return op(e);
    default: throw Decline("isl's code holds an expression the IR cannot express");
    }
  }

  Expr op(isl_ast_expr *e) {
    std::vector<Expr> args;
    for (isl_size i = 0, n = isl_ast_expr_op_get_n_arg(e); i < n; ++i) {
      AstExpr a(isl_ast_expr_op_get_arg(e, i));
      args.push_back(expr(a.p));
    }
    auto binaryOp = [&](const std::string &o) { return binary(o, args.at(0), args.at(1)); };
    switch (isl_ast_expr_op_get_type(e)) {
    case isl_ast_expr_op_and:
    case isl_ast_expr_op_and_then: return binaryOp("&&");
    case isl_ast_expr_op_or:
    case isl_ast_expr_op_or_else: return binaryOp("||");
    case isl_ast_expr_op_max:
    case isl_ast_expr_op_min: {
      bool isMin = isl_ast_expr_op_get_type(e) == isl_ast_expr_op_min;
      Expr r = args.at(0);
      for (size_t i = 1; i < args.size(); ++i)
        r = select(binary(isMin ? "<" : ">", r, args[i]), r, args[i]);
      return r;
    }
    case isl_ast_expr_op_minus: return unary("-", args.at(0));
    case isl_ast_expr_op_add: return binaryOp("+");
    case isl_ast_expr_op_sub: return binaryOp("-");
    case isl_ast_expr_op_mul: return binaryOp("*");
    case isl_ast_expr_op_div:     // exact: C's truncation gives it
    case isl_ast_expr_op_pdiv_q:  // the dividend is not negative
      return binaryOp("/");
    case isl_ast_expr_op_pdiv_r:
    case isl_ast_expr_op_zdiv_r: return binaryOp("%");
    case isl_ast_expr_op_fdiv_q: {
      // Floor of a / d for a positive constant d, which C's division truncates.
      int64_t d = 0;
      if (!isConst(args.at(1), &d) || d <= 0)
        throw Decline("isl's code divides by something other than a positive constant");
      Expr a = args[0];
      return select(binary("<", a, intImm(0, a->type)),
                    binary("/", binary("-", a, intImm(d - 1, a->type)), args[1]), binary("/", a, args[1]));
    }
    case isl_ast_expr_op_cond:
    case isl_ast_expr_op_select: return select(args.at(0), args.at(1), args.at(2));
    case isl_ast_expr_op_eq: return binaryOp("==");
    case isl_ast_expr_op_le: return binaryOp("<=");
    case isl_ast_expr_op_lt: return binaryOp("<");
    case isl_ast_expr_op_ge: return binaryOp(">=");
    case isl_ast_expr_op_gt: return binaryOp(">");
    default: throw Decline("isl's code holds an operation the IR cannot express");
    }
  }
};

// Names no variable of the function uses: c0, c1, ... or, if one is taken, rs_c0, ...
std::vector<std::string> freshIterators(const Kernel &fn, size_t count) {
  std::set<std::string> taken;
  for (const Param &p : fn.params) taken.insert(p.name);
  visitStmt(fn.body, [&](const Stmt &s) { taken.insert(s->name); },
            [&](const Expr &e) { for (const std::string &v : varsOf(e)) taken.insert(v); });
  for (const std::string prefix : {"c", "rs_c", "rtcuda_c"}) {
    std::vector<std::string> names;
    for (size_t i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
    bool free = true;
    for (const std::string &n : names) free &= !taken.count(n);
    if (free) return names;
  }
  throw Decline("no free names for the new loops");
}

// The nest in isl's order: the statements of the block that replaces it.
std::vector<Stmt> reschedule(const Kernel &fn, const Stmt &nest, const NestModel &model) {
  isl_ctx *ctx = isl_ctx_alloc();
  isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(ctx, 20000000);
  isl_options_set_schedule_outer_coincidence(ctx, 1);
  isl_options_set_schedule_maximize_coincidence(ctx, 1);
  std::vector<Stmt> out;
  std::string failure;
  {
    USet domain(isl_union_set_read_from_str(ctx, model.domain.c_str()));
    UMap reads(isl_union_map_read_from_str(ctx, model.reads.c_str()));
    UMap writes(isl_union_map_read_from_str(ctx, model.writes.c_str()));
    UMap order(isl_union_map_read_from_str(ctx, model.schedule.c_str()));
    if (domain.p && reads.p && writes.p && order.p) {
      reads.p = isl_union_map_intersect_domain(reads.p, domain.copy());
      writes.p = isl_union_map_intersect_domain(writes.p, domain.copy());
      order.p = isl_union_map_intersect_domain(order.p, domain.copy());
      // Flow dependences (a write to a later read of its value), then anti and output ones
      // (a read or write to a later write of the element): all must keep their order.
      isl_union_access_info *flow = isl_union_access_info_from_sink(reads.copy());
      flow = isl_union_access_info_set_must_source(flow, writes.copy());
      flow = isl_union_access_info_set_schedule_map(flow, order.copy());
      isl_union_flow *f = isl_union_access_info_compute_flow(flow);
      UMap dep(isl_union_flow_get_may_dependence(f));
      isl_union_flow_free(f);
      isl_union_access_info *fals = isl_union_access_info_from_sink(writes.copy());
      fals = isl_union_access_info_set_must_source(fals, writes.copy());
      fals = isl_union_access_info_set_may_source(fals, reads.copy());
      fals = isl_union_access_info_set_schedule_map(fals, order.copy());
      f = isl_union_access_info_compute_flow(fals);
      dep.p = isl_union_map_union(dep.p, isl_union_flow_get_may_dependence(f));
      isl_union_flow_free(f);
      dep.p = isl_union_map_coalesce(dep.p);
      isl_schedule_constraints *sc = isl_schedule_constraints_on_domain(domain.copy());
      sc = isl_schedule_constraints_set_validity(sc, dep.copy());
      sc = isl_schedule_constraints_set_coincidence(sc, dep.copy());
      sc = isl_schedule_constraints_set_proximity(sc, dep.copy());
      isl_schedule *schedule = dep.p ? isl_schedule_constraints_compute_schedule(sc)
                                     : (isl_schedule_constraints_free(sc), nullptr);
      if (schedule) {
        int depth = 0;
        for (const ModelStatement &s : model.statements) depth = std::max(depth, int(s.loops.size()));
        isl_ast_build *build = isl_ast_build_alloc(ctx);
        try {
          std::vector<std::string> fresh = freshIterators(fn, size_t(2 * depth + 2));
          isl_id_list *names = isl_id_list_alloc(ctx, int(fresh.size()));
          for (const std::string &n : fresh) names = isl_id_list_add(names, isl_id_alloc(ctx, n.c_str(), nullptr));
          build = isl_ast_build_set_iterators(build, names);
          AstNode root(isl_ast_build_node_from_schedule(build, schedule));
          schedule = nullptr;
          if (!root.p) {
            failure = "isl could not generate code for its schedule: " + islError(ctx);
          } else {
            Builder b(fn, model, nest->type, nest->loc);
            Stmt s = b.node(root.p);
            out = s->kind == StmtKind::Block ? s->stmts : std::vector<Stmt>{s};
          }
        } catch (const Decline &d) {
          failure = d.what();
        }
        if (schedule) isl_schedule_free(schedule);
        isl_ast_build_free(build);
      } else {
        failure = "isl found no schedule: " + islError(ctx);
      }
    } else {
      failure = "isl could not read the model: " + islError(ctx);
    }
  }
  isl_ctx_free(ctx);
  if (!failure.empty()) throw Decline(failure);
  return out;
}

std::string shapeText(const LaunchShape &s) {
  std::string t;
  for (size_t d = s.byDepth.size(); d-- > 0;)
    if (s.byDepth[d])
      t += (t.empty() ? "" : ", ") + std::to_string(s.byDepth[d]) + " inside " +
           std::to_string(d) + " host loop" + (d == 1 ? "" : "s");
  if (t.empty()) t = "no launches";
  if (s.serialKernels)
    t += " (" + std::to_string(s.serialKernels) + " kernel(s) running loops in one thread)";
  return t;
}

}  // namespace

// Fewer launches at the deepest host-loop level (and none deeper), and no more kernels that
// run loops in one thread (a skewed order can leave the parallel work there).
bool fewerLaunches(const LaunchShape &now, const LaunchShape &before) {
  if (now.serialKernels > before.serialKernels) return false;
  const std::vector<int> &a = now.byDepth, &b = before.byDepth;
  for (size_t d = std::max(a.size(), b.size()); d-- > 0;) {
    int x = d < a.size() ? a[d] : 0, y = d < b.size() ? b[d] : 0;
    if (x != y) return x < y;
  }
  return false;
}

RescheduleResult rescheduleNests(const Kernel &fn, const LaunchShapeFn &shape) {
  RescheduleResult r{fn, {}};
  if (!fn.body) return r;
  std::vector<size_t> candidates;
  for (size_t i = 0; i < fn.body->stmts.size(); ++i)
    if (fn.body->stmts[i]->kind == StmtKind::For && loopDepth(fn.body->stmts[i]) >= 3)
      candidates.push_back(i);
  if (candidates.empty()) return r;
  LaunchShape current = shape(fn);
  if (!current.refusal.empty() || current.byDepth.size() < 3) return r;  // none inside two host loops
  for (size_t i : candidates) {
    const Stmt &nest = r.kernel.body->stmts[i];
    std::string head = "loop '" + nest->name + "' (" + nest->loc.str() + "): ";
    std::string before = "launches " + shapeText(current);
    std::set<std::string> vars;
    visitStmt(nest, [&](const Stmt &s) { if (s->kind == StmtKind::For) vars.insert(s->name); });
    bool usedOutside = false;
    for (size_t j = 0; j < r.kernel.body->stmts.size(); ++j)
      if (j != i) usedOutside |= readsUnbound(r.kernel.body->stmts[j], vars);
    if (usedOutside) {
      r.remarks.push_back({nest->loc, head + "not rescheduled (" + before + "): the function uses "
                                            "its loop variables outside it"});
      continue;
    }
    NestModel model = nestModel(r.kernel, nest);
    if (!model.failure.empty()) {
      r.remarks.push_back({nest->loc, head + "not rescheduled (" + before + "): no exact "
                                            "polyhedral model: " + model.failure});
      continue;
    }
    std::vector<Stmt> stmts;
    try {
      stmts = reschedule(r.kernel, nest, model);
    } catch (const Decline &d) {
      r.remarks.push_back({nest->loc, head + "not rescheduled (" + before + "): " + d.what()});
      continue;
    }
    Kernel candidate = r.kernel;
    std::vector<Stmt> body = r.kernel.body->stmts;
    body.erase(body.begin() + long(i));
    body.insert(body.begin() + long(i), stmts.begin(), stmts.end());
    candidate.body = withLoc(block(body), r.kernel.body->loc);
    LaunchShape after = shape(candidate);
    if (!after.refusal.empty()) {
      r.remarks.push_back({nest->loc, head + "not rescheduled (" + before + "): isl's order " +
                                          "could not be mapped: " + after.refusal});
      continue;
    }
    if (!fewerLaunches(after, current)) {
      r.remarks.push_back({nest->loc, head + "not rescheduled: isl's order launches " +
                                          shapeText(after) + ", no better than the source's " +
                                          before});
      continue;
    }
    r.remarks.push_back({nest->loc, head + "rescheduled with isl (" + std::to_string(model.statements.size()) +
                                        " statements): " + before + " before, " + shapeText(after) +
                                        " after"});
    r.kernel = candidate;
    current = after;
    // Later candidates moved by the statements this nest became.
    for (size_t &j : candidates)
      if (j > i) j += stmts.size() - 1;
  }
  return r;
}

}  // namespace rtcuda
