// Clang AST → kernel IR. Each kernel function becomes an ir::Kernel whose body is the
// function body as written (loops still serial); the analyses and passes decide the rest.
// Anything the IR cannot express faithfully is an error at the user's line, never a guess.
#include "rtcuda/Frontend/ClangParse.h"
#include "rtcuda/Support/Files.h"
#include "rtcuda/Frontend/Frontend.h"
#include "rtcuda/Frontend/SingleSource.h"
#include "rtcuda/IR/Simplify.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>
#include <clang/Lex/Lexer.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace rtcuda {

namespace {

using namespace clang;

class KernelBuilder {
public:
  KernelBuilder(ASTContext &ctx, std::string file, const std::vector<LegacyView> &views,
                std::set<unsigned> &parallelPragmas)
      : ctx(ctx), sm(ctx.getSourceManager()), file(std::move(file)), views(views),
        parallelPragmas(parallelPragmas) {}

  ir::Kernel build(const FunctionDecl *fn) {
    ir::Kernel k;
    k.name = fn->getNameAsString();
    k.loc = loc(fn->getLocation());
    bodyLine = loc(fn->getBody()->getBeginLoc()).line;
    for (const ParmVarDecl *p : fn->parameters()) k.params.push_back(convertParam(p, k.name));
    std::vector<ir::Stmt> body;
    for (const Stmt *s : llvm::cast<CompoundStmt>(fn->getBody())->body()) {
      if (isLegacyView(s)) continue;
      append(body, s);
    }
    k.body = ir::block(std::move(body));
    return k;
  }

private:
  ASTContext &ctx;
  SourceManager &sm;
  std::string file;
  const std::vector<LegacyView> &views;
  std::map<const ValueDecl *, std::string> arrayAliases;  // legacy views → parameter names
  // Lines of `#pragma rtcuda parallel` not yet given to a loop; each applies to the first loop
  // of the kernel's body that starts after it.
  std::set<unsigned> &parallelPragmas;
  unsigned bodyLine = 0;

  bool takeParallelPragma(unsigned line) {
    bool found = false;
    for (auto it = parallelPragmas.upper_bound(bodyLine); it != parallelPragmas.end() && *it < line;)
      it = parallelPragmas.erase(it), found = true;
    return found;
  }

  ir::SourceLoc loc(SourceLocation l) const {
    PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(l));
    if (p.isInvalid()) return {file, 0, 0};
    return {file, p.getLine(), p.getColumn()};
  }

  [[noreturn]] void fail(SourceLocation l, const std::string &message) const {
    throw CompileError(loc(l), message);
  }

  ir::Type scalarType(QualType qt, SourceLocation where) const {
    qt = qt.getCanonicalType();
    const auto *bt = qt->getAs<BuiltinType>();
    if (!bt) {
      if (qt->isEnumeralType()) return ir::Type::of(ir::ScalarKind::Int);
      fail(where, "type '" + qt.getAsString() + "' is not supported in a kernel");
    }
    using K = ir::ScalarKind;
    switch (bt->getKind()) {
    case BuiltinType::Void: return ir::Type::of(K::Void);
    case BuiltinType::Bool: return ir::Type::of(K::Bool);
    case BuiltinType::Char_S: case BuiltinType::Char_U: return ir::Type::of(K::Char);
    case BuiltinType::SChar: return ir::Type::of(K::SChar);
    case BuiltinType::UChar: return ir::Type::of(K::UChar);
    case BuiltinType::Short: return ir::Type::of(K::Short);
    case BuiltinType::UShort: return ir::Type::of(K::UShort);
    case BuiltinType::Int: return ir::Type::of(K::Int);
    case BuiltinType::UInt: return ir::Type::of(K::UInt);
    case BuiltinType::Long: return ir::Type::of(K::Long);
    case BuiltinType::ULong: return ir::Type::of(K::ULong);
    case BuiltinType::LongLong: return ir::Type::of(K::LongLong);
    case BuiltinType::ULongLong: return ir::Type::of(K::ULongLong);
    case BuiltinType::Float: return ir::Type::of(K::Float);
    case BuiltinType::Double: return ir::Type::of(K::Double);
    default:
      fail(where, "type '" + qt.getAsString() + "' is not supported in a kernel");
    }
  }

