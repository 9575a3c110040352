// The host side of each kernel: a function with the C function's parameters that gives each
// array a device buffer (only what the kernel touches is copied in, only what it writes is
// copied back), computes the grid with ceil-div so any size works, launches through
// RTCUDA_LAUNCH and checks the launch. main.cu calls it where main.c called the C function.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <set>
#include <sstream>

namespace rtcuda {

namespace {

// Prints a size expression over the scalar parameters in 64-bit arithmetic.
std::string wide(const ir::Expr &e, const ir::Kernel &k) {
  std::map<std::string, ir::Expr> widened;
  for (const ir::Param &p : k.params)
    if (!p.isArray) widened[p.name] = ir::cast(ir::Type::of(ir::ScalarKind::LongLong),
                                               ir::var(p.name, p.type));
  return ir::print(ir::substitute(e, widened));
}

// Whether only passes that keep every index that can pass 2^31 - 1 in 64 bits changed the
// kernel: merge and skew (64-bit strips, clamped to the loop's end), collapse (64-bit collapsed
// index) and those that build no index (RedundantLoadElim reuses the strips' guards).
// RegisterTiling, LaneReduction, the reductions, ... build `int` indices of their own.
bool indexSafePasses(const ir::Kernel &k) {
  static const std::set<std::string> safe = {
      "AtomicUpdates", "ArrayFlatten",  "BlockMerge",       "BlockSkew",
      "LoopCollapse",  "LoopPartition", "RedundantLoadElim", "ReadOnlyCache",
      "ElementwiseItems"};
  for (const std::string &p : k.passes)
    if (!safe.count(p)) return false;
  return true;
}

// Whether the threads' indices are 64-bit: LoopPartition's index over blockIdx.x (64-bit, or
// an `int` variable that takes it clamped to the loop's end) and its loop over blockIdx.y rows.
// Then a launch needs no 32-bit range check on its iterations.
bool wideThreadIndices(const LoweredKernel &lk) {
  if (!indexSafePasses(lk.kernel)) return false;
  auto wide = [](const ir::Type &t) { return t.isInteger() && t.bytes() == 8; };
  auto clamped = [](const ir::Expr &e) {
    return e->kind == ir::ExprKind::Cast && e->operands[0]->kind == ir::ExprKind::Call &&
           e->operands[0]->name == "llmin";
  };
  bool all = true;
  ir::visitStmt(lk.kernel.body, [&](const ir::Stmt &s) {
    if (s->kind == ir::StmtKind::For && s->loopKind == ir::LoopKind::Block) all &= wide(s->type);
    if (s->kind == ir::StmtKind::Decl && s->value && ir::mentions(s->value, "blockIdx.x"))
      all &= wide(s->type) || clamped(s->value);
  });
  return all;
}

// Whether the kernel's other index arithmetic is 64-bit too (array subscripts, flattened by
// ArrayFlatten in the type of the loop variables): every parallel loop's variable is 64-bit.
// Otherwise an array of more than 2^31 - 1 elements is refused at launch.
bool wideIndices(const LoweredKernel &lk) {
  if (!indexSafePasses(lk.kernel)) return false;
  bool wide = true, any = false;
  ir::visitStmt(lk.source.body, [&](const ir::Stmt &s) {
    if (s->kind != ir::StmtKind::For || s->loopKind != ir::LoopKind::Parallel) return;
    any = true;
    wide &= s->type.isInteger() && s->type.bytes() == 8;
  });
  return any && wide;
}

std::string indented(const std::string &text) {
  std::string r;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) r += "  " + line + "\n";
  return r;
}

std::string arrayType(const ir::Param &p) {
  return std::string(p.isConst ? "const " : "") + p.type.cName() + " *";
}

}  // namespace

