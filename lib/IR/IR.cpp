#include "rtcuda/IR/IR.h"

#include <map>

namespace rtcuda::ir {

bool Type::isInteger() const { return !isFloat() && kind != ScalarKind::Void; }

bool Type::isSigned() const {
  switch (kind) {
  case ScalarKind::UChar: case ScalarKind::UShort: case ScalarKind::UInt:
  case ScalarKind::ULong: case ScalarKind::ULongLong: case ScalarKind::Bool:
    return false;
  default:
    return true;
  }
}

int Type::bytes() const {
  switch (kind) {
  case ScalarKind::Void: return 0;
  case ScalarKind::Bool: case ScalarKind::Char: case ScalarKind::SChar: case ScalarKind::UChar:
    return 1;
  case ScalarKind::Short: case ScalarKind::UShort: return 2;
  case ScalarKind::Int: case ScalarKind::UInt: case ScalarKind::Float: return 4;
  default: return 8;
  }
}

static const std::map<ScalarKind, std::string> &typeNames() {
  static const std::map<ScalarKind, std::string> names = {
      {ScalarKind::Void, "void"},           {ScalarKind::Bool, "bool"},
      {ScalarKind::Char, "char"},           {ScalarKind::SChar, "signed char"},
      {ScalarKind::UChar, "unsigned char"}, {ScalarKind::Short, "short"},
      {ScalarKind::UShort, "unsigned short"}, {ScalarKind::Int, "int"},
      {ScalarKind::UInt, "unsigned int"},   {ScalarKind::Long, "long"},
      {ScalarKind::ULong, "unsigned long"}, {ScalarKind::LongLong, "long long"},
      {ScalarKind::ULongLong, "unsigned long long"}, {ScalarKind::Float, "float"},
      {ScalarKind::Double, "double"}};
  return names;
}

std::string Type::cName() const { return typeNames().at(kind); }

Type Type::fromName(const std::string &name, bool *ok) {
  for (const auto &[kind, text] : typeNames())
    if (text == name) {
      if (ok) *ok = true;
      return Type{kind};
    }
  if (name == "unsigned") {
    if (ok) *ok = true;
    return Type{ScalarKind::UInt};
  }
  if (ok) *ok = false;
  return Type{};
}

std::string SourceLoc::str() const {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const char *loopKindName(LoopKind k) {
  switch (k) {
  case LoopKind::Serial: return "serial";
  case LoopKind::Parallel: return "parallel";
  case LoopKind::Collapsed: return "collapsed";
  case LoopKind::Block: return "block";
  case LoopKind::Thread: return "thread";
  case LoopKind::Merge: return "merge";
  case LoopKind::Skew: return "skew";
  case LoopKind::Tile: return "tile";
  case LoopKind::Unrolled: return "unrolled";
  }
  return "?";
}

// ---- expression builders ------------------------------------------------------------------

static std::shared_ptr<ExprNode> makeExpr(ExprKind kind, Type t) {
  auto e = std::make_shared<ExprNode>();
  e->kind = kind;
  e->type = t;
  return e;
}

Expr intImm(int64_t v, Type t) {
  auto e = makeExpr(ExprKind::IntImm, t);
  e->intValue = v;
  return e;
}

Expr floatImm(double v, Type t, const std::string &spelling) {
  auto e = makeExpr(ExprKind::FloatImm, t);
  e->floatValue = v;
  e->spelling = spelling;
  return e;
}

Expr var(const std::string &name, Type t) {
  auto e = makeExpr(ExprKind::Var, t);
  e->name = name;
  return e;
}

Expr load(const std::string &array, std::vector<Expr> indices, Type elem) {
  auto e = makeExpr(ExprKind::Load, elem);
  e->name = array;
  e->operands = std::move(indices);
  return e;
}

Expr unary(const std::string &op, Expr a) {
  Type t = op == "!" ? Type::of(ScalarKind::Int) : a->type;
  auto e = makeExpr(ExprKind::Unary, t);
  e->name = op;
  e->operands = {std::move(a)};
  return e;
}

// The usual arithmetic conversions, enough for typing the expressions passes build.
static Type promote(Type a, Type b) {
  if (a.kind == ScalarKind::Double || b.kind == ScalarKind::Double) return Type::of(ScalarKind::Double);
  if (a.kind == ScalarKind::Float || b.kind == ScalarKind::Float) return Type::of(ScalarKind::Float);
  Type wider = a.bytes() >= b.bytes() ? a : b;
  if (wider.bytes() < 4) return Type::of(ScalarKind::Int);
  return wider;
}

Expr binary(const std::string &op, Expr a, Expr b) {
  Type t = isComparisonOrLogical(op) ? Type::of(ScalarKind::Int) : promote(a->type, b->type);
  auto e = makeExpr(ExprKind::Binary, t);
  e->name = op;
  e->operands = {std::move(a), std::move(b)};
  return e;
}

Expr select(Expr c, Expr a, Expr b) {
  auto e = makeExpr(ExprKind::Select, promote(a->type, b->type));
  e->operands = {std::move(c), std::move(a), std::move(b)};
  return e;
}

Expr call(const std::string &fn, std::vector<Expr> args, Type t) {
  auto e = makeExpr(ExprKind::Call, t);
  e->name = fn;
  e->operands = std::move(args);
  return e;
}

Expr cast(Type t, Expr a) {
  auto e = makeExpr(ExprKind::Cast, t);
  e->operands = {std::move(a)};
  return e;
}

Expr withLoc(Expr e, const SourceLoc &loc) {
  auto copy = std::make_shared<ExprNode>(*e);
  copy->loc = loc;
  return copy;
}

bool isConst(const Expr &e, int64_t *value) {
  if (!e || e->kind != ExprKind::IntImm) return false;
  if (value) *value = e->intValue;
  return true;
}

bool isComparisonOrLogical(const std::string &op) {
  return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" ||
         op == "&&" || op == "||";
}

Expr add(Expr a, Expr b) {
  int64_t x, y;
  if (isConst(a, &x) && isConst(b, &y)) return intImm(x + y, promote(a->type, b->type));
  if (isConst(b, &y) && y == 0) return a;
  if (isConst(a, &x) && x == 0) return b;
  return binary("+", a, b);
}

Expr sub(Expr a, Expr b) {
  int64_t x, y;
  if (isConst(a, &x) && isConst(b, &y)) return intImm(x - y, promote(a->type, b->type));
  if (isConst(b, &y) && y == 0) return a;
  return binary("-", a, b);
}

Expr mul(Expr a, Expr b) {
  int64_t x, y;
  if (isConst(a, &x) && isConst(b, &y)) return intImm(x * y, promote(a->type, b->type));
  if (isConst(b, &y) && y == 1) return a;
  if (isConst(a, &x) && x == 1) return b;
  return binary("*", a, b);
}

Expr div(Expr a, Expr b) {
  int64_t x, y;
  if (isConst(a, &x) && isConst(b, &y) && y != 0) return intImm(x / y, promote(a->type, b->type));
  if (isConst(b, &y) && y == 1) return a;
  return binary("/", a, b);
}

Expr mod(Expr a, Expr b) {
  int64_t x, y;
  if (isConst(a, &x) && isConst(b, &y) && y != 0) return intImm(x % y, promote(a->type, b->type));
  return binary("%", a, b);
}

Expr lt(Expr a, Expr b) { return binary("<", a, b); }
Expr land(Expr a, Expr b) { return binary("&&", a, b); }

// ---- statement builders -------------------------------------------------------------------

static std::shared_ptr<StmtNode> makeStmt(StmtKind kind) {
  auto s = std::make_shared<StmtNode>();
  s->kind = kind;
  return s;
}

Stmt block(std::vector<Stmt> stmts) {
  auto s = makeStmt(StmtKind::Block);
  s->stmts = std::move(stmts);
  return s;
}

Stmt forLoop(const std::string &v, Type t, Expr min, Expr end, Expr step, Stmt body,
             LoopKind kind) {
  auto s = makeStmt(StmtKind::For);
  s->name = v;
  s->type = t;
  s->min = std::move(min);
  s->end = std::move(end);
  s->step = std::move(step);
  s->body = std::move(body);
  s->loopKind = kind;
  return s;
}

Stmt whileLoop(Expr cond, Stmt body) {
  auto s = makeStmt(StmtKind::While);
  s->cond = std::move(cond);
  s->body = std::move(body);
  return s;
}

Stmt ifThen(Expr cond, Stmt then, Stmt otherwise) {
  auto s = makeStmt(StmtKind::If);
  s->cond = std::move(cond);
  s->body = std::move(then);
  s->elseBody = std::move(otherwise);
  return s;
}

Stmt decl(const std::string &name, Type t, Expr init, Expr arraySize) {
  auto s = makeStmt(StmtKind::Decl);
  s->name = name;
  s->type = t;
  s->value = std::move(init);
  s->arraySize = std::move(arraySize);
  return s;
}

Stmt assign(const std::string &name, const std::string &op, Expr value) {
  auto s = makeStmt(StmtKind::Assign);
  s->name = name;
  s->op = op;
  s->value = std::move(value);
  return s;
}

Stmt store(const std::string &array, std::vector<Expr> indices, const std::string &op,
           Expr value) {
  auto s = makeStmt(StmtKind::Store);
  s->name = array;
  s->indices = std::move(indices);
  s->op = op;
  s->value = std::move(value);
  return s;
}

Stmt barrier() { return makeStmt(StmtKind::Barrier); }

Stmt comment(const std::string &text) {
  auto s = makeStmt(StmtKind::Comment);
  s->text = text;
  return s;
}

Stmt withLoc(Stmt s, const SourceLoc &loc) {
  auto copy = std::make_shared<StmtNode>(*s);
  copy->loc = loc;
  return copy;
}

Expr tripCount(const Stmt &loop) {
  int64_t step = 1;
  isConst(loop->step, &step);
  if (step > 0) {
    Expr span = sub(loop->end, loop->min);
    return step == 1 ? span : div(add(span, intImm(step - 1)), intImm(step));
  }
  Expr span = sub(loop->min, loop->end);
  return step == -1 ? span : div(add(span, intImm(-step - 1)), intImm(-step));
}

const Param *Kernel::findParam(const std::string &n) const {
  for (const Param &p : params)
    if (p.name == n) return &p;
  return nullptr;
}

}  // namespace rtcuda::ir
