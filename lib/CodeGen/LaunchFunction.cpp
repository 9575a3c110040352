// The host side of each kernel: a function with the C function's parameters that gives each
// array a device buffer (only what the kernel touches is copied in, only what it writes is
// copied back), computes the grid with ceil-div so any size works, launches through
// RTCUDA_LAUNCH and checks the launch. main.cu calls it where main.c called the C function.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

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

std::string arrayType(const ir::Param &p) {
  return std::string(p.isConst ? "const " : "") + p.type.cName() + " *";
}

}  // namespace

std::string launchFunctionName(const ir::Kernel &k) { return "rtcuda_launch_" + k.name; }

std::string launchFunction(const LoweredKernel &lk) {
  const ir::Kernel &k = lk.kernel;
  std::ostringstream out;
  out << "// Host side of kernel '" << k.name << "' (" << k.loc.str() << ").\n"
      << "static inline void " << launchFunctionName(k) << "(const char *where";
  for (const ir::Param &p : k.params)
    out << ", " << (p.isArray ? arrayType(p) : p.type.cName() + " ") << p.name;
  out << ") {\n";
  for (size_t d = 0; d < k.grid.size(); ++d)
    out << "  const long long iterations_" << "xyz"[d] << " = " << wide(k.grid[d].iterations, k)
        << ";\n";
  out << "  rtcuda_check_index_range(iterations_x, \"" << k.name << "\", where);\n";
  std::vector<std::string> args;
  for (const ir::Param &p : k.params) {
    if (!p.isArray) {
      args.push_back(p.name);
      continue;
    }
    const ArrayFootprint &f = lk.footprints.at(p.name);
    if (!f.read && !f.written) {
      args.push_back("NULL");
      continue;
    }
    std::string bytes = p.name + "_bytes";
    out << "  const long long " << p.name << "_elements = rtcuda_nonnegative("
        << wide(f.elements, k) << ");\n"
        << "  rtcuda_check_index_range(" << p.name << "_elements, \"" << k.name << "\", where);\n"
        << "  const size_t " << bytes << " = (size_t)" << p.name << "_elements * sizeof("
        << p.type.cName() << ");\n";
    // An array the kernel writes is copied in as well: a partial write keeps the rest.
    out << "  " << arrayType(p) << "d_" << p.name << " = (" << arrayType(p)
        << ")rtcuda_array_in(" << p.name << ", " << bytes << ", where);\n";
    args.push_back("d_" + p.name);
  }
  out << "  if (";
  for (size_t i = 0; i < lk.parallelExtents.size(); ++i)
    out << (i ? " && " : "") << wide(lk.parallelExtents[i], k) << " > 0";
  out << ") {\n    dim3 grid(";
  for (size_t d = 0; d < k.grid.size(); ++d) {
    std::string perBlock = ir::print(k.grid[d].perBlock);
    std::string blocks = "rtcuda_ceil_div(iterations_" + std::string(1, "xyz"[d]) + ", " +
                         perBlock + ")";
    if (k.grid[d].maxBlocks < 2147483647)
      blocks = "rtcuda_min(" + blocks + ", " + std::to_string(k.grid[d].maxBlocks) + "LL)";
    out << (d ? ", " : "") << "(unsigned)" << blocks;
  }
  out << ");\n    dim3 block(" << ir::print(k.blockThreads) << ");\n"
      << "    RTCUDA_LAUNCH(" << k.name << ", grid, block";
  for (const std::string &a : args) out << ", " << a;
  out << ");\n    rtcuda_check_launch(\"" << k.name << "\", where);\n  }\n";
  for (const ir::Param &p : k.params)
    if (p.isArray && lk.footprints.at(p.name).written)
      out << "  rtcuda_array_out(" << p.name << ", " << p.name << "_bytes, where);\n";
  out << "}\n";
  return out.str();
}

}  // namespace rtcuda
