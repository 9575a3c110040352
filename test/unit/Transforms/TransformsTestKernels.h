// Hand-built kernels for the pass, pipeline and code generation tests (no Clang).
#pragma once

#include "rtcuda/IR/Program.h"

#include "KernelBuilders.h"

namespace rtcuda::ir::test {

inline Stmt loopTo(const std::string &var, Expr end, std::vector<Stmt> body) {
  return forLoop(var, Int, c(0), std::move(end), c(1), block(std::move(body)));
}

// madd: C[i][j] = A[i][j] + B[i][j] over N x M, as the frontend hands it over (loops serial).
inline Kernel matrixAdd() {
  Kernel k;
  k.name = "madd";
  k.loc = SourceLoc{"madd.c", 1, 6};
  k.params = {scalar("N"), scalar("M"), array("A", {v("N"), v("M")}),
              array("B", {v("N"), v("M")}), array("C", {v("N"), v("M")})};
  k.body = block({loopTo("i", v("N"),
                         {loopTo("j", v("M"),
                                 {store("C", {v("i"), v("j")}, "=",
                                        B("+", ld("A", {v("i"), v("j")}),
                                          ld("B", {v("i"), v("j")})))})})});
  return k;
}

// rowsum: for i { float s = 0; for j { s += A[i][j]; } y[i] = s; }
inline Kernel rowSums() {
  Kernel k;
  k.name = "rowsum";
  k.loc = SourceLoc{"rowsum.c", 1, 6};
  k.params = {scalar("N"), array("A", {v("N"), v("N")}), array("y", {v("N")})};
  k.body = block({loopTo("i", v("N"),
                         {decl("s", Float, floatImm(0, Float, "0.0f")),
                          loopTo("j", v("N"), {assign("s", "+=", ld("A", {v("i"), v("j")}))}),
                          store("y", {v("i")}, "=", v("s"))})});
  return k;
}

inline KernelSource source(Kernel k, KernelOptions options = {}) {
  options.name = k.name;
  return KernelSource{std::move(k), std::move(options), "test.c"};
}

}  // namespace rtcuda::ir::test
