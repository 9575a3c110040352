// Tests of the IR printer: minimal parentheses, literals, every statement kind, and kernels in
// the three print modes (Dump for --print-after, Cuda for kernel.cu, C for sequential C).

#include "rtcuda/IR/IR.h"
#include "rtcuda/IR/Printer.h"

#include <gtest/gtest.h>

using namespace rtcuda::ir;

namespace {

const Type Int = Type::of(ScalarKind::Int);
const Type Float = Type::of(ScalarKind::Float);
const Type Double = Type::of(ScalarKind::Double);

Expr v(const std::string &name) { return var(name); }
Expr c(int64_t value) { return intImm(value); }
Expr B(const char *op, Expr a, Expr b) { return binary(op, std::move(a), std::move(b)); }

// ---- parentheses --------------------------------------------------------------------------

TEST(PrinterExprTest, LeftAssociativeOperatorsNeedParensOnTheRightOnly) {
  EXPECT_EQ(print(B("-", v("a"), B("-", v("b"), v("c")))), "a - (b - c)");
  EXPECT_EQ(print(B("-", B("-", v("a"), v("b")), v("c"))), "a - b - c");
  EXPECT_EQ(print(B("/", v("a"), B("*", v("b"), v("c")))), "a / (b * c)");
  EXPECT_EQ(print(B("*", B("/", v("a"), v("b")), v("c"))), "a / b * c");
  EXPECT_EQ(print(B("+", v("a"), B("-", v("b"), v("c")))), "a + (b - c)");
  EXPECT_EQ(print(B("%", v("a"), B("%", v("b"), v("c")))), "a % (b % c)");
}

TEST(PrinterExprTest, Precedence) {
  EXPECT_EQ(print(B("*", B("+", v("a"), v("b")), v("c"))), "(a + b) * c");
  EXPECT_EQ(print(B("+", B("*", v("a"), v("b")), v("c"))), "a * b + c");
  EXPECT_EQ(print(B("+", v("a"), B("*", v("b"), v("c")))), "a + b * c");
  EXPECT_EQ(print(B("*", v("a"), B("+", v("b"), v("c")))), "a * (b + c)");
  EXPECT_EQ(print(B("||", v("a"), B("&&", v("b"), v("c")))), "a || b && c");
  EXPECT_EQ(print(B("&&", B("||", v("a"), v("b")), v("c"))), "(a || b) && c");
  EXPECT_EQ(print(B("&&", B("<", v("i"), v("N")), B(">=", v("j"), c(0)))), "i < N && j >= 0");
  EXPECT_EQ(print(B("==", B("&", v("x"), c(255)), c(0))), "(x & 255) == 0");
  EXPECT_EQ(print(B("+", B("<<", v("x"), c(2)), c(1))), "(x << 2) + 1");
  EXPECT_EQ(print(B("<<", v("x"), B("+", c(2), c(1)))), "x << 2 + 1");
  EXPECT_EQ(print(B("|", B("^", v("a"), v("b")), B("&", v("c"), v("d")))), "a ^ b | c & d");
  EXPECT_EQ(print(B("&", B("|", v("a"), v("b")), v("c"))), "(a | b) & c");
}

TEST(PrinterExprTest, Unary) {
  EXPECT_EQ(print(unary("-", v("x"))), "-x");
  EXPECT_EQ(print(unary("-", c(-3))), "-(-3)");  // never "--3"
  EXPECT_EQ(print(unary("-", unary("-", v("x")))), "-(-x)");
  EXPECT_EQ(print(unary("-", floatImm(-0.5, Float))), "-(-0.5f)");
  EXPECT_EQ(print(unary("-", B("+", v("a"), v("b")))), "-(a + b)");
  EXPECT_EQ(print(unary("!", B("<", v("a"), v("b")))), "!(a < b)");
  EXPECT_EQ(print(unary("~", v("x"))), "~x");
  EXPECT_EQ(print(unary("!", unary("!", v("p")))), "!!p");
  EXPECT_EQ(print(B("*", unary("-", v("a")), v("b"))), "-a * b");
  EXPECT_EQ(print(B("-", c(-1), v("b"))), "-1 - b");
}

TEST(PrinterExprTest, Casts) {
  EXPECT_EQ(print(cast(Float, v("i"))), "(float)i");
  EXPECT_EQ(print(cast(Float, B("+", v("i"), c(1)))), "(float)(i + 1)");
  EXPECT_EQ(print(cast(Int, cast(Double, v("x")))), "(int)(double)x");
  EXPECT_EQ(print(cast(Float, load("A", {v("i")}, Int))), "(float)A[i]");
  EXPECT_EQ(print(B("*", cast(Type::of(ScalarKind::ULongLong), v("i")), v("N"))),
            "(unsigned long long)i * N");
  EXPECT_EQ(print(unary("-", cast(Float, v("i")))), "-(float)i");
}

TEST(PrinterExprTest, Select) {
  EXPECT_EQ(print(select(v("p"), v("a"), v("b"))), "p ? a : b");
  EXPECT_EQ(print(select(B("<", v("a"), v("b")), v("a"), v("b"))), "a < b ? a : b");
  EXPECT_EQ(print(select(B("||", v("p"), v("q")), v("a"), v("b"))), "p || q ? a : b");
  // ?: is right-associative: a nested else needs no parentheses, a nested condition does.
  EXPECT_EQ(print(select(v("p"), v("a"), select(v("q"), v("b"), v("c")))), "p ? a : q ? b : c");
  EXPECT_EQ(print(select(select(v("p"), v("q"), v("r")), v("a"), v("b"))),
            "(p ? q : r) ? a : b");
  EXPECT_EQ(print(B("+", v("x"), select(v("p"), v("a"), v("b")))), "x + (p ? a : b)");
  EXPECT_EQ(print(B("+", select(v("p"), v("a"), v("b")), v("x"))), "(p ? a : b) + x");
}

TEST(PrinterExprTest, CallsLoadsAndNull) {
  EXPECT_EQ(print(call("fmaxf", {v("a"), B("+", v("b"), v("c"))}, Float)), "fmaxf(a, b + c)");
  EXPECT_EQ(print(call("rand", {}, Int)), "rand()");
  EXPECT_EQ(print(load("A", {v("i"), B("+", v("j"), c(1))}, Float)), "A[i][j + 1]");
  EXPECT_EQ(print(load("A", {B("+", B("*", v("i"), v("N")), v("j"))}, Float)), "A[i * N + j]");
  EXPECT_EQ(print(Expr()), "<null>");
}

// ---- literals -----------------------------------------------------------------------------

TEST(PrinterLiteralTest, FloatSpellingIsKept) {
  EXPECT_EQ(print(floatImm(0.25, Float, "0.25f")), "0.25f");
  EXPECT_EQ(print(floatImm(1e-3, Double, "1e-3")), "1e-3");
  EXPECT_EQ(print(floatImm(1.0, Float, "1.F")), "1.F");
}

TEST(PrinterLiteralTest, GeneratedFloatLiterals) {
  EXPECT_EQ(print(floatImm(0.5, Float)), "0.5f");
  EXPECT_EQ(print(floatImm(1e-3, Double)), "0.001");
  EXPECT_EQ(print(floatImm(1e-3, Float)), "0.001f");
  EXPECT_EQ(print(floatImm(2.0, Double)), "2.0");  // stays a floating literal
  EXPECT_EQ(print(floatImm(2.0, Float)), "2.0f");
  EXPECT_EQ(print(floatImm(0.0, Float)), "0.0f");
  EXPECT_EQ(print(floatImm(-2.5, Double)), "-2.5");
  EXPECT_EQ(print(floatImm(1e20, Double)), "1e+20");
  EXPECT_EQ(print(floatImm(1e20, Float)), "1e+20f");
  // Doubles keep all 17 digits so they read back as the same value.
  EXPECT_EQ(print(floatImm(0.1, Double)), "0.10000000000000001");
  EXPECT_EQ(print(floatImm(0.1, Float)), "0.1f");
}

TEST(PrinterLiteralTest, IntegerSuffixes) {
  EXPECT_EQ(print(intImm(3)), "3");
  EXPECT_EQ(print(intImm(-3)), "-3");
  EXPECT_EQ(print(intImm(3, Type::of(ScalarKind::UInt))), "3u");
  EXPECT_EQ(print(intImm(3, Type::of(ScalarKind::Long))), "3L");
  EXPECT_EQ(print(intImm(3, Type::of(ScalarKind::ULong))), "3UL");
  EXPECT_EQ(print(intImm(3, Type::of(ScalarKind::LongLong))), "3LL");
  EXPECT_EQ(print(intImm(3, Type::of(ScalarKind::ULongLong))), "3ULL");
  EXPECT_EQ(print(intImm(3, Type::of(ScalarKind::Short))), "3");
  EXPECT_EQ(print(intImm(4294967296LL, Type::of(ScalarKind::LongLong))), "4294967296LL");
}

// ---- statements ---------------------------------------------------------------------------

Stmt loopWithStep(Expr min, Expr end, Expr step) {
  return forLoop("i", Int, std::move(min), std::move(end), std::move(step),
                 block({store("A", {v("i")}, "=", c(0))}));
}

TEST(PrinterStmtTest, ForSteps) {
  EXPECT_EQ(print(loopWithStep(c(0), v("N"), c(1))),
            "for (int i = 0; i < N; i++) {\n  A[i] = 0;\n}\n");
  EXPECT_EQ(print(loopWithStep(c(0), v("N"), c(3))),
            "for (int i = 0; i < N; i += 3) {\n  A[i] = 0;\n}\n");
  EXPECT_EQ(print(loopWithStep(B("-", v("N"), c(1)), c(-1), c(-1))),
            "for (int i = N - 1; i > -1; i--) {\n  A[i] = 0;\n}\n");
  EXPECT_EQ(print(loopWithStep(v("N"), c(0), c(-2))),
            "for (int i = N; i > 0; i -= 2) {\n  A[i] = 0;\n}\n");
  EXPECT_EQ(print(loopWithStep(c(0), v("N"), v("s"))),
            "for (int i = 0; i < N; i += s) {\n  A[i] = 0;\n}\n");
}

TEST(PrinterStmtTest, ForLoopKindIsShownInDumpsOnly) {
  Stmt s = forLoop("i", Type::of(ScalarKind::LongLong), c(0), v("N"), c(1),
                   store("A", {v("i")}, "=", c(0)), LoopKind::Parallel);
  EXPECT_EQ(print(s), "for (long long i = 0; i < N; i++) {  // parallel\n  A[i] = 0;\n}\n");
  EXPECT_EQ(print(s, PrintMode::Cuda), "for (long long i = 0; i < N; i++) {\n  A[i] = 0;\n}\n");
  EXPECT_EQ(print(s, PrintMode::C), "for (long long i = 0; i < N; i++) {\n  A[i] = 0;\n}\n");
  Stmt t = forLoop("t", Int, c(0), v("K"), v("TILE"), block({}), LoopKind::Tile);
  EXPECT_EQ(print(t), "for (int t = 0; t < K; t += TILE) {  // tile\n}\n");
}

TEST(PrinterStmtTest, NestingAndIndentation) {
  Stmt inner = forLoop("j", Int, c(0), v("M"), c(1),
                       block({decl("acc", Float, floatImm(0.0, Float, "0.0f")),
                              assign("acc", "+=", load("A", {v("i"), v("j")}, Float)),
                              store("C", {v("i"), v("j")}, "=", v("acc"))}));
  Stmt outer = forLoop("i", Int, c(0), v("N"), c(1), inner);  // body not wrapped in a Block
  EXPECT_EQ(print(outer), "for (int i = 0; i < N; i++) {\n"
                          "  for (int j = 0; j < M; j++) {\n"
                          "    float acc = 0.0f;\n"
                          "    acc += A[i][j];\n"
                          "    C[i][j] = acc;\n"
                          "  }\n"
                          "}\n");
  EXPECT_EQ(print(barrier(), PrintMode::Dump, 2), "    __syncthreads();\n");
}

TEST(PrinterStmtTest, Declarations) {
  EXPECT_EQ(print(decl("acc", Float, floatImm(0.0, Float))), "float acc = 0.0f;\n");
  EXPECT_EQ(print(decl("b", Int)), "int b;\n");
  EXPECT_EQ(print(decl("tile", Float, nullptr, c(256))), "float tile[256];\n");
  EXPECT_EQ(print(decl("n", Type::of(ScalarKind::UInt), intImm(0, Type::of(ScalarKind::UInt)))),
            "unsigned int n = 0u;\n");
  EXPECT_EQ(print(decl("b", Int, B("&", load("x", {v("i")}, Int), c(255)))),
            "int b = x[i] & 255;\n");
}

TEST(PrinterStmtTest, AssignmentsAndStores) {
  EXPECT_EQ(print(assign("acc", "+=", B("*", load("A", {v("i")}, Float),
                                        load("B", {v("i")}, Float)))),
            "acc += A[i] * B[i];\n");
  EXPECT_EQ(print(assign("t", "=", c(1))), "t = 1;\n");
  EXPECT_EQ(print(store("C", {v("i"), v("j")}, "=", v("acc"))), "C[i][j] = acc;\n");
  EXPECT_EQ(print(store("hist", {v("b")}, "+=", c(1))), "hist[b] += 1;\n");
}

TEST(PrinterStmtTest, IfAndWhile) {
  Stmt only = ifThen(B("<", v("i"), v("N")), store("C", {v("i")}, "=", c(1)));
  EXPECT_EQ(print(only), "if (i < N) {\n  C[i] = 1;\n}\n");
  Stmt both = ifThen(v("p"), block({assign("x", "=", c(1)), assign("y", "=", c(2))}),
                     assign("x", "=", c(2)));
  EXPECT_EQ(print(both, PrintMode::Dump, 1), "  if (p) {\n"
                                             "    x = 1;\n"
                                             "    y = 2;\n"
                                             "  } else {\n"
                                             "    x = 2;\n"
                                             "  }\n");
  EXPECT_EQ(print(whileLoop(B(">", v("k"), c(0)), assign("k", "-=", c(1)))),
            "while (k > 0) {\n  k -= 1;\n}\n");
}

TEST(PrinterStmtTest, SimpleStatements) {
  EXPECT_EQ(print(barrier()), "__syncthreads();\n");
  EXPECT_EQ(print(comment("stage the tile")), "// stage the tile\n");
  auto brk = std::make_shared<StmtNode>();
  brk->kind = StmtKind::Break;
  EXPECT_EQ(print(Stmt(brk), PrintMode::C, 1), "  break;\n");
  auto cont = std::make_shared<StmtNode>();
  cont->kind = StmtKind::Continue;
  EXPECT_EQ(print(Stmt(cont)), "continue;\n");
  EXPECT_EQ(print(block({})), "");
  EXPECT_EQ(print(Stmt()), "");
  EXPECT_EQ(print(block({barrier(), block({comment("x")})})), "__syncthreads();\n// x\n");
}

// ---- kernels ------------------------------------------------------------------------------

// Param's fields in order, without the source location.
Param param(const std::string &name, Type t, bool isArray = false, bool isConst = false,
            bool isRestrict = false, std::vector<Expr> dims = {}) {
  Param p;
  p.name = name;
  p.type = t;
  p.isArray = isArray;
  p.isConst = isConst;
  p.isRestrict = isRestrict;
  p.dims = std::move(dims);
  return p;
}

Kernel scaleKernel() {
  Kernel k;
  k.name = "scale";
  k.macroPrefix = "SCALE";
  k.params = {param("N", Int), param("A", Float, true, true, true, {v("N"), v("N")}),
              param("B", Float, true, false, true, {nullptr, v("N")}),
              param("C", Float, true, false, false, {nullptr}), param("alpha", Float)};
  Stmt store1 = store("C", {B("+", B("*", v("i"), v("N")), v("j"))}, "=",
                      B("*", v("alpha"), B("+", load("A", {v("i"), v("j")}, Float),
                                           load("B", {v("i"), v("j")}, Float))));
  Stmt inner = forLoop("j", Int, c(0), v("N"), c(1), block({store1}), LoopKind::Parallel);
  k.body = block({forLoop("i", Int, c(0), v("N"), c(1), block({inner}), LoopKind::Parallel)});
  return k;
}

TEST(PrinterKernelTest, Dump) {
  EXPECT_EQ(printKernel(scaleKernel()),
            "kernel scale(int N, const float A[restrict N][N], float B[restrict][N], float C[], "
            "float alpha)\n"
            "{\n"
            "  for (int i = 0; i < N; i++) {  // parallel\n"
            "    for (int j = 0; j < N; j++) {  // parallel\n"
            "      C[i * N + j] = alpha * (A[i][j] + B[i][j]);\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(PrinterKernelTest, Cuda) {
  EXPECT_EQ(printKernel(scaleKernel(), PrintMode::Cuda),
            "__global__ void __launch_bounds__(SCALE_BLOCKSIZE)\n"
            "scale(int N, const float *__restrict__ A, float *__restrict__ B, float *C, "
            "float alpha)\n"
            "{\n"
            "  for (int i = 0; i < N; i++) {\n"
            "    for (int j = 0; j < N; j++) {\n"
            "      C[i * N + j] = alpha * (A[i][j] + B[i][j]);\n"
            "    }\n"
            "  }\n"
            "}\n");
}

TEST(PrinterKernelTest, C) {
  EXPECT_EQ(printSignature(scaleKernel(), PrintMode::C),
            "void scale(int N, const float *restrict A, float *restrict B, float *C, "
            "float alpha)");
  std::string text = printKernel(scaleKernel(), PrintMode::C);
  EXPECT_EQ(text.substr(0, text.find('\n')), printSignature(scaleKernel(), PrintMode::C));
  EXPECT_EQ(text.find("//"), std::string::npos);
}

TEST(PrinterKernelTest, BodyThatIsNotABlock) {
  Kernel k;
  k.name = "one";
  k.macroPrefix = "ONE";
  k.params = {param("A", Double, true, false, false, {c(1)})};
  k.body = store("A", {c(0)}, "=", floatImm(1.0, Double));
  EXPECT_EQ(printKernel(k), "kernel one(double A[1])\n{\n  A[0] = 1.0;\n}\n");
  EXPECT_EQ(printKernel(k, PrintMode::Cuda),
            "__global__ void __launch_bounds__(ONE_BLOCKSIZE)\none(double *A)\n{\n"
            "  A[0] = 1.0;\n}\n");
}

}  // namespace
