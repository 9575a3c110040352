// The IR verifier (Verifier.h): one walk over the kernel with a scope stack, reporting every
// broken invariant with the node's location.
#include "rtcuda/IR/Verifier.h"

#include <algorithm>
#include <map>
#include <regex>

namespace rtcuda::ir {

namespace {

enum class SymKind { Scalar, Array, LoopVar };

struct Symbol {
  SymKind kind = SymKind::Scalar;
  size_t rank = 1;  // arrays: declared number of subscripts (parameters: their dims)
};

class Verifier {
public:
  explicit Verifier(const Kernel &k) : k_(k) {}

  std::vector<VerifierProblem> run() {
    frames_.emplace_back();
    for (const Param &p : k_.params) {
      if (frames_.back().count(p.name)) fail(p.loc, "parameter '" + p.name + "' is declared twice");
      frames_.back()[p.name] = {p.isArray ? SymKind::Array : SymKind::Scalar,
                                std::max<size_t>(1, p.dims.size())};
    }
    for (const DeviceBuffer &b : k_.buffers) frames_.back()[b.name] = {SymKind::Array, 1};
    for (const DeviceArray &a : k_.deviceArrays) frames_.back()[a.name] = {SymKind::Array, 1};
    if (!k_.body) fail(k_.loc, "kernel '" + k_.name + "' has no body");
    stmt(k_.body);
    // The finish statements read the body's top-level declarations until ParallelReduction
    // moves the ones they need into them; from then on they are a kernel of their own.
    frames_.resize(1);
    bool own = std::find(k_.passes.begin(), k_.passes.end(), "ParallelReduction") != k_.passes.end();
    if (!own && k_.body)
      for (const Stmt &s : k_.body->stmts)
        if (s->kind == StmtKind::Decl)
          frames_.back()[s->name] = {s->arraySize ? SymKind::Array : SymKind::Scalar, 1};
    stmt(k_.finish);
    return problems_;
  }

private:
  const Kernel &k_;
  std::vector<std::map<std::string, Symbol>> frames_;
  std::map<std::string, size_t> subscripts_;  // array -> subscripts of its first access
  int loopDepth_ = 0;
  std::vector<VerifierProblem> problems_;

  void fail(const SourceLoc &loc, const std::string &message) {
    problems_.push_back({loc, message});
  }

  const Symbol *lookup(const std::string &name) const {
    for (auto f = frames_.rbegin(); f != frames_.rend(); ++f) {
      auto it = f->find(name);
      if (it != f->end()) return &it->second;
    }
    return nullptr;
  }

  bool implicitName(const std::string &name) const {
    static const std::regex builtin(R"((threadIdx|blockIdx|blockDim|gridDim)\.[xyz]|warpSize)");
    if (std::regex_match(name, builtin)) return true;
    if (k_.batch.extent && name == k_.batch.var) return true;  // BatchBlocks declares it
    if (!k_.macroPrefix.empty() && name.rfind(k_.macroPrefix + "_", 0) == 0) return true;
    for (const TuningParam &t : k_.tuning)
      if (t.macro == name) return true;
    return false;
  }

  // BatchBlocks moves a sliced array parameter to its block's slice: `X += offset`.
  bool movesToSlice(const StmtNode &s) const {
    if (s.op != "+=") return false;
    for (const auto &slice : k_.batch.slices)
      if (slice.first == s.name) return true;
    return false;
  }

  void declare(const SourceLoc &loc, const std::string &name, Symbol sym) {
    if (name.empty()) return fail(loc, "declaration without a name");
    if (frames_.back().count(name))
      fail(loc, "'" + name + "' is declared twice in one scope");
    frames_.back()[name] = sym;
  }

  void access(const SourceLoc &loc, const std::string &array, size_t n) {
    const Symbol *s = lookup(array);
    if (!s) return fail(loc, "array '" + array + "' is used but not declared");
    if (s->kind != SymKind::Array) return fail(loc, "'" + array + "' is subscripted but is not an array");
    if (n == 0) return fail(loc, "access of array '" + array + "' without a subscript");
    if (n != s->rank && n != 1)
      fail(loc, "array '" + array + "' of rank " + std::to_string(s->rank) + " is accessed with " +
                    std::to_string(n) + " subscripts");
    auto [it, first] = subscripts_.emplace(array, n);
    if (!first && it->second != n)
      fail(loc, "array '" + array + "' is accessed with " + std::to_string(it->second) +
                    " and with " + std::to_string(n) + " subscripts");
  }

