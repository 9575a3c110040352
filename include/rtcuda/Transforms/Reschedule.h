// Reschedule: a loop nest of a kernel function whose source order keeps sequential loops two or
// more deep around its parallel work gets a new order from isl's scheduler, before Fission and
// Outline map it (docs/passes/Reschedule.md).
#pragma once

#include "rtcuda/IR/IR.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rtcuda {

// How a function would run: the number of kernel launches in its host code by the number of
// host loops around them (index 0: launched once per call), and how many of its kernels run
// loops in one GPU thread.
struct LaunchShape {
  std::vector<int> byDepth;
  int serialKernels = 0;
  std::string refusal;  // not empty: the function could not be mapped, and why
};
using LaunchShapeFn = std::function<LaunchShape(const ir::Kernel &)>;

// Whether `now` launches fewer kernels than `before` at the deepest host-loop level where the
// two differ (and none deeper), with no more kernels that run loops in one thread.
bool fewerLaunches(const LaunchShape &now, const LaunchShape &before);

struct RescheduleResult {
  ir::Kernel kernel;  // the function, nests rescheduled (the same when none was)
  std::vector<std::pair<ir::SourceLoc, std::string>> remarks;
};

// Reschedules the top-level loop nests of `fn` when `shape` (Fission and Outline, asked of the
// function as a whole) has launches inside two or more host loops, keeping a new order only when
// `shape` of the result has fewer launches at the deepest level and no more kernels that run
// loops in one thread.
RescheduleResult rescheduleNests(const ir::Kernel &fn, const LaunchShapeFn &shape);

struct KernelSource;
// The shape `fn` would have after ArrayExpansion, Fission and Outline, with `source`'s options
// (LaunchShape.cpp; outlineProgram passes it to rescheduleNests).
LaunchShape launchShapeAfterOutline(const KernelSource &source, const ir::Kernel &fn);

}  // namespace rtcuda
