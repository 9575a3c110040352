// Alternative instantiations of a kernel chosen at launch (RegisterTiling's small-grid tiles,
// manifest.json's `alternatives`): which one the program's launch runs for a tuning point, so
// that rtcuda-tune times what the program runs (docs/tuner.md, "Alternative instantiations").
#pragma once

#include "rtcuda/Tuner/Space.h"

#include <map>
#include <string>

namespace rtcuda::tune {

// The alternative as a kernel of its own: its grid and threads over its own macros, and its
// fixed point (`point`, in the order of the returned kernel's tuning).
TuneKernel alternativeKernel(const TuneKernel &k, const ManifestAlternative &alt, Variant *point);

// The value of the selecting macro (<NAME>_SMALL_GRID or <NAME>_WIDE_INDEX) in the kernel's
// parameter header in `outDir`. The header's default (1) when the header does not define it.
int selectorValue(const std::string &outDir, const TuneKernel &k);

// The value of `macro` in the kernel's parameter header in `outDir` (1 where it is not defined).
int headerValue(const std::string &outDir, const TuneKernel &k, const std::string &macro);

// What an alternative's grid reads besides the sizes and its point: `rtcuda_sms` and each split
// instantiation's <NAME>_SPLIT_K as the header sets it (its grid[1] is the launch's number of
// chunks of k, CodeGen's splitCount).
std::map<std::string, long long> launchNames(const std::string &outDir, const TuneKernel &k,
                                             long long smCount);

// The instantiation the launch runs for point `v` at `sizes` on a GPU of `smCount` SMs, with
// the selecting macro at `selector`: -1 the point's own kernel, else the index of the
// alternative in k.k.alternatives. The rule is not written here: it is manifest.json's
// `launch_choice`, the expression launch.cuh's rtcuda_<name>_launched_alternative returns
// (CodeGen's launchChoice), evaluated. Throws ExprError.
int launchedAlternative(const TuneKernel &k, const std::map<std::string, long long> &sizes,
                        const Variant &v, int selector, long long smCount);

// Throws ManifestError unless launch.cuh in `outDir` returns the manifest's launch_choice of
// `k` from rtcuda_<name>_launched_alternative (an edited or stale file).
void checkLaunchChoice(const std::string &outDir, const TuneKernel &k);

}  // namespace rtcuda::tune