  void expr(const Expr &e, const SourceLoc &where) {
    if (!e) return fail(where, "missing expression");
    const SourceLoc &loc = e->loc.valid() ? e->loc : where;
    size_t arity = e->operands.size();
    auto want = [&](size_t n, const char *kind) {
      if (arity != n)
        fail(loc, std::string(kind) + " '" + e->name + "' has " + std::to_string(arity) +
                      " operand(s), not " + std::to_string(n));
    };
    switch (e->kind) {
    case ExprKind::IntImm: case ExprKind::FloatImm: want(0, "literal"); break;
    case ExprKind::Var:
      want(0, "variable");
      if (!lookup(e->name) && !implicitName(e->name))
        fail(loc, "variable '" + e->name + "' is used but not declared");
      break;
    case ExprKind::Load: access(loc, e->name, arity); break;
    case ExprKind::Unary: want(1, "unary operator"); break;
    case ExprKind::Binary: want(2, "binary operator"); break;
    case ExprKind::Select: want(3, "select"); break;
    case ExprKind::Cast: want(1, "cast"); break;
    case ExprKind::Call:
      if (e->name.empty()) fail(loc, "call without a function name");
      break;
    }
    for (const Expr &op : e->operands) expr(op, loc);
  }

  // Statements of `s` in the current frame (a loop body's block shares its loop's scope).
  void stmtsInFrame(const Stmt &s) {
    if (s && s->kind == StmtKind::Block)
      for (const Stmt &c : s->stmts) stmt(c);
    else
      stmt(s);
  }

  void scoped(const Stmt &s) {
    frames_.emplace_back();
    stmtsInFrame(s);
    frames_.pop_back();
  }

  void stmt(const Stmt &s) {
    if (!s) return;
    const SourceLoc &loc = s->loc.valid() ? s->loc : k_.loc;
    if (s->kind != StmtKind::For && s->loopKind != LoopKind::Serial)
      fail(loc, std::string("loop kind '") + loopKindName(s->loopKind) +
                    "' on a statement that is not a loop");
    switch (s->kind) {
    case StmtKind::Block: scoped(s); break;
    case StmtKind::For: {
      expr(s->min, loc);
      expr(s->end, loc);
      // Passes step by tile depths and macros (k += depth); a constant step is not zero.
      int64_t step = 0;
      expr(s->step, loc);
      if (s->step && isConst(s->step, &step) && step == 0)
        fail(loc, "loop '" + s->name + "' has step 0");
      if (const Symbol *outer = lookup(s->name); outer && outer->kind == SymKind::LoopVar)
        fail(loc, "loop variable '" + s->name + "' is the variable of an enclosing loop");
      if (!s->body) fail(loc, "loop '" + s->name + "' has no body");
      frames_.emplace_back();
      declare(loc, s->name, {SymKind::LoopVar, 1});
      ++loopDepth_;
      stmtsInFrame(s->body);
      --loopDepth_;
      frames_.pop_back();
      break;
    }
    case StmtKind::While:
      expr(s->cond, loc);
      if (!s->body) fail(loc, "while loop without a body");
      ++loopDepth_;
      scoped(s->body);
      --loopDepth_;
      break;
    case StmtKind::If:
      expr(s->cond, loc);
      if (!s->body) fail(loc, "if without a body");
      scoped(s->body);
      if (s->elseBody) scoped(s->elseBody);
      break;
    case StmtKind::Decl:
      if (s->value) expr(s->value, loc);
      if (s->arraySize) expr(s->arraySize, loc);
      declare(loc, s->name, {s->arraySize ? SymKind::Array : SymKind::Scalar, 1});
      break;
    case StmtKind::Assign: {
      expr(s->value, loc);
      const Symbol *target = lookup(s->name);
      if (!target && !implicitName(s->name))
        fail(loc, "variable '" + s->name + "' is assigned but not declared");
      else if (target && target->kind == SymKind::Array && !movesToSlice(*s))
        fail(loc, "array '" + s->name + "' is assigned as a scalar");
      else if (target && target->kind == SymKind::LoopVar)
        fail(loc, "loop variable '" + s->name + "' is assigned in its loop");
      break;
    }
    case StmtKind::Store:
      access(loc, s->name, s->indices.size());
      for (const Expr &i : s->indices) expr(i, loc);
      expr(s->value, loc);
      break;
    case StmtKind::Break: case StmtKind::Continue:
      if (loopDepth_ == 0) fail(loc, "break or continue outside a loop");
      break;
    case StmtKind::Barrier: case StmtKind::Comment: break;
    }
  }
};

}  // namespace

std::vector<VerifierProblem> verifyKernel(const Kernel &k) { return Verifier(k).run(); }

}  // namespace rtcuda::ir
