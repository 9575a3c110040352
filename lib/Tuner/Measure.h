// rtcuda-tune's measurement of one kernel (private to lib/Tuner): the rounds of successive
// halving at the target size through the harness, with a progress line and ETA.
#pragma once

#include "rtcuda/Tuner/Tuner.h"

#include <chrono>
#include <string>
#include <vector>

namespace rtcuda::tune {

// One status line, rewritten in place on a terminal.
class Progress {
public:
  explicit Progress(bool quiet);
  // Off a terminal (CI logs) at most one line every few seconds.
  void show(const std::string &text);
  void line(const std::string &text);
  void done();

private:
  bool quiet_, tty_, open_ = false;
  std::chrono::steady_clock::time_point last_{};
};

std::string fmt(double v, int digits = 2);

// What identifies a kernel's code for the caches: kernel.cu, the reference C, the kernel's
// name and tuning space (not the header's default, which the tuner itself rewrites).
std::string kernelHash(const Manifest &m, const TuneKernel &k);

struct Measuring {
  const TuneOptions &opts;
  const Manifest &m;
  const std::string &exe;
  const DeviceLimits &device;
  const std::string &toolkit;
  Cache &cache;
  Progress &progress;
  std::string label;  // "kernel 2/5" for the progress line
  // The run's ETA over all kernels: this one is `kernelIndex` of `kernelCount`, measured from
  // `kernelStart`; `finishedSeconds` is what measuring the ones before it took.
  size_t kernelIndex = 0, kernelCount = 1;
  double finishedSeconds = 0;
  std::chrono::steady_clock::time_point kernelStart = std::chrono::steady_clock::now();
};

// Measures `candidates` (indices into kr.variants; the default point among them or not) in
// rounds (Selection.h), records every result, and decides against the default point. Returns
// false when interrupted. `space` is the kernel's space (the budget search moves in it).
bool measureKernel(Measuring &ms, KernelResult &kr, const std::vector<Variant> &space);

// Checks each alternative instantiation of the kernel (ManifestKernel::alternatives) against
// the same reference at the checking size and times it at the target size: the tuning points
// are measured through the kernel itself, so these are never checked by the rounds above.
// Results go to kr.alternatives. Returns false when interrupted.
bool checkAlternatives(Measuring &ms, KernelResult &kr);

}  // namespace rtcuda::tune