  // Array dimensions of a (possibly variably modified) array type, outermost first.
  void arrayDims(QualType t, std::vector<ir::Expr> &dims, QualType &elem, SourceLocation where) {
    while (const ArrayType *at = ctx.getAsArrayType(t)) {
      if (const auto *c = llvm::dyn_cast<ConstantArrayType>(at))
        dims.push_back(ir::intImm(c->getSize().getSExtValue()));
      else if (const auto *v = llvm::dyn_cast<VariableArrayType>(at))
        dims.push_back(v->getSizeExpr() ? ir::simplify(convertExpr(v->getSizeExpr())) : nullptr);
      else
        dims.push_back(nullptr);
      t = at->getElementType();
    }
    if (t->isPointerType() || t->isRecordType() || t->isFunctionType())
      fail(where, "element type '" + t.getAsString() + "' is not supported in a kernel");
    elem = t;
  }

  ir::Param convertParam(const ParmVarDecl *p, const std::string &kernel) {
    ir::Param out;
    out.name = p->getNameAsString();
    out.loc = loc(p->getLocation());
    for (const LegacyView &v : views)
      if (v.kernel == kernel && v.flatName == out.name) out.name = v.param;
    QualType original = p->getOriginalType();
    QualType elem;
    if (ctx.getAsArrayType(original)) {
      // Written as an array: float A[restrict n][m]; restrict sits on the decayed pointer.
      out.isArray = true;
      arrayDims(original, out.dims, elem, p->getLocation());
      out.isRestrict = p->getType().isRestrictQualified();
    } else if (original->isPointerType()) {
      out.isArray = true;
      out.isRestrict = original.isRestrictQualified();
      out.dims.push_back(nullptr);
      QualType pointee = original->getPointeeType();
      if (pointee->isPointerType())
        fail(p->getLocation(), "parameter '" + out.name +
                                   "': pointers to pointers are not supported; use a "
                                   "multi-dimensional array parameter such as float A[n][m]");
      if (pointee->isFunctionType())
        fail(p->getLocation(), "parameter '" + out.name +
                                   "': function pointers are not supported in a kernel");
      arrayDims(pointee, out.dims, elem, p->getLocation());
      // A legacy view gives the parameter its row width.
      for (const LegacyView &v : views)
        if (v.kernel == kernel && v.param == out.name) out.dims.push_back(parseRowDim(p, v));
    } else {
      elem = original;
    }
    out.isConst = out.isArray && elem.isConstQualified();
    out.type = scalarType(elem, p->getLocation());
    return out;
  }

  ir::Expr parseRowDim(const ParmVarDecl *p, const LegacyView &v) {
    // The view's declaration in the body carries the row width as a VLA size expression.
    const auto *fn = llvm::cast<FunctionDecl>(p->getDeclContext());
    for (const Stmt *s : llvm::cast<CompoundStmt>(fn->getBody())->body()) {
      const auto *ds = llvm::dyn_cast<DeclStmt>(s);
      if (!ds || !ds->isSingleDecl()) continue;
      const auto *vd = llvm::dyn_cast<VarDecl>(ds->getSingleDecl());
      if (!vd || vd->getNameAsString() != v.param) continue;
      arrayAliases[vd] = v.param;
      std::vector<ir::Expr> dims;
      QualType elem;
      arrayDims(vd->getType()->getPointeeType(), dims, elem, vd->getLocation());
      if (!dims.empty() && dims[0]) return dims[0];
    }
    fail(p->getLocation(), "cannot read the row width '" + v.rowDim + "' of '" + v.param + "'");
  }

  bool isLegacyView(const Stmt *s) const {
    const auto *ds = llvm::dyn_cast<DeclStmt>(s);
    if (!ds || !ds->isSingleDecl()) return false;
    const auto *vd = llvm::dyn_cast<VarDecl>(ds->getSingleDecl());
    return vd && arrayAliases.count(vd);
  }

  // ---- expressions ----

  std::string spelling(const Expr *e) const {
    SourceRange r = e->getSourceRange();
    if (r.getBegin().isMacroID()) return "";
    return Lexer::getSourceText(CharSourceRange::getTokenRange(r), sm, ctx.getLangOpts()).str();
  }

  std::string arrayName(const Expr *base) const {
    base = base->IgnoreParenImpCasts();
    if (const auto *ref = llvm::dyn_cast<DeclRefExpr>(base)) {
      auto alias = arrayAliases.find(ref->getDecl());
      if (alias != arrayAliases.end()) return alias->second;
      if (llvm::isa<ParmVarDecl>(ref->getDecl())) return ref->getDecl()->getNameAsString();
      // A local array of the kernel (docs/passes/LocalArrays.md decides where it lives).
      if (const auto *vd = llvm::dyn_cast<VarDecl>(ref->getDecl());
          vd && vd->isLocalVarDecl() && !vd->isStaticLocal() && vd->getType()->isArrayType())
        return vd->getNameAsString();
      fail(base->getExprLoc(), "'" + ref->getDecl()->getNameAsString() +
                                   "' is not a parameter or local array of the kernel; only "
                                   "those can be indexed in a kernel");
    }
    fail(base->getExprLoc(), "unsupported array expression; index a parameter array directly");
  }

