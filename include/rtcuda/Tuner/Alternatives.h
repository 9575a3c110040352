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

// The value of the selecting macro (<NAME>_SMALL_GRID) in the kernel's parameter header in
// `outDir`: 0 never an alternative, 1 the small-grid rule, i + 2 always alternative i. The
// header's default (1) when the header does not define it.
int selectorValue(const std::string &outDir, const TuneKernel &k);

// The instantiation the launch runs for point `v` at `sizes` on a GPU of `smCount` SMs, with
// the selecting macro at `selector` (LaunchFunction.cpp's rule): -1 the point's own kernel,
// else the index of the alternative in k.k.alternatives. With the rule (1): a "small_grid"
// alternative (a 64-bit "index_width" one is launched where the counts pass 2^31 - 1, which a
// tuning target is taken not to: the program's launch still checks) only
// when the point's grid (x blocks, before any cap) is smaller than the SM count, the one whose
// grid has the most blocks without passing it. Throws ExprError.
int launchedAlternative(const TuneKernel &k, const std::map<std::string, long long> &sizes,
                        const Variant &v, int selector, long long smCount);

}  // namespace rtcuda::tune