// RegisterTiling's split k (ir::Kernel::splitK): the number of chunks of k, gridDim.y, of a
// small-grid instantiation, as one expression (CodeGen.h). <PREFIX>_SPLIT_K 1 (the rule): where
// its tiles are fewer than the GPU's SMs, as many chunks as fill the blocks the SMs hold at
// once, counted as 65536 / (BLOCKSIZE x 128) blocks of up to 128 registers a thread per SM, each
// chunk 2 slabs of TILE_K or more; 0: never; N >= 2: N chunks. Never more than the workspace
// holds, nor 65535. H100: at 997 x 1009 the 128 x 64 tiles (128 of 256 threads) in 2 chunks ran
// 22.98 TFLOP/s against 21.47 in one; at 1000 x 1100 the 80 x 128 tiles (117 of 320 threads: one
// a SM) 21.37 in one chunk against 20.53 in two (bench/results/h100-2026-11-24-s10-mm10-1).
std::string splitCount(const ir::Kernel &kk, const std::string &macro) {
  const ir::Kernel::SplitK &s = kk.splitK;
  const std::string tiles = "rtcuda_ceil_div(" + wide(kk.grid[0].iterations, kk) + ", " +
                            ir::print(kk.grid[0].perBlock) + ")";
  // Blocks an SM holds: its registers over 128 a thread, or what __launch_bounds__ promises.
  const std::string perSm = "rtcuda_max(" + std::to_string(std::max(1, kk.minBlocksPerSM)) +
                            ", 65536LL / (128LL * (" + ir::print(kk.blockThreads) + ")))";
  const std::string most = wide(s.trip, kk) + " / (2LL * " + ir::print(s.tileK) + ")";
  const std::string rule = "(" + macro + " >= 2 ? (long long)" + macro + " : (" + macro +
                           " == 1 && " + tiles + " > 0 && " + tiles + " < rtcuda_sms) ? rtcuda_min(" +
                           perSm + " * rtcuda_sms / " + tiles + ", " + most + ") : 1LL)";
  const std::string whole = "(" + tiles + " > " + std::to_string(s.tiles) + "LL ? 1LL : " + rule + ")";
  const std::string room = std::to_string(s.capacity) + "LL / rtcuda_max(1, " + tiles +
                           " * (long long)(" + ir::print(s.workPerBlock) + "))";
  return "rtcuda_max(1, rtcuda_min(65535LL, rtcuda_min(" + whole + ", " + room + ")))";
}

std::string splitFunctionName(const ir::Kernel &kk) { return "rtcuda_" + kk.name + "_splits"; }

std::string launchHeader(const std::vector<LoweredKernel> &kernels) {
  std::string text = "// Generated by rtcuda: the host side of each kernel. Included by main.cu,\n"
                     "// and by rtcuda verify, which calls these functions as main.cu does.\n"
                     "#pragma once\n#include \"rtcuda_runtime.h\"\n#include \"kernel.cu\"\n\n";
  for (const LoweredKernel &k : kernels) text += launchFunction(k) + "\n";
  return text;
}

std::string launchFunctionName(const ir::Kernel &k) { return "rtcuda_launch_" + k.name; }

// Which instantiation the launch runs (CodeGen.h). The small-grid rule: <NAME>_SMALL_GRID 0
// never an alternative, i + 2 always the i-th; 1 where the point's grid has fewer x blocks than
// the GPU has SMs, the alternative whose grid has the most blocks without passing that count
// (the first of equals; none if none fits). The index-width rule: <NAME>_WIDE_INDEX 2 always
// the 64-bit kernel, 1 where a bound of IndexWidth.cpp passes 2^31 - 1, 0 never.
std::string launchChoice(const LoweredKernel &lk) {
  const ir::Kernel &k = lk.kernel;
  const IndexWidth width = indexWidth(lk);
  if (width == IndexWidth::Both) {
    const std::string select = k.macro("WIDE_INDEX");
    std::string fits;
    for (const ir::Expr &e : narrowIndexBounds(lk, k))
      fits += (fits.empty() ? "" : " && ") + wide(e, k) + " <= 2147483647LL";
    return "(" + select + " == 2 || (" + select + " == 1 && !(" + fits + "))) ? 0 : -1";
  }
  if (width != IndexWidth::Only64 || k.alternatives.empty()) return "";
  auto blocks = [&](const ir::Kernel &kk) {
    return "rtcuda_ceil_div(" + wide(kk.grid[0].iterations, kk) + ", " +
           ir::print(kk.grid[0].perBlock) + ")";
  };
  const std::string select = k.macro("SMALL_GRID");
  std::vector<std::string> b;
  for (size_t i = 0; i < k.alternatives.size(); ++i) b.push_back(blocks(alternativeKernel(k, i)));
  std::string pick;
  for (size_t i = 0; i < b.size(); ++i) {
    std::string fits = "(" + b[i] + " <= rtcuda_sms && " + b[i] + " > 0";
    for (size_t j = 0; j < b.size(); ++j)
      if (j != i)
        fits += " && !(" + b[j] + " <= rtcuda_sms && " + b[j] + (j < i ? " >= " : " > ") + b[i] + ")";
    pick += fits + ") ? " + std::to_string(i) + " : ";
  }
  return "(" + select + " >= 2 ? " + select + " - 2 : (" + select + " == 1 && " + blocks(k) +
         " < rtcuda_sms) ? (" + pick + "-1) : -1)";
}