  // A[i][j] → (A, {i, j}).
  std::pair<std::string, std::vector<ir::Expr>> subscripts(const ArraySubscriptExpr *e) {
    std::vector<const Expr *> idx;
    const Expr *cur = e;
    while (const auto *ase = llvm::dyn_cast<ArraySubscriptExpr>(cur->IgnoreParenImpCasts())) {
      idx.push_back(ase->getIdx());
      cur = ase->getBase();
    }
    std::vector<ir::Expr> indices;
    for (auto it = idx.rbegin(); it != idx.rend(); ++it) indices.push_back(convertExpr(*it));
    return {arrayName(cur), indices};
  }

  // *p → (p, {0}) and *(p + i) → (p, {i}): a dereference is the subscript it stands for (a
  // scalar result written through a pointer parameter, `*out = s`). Null for other operands.
  std::optional<std::pair<std::string, std::vector<ir::Expr>>> dereference(const UnaryOperator *u) {
    if (u->getOpcode() != UO_Deref) return std::nullopt;
    const Expr *operand = u->getSubExpr()->IgnoreParenImpCasts();
    if (operand->getType()->isPointerType() && llvm::isa<DeclRefExpr>(operand))
      return std::pair{arrayName(operand), std::vector<ir::Expr>{ir::intImm(0)}};
    const auto *b = llvm::dyn_cast<BinaryOperator>(operand);
    if (!b || b->getOpcode() != BO_Add) return std::nullopt;
    const Expr *lhs = b->getLHS()->IgnoreParenImpCasts(), *rhs = b->getRHS()->IgnoreParenImpCasts();
    if (rhs->getType()->isPointerType()) std::swap(lhs, rhs);
    if (!lhs->getType()->isPointerType() || !llvm::isa<DeclRefExpr>(lhs) ||
        !rhs->getType()->isIntegerType())
      return std::nullopt;
    return std::pair{arrayName(lhs), std::vector<ir::Expr>{convertExpr(rhs)}};
  }

  // Conversion and every later pass recurse over the tree: nesting is bounded so that a
  // machine-written statement (20,000 additions) gets an error instead of a stack overflow.
  static constexpr int kMaxNesting = 400;
  int nesting = 0;
  struct Nested {
    int &depth;
    Nested(const KernelBuilder &b, int &d, SourceLocation l) : depth(d) {
      if (++depth > kMaxNesting) {
        --depth;
        b.fail(l, "expression or statement nested more than " + std::to_string(kMaxNesting) +
                      " levels deep; split it into several statements");
      }
    }
    ~Nested() { --depth; }
  };

  ir::Expr convertExpr(const Expr *e) {
    Nested guard(*this, nesting, e->getExprLoc());
    ir::Expr out = convertExprNoLoc(e);
    return out->loc.valid() ? out : ir::withLoc(out, loc(e->getExprLoc()));
  }

