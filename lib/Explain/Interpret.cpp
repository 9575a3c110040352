#include "Interpret.h"

#include <cmath>
#include <optional>

namespace rtcuda::explain {

namespace {

using namespace ir;

struct Value {
  bool isFloat = false;
  long long i = 0;
  double f = 0;
  double num() const { return isFloat ? f : double(i); }
  bool truth() const { return isFloat ? f != 0 : i != 0; }
};

Value intValue(long long v) { return Value{false, v, 0}; }
Value floatValue(double v) { return Value{true, 0, v}; }

// The operators integers and floating point share (a division by zero gives 0); none else.
template <typename T>
std::optional<Value> arithmetic(const std::string &op, T x, T y, Value (*make)(T)) {
  if (op == "+") return make(x + y);
  if (op == "-") return make(x - y);
  if (op == "*") return make(x * y);
  if (op == "/") return make(y == 0 ? T(0) : x / y);
  if (op == "<") return intValue(x < y);
  if (op == "<=") return intValue(x <= y);
  if (op == ">") return intValue(x > y);
  if (op == ">=") return intValue(x >= y);
  if (op == "==") return intValue(x == y);
  if (op == "!=") return intValue(x != y);
  return std::nullopt;
}

enum class Flow { Normal, Break, Continue, Stop };

// One thread's run of the kernel body; blocks share `shared`.
class Thread {
public:
  Thread(const MappingRequest &req, MappingRun &run, ThreadId id,
         std::map<std::string, std::map<long long, Value>> &shared, bool recordStaging)
      : req(req), run(run), id(id), shared(shared), recordStaging(recordStaging) {
    for (const Param &p : req.kernel->params) (p.isArray ? arrays : scalars).insert(p.name);
    scopes.emplace_back();
  }

  void go() {
    if (exec(req.kernel->body) == Flow::Stop) note("a thread ran more than the step limit; the picture may be incomplete");
  }

private:
  const MappingRequest &req;
  MappingRun &run;
  ThreadId id;
  std::map<std::string, std::map<long long, Value>> &shared;
  bool recordStaging;
  std::set<std::string> arrays, scalars;
  std::vector<std::map<std::string, Value>> scopes;
  std::map<std::string, std::map<long long, Value>> local;
  std::set<std::string> localArrays;
  long long steps = 0;
  int barriers = 0;
  bool staging = false;  // evaluating the value stored into a shared array

  void note(const std::string &n) {
    for (const std::string &x : run.notes)
      if (x == n) return;
    run.notes.push_back(n);
  }

  Value *find(const std::string &name) {
    for (size_t s = scopes.size(); s-- > 0;) {
      auto it = scopes[s].find(name);
      if (it != scopes[s].end()) return &it->second;
    }
    return nullptr;
  }

  Value builtin(const std::string &name, bool &ok) {
    ok = true;
    if (name == "threadIdx.x") return intValue(id.thread);
    if (name == "threadIdx.y" || name == "threadIdx.z" || name == "blockIdx.z") return intValue(0);
    if (name == "blockIdx.x") return intValue(id.block[0]);
    if (name == "blockIdx.y") return intValue(id.block[1]);
    if (name == "blockDim.x") return intValue(run.threads);
    if (name == "blockDim.y" || name == "blockDim.z" || name == "gridDim.z") return intValue(1);
    if (name == "gridDim.x") return intValue(run.blocks[0]);
    if (name == "gridDim.y") return intValue(run.blocks[1]);
    auto it = req.ints.find(name);
    if (it != req.ints.end()) return intValue(it->second);
    ok = false;
    return intValue(0);
  }

  std::map<long long, Value> *arrayOf(const std::string &name) {
    if (localArrays.count(name)) return &local[name];
    if (shared.count(name)) return &shared[name];
    return nullptr;
  }

  long long flatIndex(const std::vector<Expr> &indices, const std::string &array) {
    long long flat = 0;
    // Multi-dimensional subscripts of the kernel's arrays: only their identity matters here.
    for (const Expr &x : indices) flat = flat * 1000003 + eval(x).i;
    (void)array;
    return flat;
  }

