// Tests of the kernel IR core: types, builders, the folding arithmetic helpers, tripCount, and
// the generic walks of Mutate.h (mapExpr, mapStmt, substitute, mentions, varsOf, equal).

#include "rtcuda/IR/IR.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <gtest/gtest.h>

using namespace rtcuda::ir;

namespace {

const Type Int = Type::of(ScalarKind::Int);
const Type Float = Type::of(ScalarKind::Float);
const Type LongLong = Type::of(ScalarKind::LongLong);

Expr v(const std::string &name) { return var(name); }
Expr c(int64_t value) { return intImm(value); }

// ---- Type ---------------------------------------------------------------------------------

TEST(TypeTest, FromNameKnowsEveryCSpelling) {
  struct Case {
    const char *name;
    ScalarKind kind;
  } cases[] = {
      {"void", ScalarKind::Void},          {"bool", ScalarKind::Bool},
      {"char", ScalarKind::Char},          {"signed char", ScalarKind::SChar},
      {"unsigned char", ScalarKind::UChar}, {"short", ScalarKind::Short},
      {"unsigned short", ScalarKind::UShort}, {"int", ScalarKind::Int},
      {"unsigned int", ScalarKind::UInt},  {"unsigned", ScalarKind::UInt},
      {"long", ScalarKind::Long},          {"unsigned long", ScalarKind::ULong},
      {"long long", ScalarKind::LongLong}, {"unsigned long long", ScalarKind::ULongLong},
      {"float", ScalarKind::Float},        {"double", ScalarKind::Double},
  };
  for (const Case &k : cases) {
    bool ok = false;
    EXPECT_EQ(Type::fromName(k.name, &ok).kind, k.kind) << k.name;
    EXPECT_TRUE(ok) << k.name;
  }
}

TEST(TypeTest, FromNameRejectsUnknownNames) {
  bool ok = true;
  Type::fromName("float4", &ok);
  EXPECT_FALSE(ok);
  ok = true;
  Type::fromName("", &ok);
  EXPECT_FALSE(ok);
  // Without `ok` it must not crash.
  EXPECT_EQ(Type::fromName("half").kind, ScalarKind::Int);
}

TEST(TypeTest, CNameRoundTripsThroughFromName) {
  for (ScalarKind k : {ScalarKind::Void, ScalarKind::Bool, ScalarKind::Char, ScalarKind::SChar,
                       ScalarKind::UChar, ScalarKind::Short, ScalarKind::UShort, ScalarKind::Int,
                       ScalarKind::UInt, ScalarKind::Long, ScalarKind::ULong,
                       ScalarKind::LongLong, ScalarKind::ULongLong, ScalarKind::Float,
                       ScalarKind::Double}) {
    bool ok = false;
    EXPECT_EQ(Type::fromName(Type::of(k).cName(), &ok).kind, k);
    EXPECT_TRUE(ok);
  }
  EXPECT_EQ(Type::of(ScalarKind::UInt).cName(), "unsigned int");
  EXPECT_EQ(Type::of(ScalarKind::ULongLong).cName(), "unsigned long long");
  EXPECT_EQ(Type::of(ScalarKind::SChar).cName(), "signed char");
}

TEST(TypeTest, Bytes) {
  EXPECT_EQ(Type::of(ScalarKind::Void).bytes(), 0);
  EXPECT_EQ(Type::of(ScalarKind::Bool).bytes(), 1);
  EXPECT_EQ(Type::of(ScalarKind::Char).bytes(), 1);
  EXPECT_EQ(Type::of(ScalarKind::UChar).bytes(), 1);
  EXPECT_EQ(Type::of(ScalarKind::Short).bytes(), 2);
  EXPECT_EQ(Type::of(ScalarKind::UShort).bytes(), 2);
  EXPECT_EQ(Type::of(ScalarKind::Int).bytes(), 4);
  EXPECT_EQ(Type::of(ScalarKind::UInt).bytes(), 4);
  EXPECT_EQ(Type::of(ScalarKind::Float).bytes(), 4);
  EXPECT_EQ(Type::of(ScalarKind::Long).bytes(), 8);  // LP64, as on every CUDA host
  EXPECT_EQ(Type::of(ScalarKind::LongLong).bytes(), 8);
  EXPECT_EQ(Type::of(ScalarKind::ULongLong).bytes(), 8);
  EXPECT_EQ(Type::of(ScalarKind::Double).bytes(), 8);
}

TEST(TypeTest, Classification) {
  EXPECT_TRUE(Float.isFloat());
  EXPECT_FALSE(Float.isInteger());
  EXPECT_TRUE(Type::of(ScalarKind::Double).isFloat());
  EXPECT_TRUE(Int.isInteger());
  EXPECT_FALSE(Type::of(ScalarKind::Void).isInteger());
  EXPECT_TRUE(Int.isSigned());
  EXPECT_FALSE(Type::of(ScalarKind::UInt).isSigned());
  EXPECT_FALSE(Type::of(ScalarKind::ULongLong).isSigned());
}

TEST(SourceLocTest, Str) {
  SourceLoc loc{"kernel.c", 12, 5};
  EXPECT_TRUE(loc.valid());
  EXPECT_EQ(loc.str(), "kernel.c:12:5");
  EXPECT_FALSE(SourceLoc{}.valid());
}

// ---- builders -----------------------------------------------------------------------------

TEST(BuilderTest, BinaryTypesFollowTheUsualConversions) {
  EXPECT_EQ(binary("+", v("i"), var("x", Float))->type, Float);
  EXPECT_EQ(binary("+", var("c", Type::of(ScalarKind::Char)), var("s", Type::of(ScalarKind::Short)))
                ->type,
            Int);  // integer promotion
  EXPECT_EQ(binary("*", v("i"), var("n", LongLong))->type, LongLong);
  EXPECT_EQ(binary("<", var("x", Float), var("y", Float))->type, Int);
  EXPECT_EQ(unary("!", var("x", Float))->type, Int);
  EXPECT_EQ(unary("-", var("x", Float))->type, Float);
  EXPECT_EQ(select(v("p"), v("i"), var("d", Type::of(ScalarKind::Double)))->type.kind,
            ScalarKind::Double);
}

TEST(BuilderTest, WithLocCopiesAndKeepsTheOriginal) {
  Expr e = v("i");
  Expr located = withLoc(e, SourceLoc{"k.c", 3, 7});
  EXPECT_EQ(located->loc.str(), "k.c:3:7");
  EXPECT_FALSE(e->loc.valid());
  Stmt s = barrier();
  Stmt ls = withLoc(s, SourceLoc{"k.c", 4, 1});
  EXPECT_EQ(ls->loc.line, 4u);
  EXPECT_FALSE(s->loc.valid());
}

TEST(BuilderTest, IsConst) {
  int64_t value = 0;
  EXPECT_TRUE(isConst(c(-7), &value));
  EXPECT_EQ(value, -7);
  EXPECT_FALSE(isConst(v("i"), &value));
  EXPECT_FALSE(isConst(nullptr, &value));
  EXPECT_FALSE(isConst(floatImm(1.0, Float)));
}

TEST(BuilderTest, ComparisonOrLogical) {
  for (const char *op : {"<", "<=", ">", ">=", "==", "!=", "&&", "||"})
    EXPECT_TRUE(isComparisonOrLogical(op)) << op;
  for (const char *op : {"+", "&", "|", "<<", "%"}) EXPECT_FALSE(isComparisonOrLogical(op)) << op;
}

// ---- folding helpers ----------------------------------------------------------------------

TEST(FoldTest, ConstantsFold) {
  EXPECT_EQ(print(add(c(2), c(3))), "5");
  EXPECT_EQ(print(sub(c(2), c(3))), "-1");
  EXPECT_EQ(print(mul(c(4), c(-3))), "-12");
  EXPECT_EQ(print(div(c(7), c(2))), "3");
  EXPECT_EQ(print(div(c(-7), c(2))), "-3");  // C truncates toward zero
  EXPECT_EQ(print(mod(c(7), c(3))), "1");
  EXPECT_EQ(print(mod(c(-7), c(3))), "-1");
}

TEST(FoldTest, FoldedConstantsKeepTheWiderType) {
  Expr e = add(intImm(2, LongLong), c(3));
  EXPECT_EQ(e->type, LongLong);
  EXPECT_EQ(print(e), "5LL");
}

TEST(FoldTest, IdentitiesReturnTheOperandItself) {
  Expr x = v("x");
  EXPECT_EQ(add(x, c(0)), x);
  EXPECT_EQ(add(c(0), x), x);
  EXPECT_EQ(sub(x, c(0)), x);
  EXPECT_EQ(mul(x, c(1)), x);
  EXPECT_EQ(mul(c(1), x), x);
  EXPECT_EQ(div(x, c(1)), x);
}

TEST(FoldTest, NonIdentitiesBuildNodes) {
  Expr x = v("x");
  EXPECT_EQ(print(sub(c(0), x)), "0 - x");  // 0 - x is not x
  EXPECT_EQ(print(div(c(1), x)), "1 / x");
  EXPECT_EQ(print(add(x, c(1))), "x + 1");
  EXPECT_EQ(print(mul(c(2), x)), "2 * x");
  // Division by a constant zero is left for the compiler to diagnose, never folded.
  EXPECT_EQ(print(div(c(1), c(0))), "1 / 0");
  EXPECT_EQ(print(mod(c(1), c(0))), "1 % 0");
  EXPECT_EQ(print(lt(x, v("N"))), "x < N");
  EXPECT_EQ(print(land(lt(x, v("N")), lt(v("y"), v("M")))), "x < N && y < M");
}

// ---- tripCount ----------------------------------------------------------------------------

Stmt loop(Expr min, Expr end, int64_t step) {
  return forLoop("i", Int, std::move(min), std::move(end), c(step), block({}));
}

TEST(TripCountTest, StepOne) {
  EXPECT_EQ(print(tripCount(loop(c(0), v("N"), 1))), "N");
  EXPECT_EQ(print(tripCount(loop(c(1), v("N"), 1))), "N - 1");
  EXPECT_EQ(print(tripCount(loop(c(2), c(10), 1))), "8");
}

TEST(TripCountTest, StepThreeRoundsUp) {
  EXPECT_EQ(print(tripCount(loop(c(0), v("N"), 3))), "(N + 2) / 3");
  EXPECT_EQ(print(tripCount(loop(c(0), c(10), 3))), "4");  // 0 3 6 9
  EXPECT_EQ(print(tripCount(loop(c(0), c(9), 3))), "3");   // 0 3 6
}

TEST(TripCountTest, StepMinusOne) {
  EXPECT_EQ(print(tripCount(loop(v("N"), c(0), -1))), "N");
  EXPECT_EQ(print(tripCount(loop(c(9), c(-1), -1))), "10");
}

TEST(TripCountTest, StepMinusTwoRoundsUp) {
  EXPECT_EQ(print(tripCount(loop(v("N"), c(0), -2))), "(N + 1) / 2");
  EXPECT_EQ(print(tripCount(loop(c(10), c(0), -2))), "5");  // 10 8 6 4 2
  EXPECT_EQ(print(tripCount(loop(c(9), c(0), -2))), "5");   // 9 7 5 3 1
}

// ---- Mutate -------------------------------------------------------------------------------

Expr rename(const Expr &e, const std::string &from, const std::string &to) {
  return mapExpr(e, [&](const Expr &n) { return n->kind == ExprKind::Var && n->name == from
                                                    ? var(to, n->type)
                                                    : n; });
}

TEST(MutateTest, MapExprRebuildsOnlyWhatChanged) {
  Expr untouched = binary("*", v("j"), v("N"));
  Expr e = binary("+", binary("*", v("i"), v("N")), untouched);
  Expr r = rename(e, "i", "k");
  EXPECT_EQ(print(r), "k * N + j * N");
  EXPECT_EQ(print(e), "i * N + j * N");           // the original is immutable
  EXPECT_EQ(r->operands[1], untouched);          // unchanged subtrees are shared
  EXPECT_EQ(rename(e, "q", "k"), e);             // nothing changed: the same node
}

TEST(MutateTest, MapExprIsBottomUp) {
  // fn sees children already rebuilt: folding at each node collapses the whole tree.
  Expr e = binary("+", binary("*", c(2), c(3)), c(4));
  std::vector<std::string> seen;
  Expr r = mapExpr(e, [&](const Expr &n) -> Expr {
    seen.push_back(print(n));
    int64_t a, b;
    if (n->kind == ExprKind::Binary && isConst(n->operands[0], &a) && isConst(n->operands[1], &b))
      return n->name == "*" ? c(a * b) : c(a + b);
    return n;
  });
  EXPECT_EQ(print(r), "10");
  EXPECT_EQ(seen, (std::vector<std::string>{"2", "3", "2 * 3", "4", "6 + 4"}));
}

TEST(MutateTest, MapStmtAppliesBothFunctions) {
  Stmt body = block({store("C", {v("i")}, "=", load("A", {v("i")}, Float)), barrier()});
  Stmt s = forLoop("i", Int, c(0), v("N"), c(1), body);
  Stmt r = mapStmt(
      s,
      [](const Stmt &n) -> Stmt {
        if (n->kind != StmtKind::Store) return n;
        auto copy = std::make_shared<StmtNode>(*n);
        copy->op = "+=";
        return copy;
      },
      [](const Expr &n) { return n->kind == ExprKind::Var && n->name == "N" ? var("M") : n; });
  EXPECT_EQ(print(r), "for (int i = 0; i < M; i++) {\n"
                      "  C[i] += A[i];\n"
                      "  __syncthreads();\n"
                      "}\n");
  EXPECT_EQ(print(s), "for (int i = 0; i < N; i++) {\n"
                      "  C[i] = A[i];\n"
                      "  __syncthreads();\n"
                      "}\n");
}

TEST(MutateTest, MapStmtWithoutChangesReturnsTheSameNode) {
  Stmt s = forLoop("i", Int, c(0), v("N"), c(1),
                   ifThen(lt(v("i"), c(4)), store("C", {v("i")}, "=", c(0)), barrier()));
  EXPECT_EQ(mapStmt(s, nullptr, [](const Expr &n) { return n; }), s);
  EXPECT_EQ(mapStmt(s, [](const Stmt &n) { return n; }), s);
}

TEST(MutateTest, MapStmtReachesElseBranchesAndDeclarations) {
  Stmt s = block({decl("t", Int, v("x"), nullptr),
                  ifThen(v("x"), assign("t", "=", v("x")), assign("t", "-=", v("x")))});
  Stmt r = mapStmt(s, nullptr,
                   [](const Expr &n) { return n->kind == ExprKind::Var && n->name == "x"
                                                  ? var("y") : n; });
  EXPECT_EQ(print(r), "int t = y;\n"
                      "if (y) {\n"
                      "  t = y;\n"
                      "} else {\n"
                      "  t -= y;\n"
                      "}\n");
}

TEST(MutateTest, SubstituteExpr) {
  Expr e = binary("+", binary("*", v("i"), v("N")), v("j"));
  Expr r = substitute(e, {{"i", binary("+", v("i"), c(1))}, {"j", c(0)}});
  EXPECT_EQ(print(r), "(i + 1) * N + 0");  // substitute does not simplify
  EXPECT_EQ(substitute(e, {{"k", c(3)}}), e);
}

TEST(MutateTest, SubstituteStmtReachesBoundsIndicesAndValues) {
  Stmt s = forLoop("j", Int, v("lo"), v("hi"), c(1),
                   store("C", {v("i"), v("j")}, "=", load("A", {v("i"), v("j")}, Float)));
  Stmt r = substitute(s, {{"i", v("r")}, {"lo", c(0)}, {"hi", v("N")}});
  EXPECT_EQ(print(r), "for (int j = 0; j < N; j++) {\n"
                      "  C[r][j] = A[r][j];\n"
                      "}\n");
}

TEST(MutateTest, MentionsLooksAtVariablesOnly) {
  Expr e = binary("+", load("A", {v("i")}, Float), call("sqrtf", {var("x", Float)}, Float));
  EXPECT_TRUE(mentions(e, "i"));
  EXPECT_TRUE(mentions(e, "x"));
  EXPECT_FALSE(mentions(e, "A"));      // an array name is not a variable
  EXPECT_FALSE(mentions(e, "sqrtf"));  // nor is a function
  EXPECT_FALSE(mentions(nullptr, "i"));
  EXPECT_TRUE(mentionsAny(e, {"q", "x"}));
  EXPECT_FALSE(mentionsAny(e, {"q", "A"}));
}

TEST(MutateTest, VarsOf) {
  Expr e = select(lt(v("i"), v("N")), load("A", {binary("+", v("i"), v("j"))}, Float),
                  cast(Float, v("k")));
  EXPECT_EQ(varsOf(e), (std::set<std::string>{"N", "i", "j", "k"}));
  EXPECT_TRUE(varsOf(c(3)).empty());
}

TEST(MutateTest, VisitStmtSeesEveryStatementAndExpressionRoot) {
  Stmt s = forLoop("i", Int, c(0), v("N"), c(1),
                   block({decl("t", Int, v("x")), ifThen(v("p"), barrier(), comment("no"))}));
  int stmts = 0;
  std::set<std::string> roots;
  visitStmt(s, [&](const Stmt &) { ++stmts; }, [&](const Expr &e) { roots.insert(print(e)); });
  EXPECT_EQ(stmts, 6);  // for, block, decl, if, barrier, comment
  EXPECT_EQ(roots, (std::set<std::string>{"0", "N", "1", "x", "p"}));
}

TEST(MutateTest, EqualIsStructural) {
  Expr a = binary("+", v("i"), c(1));
  EXPECT_TRUE(equal(a, binary("+", v("i"), c(1))));
  EXPECT_TRUE(equal(a, withLoc(binary("+", v("i"), c(1)), SourceLoc{"k.c", 1, 1})));
  EXPECT_FALSE(equal(a, binary("+", c(1), v("i"))));  // not modulo commutativity
  EXPECT_FALSE(equal(a, binary("-", v("i"), c(1))));
  EXPECT_FALSE(equal(a, binary("+", v("j"), c(1))));
  EXPECT_FALSE(equal(a, binary("+", v("i"), c(2))));
  EXPECT_FALSE(equal(c(1), intImm(1, LongLong)));  // same value, different type
  EXPECT_FALSE(equal(a, nullptr));
  EXPECT_TRUE(equal(nullptr, nullptr));
  EXPECT_FALSE(equal(load("A", {v("i")}, Float), load("B", {v("i")}, Float)));
  EXPECT_FALSE(equal(load("A", {v("i")}, Float), load("A", {v("i"), v("j")}, Float)));
  EXPECT_FALSE(equal(floatImm(0.5, Float), floatImm(0.25, Float)));
  // The spelling is presentation, not value.
  EXPECT_TRUE(equal(floatImm(0.5, Float, "0.5f"), floatImm(0.5, Float)));
}

}  // namespace