  ir::Expr convertExprNoLoc(const Expr *e) {
    e = e->IgnoreParens();
    if (const auto *ice = llvm::dyn_cast<ImplicitCastExpr>(e)) {
      // Implicit conversions mean the same in CUDA C++; the result type is kept on the node.
      ir::Expr inner = convertExpr(ice->getSubExpr());
      if (ice->getCastKind() == CK_LValueToRValue || ice->getCastKind() == CK_NoOp ||
          ice->getCastKind() == CK_ArrayToPointerDecay)
        return inner;
      auto copy = std::make_shared<ir::ExprNode>(*inner);
      if (!ice->getType()->isPointerType()) copy->type = scalarType(ice->getType(), e->getExprLoc());
      return copy;
    }
    if (const auto *lit = llvm::dyn_cast<IntegerLiteral>(e))
      return ir::intImm(lit->getValue().getSExtValue(), scalarType(lit->getType(), e->getExprLoc()));
    if (const auto *lit = llvm::dyn_cast<CharacterLiteral>(e))
      return ir::intImm(lit->getValue(), ir::Type::of(ir::ScalarKind::Int));
    if (const auto *lit = llvm::dyn_cast<FloatingLiteral>(e))
      return ir::floatImm(lit->getValueAsApproximateDouble(),
                          scalarType(lit->getType(), e->getExprLoc()), spelling(lit));
    if (const auto *ref = llvm::dyn_cast<DeclRefExpr>(e)) {
      const ValueDecl *d = ref->getDecl();
      if (const auto *ec = llvm::dyn_cast<EnumConstantDecl>(d))
        return ir::intImm(ec->getInitVal().getSExtValue());
      if (const auto *vd = llvm::dyn_cast<VarDecl>(d)) {
        if (vd->hasGlobalStorage() && !vd->isStaticLocal())
          fail(e->getExprLoc(), "global variable '" + vd->getNameAsString() +
                                    "' used in a kernel; pass it as a parameter");
        if (vd->getType()->isArrayType() || vd->getType()->isPointerType())
          fail(e->getExprLoc(), "array '" + vd->getNameAsString() +
                                    "' used without subscripts; pointer arithmetic and array "
                                    "aliases are not supported in a kernel");
        return ir::var(vd->getNameAsString(), scalarType(vd->getType(), e->getExprLoc()));
      }
      fail(e->getExprLoc(), "unsupported reference to '" + d->getNameAsString() + "'");
    }
    if (const auto *ase = llvm::dyn_cast<ArraySubscriptExpr>(e)) {
      auto [name, indices] = subscripts(ase);
      return ir::load(name, indices, scalarType(ase->getType(), e->getExprLoc()));
    }
    if (const auto *u = llvm::dyn_cast<UnaryOperator>(e)) {
      if (auto d = dereference(u))
        return ir::load(d->first, d->second, scalarType(u->getType(), e->getExprLoc()));
      switch (u->getOpcode()) {
      case UO_Minus: return ir::unary("-", convertExpr(u->getSubExpr()));
      case UO_Plus: return convertExpr(u->getSubExpr());
      case UO_LNot: return ir::unary("!", convertExpr(u->getSubExpr()));
      case UO_Not: return ir::unary("~", convertExpr(u->getSubExpr()));
      case UO_PostInc: case UO_PreInc: case UO_PostDec: case UO_PreDec:
        fail(e->getExprLoc(), "increment or decrement inside an expression is not supported; "
                              "write it as its own statement");
      default:
        fail(e->getExprLoc(), "pointer operations ('*', '&') are not supported in a kernel");
      }
    }
    if (const auto *b = llvm::dyn_cast<BinaryOperator>(e)) {
      if (b->isAssignmentOp())
        fail(e->getExprLoc(), "assignment inside an expression is not supported");
      if (b->getOpcode() == BO_Comma)
        fail(e->getExprLoc(), "the comma operator is not supported in a kernel");
      if (b->getLHS()->getType()->isPointerType() || b->getRHS()->getType()->isPointerType())
        fail(e->getExprLoc(), "pointer arithmetic is not supported in a kernel; index the "
                              "array instead");
      auto out = std::make_shared<ir::ExprNode>(*ir::binary(
          b->getOpcodeStr().str(), convertExpr(b->getLHS()), convertExpr(b->getRHS())));
      out->type = scalarType(b->getType(), e->getExprLoc());
      return out;
    }
    if (const auto *c = llvm::dyn_cast<ConditionalOperator>(e))
      return ir::select(convertExpr(c->getCond()), convertExpr(c->getTrueExpr()),
                        convertExpr(c->getFalseExpr()));
    if (const auto *c = llvm::dyn_cast<CStyleCastExpr>(e)) {
      if (c->getType()->isPointerType())
        fail(e->getExprLoc(), "pointer casts are not supported in a kernel");
      return ir::cast(scalarType(c->getType(), e->getExprLoc()), convertExpr(c->getSubExpr()));
    }
    if (const auto *call = llvm::dyn_cast<CallExpr>(e)) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (!callee)
        fail(e->getExprLoc(), "indirect calls (function pointers) are not supported in a kernel");
      // INFINITY and HUGE_VAL expand to builtins: keep them as the macro the user wrote.
      std::string builtin = callee->getNameAsString();
      if (builtin == "__builtin_inff" || builtin == "__builtin_huge_valf")
        return ir::floatImm(HUGE_VAL, ir::Type::of(ir::ScalarKind::Float), "INFINITY");
      if (builtin == "__builtin_inf" || builtin == "__builtin_huge_val")
        return ir::floatImm(HUGE_VAL, ir::Type::of(ir::ScalarKind::Double), "HUGE_VAL");
      bool library = !callee->hasBody() && sm.isInSystemHeader(callee->getLocation());
      if (!library)
        fail(e->getExprLoc(), "call to '" + callee->getNameAsString() +
                                  "' is not supported in a kernel; only C math library "
                                  "functions can be called");
      std::vector<ir::Expr> args;
      for (const Expr *a : call->arguments()) args.push_back(convertExpr(a));
      return ir::call(callee->getNameAsString(), args, scalarType(call->getType(), e->getExprLoc()));
    }
    if (const auto *s = llvm::dyn_cast<UnaryExprOrTypeTraitExpr>(e)) {
      Expr::EvalResult r;
      if (s->EvaluateAsInt(r, ctx))
        return ir::intImm(r.Val.getInt().getSExtValue(), ir::Type::of(ir::ScalarKind::ULong));
    }
    fail(e->getExprLoc(), std::string("unsupported expression (") + e->getStmtClassName() +
                              ") in a kernel");
  }

  // ---- statements ----

  // Appends a converted statement; `int i, j;` adds one declaration per variable.
  void append(std::vector<ir::Stmt> &body, const Stmt *s) {
    ir::Stmt c = convertStmt(s);
    if (!c) return;
    if ((llvm::isa<DeclStmt>(s) || chainedAssignment(s)) && c->kind == ir::StmtKind::Block)
      body.insert(body.end(), c->stmts.begin(), c->stmts.end());
    else
      body.push_back(c);
  }

  // The inner assignment of a statement `a = b = k;` (a compound one too), or null.
  static const BinaryOperator *chainedAssignment(const Stmt *s) {
    const auto *b = llvm::dyn_cast<BinaryOperator>(s);
    if (!b || !b->isAssignmentOp()) return nullptr;
    const auto *inner = llvm::dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParenImpCasts());
    return inner && inner->isAssignmentOp() ? inner : nullptr;
  }

  ir::Stmt convertStmt(const Stmt *s) {
    Nested guard(*this, nesting, s->getBeginLoc());
    ir::Stmt out = convertStmtNoLoc(s);
    return out && !out->loc.valid() ? ir::withLoc(out, loc(s->getBeginLoc())) : out;
  }

  // An assignment-like statement: x = e, A[i] += e, x++, ...
  ir::Stmt convertUpdate(const Expr *target, const std::string &op, ir::Expr value) {
    target = target->IgnoreParenImpCasts();
    if (const auto *ase = llvm::dyn_cast<ArraySubscriptExpr>(target)) {
      auto [name, indices] = subscripts(ase);
      return ir::store(name, indices, op, value);
    }
    if (const auto *u = llvm::dyn_cast<UnaryOperator>(target))
      if (auto d = dereference(u)) return ir::store(d->first, d->second, op, value);
    if (const auto *ref = llvm::dyn_cast<DeclRefExpr>(target)) {
      if (llvm::isa<ParmVarDecl>(ref->getDecl()) && !ref->getType()->isPointerType())
        return ir::assign(ref->getDecl()->getNameAsString(), op, value);
      if (const auto *vd = llvm::dyn_cast<VarDecl>(ref->getDecl()); vd && vd->isLocalVarDecl())
        return ir::assign(vd->getNameAsString(), op, value);
    }
    fail(target->getExprLoc(), "unsupported assignment target");
  }

  ir::Stmt convertStmtNoLoc(const Stmt *s) {
    if (const auto *cs = llvm::dyn_cast<CompoundStmt>(s)) {
      std::vector<ir::Stmt> body;
      for (const Stmt *c : cs->body()) append(body, c);
      return ir::block(std::move(body));
    }
    if (llvm::isa<NullStmt>(s)) return nullptr;
    if (const auto *ds = llvm::dyn_cast<DeclStmt>(s)) {
      std::vector<ir::Stmt> decls;
      for (const Decl *d : ds->decls()) {
        const auto *vd = llvm::dyn_cast<VarDecl>(d);
        if (!vd) fail(d->getLocation(), "unsupported declaration in a kernel");
        if (vd->isStaticLocal())
          fail(d->getLocation(), "static local variables are not supported in a kernel");
        ir::Expr arraySize;
        QualType t = vd->getType();
        if (const auto *ca = ctx.getAsConstantArrayType(t)) {
          if (ctx.getAsArrayType(ca->getElementType()))
            fail(d->getLocation(), "local arrays must be one-dimensional in a kernel");
          arraySize = ir::intImm(ca->getSize().getSExtValue());
          t = ca->getElementType();
          if (vd->hasInit())
            fail(d->getLocation(), "initialized local arrays are not supported in a kernel");
        } else if (const auto *va = ctx.getAsVariableArrayType(t)) {
          // double z[n]: its size is an expression of the parameters (checked where it is
          // placed, lib/Transforms/LocalArrays.cpp).
          if (ctx.getAsArrayType(va->getElementType()))
            fail(d->getLocation(), "local arrays must be one-dimensional in a kernel");
          arraySize = convertExpr(va->getSizeExpr());
          t = va->getElementType();
        } else if (ctx.getAsArrayType(t) || t->isPointerType()) {
          fail(d->getLocation(), "local pointers and variable-length arrays are not supported "
                                 "in a kernel");
        }
        ir::Expr init = vd->hasInit() ? convertExpr(vd->getInit()) : nullptr;
        decls.push_back(ir::withLoc(
            ir::decl(vd->getNameAsString(), scalarType(t, vd->getLocation()), init, arraySize),
            loc(vd->getLocation())));
      }
      return decls.size() == 1 ? decls[0] : ir::block(decls);
    }
    if (const BinaryOperator *inner = chainedAssignment(s)) {
      // a = b = k: b = k first, then a = b (the value of the inner assignment is b's new value).
      const auto *b = llvm::cast<BinaryOperator>(s);
      ir::Stmt first = convertStmt(inner);
      std::vector<ir::Stmt> stmts =
          first->kind == ir::StmtKind::Block ? first->stmts : std::vector<ir::Stmt>{first};
      stmts.push_back(ir::withLoc(convertUpdate(b->getLHS(), b->getOpcodeStr().str(),
                                                convertExpr(inner->getLHS())),
                                  loc(b->getBeginLoc())));
      return ir::block(std::move(stmts));
    }
    if (const auto *b = llvm::dyn_cast<BinaryOperator>(s)) {
      if (b->isAssignmentOp()) {
        std::string op = b->getOpcodeStr().str();
        return convertUpdate(b->getLHS(), op, convertExpr(b->getRHS()));
      }
    }
    if (const auto *u = llvm::dyn_cast<UnaryOperator>(s)) {
      if (u->isIncrementDecrementOp())
        return convertUpdate(u->getSubExpr(), u->isIncrementOp() ? "+=" : "-=", ir::intImm(1));
    }
    if (const auto *f = llvm::dyn_cast<ForStmt>(s)) return convertFor(f);
    if (const auto *w = llvm::dyn_cast<WhileStmt>(s))
      return ir::whileLoop(convertExpr(w->getCond()), convertStmt(w->getBody()));
    if (const auto *i = llvm::dyn_cast<IfStmt>(s))
      return ir::ifThen(convertExpr(i->getCond()), convertStmt(i->getThen()),
                        i->getElse() ? convertStmt(i->getElse()) : nullptr);
    if (llvm::isa<BreakStmt>(s)) return breakStmt();
    if (llvm::isa<ContinueStmt>(s)) return continueStmt();
    if (llvm::isa<GotoStmt>(s) || llvm::isa<LabelStmt>(s) || llvm::isa<IndirectGotoStmt>(s))
      fail(s->getBeginLoc(), "goto is not supported in a kernel");
    if (llvm::isa<ReturnStmt>(s))
      fail(s->getBeginLoc(), "return inside a kernel's loops is not supported");
    if (llvm::isa<SwitchStmt>(s))
      fail(s->getBeginLoc(), "switch is not supported in a kernel; use if/else");
    if (llvm::isa<DoStmt>(s))
      fail(s->getBeginLoc(), "do-while loops are not supported in a kernel");
    if (llvm::isa<CallExpr>(s))
      fail(s->getBeginLoc(), "a call whose result is unused has no effect in a kernel and is "
                             "not supported");
    fail(s->getBeginLoc(), std::string("unsupported statement (") + s->getStmtClassName() + ")");
  }

  static ir::Stmt breakStmt() {
    auto s = std::make_shared<ir::StmtNode>();
    s->kind = ir::StmtKind::Break;
    return s;
  }
  static ir::Stmt continueStmt() {
    auto s = std::make_shared<ir::StmtNode>();
    s->kind = ir::StmtKind::Continue;
    return s;
  }

  const VarDecl *refVar(const Expr *e) const {
    if (const auto *ref = llvm::dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      return llvm::dyn_cast<VarDecl>(ref->getDecl());
    return nullptr;
  }

  bool constantInt(const Expr *e, int64_t &value) const {
    Expr::EvalResult r;
    if (!e->EvaluateAsInt(r, ctx)) return false;
    value = r.Val.getInt().getSExtValue();
    return true;
  }

  // for (init; cond; inc) with an integer variable, a comparison against a bound and a
  // constant step → For { var, min, end (exclusive), step }.
  ir::Stmt convertFor(const ForStmt *f) {
    const char *form = "unsupported loop form: loops must be 'for (v = a; v < b; v += c)' "
                       "with <, <=, >, >= or != and a constant step";
    const VarDecl *v = nullptr;
    ir::Expr min;
    if (const auto *ds = llvm::dyn_cast_or_null<DeclStmt>(f->getInit())) {
      if (ds->isSingleDecl()) v = llvm::dyn_cast<VarDecl>(ds->getSingleDecl());
      if (v && v->hasInit()) min = convertExpr(v->getInit());
    } else if (const auto *b = llvm::dyn_cast_or_null<BinaryOperator>(f->getInit())) {
      if (b->getOpcode() == BO_Assign) {
        v = refVar(b->getLHS());
        min = convertExpr(b->getRHS());
      }
    }
    if (!v || !min || !v->getType()->isIntegerType()) fail(f->getBeginLoc(), form);
    // Asserted parallel by the user: the legality analysis reads it from the loop kind.
    bool asserted = takeParallelPragma(loc(f->getBeginLoc()).line);
    int64_t step = 0;
    const Expr *inc = f->getInc();
    if (const auto *u = llvm::dyn_cast_or_null<UnaryOperator>(inc)) {
      if (u->isIncrementDecrementOp() && refVar(u->getSubExpr()) == v)
        step = u->isIncrementOp() ? 1 : -1;
    } else if (const auto *c = llvm::dyn_cast_or_null<CompoundAssignOperator>(inc)) {
      int64_t amount;
      if (refVar(c->getLHS()) == v && constantInt(c->getRHS(), amount)) {
        if (c->getOpcode() == BO_AddAssign) step = amount;
        if (c->getOpcode() == BO_SubAssign) step = -amount;
      }
    } else if (const auto *b = llvm::dyn_cast_or_null<BinaryOperator>(inc)) {
      const auto *rhs = llvm::dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParenImpCasts());
      int64_t amount;
      if (b->getOpcode() == BO_Assign && refVar(b->getLHS()) == v && rhs &&
          refVar(rhs->getLHS()) == v && constantInt(rhs->getRHS(), amount)) {
        if (rhs->getOpcode() == BO_Add) step = amount;
        if (rhs->getOpcode() == BO_Sub) step = -amount;
      }
    }
    if (step == 0) fail(f->getBeginLoc(), form);
    const auto *cond = llvm::dyn_cast_or_null<BinaryOperator>(f->getCond());
    if (!cond) fail(f->getBeginLoc(), form);
    BinaryOperatorKind op = cond->getOpcode();
    const Expr *boundExpr = nullptr;
    if (refVar(cond->getLHS()) == v) {
      boundExpr = cond->getRHS();
    } else if (refVar(cond->getRHS()) == v) {
      boundExpr = cond->getLHS();
      op = BinaryOperator::reverseComparisonOp(op);
    }
    if (!boundExpr) fail(f->getBeginLoc(), form);
    ir::Expr bound = convertExpr(boundExpr);
    ir::Expr end;
    if ((op == BO_LT || op == BO_NE) && step > 0) end = bound;
    else if (op == BO_LE && step > 0) end = ir::add(bound, ir::intImm(1));
    else if ((op == BO_GT || op == BO_NE) && step < 0) end = bound;
    else if (op == BO_GE && step < 0) end = ir::sub(bound, ir::intImm(1));
    else fail(cond->getOperatorLoc(), "the loop condition does not match the direction of its "
                                      "step; the loop would not terminate as written");
    if (op == BO_NE && step != 1 && step != -1)
      fail(cond->getOperatorLoc(), "'!=' loop conditions need a step of 1 or -1");
    ir::Type t = scalarType(v->getType(), v->getLocation());
    return ir::forLoop(v->getNameAsString(), t, min, ir::simplify(end), ir::intImm(step),
                       convertStmt(f->getBody()),
                       asserted ? ir::LoopKind::Parallel : ir::LoopKind::Serial);
  }
};

