// Short builders for hand-made kernels in the IR and analysis tests.
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <vector>

namespace rtcuda::ir::test {

inline const Type Int = Type::of(ScalarKind::Int);
inline const Type Float = Type::of(ScalarKind::Float);

inline Expr v(const std::string &name) { return var(name); }
inline Expr c(int64_t value) { return intImm(value); }
inline Expr B(const char *op, Expr a, Expr b) { return binary(op, std::move(a), std::move(b)); }
inline Expr ld(const std::string &array, std::vector<Expr> indices, Type t = Float) {
  return load(array, std::move(indices), t);
}

inline Param scalar(const std::string &name) {
  Param p;
  p.name = name;
  p.type = Int;
  return p;
}

// dims: logical extents, outermost first; a null first extent is an unsized pointer.
inline Param array(const std::string &name, std::vector<Expr> dims, Type t = Float) {
  Param p = scalar(name);
  p.type = t;
  p.isArray = true;
  p.dims = std::move(dims);
  return p;
}

}  // namespace rtcuda::ir::test