// Two functions per kernel: <launch>_on_device(where, device pointers...) computes the grid,
// launches and checks the launch without waiting (benchmarks time it between events);
// <launch>(where, host arrays...) gives each array its device buffer, calls it, waits, checks,
// and copies back what the kernel wrote.
std::string launchFunction(const LoweredKernel &lk) {
  const ir::Kernel &k = lk.kernel;
  std::ostringstream out;
  auto signature = [&](const std::string &name) {
    out << "static inline void " << name << "(const char *where";
    for (const ir::Param &p : k.params)
      out << ", " << (p.isArray ? arrayType(p) : p.type.cName() + " ") << p.name;
    out << ") {\n";
  };
  // A rule the launch and manifest.json share (rtcuda-tune evaluates the manifest's copy): a
  // host function of the kernel's scalars and the GPU's SM count returning `expr`, and its call.
  auto ruleFunction = [&](const std::string &name, const std::string &expr) {
    out << "static inline long long " << name << "(";
    for (const ir::Param &p : k.params)
      if (!p.isArray) out << p.type.cName() << " " << p.name << ", ";
    out << "long long rtcuda_sms) {\n";
    for (const ir::Param &p : k.params)
      if (!p.isArray) out << "  (void)" << p.name << ";\n";
    out << "  (void)rtcuda_sms;\n  return " << expr << ";\n}\n\n";
  };
  auto ruleCall = [&](const std::string &name, const std::string &sms) {
    std::string call = name + "(";
    for (const ir::Param &p : k.params)
      if (!p.isArray) call += p.name + ", ";
    return call + sms + ")";
  };
  const std::string choiceName = "rtcuda_" + k.name + "_launched_alternative";
  const std::string choice = launchChoice(lk);
  if (!choice.empty()) {
    out << "// Which instantiation the launch of '" << k.name << "' runs: -1 the kernel at its "
        << "tuning point, i its alternative i\n// (" << k.macro(k.alternatives.empty() ? "WIDE_INDEX" : "SMALL_GRID")
        << "; rtcuda_sms: the GPU's SMs). The same expression is manifest.json's launch_choice,\n"
        << "// which rtcuda-tune evaluates for each tuning point.\n";
    ruleFunction(choiceName, choice);
  }
  // The chunks of k of each split instantiation (splitCount): the launch calls it, and
  // manifest.json carries the same expression as that alternative's second grid dimension.
  for (size_t i = 0; i < k.alternatives.size(); ++i) {
    const ir::Kernel alt = alternativeKernel(k, i);
    if (!alt.splitK.trip) continue;
    out << "// Chunks of loop k (gridDim.y) of '" << alt.name << "' (" << k.macro("SPLIT_K")
        << "; rtcuda_sms: the GPU's SMs): manifest.json's\n// grid[1] of that alternative.\n";
    ruleFunction(splitFunctionName(alt), splitCount(alt, k.macro("SPLIT_K")));
  }
  auto choiceCall = [&](const std::string &sms) { return ruleCall(choiceName, sms); };
  out << "// Kernel '" << k.name << "' (" << k.loc.str() << ") on device arrays: grid, launch, "
      << "launch check; does not wait.\n";
  signature(launchFunctionName(k) + "_on_device");
  const bool threads64 = wideThreadIndices(lk), indices64 = threads64 && wideIndices(lk);
  auto arguments = [&](std::ostream &to) {
    for (const ir::Param &p : k.params) {
      const bool unused = p.isArray && !lk.footprints.at(p.name).read && !lk.footprints.at(p.name).written;
      // A typed null: the emulator's launch deduces parameter types from the arguments.
      to << ", " << (unused ? "(" + arrayType(p) + ")NULL" : p.name);
    }
    for (const ir::DeviceBuffer &b : k.buffers) to << ", d_" << b.name;
  };
  auto buffers = [&](const ir::Kernel &kk) {
    std::ostringstream out;
    for (const ir::DeviceBuffer &b : kk.buffers) {
      std::string t = b.type.cName(), d = "d_" + b.name;
      out << "  static " << t << " *" << d << " = NULL;\n  if (!" << d << ") {\n"
          << "    rtcuda_check(cudaMalloc((void **)&" << d << ", sizeof(" << t
          << ")), \"cudaMalloc\", where);\n"
          << "    const " << t << " initial = " << ir::print(b.init) << ";\n"
          << "    rtcuda_check(cudaMemcpy(" << d << ", &initial, sizeof(" << t
          << "), cudaMemcpyHostToDevice), \"cudaMemcpy (host to device)\", where);\n  }\n";
    }
    return out.str();
  };
  const IndexWidth width = indexWidth(lk);
  const bool buffersFirst = width != IndexWidth::Only64;
  // Grid, checks and launch of `kk` (the kernel, or its small-grid instantiation).
  auto launchOne = [&](const ir::Kernel &kk) {
    std::ostringstream out;
    for (size_t d = 0; d < kk.grid.size(); ++d)
      out << "  const long long iterations_" << "xyz"[d] << " = " << wide(kk.grid[d].iterations, kk)
          << ";\n";
    if (threads64)  // 64-bit indices: only the grid's own limit (2^31 - 1 blocks across) remains
      out << "  rtcuda_check_grid_blocks(rtcuda_ceil_div(iterations_x, "
          << ir::print(kk.grid[0].perBlock) << "), \"" << k.name << "\", where);\n";
    else
      out << "  rtcuda_check_index_range(iterations_x, \"" << k.name << "\", where);\n";
    // The threads' index arithmetic is 32-bit: each parallel loop's end, plus what its strips
    // (skew, merge: rounded up to BLOCKSIZE * level) or its last block may overshoot it, must fit.
    if (!kk.tuning.empty() && !threads64) {
      std::string slack = "(long long)1";
      for (const ir::TuningParam &t : kk.tuning) slack += " * rtcuda_max(1, " + t.macro + ")";
      for (const ir::Expr &e : lk.parallelExtents)
        out << "  rtcuda_check_index_range(" << wide(e, kk) << " + " << slack << ", \"" << k.name
            << "\", where);\n";
    }
    // Device buffers of the kernel (reduction totals): allocated and set to their initial value
    // once; the finish kernel sets them back after reading them, ready for the next launch.
    // Declared before the choice between instantiations where there is one (the finish kernel
    // after it reads them).
    if (!buffersFirst) out << buffers(kk);
    const bool split = kk.splitK.trip && kk.name != k.name;  // the small-grid instantiations
    if (split) {
      out << "  const long long rtcuda_splits = " << ruleCall(splitFunctionName(kk), "rtcuda_sm_count()")
          << ";  // chunks of k (" << k.macro("SPLIT_K") << ")\n";
    }
    out << "  if (";
    for (size_t i = 0; i < lk.parallelExtents.size(); ++i)
      out << (i ? " && " : "") << wide(lk.parallelExtents[i], k) << " > 0";
    out << ") {\n    dim3 grid(";
    for (size_t d = 0; d < kk.grid.size(); ++d) {
      std::string perBlock = ir::print(kk.grid[d].perBlock);
      std::string blocks = "rtcuda_ceil_div(iterations_" + std::string(1, "xyz"[d]) + ", " +
                           perBlock + ")";
      if (kk.grid[d].maxBlocks < 2147483647)
        blocks = "rtcuda_min(" + blocks + ", " + std::to_string(kk.grid[d].maxBlocks) + "LL)";
      out << (d ? ", " : "") << "(unsigned)" << blocks;
    }
    if (split) out << ", (unsigned)rtcuda_splits";
    out << ");\n    dim3 block(" << ir::print(kk.blockThreads) << ");\n";
    out << "    RTCUDA_LAUNCH(" << kk.name << ", grid, block";
    arguments(out);
    out << ");\n    rtcuda_check_launch_async(\"" << k.name << "\", where);\n  }\n";
    return out.str();
  };
  if (width != IndexWidth::Only64) {
    out << buffers(k);
    // 32-bit index arithmetic where every count it computes fits (IndexWidth.cpp), else the
    // 64-bit instantiation: any size stays correct, none is truncated.
    out << "  const bool rtcuda_index32 =";
    const std::vector<ir::Expr> limits = narrowIndexBounds(lk, k);
    for (size_t i = 0; i < limits.size(); ++i)
      out << (i ? " &&\n      " : " ") << wide(limits[i], k) << " <= 2147483647LL";
    out << ";\n";
    const std::string select = k.macro("WIDE_INDEX");
    if (width == IndexWidth::Both)  // the index-width rule reads no SM count
      out << "  if (" << choiceCall("0") << " == 0) {\n"
          << indented(launchOne(wideIndexKernel(k))) << "  } else ";
    else
      out << "  ";
    out << "if (!rtcuda_index32) {\n    fprintf(stderr, \"%s: error: kernel '" << k.name
        << "' needs 64-bit index arithmetic here, and "
        << (width == IndexWidth::Both ? select + " = 0 asks for 32-bit"
                                      : std::string("its constant extents made it 32-bit"))
        << "\\n\", where);\n    exit(1);\n  } else {\n" << indented(launchOne(k)) << "  }\n";
  } else if (k.alternatives.empty()) {
    out << launchOne(k);
  } else {
    // Alternative instantiations (RegisterTiling's small-grid tiles), chosen by <NAME>_SMALL_GRID
    // (ir::Kernel::alternatives): where the point's grid leaves SMs idle, the alternative whose
    // grid fills most SMs without passing their count.
    // launchChoice's rule, in a function of its own (emitted before this one).
    const std::string select = k.macro("SMALL_GRID");
    out << "  const long long rtcuda_choice = " << choiceCall("rtcuda_sm_count()")
        << ";  // -1: '" << k.name << "' at its tuning point\n"
        << "  if (rtcuda_choice == -1) {\n" << indented(launchOne(k));
    for (size_t i = 0; i < k.alternatives.size(); ++i)
      out << "  } else if (rtcuda_choice == " << i << ") {\n"
          << indented(launchOne(alternativeKernel(k, i)));
    out << "  } else {\n    fprintf(stderr, \"%s: error: " << select << " = %lld names no instantiation of '"
        << k.name << "' (0 to " << k.alternatives.size() + 1 << ")\\n\", where, rtcuda_choice + 2);\n"
        << "    exit(1);\n  }\n";
  }
  // The statements after the loop nest: once, after every block (also when none ran).
  if (k.finish) {
    out << "  RTCUDA_LAUNCH(" << k.name << "_finish, dim3(1), dim3(1)";
    arguments(out);
    out << ");\n  rtcuda_check_launch_async(\"" << k.name << "_finish\", where);\n";
  }
  out << "}\n\n";

  out << "// Kernel '" << k.name << "' on host arrays: the call main.c made.\n";
  signature(launchFunctionName(k));
  std::vector<std::string> args;
  for (const ir::Param &p : k.params) {
    if (!p.isArray) {
      args.push_back(p.name);
      continue;
    }
    const ArrayFootprint &f = lk.footprints.at(p.name);
    if (!f.read && !f.written) {
      args.push_back("(" + arrayType(p) + ")NULL");
      continue;
    }
    std::string bytes = p.name + "_bytes";
    out << "  const long long " << p.name << "_elements = rtcuda_nonnegative("
        << wide(f.elements, k) << ");\n";
    if (!indices64)
      out << "  rtcuda_check_index_range(" << p.name << "_elements, \"" << k.name
          << "\", where);\n";
    out << "  const size_t " << bytes << " = (size_t)" << p.name << "_elements * sizeof("
        << p.type.cName() << ");\n";
    // An array the kernel writes is copied in as well: a partial write keeps the rest.
    out << "  " << arrayType(p) << "d_" << p.name << " = (" << arrayType(p)
        << ")rtcuda_array_in(" << p.name << ", " << bytes << ", where);\n";
    args.push_back("d_" + p.name);
  }
  out << "  " << launchFunctionName(k) << "_on_device(where";
  for (const std::string &a : args) out << ", " << a;
  out << ");\n  rtcuda_check_launch(\"" << k.name << "\", where);\n";
  for (const ir::Param &p : k.params)
    if (p.isArray && lk.footprints.at(p.name).written)
      out << "  rtcuda_array_out(" << p.name << ", " << p.name << "_bytes, where);\n";
  out << "}\n";
  return out.str();
}

}  // namespace rtcuda
