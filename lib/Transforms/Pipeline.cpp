// The lowering pipeline: every kernel goes through the same list of passes, in this order.
// `rtcuda translate --print-after=<step>` prints the IR after any of them.
#include "rtcuda/Transforms/Pipeline.h"

#include "RegisterTiling.h"

#include "rtcuda/Analysis/ParallelNest.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"
#include "rtcuda/IR/Simplify.h"
#include "rtcuda/IR/Verifier.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace rtcuda {

namespace {

const std::vector<Pass> &kernelPasses() {
  static const std::vector<Pass> passes = {
      {"AtomicUpdates", "make updates that threads may share atomic", atomicUpdates},
      {"HaloTile", "stencils and filters: a block stages its tile plus halo in shared memory", haloTile},
      {"NeighbourReuse", "stencils and filters: several outputs per thread (merge and skew)", neighbourReuse},
      {"ContractionForm", "a contraction's accumulator in a register, a triangle's guard on its store", contractionForm},
      {"BlockMerge", "each thread computes MERGE_LEVEL rows (strip-mine and jam)", blockMerge},
      {"BlockSkew", "each thread computes SKEW_LEVEL columns (strip-mine and jam)", blockSkew},
      {"RegisterTiling", "blocks own rectangles; both operands staged in shared memory", registerTiling},
      {"TiledTranspose", "transposed reads and writes go through a padded shared-memory tile", tiledTranspose},
      {"LoopCollapse", "fuse the parallel loops into one index", loopCollapse},
      {"ArrayFlatten", "turn multi-dimensional subscripts into linear indices", arrayFlatten},
      {"LoopPartition", "map the iterations onto blocks and threads, with guards", loopPartition},
      {"ElementwiseItems", "element-wise updates in place: ITEMS iterations a thread, loads first", elementwiseItems},
      {"ParallelReduction", "combine the threads' partial values of reduced scalars", parallelReduction},
      {"AccumulatorPromotion", "a loop's sum into one array element accumulates in a scalar", accumulatorPromotion},
    {"ReductionSplit", "too few columns: row chunks along y, partial sums added atomically", reductionSplit},
    {"LaneReduction", "LANES threads share a row's reduction loop (coalesced rows)", laneReduction},
    {"LaneScan", "LANES threads share a row's running sum (prefix sums by warp shuffles)", laneScan},
      {"SharedHistogram", "atomic additions into small arrays go to per-block shared copies", sharedHistogram},
      {"SharedPrefetch", "stage prefetched arrays in shared memory, coalesced", sharedPrefetch},
      {"RedundantLoadElim", "load values reused across merge/skew loops once, into registers", redundantLoadElim},
      {"ReadOnlyCache", "const __restrict__ on arrays never written nor aliased", readOnlyCache},
      {"BatchBlocks", "a batch's slices: one grid for all, a block's slice from blockIdx.x", batchBlocks},
  };
  return passes;
}

void dumpIf(const DumpOptions &dump, const std::string &step, const ir::Kernel &k,
            const std::string &summary) {
  if (dump.observe) dump.observe(step, summary, k);
  if (!dump.out || (!dump.all && !dump.after.count(step) && step != dump.stopAfter)) return;
  *dump.out << "// ----- IR after " << step << " (kernel " << k.name << ") -----\n"
            << ir::printKernel(k, ir::PrintMode::Dump) << "\n";
}

std::string macroPrefix(const std::string &name) {
  std::string prefix;
  for (char c : name) prefix += char(std::toupper(static_cast<unsigned char>(c)));
  return prefix;
}

// The tuning space of the parameters the passes introduced.
std::vector<ir::TuningParam> tuningSpace(const ir::Kernel &k, const KernelOptions &o) {
  ir::TuningParam blockSize{"BLOCKSIZE", k.macro("BLOCKSIZE"), {}, 0};
  int lo = std::max(32, o.blockSize.min);
  int hi = o.blockSize.max == 0 ? 1024 : o.blockSize.max;
  if (k.maxBlockSize) hi = std::min(hi, std::max(k.maxBlockSize, lo));
  for (int v = (lo + 31) / 32 * 32; v <= hi; v += 32) blockSize.values.push_back(v);
  if (blockSize.values.empty())
    throw CompileError(k.loc, "kernel '" + k.name + "': the block size range [" +
                                  std::to_string(o.blockSize.min) + ", " +
                                  std::to_string(o.blockSize.max) +
                                  "] holds no multiple of 32");
  int wanted = o.defaultBlockSize ? o.defaultBlockSize
                                  : k.preferredBlockSize ? k.preferredBlockSize : 256;
  if (o.defaultBlockSize &&
      std::find(blockSize.values.begin(), blockSize.values.end(), wanted) == blockSize.values.end())
    throw CompileError(k.loc, "kernel '" + k.name + "': default block size " +
                                  std::to_string(wanted) + " is not a multiple of 32 in the " +
                                  "block size range");
  blockSize.defaultValue = closestValue(blockSize.values, wanted);
  std::vector<ir::TuningParam> space{blockSize};
  // The parameters the passes introduced, each with the space the pass chose.
  space.insert(space.end(), k.tuning.begin(), k.tuning.end());
  return space;
}

}  // namespace

