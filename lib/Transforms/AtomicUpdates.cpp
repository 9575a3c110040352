// AtomicUpdates: updates of array elements that different threads may apply to the same
// element (the legality analysis lists the arrays) become atomic read-modify-writes:
//
//   hist[data[i] & 63] += 1;          ==>   atomicAdd(&hist[data[i] & 63], 1);
//   lo[k] = fminf(lo[k], x[i]);       ==>   rtcuda_atomic_min(&lo[k], x[i]);
//
// The operators are commutative and associative, so any order of the updates gives the
// sequential result (up to floating-point rounding for + and *). Operations CUDA has no atomic
// instruction for are compare-and-swap loops that kernel.cu defines (rtcuda_atomic_*).
#include "rtcuda/Analysis/Reductions.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/Transforms/Pass.h"

#include <algorithm>

namespace rtcuda {

using namespace ir;

std::string atomicFunction(const std::string &op, const Type &t) {
  bool integer = t.kind == ScalarKind::Int || t.kind == ScalarKind::UInt;
  if (op == "+") return "atomicAdd";
  if (op == "*") return "rtcuda_atomic_mul";
  if (op == "min") return integer ? "atomicMin" : "rtcuda_atomic_min";
  if (op == "max") return integer ? "atomicMax" : "rtcuda_atomic_max";
  if (op == "|") return "atomicOr";
  if (op == "&") return "atomicAnd";
  return "atomicXor";
}

Kernel atomicUpdates(const Kernel &k, const PassContext &) {
  if (k.atomicArrays.empty()) return k;
  Kernel out = k;
  out.body = mapStmt(k.body, [&](const Stmt &s) -> Stmt {
    if (s->kind != StmtKind::Store ||
        std::find(k.atomicArrays.begin(), k.atomicArrays.end(), s->name) == k.atomicArrays.end())
      return s;
    auto form = arrayUpdate(s);
    if (!form) return s;  // a plain store the analysis found conflicts with no other access
    Type elem = k.findParam(s->name)->type;
    Expr value = form->value->type == elem ? form->value : cast(elem, form->value);
    std::string fn = atomicFunction(form->op, elem);
    if (form->negate) {
      if (elem.isFloat()) value = unary("-", value);
      else fn = "atomicSub";
    }
    auto copy = std::make_shared<StmtNode>(*s);
    copy->op = fn;
    copy->value = value;
    return copy;
  });
  out.passes.push_back("AtomicUpdates");
  return out;
}

}  // namespace rtcuda