  Value call(const Expr &e) {
    std::vector<Value> a;
    for (const Expr &o : e->operands) a.push_back(eval(o));
    const std::string &f = e->name;
    if (a.size() == 2 && (f == "min" || f == "max" || f == "rtcuda_min" || f == "rtcuda_max" ||
                          f == "llmin")) {
      bool fl = a[0].isFloat || a[1].isFloat;
      bool lo = (f == "min" || f == "rtcuda_min" || f == "llmin") == (a[0].num() < a[1].num());
      const Value &v = lo ? a[0] : a[1];
      return fl ? floatValue(v.num()) : v;
    }
    if (a.size() == 2 && (f == "fminf" || f == "fmin")) return floatValue(std::fmin(a[0].num(), a[1].num()));
    if (a.size() == 2 && (f == "fmaxf" || f == "fmax")) return floatValue(std::fmax(a[0].num(), a[1].num()));
    if (a.size() == 1 && (f == "abs" || f == "llabs" || f == "labs")) return intValue(std::llabs(a[0].i));
    if (a.size() == 1 && (f == "fabsf" || f == "fabs")) return floatValue(std::fabs(a[0].num()));
    if (a.size() == 1 && (f == "sqrtf" || f == "sqrt")) return floatValue(std::sqrt(std::fabs(a[0].num())));
    note("calls of '" + f + "' were taken as 0");
    return e->type.isFloat() ? floatValue(0) : intValue(0);
  }

  Value binary(const std::string &op, const Value &a, const Value &b) {
    if (op == "&&") return intValue(a.truth() && b.truth());
    if (op == "||") return intValue(a.truth() || b.truth());
    if (a.isFloat || b.isFloat) {
      std::optional<Value> v = arithmetic(op, a.num(), b.num(), floatValue);
      return v ? *v : floatValue(0);
    }
    long long x = a.i, y = b.i;
    if (std::optional<Value> v = arithmetic(op, x, y, intValue)) return *v;
    if (op == "%") return intValue(y == 0 ? 0 : x % y);
    if (op == "&") return intValue(x & y);
    if (op == "|") return intValue(x | y);
    if (op == "^") return intValue(x ^ y);
    if (op == "<<") return intValue(y >= 0 && y < 63 ? x << y : 0);
    if (op == ">>") return intValue(y >= 0 && y < 63 ? x >> y : 0);
    return intValue(0);
  }

  Value eval(const Expr &e) {
    switch (e->kind) {
    case ExprKind::IntImm: return intValue(e->intValue);
    case ExprKind::FloatImm: return floatValue(e->floatValue);
    case ExprKind::Var: {
      if (Value *v = find(e->name)) return *v;
      bool ok;
      Value v = builtin(e->name, ok);
      if (!ok && scalars.count(e->name)) {
        auto it = req.ints.find(e->name);
        return it != req.ints.end() ? intValue(it->second) : floatValue(1);
      }
      if (!ok) note("variable '" + e->name + "' had no value; taken as 0");
      return v;
    }
    case ExprKind::Load: {
      if (auto *arr = arrayOf(e->name)) {
        auto it = arr->find(flatIndex(e->operands, e->name));
        return it == arr->end() ? intValue(0) : it->second;
      }
      long long index = e->operands.size() == 1 ? eval(e->operands[0]).i
                                                : flatIndex(e->operands, e->name);
      if (staging && recordStaging && arrays.count(e->name))
        run.staged.push_back({e->name, index, barriers});
      return e->type.isFloat() ? floatValue(1) : intValue(1);
    }
    case ExprKind::Unary: {
      Value a = eval(e->operands[0]);
      if (e->name == "-") return a.isFloat ? floatValue(-a.f) : intValue(-a.i);
      if (e->name == "!") return intValue(!a.truth());
      if (e->name == "~") return intValue(~a.i);
      return a;
    }
    case ExprKind::Binary: return binary(e->name, eval(e->operands[0]), eval(e->operands[1]));
    case ExprKind::Select:
      return eval(e->operands[0]).truth() ? eval(e->operands[1]) : eval(e->operands[2]);
    case ExprKind::Call: return call(e);
    case ExprKind::Cast: {
      Value a = eval(e->operands[0]);
      if (e->type.isFloat()) return floatValue(a.num());
      return intValue(a.isFloat ? (long long)a.f : a.i);
    }
    }
    return intValue(0);
  }

