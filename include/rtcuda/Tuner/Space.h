// The kernels of an output folder as the tuner sees them: the manifest's description plus the
// launch shape (grid, threads per block), the tuning space as a list of variants, and the
// problem sizes to tune for.
#pragma once

#include "rtcuda/Support/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace rtcuda::tune {

struct GridDim {
  std::string iterations;   // loop iterations on this dimension (over the scalar parameters)
  std::string perBlock;     // iterations one block covers (over the tuning macros)
  long long maxBlocks = 2147483647;
};

struct TuneKernel {
  ManifestKernel k;
  std::vector<GridDim> grid;        // x first
  std::string blockThreads;         // threads per block (over the tuning macros)
  std::string dataType;             // element types of the arrays, e.g. "float" or "double,int"
  // Why the measurement harness cannot launch this kernel on its own (empty when it can): a
  // reduction's device buffers and <name>_finish kernel are not described by manifest.json.
  std::string notMeasurable;
  // An outlined function's kernel: the function's name (empty for a kernel of its own). It has
  // no C function of its own: each variant is checked against its default point's output
  // (rtcuda verify checks the default point, with the function as a whole, against the C).
  std::string function;
};

// One point of a kernel's space: a value per tuning parameter, in the order of k.tuning.
using Variant = std::vector<int>;

// The kernels of `m`, with the launch fields read from <dir>/manifest.json, then the kernels of
// each outlined function (`notMeasurable` says why one cannot be measured on its own).
std::vector<TuneKernel> loadKernels(const Manifest &m);

// Whether the kernel reads the variable of a host loop around its launch (a parameter of role
// "host": an outlined kernel in lu's pivot loop or fdtd-2d's time loop).
bool readsHostLoop(const TuneKernel &k);
// The bindings a kernel is measured at: `sizes` alone, or for a kernel that reads a host loop's
// variable, `sizes` with the loops' variables at their first, middle and last iteration (an
// inner loop at the same position of the range its outer values give), duplicates and values
// where the kernel's grid is empty (the host skips those launches) left out. Each is checked
// on its own; a timed run launches the kernel at all of them in turn. Throws ExprError when a
// bound cannot be evaluated.
std::vector<std::map<std::string, long long>> hostSamples(const TuneKernel &k,
                                                          const std::map<std::string, long long> &sizes);
// " at c0=0; c0=2047; c0=4094" for a kernel that reads a host loop's variable, else "".
std::string samplesId(const TuneKernel &k, const std::vector<std::map<std::string, long long>> &samples);

// Every combination of the tuning values (the first parameter varies slowest).
std::vector<Variant> enumerateSpace(const TuneKernel &k);
// At most `max` variants of `space`: all of them when it is that small, else the default point
// and a seeded random sample of the others, in the space's order (a register tile's space has
// thousands of points, and every variant tuned is compiled once for its resources).
std::vector<Variant> sampleSpace(const std::vector<Variant> &space, const Variant &defaultPoint,
                                 size_t max, unsigned seed);
// The default point (each parameter's "default").
Variant defaultVariant(const TuneKernel &k);
// "BLOCKSIZE=256" or "BLOCKSIZE=256,MERGE_LEVEL=2": the variant's name in reports and caches.
std::string variantId(const TuneKernel &k, const Variant &v);
// Macro bindings of a variant: {"MM_BLOCKSIZE": 256}.
std::map<std::string, long long> macroValues(const TuneKernel &k, const Variant &v);

struct Geometry {
  long long blocks[2] = {0, 1};     // grid blocks in x and y
  long long iterations[2] = {0, 1};
  long long perBlock[2] = {1, 1};
  long long threads = 0;            // threads per block
  // Iterations each mapped iteration stands for: a variant that merges or skews k loop
  // iterations into one thread maps k times fewer (set by the tuner from the whole space).
  double coarsening = 1;
  long long totalBlocks() const { return blocks[0] * blocks[1]; }
  long long totalIterations() const { return iterations[0] * iterations[1]; }
};

// The launch a variant gets at the given sizes, computed as launch.cuh does:
// min(ceil(iterations / per_block), max_blocks) blocks per dimension. Throws ExprError.
Geometry geometry(const TuneKernel &k, const std::map<std::string, long long> &sizes,
                  const Variant &v);

// Problem sizes: every `size` parameter of the kernel gets the value of `given` if named there,
// else the value main.c gives it (a literal default such as `int N = argc > 1 ? atoi(argv[1])
// : 128;`), else the smallest power of two whose largest array reaches 2^22 elements, capped at
// its `at_most` (a given or main.c value over it is left for the caller to refuse).
// `origin` says for each name where its value came from.
std::map<std::string, long long> chooseSizes(const Manifest &m, const TuneKernel &k,
                                             const std::map<std::string, long long> &given,
                                             std::map<std::string, std::string> *origin);

// An array whose element count is a constant (PolyBench's arrays are declared with the
// dataset's sizes): running at larger sizes than those would index past its end.
bool hasFixedExtent(const ManifestParam &p);

// `sizes` with each size capped at its manifest `at_most` (its loops index a dimension of that
// constant extent, so a larger value would index past the array), as rtcuda verify caps them.
std::map<std::string, long long> withinLimits(const TuneKernel &k, std::map<std::string, long long> sizes);

// The sizes every variant is checked at (against the sequential C, on the CPU): the target
// sizes scaled down together until the largest array has at most `maxElements` elements.
// Sizes of at most 64 stay; the others become odd and at least 63 (not a multiple of any block
// size), so a large target costs no slow CPU reference. Equal to `target` when it is that small.
// Each is at most its `at_most` (withinLimits).
std::map<std::string, long long> checkSizes(const TuneKernel &k,
                                            const std::map<std::string, long long> &target,
                                            long long maxElements = 1 << 18);

// Literal defaults of variables in the C sources of the output's src/ folder (main.c).
std::map<std::string, long long> mainSizeDefaults(const std::string &outDir);

// "N=2048,M=100": sizes as one string (for keys and reports).
std::string sizesId(const std::map<std::string, long long> &sizes);

}  // namespace rtcuda::tune
