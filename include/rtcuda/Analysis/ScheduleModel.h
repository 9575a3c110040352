// The polyhedral model of one loop nest of a kernel function, for rescheduling it with isl
// (lib/Transforms/Reschedule.cpp): its statements, their iteration domains, the array elements
// each reads and writes, and the order the source runs them in. Built by the dependence
// analyzer of Dependence.cpp (the same loop bounds, conditions and subscripts as isl text), and
// only when that model is exact: every bound, condition and subscript affine, every statement
// an array store. Otherwise `failure` says what was found.
#pragma once

#include "rtcuda/IR/IR.h"

#include <string>
#include <vector>

namespace rtcuda {

struct ModelStatement {
  std::string name;                    // S0, S1, ... (the isl tuple name)
  ir::Stmt stmt;                       // the store
  std::vector<ir::Stmt> loops;         // its enclosing loops, the nest's first
};

struct NestModel {
  std::vector<ModelStatement> statements;
  // isl texts over the iterations S<k>[L0, ..., Ld] (Ld: the statement's innermost loop),
  // parameters named P_<scalar> (a product of scalars Q_P_a_x_P_b):
  std::string domain;    // union set: the iterations each statement runs
  std::string reads;     // union map: iteration -> array element read (A_<array>[...])
  std::string writes;    // union map: iteration -> element written
  std::string schedule;  // union map: iteration -> its position in the source's order
  std::string failure;   // not empty: the nest has no exact model, and why
};

// The model of `nest`, a loop of `fn`'s body (the kernel function before Outline).
NestModel nestModel(const ir::Kernel &fn, const ir::Stmt &nest);

}  // namespace rtcuda