  void record(unsigned line) {
    if (!req.bodyLines.count(line)) return;
    std::vector<long long> at;
    for (const std::string &v : req.loopVars) {
      Value *x = find(v);
      if (!x) return;
      at.push_back(x->i);
    }
    run.iterations[at].insert(id);
  }

  Flow execBlock(const std::vector<Stmt> &stmts) {
    scopes.emplace_back();
    Flow f = Flow::Normal;
    for (const Stmt &s : stmts)
      if ((f = exec(s)) != Flow::Normal) break;
    scopes.pop_back();
    return f;
  }

  Flow exec(const Stmt &s) {
    if (!s) return Flow::Normal;
    if (++steps > 2000000) return Flow::Stop;
    switch (s->kind) {
    case StmtKind::Block: return execBlock(s->stmts);
    case StmtKind::For: {
      scopes.emplace_back();
      Value v = eval(s->min);
      scopes.back()[s->name] = v;
      long long step = eval(s->step).i;
      Flow f = Flow::Normal;
      while (true) {
        Value cur = scopes.back()[s->name];
        Value end = eval(s->end);
        if (!(step > 0 ? cur.num() < end.num() : cur.num() > end.num())) break;
        f = exec(s->body);
        if (f == Flow::Stop) break;
        if (f == Flow::Break) { f = Flow::Normal; break; }
        f = Flow::Normal;
        Value &c = scopes.back()[s->name];
        c.i += step;
        if (++steps > 2000000) { f = Flow::Stop; break; }
      }
      scopes.pop_back();
      return f;
    }
    case StmtKind::While: {
      while (eval(s->cond).truth()) {
        Flow f = exec(s->body);
        if (f == Flow::Stop) return f;
        if (f == Flow::Break) break;
        if (++steps > 2000000) return Flow::Stop;
      }
      return Flow::Normal;
    }
    case StmtKind::If:
      return eval(s->cond).truth() ? exec(s->body) : exec(s->elseBody);
    case StmtKind::Decl:
      if (s->arraySize) {
        long long n = eval(s->arraySize).i;
        if (s->shared) {
          if (recordStaging) run.sharedArrays[s->name] = n;
          shared[s->name];
        } else {
          localArrays.insert(s->name);
          local[s->name].clear();
        }
      } else {
        Value v = s->value ? eval(s->value) : intValue(0);
        if (s->type.isFloat()) v = floatValue(v.num());
        else if (v.isFloat) v = intValue((long long)v.f);
        scopes.back()[s->name] = v;
      }
      return Flow::Normal;
    case StmtKind::Assign: {
      Value v = eval(s->value);
      Value *x = find(s->name);
      if (x) *x = s->op == "=" ? v : binary(s->op.substr(0, s->op.size() - 1), *x, v);
      record(s->loc.line);
      return Flow::Normal;
    }
    case StmtKind::Store: {
      auto *arr = arrayOf(s->name);
      staging = arr && shared.count(s->name) && !localArrays.count(s->name);
      Value v = eval(s->value);
      staging = false;
      if (arr) {
        long long at = flatIndex(s->indices, s->name);
        (*arr)[at] = v;
      } else {
        for (const Expr &x : s->indices) eval(x);
        record(s->loc.line);
      }
      return Flow::Normal;
    }
    case StmtKind::Barrier: ++barriers; return Flow::Normal;
    case StmtKind::Break: return Flow::Break;
    case StmtKind::Continue: return Flow::Continue;
    case StmtKind::Comment: return Flow::Normal;
    }
    return Flow::Normal;
  }
};

}  // namespace

bool evalInt(const Expr &e, const std::map<std::string, long long> &ints, long long &out) {
  if (!e) return false;
  switch (e->kind) {
  case ExprKind::IntImm: out = e->intValue; return true;
  case ExprKind::Var: {
    auto it = ints.find(e->name);
    if (it == ints.end()) return false;
    out = it->second;
    return true;
  }
  case ExprKind::Cast: return !e->type.isFloat() && evalInt(e->operands[0], ints, out);
  case ExprKind::Unary: {
    long long a;
    if (!evalInt(e->operands[0], ints, a)) return false;
    out = e->name == "-" ? -a : e->name == "!" ? !a : e->name == "~" ? ~a : a;
    return true;
  }
  case ExprKind::Select: {
    long long c, a, b;
    if (!evalInt(e->operands[0], ints, c) || !evalInt(e->operands[1], ints, a) ||
        !evalInt(e->operands[2], ints, b))
      return false;
    out = c ? a : b;
    return true;
  }
  case ExprKind::Call: {
    long long a, b;
    if (e->operands.size() != 2 || !evalInt(e->operands[0], ints, a) ||
        !evalInt(e->operands[1], ints, b))
      return false;
    if (e->name == "min" || e->name == "rtcuda_min" || e->name == "llmin") out = std::min(a, b);
    else if (e->name == "max" || e->name == "rtcuda_max") out = std::max(a, b);
    else return false;
    return true;
  }
  case ExprKind::Binary: {
    long long a, b;
    if (!evalInt(e->operands[0], ints, a) || !evalInt(e->operands[1], ints, b)) return false;
    const std::string &op = e->name;
    if (op == "+") out = a + b;
    else if (op == "-") out = a - b;
    else if (op == "*") out = a * b;
    else if (op == "/") out = b ? a / b : 0;
    else if (op == "%") out = b ? a % b : 0;
    else if (op == "<") out = a < b;
    else if (op == "<=") out = a <= b;
    else if (op == ">") out = a > b;
    else if (op == ">=") out = a >= b;
    else if (op == "==") out = a == b;
    else if (op == "!=") out = a != b;
    else if (op == "&&") out = a && b;
    else if (op == "||") out = a || b;
    else return false;
    return true;
  }
  default: return false;
  }
}

MappingRun runMapping(const MappingRequest &req) {
  MappingRun run;
  const Kernel &k = *req.kernel;
  for (size_t d = 0; d < k.grid.size() && d < 2; ++d) {
    long long iterations = 0, perBlock = 1;
    if (!evalInt(k.grid[d].iterations, req.ints, iterations) ||
        !evalInt(k.grid[d].perBlock, req.ints, perBlock) || perBlock <= 0) {
      run.notes.push_back("the grid could not be computed for this size");
      return run;
    }
    run.blocks[d] = std::max(0LL, std::min<long long>((iterations + perBlock - 1) / perBlock, k.grid[d].maxBlocks));
  }
  if (k.blockThreads && !evalInt(k.blockThreads, req.ints, run.threads)) {
    run.notes.push_back("the block size could not be computed");
    return run;
  }
  if (run.blocks[0] * run.blocks[1] * run.threads > req.maxThreads) {
    run.notes.push_back("too many threads to draw (" +
                        std::to_string(run.blocks[0] * run.blocks[1] * run.threads) + ")");
    return run;
  }
  for (long long by = 0; by < run.blocks[1]; ++by)
    for (long long bx = 0; bx < run.blocks[0]; ++bx) {
      std::map<std::string, std::map<long long, Value>> shared;
      for (long long t = 0; t < run.threads; ++t) {
        ThreadId id;
        id.block[0] = bx, id.block[1] = by, id.thread = t;
        Thread thread(req, run, id, shared, bx == 0 && by == 0);
        thread.go();
      }
    }
  // Staging rounds: the barrier count at the load, renumbered 1, 2, ... in order.
  std::map<int, int> rounds;
  for (const StagedElement &s : run.staged) rounds[s.round] = 0;
  int n = 0;
  for (auto &r : rounds) r.second = ++n;
  for (StagedElement &s : run.staged) s.round = rounds[s.round];
  return run;
}

}  // namespace rtcuda::explain