bool verifyIRByDefault() {
#ifndef NDEBUG
  return true;
#else
  const char *env = std::getenv("RTCUDA_VERIFY_IR");
  return env && *env && std::string(env) != "0";
#endif
}

void verifyAfterStep(const std::string &step, const ir::Kernel &k) {
  std::vector<ir::VerifierProblem> problems = ir::verifyKernel(k);
  if (problems.empty()) return;
  std::string text = "internal error: the IR of kernel '" + k.name + "' after " + step +
                     " is malformed: " + problems[0].message;
  for (size_t i = 1; i < problems.size() && i < 4; ++i) text += "; " + problems[i].message;
  if (problems.size() > 4) text += "; and " + std::to_string(problems.size() - 4) + " more";
  throw CompileError(problems[0].loc.valid() ? problems[0].loc : k.loc, text);
}

ir::Kernel runPass(const Pass &pass, const ir::Kernel &k, const PassContext &ctx,
                   const DumpOptions &dump) {
  ir::Kernel out = pass.run(k, ctx);
  if (dump.verify) verifyAfterStep(pass.name, out);
  dumpIf(dump, pass.name, out, pass.summary);
  return out;
}

std::vector<std::string> pipelineStepNames() {
  std::vector<std::string> names = {"Frontend", "Interchange", "Fusion", "BoundingBox",
                                    "ParallelLoops", "LoopOrder", "BatchCollapse", "BatchSlices"};
  for (const Pass &p : kernelPasses()) names.push_back(p.name);
  return names;
}