// The prototype of a function as written (everything before its body).
std::string prototype(const FunctionDecl *fn, const SourceManager &sm, const LangOptions &lang) {
  SourceRange r(fn->getBeginLoc(), fn->getBody()->getBeginLoc().getLocWithOffset(-1));
  std::string text =
      Lexer::getSourceText(CharSourceRange::getCharRange(r), sm, lang).str();
  while (!text.empty() && isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text + ";\n";
}

}  // namespace

bool parseKernels(const Options &options, Diagnostics &diags, ParsedProgram &out) {
  std::set<std::string> found;
  bool everyFileParsed = true;
  for (const std::string &path : options.kernelFiles) {
    std::string shown = displayPath(path);
    std::string text;
    if (!readFile(path, text)) {
      diags.error(shown, "cannot read kernel file");
      continue;
    }
    std::string normalized;
    std::vector<LegacyView> views;
    if (!normalizeLegacyDialect(text, shown, options, diags, normalized, views)) {
      everyFileParsed = false;
      continue;
    }
    bool hadErrors = false;
    auto ast = parseC(normalized, shown, /*quiet=*/false, hadErrors, userClangArgs(options, path));
    if (!ast || hadErrors) {
      diags.error(shown, "cannot parse kernel file");
      everyFileParsed = false;
      continue;
    }
    std::set<unsigned> pragmaLines, parallelPragmas, scopLines = findScopLines(text);
    std::vector<const FunctionDecl *> kernelDecls;
    const FunctionDecl *mainDecl = nullptr;
    for (const auto &[line, directive] : findRtcudaPragmas(text)) {
      if (directive == "kernel") pragmaLines.insert(line);
      else if (directive == "parallel") parallelPragmas.insert(line);
      else diags.warning(ir::SourceLoc{shown, line, 1}, "unknown directive '#pragma rtcuda " +
                                                            directive + "' (known: kernel, parallel)");
    }
    ASTContext &ctx = ast->getASTContext();
    SourceManager &sm = ast->getSourceManager();
    unsigned previousEnd = 0;
    for (auto it = ast->top_level_begin(); it != ast->top_level_end(); ++it) {
      auto *fn = llvm::dyn_cast<FunctionDecl>(*it);
      if (!fn || !sm.isInMainFile(fn->getLocation())) continue;
      unsigned begin = sm.getPresumedLoc(fn->getBeginLoc()).getLine();
      unsigned end = sm.getPresumedLoc(fn->getEndLoc()).getLine();
      bool marked = pragmaLines.lower_bound(previousEnd + 1) != pragmaLines.end() &&
                    *pragmaLines.lower_bound(previousEnd + 1) < begin;
      previousEnd = end;
      if (!fn->hasBody()) continue;
      // A `#pragma scop` region inside the body marks a kernel too (PolyBench).
      marked |= fn->hasBody() && scopLines.lower_bound(begin) != scopLines.end() &&
                *scopLines.lower_bound(begin) <= end;
      std::string name = fn->getNameAsString();
      if (name == "main") mainDecl = fn;
      const KernelOptions *kopts = nullptr;
      for (const KernelOptions &k : options.kernels)
        if (k.name == name) kopts = &k;
      if (!kopts && !marked) continue;
      if (found.count(name)) {
        diags.error(ir::SourceLoc{shown, begin, 1}, "kernel '" + name + "' is defined twice");
        continue;
      }
      found.insert(name);
      if (!fn->getReturnType()->isVoidType()) {
        PresumedLoc p = sm.getPresumedLoc(fn->getLocation());
        diags.error(ir::SourceLoc{shown, p.getLine(), p.getColumn()},
                    "kernel '" + name + "' must return void");
        continue;
      }
      try {
        KernelBuilder builder(ctx, shown, views, parallelPragmas);
        KernelSource ks{builder.build(fn), kopts ? *kopts : options.defaults, shown};
        ks.options.name = name;
        out.kernels.push_back(std::move(ks));
        kernelDecls.push_back(fn);
        // A main file that defines the kernel itself needs no prototype before it.
        if (path != options.mainFile) out.prototypes += prototype(fn, sm, ast->getLangOpts());
      } catch (const CompileError &e) {
        diags.error(e.loc, e.what());
      }
    }
    out.references.push_back({shown, std::filesystem::path(path).filename().string(),
                              referenceText(normalized, sm, ast->getLangOpts(), kernelDecls,
                                            mainDecl)});
    addUserHeaders(sm, options, path, out.headers, diags);
    for (unsigned line : parallelPragmas)
      diags.warning(ir::SourceLoc{shown, line, 1},
                    "'#pragma rtcuda parallel' is not followed by a loop of a kernel; ignored");
  }
  for (const KernelOptions &k : options.kernels) {
    if (found.count(k.name) || !everyFileParsed) continue;
    std::string where = k.configFile.empty() ? displayPath(options.configPath)
                                             : displayPath(k.configFile);
    if (k.configLine) where += ":" + std::to_string(k.configLine);
    diags.error(where, "kernel '" + k.name + "' is not defined in any kernel file");
  }
  if (out.kernels.empty() && diags.errors() == 0)
    diags.error(displayPath(options.configPath),
                "no kernels: name them in the config or mark them with '#pragma rtcuda kernel'");
  return diags.errors() == 0;
}

}  // namespace rtcuda