namespace {

// Where a remark points: the first loop of the kernel as written whose variable the text names
// ('i'), else the outermost loop, else the function.
ir::SourceLoc remarkLoc(const ir::Kernel &source, const std::string &text) {
  ir::SourceLoc named, outer;
  ir::visitStmt(source.body, [&](const ir::Stmt &s) {
    if (s->kind != ir::StmtKind::For || !s->loc.valid()) return;
    if (!outer.valid()) outer = s->loc;
    if (!named.valid() && text.find("'" + s->name + "'") != std::string::npos) named = s->loc;
  });
  return named.valid() ? named : outer.valid() ? outer : source.loc;
}

// Tags the remarks a step added (those after the first `before`).
void locateRemarks(const ir::Kernel &k, size_t before, const std::string &step,
                   const ir::Kernel &source, std::vector<LocatedRemark> &out) {
  for (size_t i = before; i < k.remarks.size(); ++i)
    out.push_back({step, remarkLoc(source, k.remarks[i]), k.remarks[i]});
}

// The loop of `source` that the text names first as "loop 'k' (file:line:col)".
ir::SourceLoc firstLoopNamed(const ir::Kernel &source, const std::string &text) {
  ir::SourceLoc best = remarkLoc(source, text);
  size_t bestAt = std::string::npos;
  ir::visitStmt(source.body, [&](const ir::Stmt &s) {
    if (s->kind != ir::StmtKind::For || !s->loc.valid()) return;
    size_t at = text.find("loop '" + s->name + "' (" + s->loc.str() + ")");
    if (at < bestAt) bestAt = at, best = s->loc;
  });
  return best;
}

// How many loops markParallelLoops makes parallel (asked silently; 0 when it refuses), and
// whether they need atomic updates: one dependence analysis for both.
struct ParallelShape {
  size_t depth = 0;
  bool atomics = false;
};
ParallelShape parallelShape(const ir::Kernel &k, const KernelOptions &o) {
  Diagnostics quiet;
  quiet.quiet = true;
  ParallelShape shape;
  try {
    ir::Kernel marked = markParallelLoops(k, o, quiet);
    ir::visitStmt(marked.body, [&](const ir::Stmt &s) {
      shape.depth += s->kind == ir::StmtKind::For && s->loopKind == ir::LoopKind::Parallel;
    });
    shape.atomics = !marked.atomicArrays.empty();
  } catch (const CompileError &) {
  }
  return shape;
}

// Interchange and Fusion, kept only when ParallelLoops then finds more parallel loops. Options
// that name the loops of the nest as written (parallel_loops, 2DMATRIX, assume_parallel,
// on_dependence: sequential) keep it as written.
ir::Kernel reorderLoops(const ir::Kernel &k, const KernelOptions &o, const DumpOptions &dump,
                        const ir::Kernel &source, std::vector<LocatedRemark> &remarks,
                        ir::Kernel &interchanged, ir::Kernel &fusedOnly) {
  interchanged = fusedOnly = k;
  if (o.onDependence == "sequential" || o.parallelLoops > 0 || o.matrix2D ||
      o.assumeParallelAll || !o.assumeParallel.empty())
    return k;
  ir::Kernel swapped = interchangeLoops(k);
  ir::Kernel fused = fuseLoops(swapped);
  ir::Kernel boxed = boundingBox(fused);
  const ParallelShape asWritten = parallelShape(k, o), reordered = parallelShape(boxed, o);
  size_t before = asWritten.depth, after = reordered.depth;
  bool keep = after > before;
  // Where the loops chosen so far need atomics (trmv written column by column, `for j; for
  // i <= j; y[i] += U[i][j] * x[j]`: every element of y added by every column), the
  // triangular interchange may give an outer parallel loop without them, the inner loop its
  // serial sum with the triangle's bounds (not boxed). Atomics are the last resort, as in
  // ParallelLoops.
  if ((keep ? reordered : asWritten).atomics) {
    ir::Kernel triSwapped = interchangeLoops(k, true);
    ir::Kernel triFused = fuseLoops(triSwapped);
    const ParallelShape tri =
        triSwapped.remarks.size() > k.remarks.size() ? parallelShape(triFused, o) : ParallelShape{};
    if (tri.depth > 0 && !tri.atomics) {
      swapped = triSwapped, fused = boxed = triFused;
      keep = true, after = tri.depth;
    }
  }
  auto tag = [&](const ir::Kernel &from, size_t first, size_t last, const std::string &step) {
    for (size_t i = first; i < last; ++i) {
      std::string text = from.remarks[i];
      size_t applied = std::string::npos;
      for (const char *done : {") interchanged: ", ") fused: ", ") runs from "})
        applied = std::min(applied, text.find(done));
      if (applied != std::string::npos) ++applied;
      if (!keep && applied != std::string::npos)
        text = text.substr(0, applied) + " left as written: " + step + " is legal but gives " +
               std::to_string(after) + " parallel loop(s), as without it (" +
               std::to_string(before) + ")";
      remarks.push_back({step, firstLoopNamed(source, text), text});
    }
  };
  tag(swapped, k.remarks.size(), swapped.remarks.size(), "Interchange");
  tag(fused, swapped.remarks.size(), fused.remarks.size(), "Fusion");
  tag(boxed, fused.remarks.size(), boxed.remarks.size(), "BoundingBox");
  dumpIf(dump, "Interchange", keep ? swapped : k,
         "move parallel loops out of serial ones (dependence analysis)");
  dumpIf(dump, "Fusion", keep ? fused : k,
         "fuse adjacent loops with the same bounds (dependence analysis)");
  dumpIf(dump, "BoundingBox", keep ? boxed : k,
         "triangular loops run over their bounding box, guarded");
  if (keep) interchanged = swapped;
  if (keep) fusedOnly = fused;
  return keep ? boxed : k;
}

// Whether the passes up to RegisterTiling tile `k` under `o` (asked silently).
bool registerTiles(const ir::Kernel &k, const KernelOptions &o, const CallSites *callSites) {
  Diagnostics quiet;
  quiet.quiet = true;
  PassContext ctx{o, quiet, callSites};
  ir::Kernel t = k;
  try {
    for (const Pass &pass : kernelPasses()) {
      t = pass.run(t, ctx);
      if (pass.name == std::string("RegisterTiling")) break;
    }
  } catch (const CompileError &) {
    return false;
  }
  return std::find(t.passes.begin(), t.passes.end(), "RegisterTiling") != t.passes.end();
}

// Whether the analysis gives `k` RegisterTiling's mapping (the config leaves it to the analysis,
// the nest reads its operands as a contraction, and the passes tile it): its options in
// `chosen`, else why not in `why` (where there is something to say).
bool chooseContraction(const ir::Kernel &k, const KernelOptions &o, const CallSites *callSites,
                       KernelOptions &chosen, std::string &why) {
  bool contraction = o.autoMapping && contractionMapping(k, o, chosen, &why);
  bool tiles = contraction && registerTiles(k, chosen, callSites);
  if (contraction && !tiles)
    why = "the nest reads its operands as a contraction, but the passes did not tile it";
  return tiles;
}

}  // namespace

LoweredKernel lowerKernel(const KernelSource &source, Diagnostics &diags, const DumpOptions &dump,
                          const CallSites *callSites) {
  LoweredKernel out;
  out.options = source.options;
  ir::Kernel k = source.kernel;
  k.macroPrefix = macroPrefix(k.name);
  if (dump.verify) verifyAfterStep("Frontend", k);
  dumpIf(dump, "Frontend", k, "the kernel as the frontend read it, loops serial");
  locateRemarks(k, 0, "Frontend", source.kernel, out.remarks);
  out.kernel = k;
  if (dump.stopAfter == "Frontend") return out;

  size_t written = k.remarks.size();
  ir::Kernel interchanged, fused;
  k = reorderLoops(k, source.options, dump, source.kernel, out.remarks, interchanged, fused);
  for (ir::Kernel *r : {&k, &interchanged, &fused}) r->remarks.resize(written);
  if (dump.verify)
    for (auto [step, r] : {std::pair{"Interchange", &interchanged}, {"Fusion", &fused}, {"BoundingBox", &k}})
      verifyAfterStep(step, *r);
  out.kernel = dump.stopAfter == "Interchange" ? interchanged : dump.stopAfter == "Fusion" ? fused : k;
  if (dump.stopAfter == "Interchange" || dump.stopAfter == "Fusion" ||
      dump.stopAfter == "BoundingBox")
    return out;
  k = markParallelLoops(k, source.options, diags);
  locateRemarks(k, source.kernel.remarks.size(), "ParallelLoops", source.kernel, out.remarks);
  if (callSites) checkCallAliasing(k, *callSites);
  if (dump.verify) verifyAfterStep("ParallelLoops", k);
  dumpIf(dump, "ParallelLoops", k, "mark the loops that may run in parallel (dependence analysis)");
  out.source = k;
  out.footprints = computeFootprints(k);
  for (const ir::Stmt &l : parallelLoops(k))
    out.parallelExtents.push_back(ir::simplify(ir::tripCount(l)));
  out.kernel = k;
  if (dump.stopAfter == "ParallelLoops") return out;
  // A step of its own before the passes: its remarks located, its IR checked and dumped; true
  // where the dump stops after it.
  auto step = [&](const std::string &name, const std::string &summary, auto run) {
    size_t before = k.remarks.size();
    k = run(k);
    locateRemarks(k, before, name, source.kernel, out.remarks);
    if (dump.verify) verifyAfterStep(name, k);
    dumpIf(dump, name, k, summary);
    out.kernel = k;
    return dump.stopAfter == name;
  };
  if (step("LoopOrder", "the loop that walks the arrays' rows goes innermost",
           [&](const ir::Kernel &in) { return loopOrder(in, source.options); }))
    return out;
  if (step("BatchCollapse", "two outer parallel loops that index every array as X[r][q] become one row loop",
           batchCollapse))
    return out;

  // A contraction whose config leaves merge, skew and prefetch to the analysis gets
  // RegisterTiling's mapping, where the passes then tile it; so does each slice of a batch of
  // contractions.
  KernelOptions options = source.options, chosen;
  std::string why;
  if (step("BatchSlices", "a batch of contractions: the outer loop's slices, each tiled",
           [&](const ir::Kernel &in) {
             ir::Kernel sliced = batchSlices(in);
             return sliced.batch.extent && chooseContraction(sliced, options, callSites, chosen, why)
                        ? sliced : in;
           }))
    return out;
  why.clear();
  bool tiles = chooseContraction(k, options, callSites, chosen, why);
  if (!tiles && !why.empty()) {
    size_t before = k.remarks.size();
    k.remarks.push_back("register tiling: not chosen: " + why);
    locateRemarks(k, before, "RegisterTiling", source.kernel, out.remarks);
  }
  if (tiles) {
    options = chosen;
    std::string names;
    for (const std::string &a : chosen.prefetch) names += (names.empty() ? "" : ", ") + a;
    size_t before = k.remarks.size();
    k.remarks.push_back("register tiling: chosen by the analysis for this contraction (the "
                        "config leaves merge, skew and prefetch to it): merge, skew, prefetch " +
                        names);
    locateRemarks(k, before, "RegisterTiling", source.kernel, out.remarks);
  }
  out.options = options;
  PassContext ctx{options, diags, callSites};
  for (const Pass &pass : kernelPasses()) {
    size_t before = k.remarks.size();
    k = runPass(pass, k, ctx, dump);
    locateRemarks(k, before, pass.name, source.kernel, out.remarks);
    if (dump.stopAfter == pass.name) {
      out.kernel = k;
      return out;
    }
  }
  k.tuning = tuningSpace(k, options);
  out.kernel = k;
  return out;
}

}  // namespace rtcuda
