// The output project: manifest.json (what verify and the tuner read) and CMakeLists.txt (the
// folder itself is written by OutputFolder.cpp).
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/Config/Options.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <fstream>
#include <set>

namespace rtcuda {

namespace fs = std::filesystem;
using nlohmann::json;

static std::string &runtimeDir() {
  static std::string dir;
  return dir;
}
static std::string &rtapiDir() {
  static std::string dir;
  return dir;
}

void setRuntimeDirs(const std::string &runtimeInclude, const std::string &rtapiInclude) {
  runtimeDir() = runtimeInclude;
  rtapiDir() = rtapiInclude;
}
const std::string &runtimeIncludeDir() { return runtimeDir(); }
const std::string &rtapiIncludeDir() { return rtapiDir(); }

namespace {

std::string text(const ir::Expr &e) { return e ? ir::print(e) : std::string(); }

// The largest value each size parameter may take: a loop `for (v = c0; v < s + c; v++)`
// whose variable subscripts a dimension of constant extent D (`a[..][v + k]`, a[..][16]) needs
// s <= D - c - k. verify keeps the sizes it chooses within these (doitgen's np indexes the 16
// columns of A and C4; a larger np makes the C itself index past them). A subscript under an
// `if` on the variable is not counted (the guard may keep it inside).
std::map<std::string, long long> sizeLimits(const ir::Kernel &k) {
  std::map<std::string, const ir::Param *> arrays;
  std::set<std::string> scalars;
  for (const ir::Param &p : k.params)
    if (p.isArray) arrays[p.name] = &p;
    else scalars.insert(p.name);
  std::map<std::string, long long> limits;
  // A loop variable's bounding size parameter and the constant added to it (v < s + c).
  std::map<std::string, std::pair<std::string, long long>> scope;
  auto constantOffset = [](const ir::Expr &e, std::string &var, long long &c) {
    if (e->kind == ir::ExprKind::Var) return var = e->name, c = 0, true;
    if (e->kind != ir::ExprKind::Binary || (e->name != "+" && e->name != "-")) return false;
    const ir::Expr &a = e->operands[0], &b = e->operands[1];
    if (a->kind != ir::ExprKind::Var || b->kind != ir::ExprKind::IntImm) return false;
    var = a->name;
    c = e->name == "+" ? b->intValue : -b->intValue;
    return true;
  };
  auto access = [&](const std::string &array, const std::vector<ir::Expr> &indices) {
    auto it = arrays.find(array);
    if (it == arrays.end() || it->second->dims.size() != indices.size()) return;
    for (size_t d = 0; d < indices.size(); ++d) {
      const ir::Expr &extent = it->second->dims[d];
      std::string v;
      long long offset = 0;
      if (!extent || extent->kind != ir::ExprKind::IntImm || !indices[d] ||
          !constantOffset(indices[d], v, offset) || !scope.count(v))
        continue;
      const auto &[size, c] = scope.at(v);
      long long limit = extent->intValue - c - offset;
      auto [at, fresh] = limits.emplace(size, limit);
      if (!fresh) at->second = std::min(at->second, limit);
    }
  };
  auto loads = [&](const ir::Expr &e) {
    if (e) ir::visitExpr(e, [&](const ir::Expr &x) {
        if (x->kind == ir::ExprKind::Load) access(x->name, x->operands);
      });
  };
  std::function<void(const ir::Stmt &)> walk = [&](const ir::Stmt &s) {
    if (!s) return;
    auto saved = scope;
    switch (s->kind) {
    case ir::StmtKind::For: {
      std::string size;
      long long c = 0;
      bool counts = s->step && s->step->kind == ir::ExprKind::IntImm && s->step->intValue > 0 &&
                    s->min && s->min->kind == ir::ExprKind::IntImm && s->min->intValue >= 0;
      loads(s->min), loads(s->end);
      if (counts && s->end && constantOffset(s->end, size, c) && scalars.count(size))
        scope[s->name] = {size, c};
      else
        scope.erase(s->name);
      walk(s->body);
      break;
    }
    case ir::StmtKind::If:
      loads(s->cond);
      for (const std::string &v : ir::varsOf(s->cond)) scope.erase(v);
      walk(s->body), walk(s->elseBody);
      break;
    case ir::StmtKind::Store:
      for (const ir::Expr &i : s->indices) loads(i);
      loads(s->value);
      access(s->name, s->indices);
      break;
    default:
      loads(s->cond), loads(s->value);
      for (const ir::Stmt &t : s->stmts) walk(t);
      walk(s->body);
    }
    scope = saved;
  };
  walk(k.body);
  return limits;
}

json kernelEntry(const LoweredKernel &lk) {
  const ir::Kernel &k = lk.kernel;
  // Scalars that size the iteration space, any loop or an array are "size" parameters: verify
  // and the tuner choose problem sizes for them; the others get random values. A size that
  // sizes no array is "bounds_only": verify keeps it within the arrays' sizes.
  std::set<std::string> sizeVars, arraySizeVars;
  auto noteSizes = [](std::set<std::string> &into, const ir::Expr &e) {
    if (e) for (const std::string &v : ir::varsOf(e)) into.insert(v);
  };
  for (const ir::LaunchDim &d : k.grid) noteSizes(sizeVars, d.iterations);
  for (const auto &[name, f] : lk.footprints) noteSizes(arraySizeVars, f.elements);
  for (const ir::Param &p : k.params)
    for (const ir::Expr &d : p.dims) noteSizes(arraySizeVars, d);
  if (lk.source.body)
    ir::visitStmt(lk.source.body, [&](const ir::Stmt &st) {
      if (st->kind != ir::StmtKind::For) return;
      noteSizes(sizeVars, st->min);
      noteSizes(sizeVars, st->end);
    });
  sizeVars.insert(arraySizeVars.begin(), arraySizeVars.end());
  for (const ir::Param &p : k.params)  // only integers size anything
    if (!p.isArray && !p.type.isInteger()) sizeVars.erase(p.name);

  std::map<std::string, long long> limits = sizeLimits(lk.source.body ? lk.source : k);
  std::map<std::string, IndexArrayUse> indexUses = indexArrayUses(lk.source.body ? lk.source : k);
  json params = json::array();
  for (const ir::Param &p : k.params) {
    json entry = {{"name", p.name}, {"type", p.type.cName()}, {"location", p.loc.str()}};
    if (p.isArray) {
      const ArrayFootprint &f = lk.footprints.at(p.name);
      json dims = json::array();
      for (const ir::Expr &d : p.dims) dims.push_back(text(d));
      entry.update({{"kind", "array"}, {"const", p.isConst}, {"restrict", p.isRestrict},
                    {"dims", dims}, {"elements", text(f.elements)}, {"read", f.read},
                    {"written", f.written}});
      auto use = indexUses.find(p.name);
      if (use != indexUses.end() && !f.written) {
        if (!use->second.offsetsUpTo.empty())
          entry["index_values"] = {{"offsets_up_to", use->second.offsetsUpTo}};
        else if (!use->second.below.empty())
          entry["index_values"] = {{"below", use->second.below}};
      }
    } else {
      entry.update({{"kind", "scalar"}, {"role", sizeVars.count(p.name) ? "size" : "value"}});
      if (sizeVars.count(p.name) && !arraySizeVars.count(p.name)) entry["bounds_only"] = true;
      auto limit = limits.find(p.name);
      if (sizeVars.count(p.name) && limit != limits.end()) entry["at_most"] = limit->second;
    }
    params.push_back(entry);
  }
  json grid = json::array();
  for (const ir::LaunchDim &d : k.grid)
    grid.push_back({{"iterations", text(d.iterations)}, {"per_block", text(d.perBlock)},
                    {"max_blocks", d.maxBlocks}});
  json tuning = json::object();
  for (const ir::TuningParam &t : k.tuning)
    tuning[t.name] = {{"macro", t.macro}, {"values", t.values}, {"default", t.defaultValue}};
  // Alternative instantiations chosen at launch (ir::Kernel::alternatives): verify and the
  // tuner run each by setting the selecting macro to its value.
  json alternatives = json::array();
  for (size_t i = 0; i < k.alternatives.size(); ++i) {
    const ir::Kernel alt = alternativeKernel(k, i);
    json altGrid = json::array(), point = json::object();
    for (const ir::LaunchDim &d : alt.grid)
      altGrid.push_back({{"iterations", text(d.iterations)}, {"per_block", text(d.perBlock)},
                         {"max_blocks", d.maxBlocks}});
    for (const ir::TuningParam &t : alt.tuning) point[t.macro] = t.defaultValue;
    // Split k: the chunks the launch runs (splitCount, over <NAME>_SPLIT_K and rtcuda_sms).
    if (alt.splitK.trip && altGrid.size() == 1)
      altGrid.push_back({{"iterations", splitCount(alt, k.macro("SPLIT_K"))}, {"per_block", "1"},
                         {"max_blocks", 65535}});
    alternatives.push_back({{"name", alt.name}, {"select_macro", k.macro("SMALL_GRID")},
                            {"select_value", int(i) + 2}, {"grid", altGrid},
                            {"block_threads", text(alt.blockThreads)}, {"point", point}});
    if (alt.splitK.trip) alternatives.back()["split_macro"] = k.macro("SPLIT_K");
  }
  // The 64-bit instantiation of a kernel whose index arithmetic is 32-bit where it fits
  // (IndexWidth.cpp): the same grid and macros, at the header's point.
  if (indexWidth(lk) == IndexWidth::Both) {
    json point = json::object();
    for (const ir::TuningParam &t : k.tuning) point[t.macro] = t.defaultValue;
    alternatives.push_back({{"name", wideIndexKernel(k).name}, {"select_macro", k.macro("WIDE_INDEX")},
                            {"select_value", 2}, {"rule", "index_width"}, {"grid", grid},
                            {"block_threads", text(k.blockThreads)}, {"point", point}});
  }
  json entry = {{"name", k.name},
          {"location", k.loc.str()},
          {"params_header", paramsHeaderName(k)},
          {"launch_function", launchFunctionName(k)},
          {"macro_prefix", k.macroPrefix},
          {"params", params},
          {"grid", grid},
          {"block_threads", text(k.blockThreads)},
          {"passes", k.passes},
          {"tuning", tuning},
          {"alternatives", alternatives},
          {"remarks", k.remarks},
          {"options",
           {{"collapse", lk.options.collapse}, {"merge", lk.options.merge},
            {"skew", lk.options.skew}, {"prefetch", lk.options.prefetch}}}};
  // The launch's choice among the small-grid alternatives, as launch.cuh computes it.
  if (std::string choice = launchChoice(lk); !choice.empty()) entry["launch_choice"] = choice;
  return entry;
}

}  // namespace

std::vector<std::string> extraSourcePaths(const Options &options) {
  std::vector<std::string> out;
  for (const std::string &f : options.extraSources)
    out.push_back("src/extra/" + fs::path(f).filename().string());
  return out;
}

std::string manifest(const Options &options, const ParsedProgram &program,
                     const std::vector<LoweredKernel> &kernels, bool hasMain,
                     const std::vector<LoweredKernel> &functions,
                     const std::map<std::string, std::string> &parentOf,
                     const std::map<std::string, HostLoops> &hostLoops) {
  json sources = json::array();
  for (const std::string &f : options.kernelFiles)
    sources.push_back("src/" + fs::path(f).filename().string());
  json references = json::array();
  for (const ReferenceSource &r : program.references) references.push_back("reference/" + r.fileName);
  json list = json::array();
  for (const LoweredKernel &k : kernels)
    if (!parentOf.count(k.kernel.name)) list.push_back(kernelEntry(k));
  // Outlined functions: verified as a whole against the C function (their kernels have no C
  // function of their own), so they are not in "kernels", which the tuner reads.
  json outlined = json::array();
  for (const LoweredKernel &f : functions) {
    json entry = kernelEntry(f);
    // A scalar that bounds any loop sizes the problem (a time loop's step count too).
    std::set<std::string> sizes;
    ir::visitStmt(f.kernel.body, [&](const ir::Stmt &s) {
      if (s->kind != ir::StmtKind::For) return;
      for (const ir::Expr &b : {s->min, s->end})
        for (const std::string &v : ir::varsOf(b)) sizes.insert(v);
    });
    for (json &p : entry["params"])
      if (p["kind"] == "scalar" && sizes.count(p["name"].get<std::string>())) p["role"] = "size";
    json parts = json::array();
    for (const LoweredKernel &k : kernels) {
      auto parent = parentOf.find(k.kernel.name);
      if (parent == parentOf.end() || parent->second != f.kernel.name) continue;
      json part = kernelEntry(k);
      auto around = hostLoops.find(k.kernel.name);
      if (around != hostLoops.end() && !around->second.loops.empty()) {
        json loops = json::array();
        for (const HostLoopRange &l : around->second.loops)
          loops.push_back({{"var", l.var}, {"type", l.type}, {"min", l.min}, {"end", l.end},
                           {"step", l.step}});
        part["host_loops"] = loops;
        if (around->second.conditional) part["host_conditional"] = true;
      }
      for (const json &alt : part["alternatives"]) entry["alternatives"].push_back(alt);
      parts.push_back(part);
    }
    entry["outlined_kernels"] = parts;
    outlined.push_back(entry);
  }
  json m = {{"format", "rtcuda-manifest"},
            {"version", 1},
            {"config", "src/" + fs::path(options.configPath).filename().string()},
            {"kernel_sources", sources},
            {"reference_sources", references},
            {"main", hasMain ? "main.cu" : ""},
            {"include_dirs", program.headers.empty() ? json::array() : json::array({"include"})},
            {"defines", programDefines(options)},
            {"extra_sources", extraSourcePaths(options)},
            {"memory", options.memory},
            {"arch", options.arch},
            {"kernels", list},
            {"functions", outlined}};
  return m.dump(2) + "\n";
}

}  // namespace rtcuda

namespace rtcuda {

std::string projectCMake(const std::string &program, const Options &options, bool hasMain,
                         bool usesRtapi) {
  std::string arch = options.arch.rfind("sm_", 0) == 0 ? options.arch.substr(3) : options.arch;
  // The architecture is decided before project(), which would otherwise pick the compiler's
  // default; a -DCMAKE_CUDA_ARCHITECTURES given by the user always wins.
  std::string s =
      "# Builds the program rtcuda generated. Configure with -DCMAKE_CUDA_ARCHITECTURES=<NN> for\n"
      "# another GPU (default " + arch + ", the config's arch), -DRTCUDA_WERROR=ON to make warnings\n"
      "# errors, -DRTCUDA_WARNINGS=OFF to drop -Wall; CMAKE_CUDA_FLAGS adds flags of your own.\n"
      "cmake_minimum_required(VERSION 3.20)\n"
      "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
      "  # RTCUDA_CUDA_ARCH: the name older rtcuda outputs used.\n"
      "  set(RTCUDA_CUDA_ARCH " + arch + " CACHE STRING \"default of CMAKE_CUDA_ARCHITECTURES\")\n"
      "  set(CMAKE_CUDA_ARCHITECTURES ${RTCUDA_CUDA_ARCH} CACHE STRING \"CUDA architectures\")\n"
      "endif()\n"
      "project(" + program + " LANGUAGES CXX CUDA)\n"
      "option(RTCUDA_WARNINGS \"Compile with -Wall\" ON)\n"
      "option(RTCUDA_WERROR \"Treat warnings as errors\" OFF)\n"
      "find_package(CUDAToolkit REQUIRED)\n"
      + std::string() + (hasMain ? "add_executable(" + program + " main.cu)\n"
                 : "# No host program: the kernels are compiled on their own.\n"
                   "add_library(" + program + " OBJECT kernel.cu)\n") +
      "target_include_directories(" + program + " PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} "
      "${CMAKE_CURRENT_SOURCE_DIR}/runtime)\n"
      "if(RTCUDA_WARNINGS)\n"
      "  target_compile_options(" + program + " PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)\n"
      "endif()\n"
      "if(RTCUDA_WERROR)\n"
      "  target_compile_options(" + program + " PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:"
      "-Werror=all-warnings -Xcompiler=-Werror>)\n"
      "endif()\n"
      "target_link_libraries(" + program + " PRIVATE CUDA::cudart)\n";
  if (usesRtapi)
    s += "# The RT-API (cuBLAS/cuSPARSE calls of main.c), built from its sources in runtime/rtapi.\n"
         "file(GLOB RTAPI_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/runtime/rtapi/common/*.cpp\n"
         "     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/rtapi/cuda/*.cpp)\n"
         "add_library(rtapi STATIC ${RTAPI_SOURCES})\n"
         "target_include_directories(rtapi PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/runtime/rtapi/include\n"
         "  PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/runtime/rtapi/common)\n"
         "target_link_libraries(rtapi PUBLIC CUDA::cublas CUDA::cusparse CUDA::cudart)\n"
         "target_link_libraries(" + program + " PRIVATE rtapi)\n";
  return s;
}

std::string projectCMakeInputs(const std::string &program, const Options &options,
                               bool hasHeaders) {
  std::vector<std::string> defines = programDefines(options);
  if (!hasHeaders && defines.empty() && options.extraSources.empty()) return "";
  // CMake's quoted argument: \ " and $ escaped.
  auto quoted = [](const std::string &s) {
    std::string q = "\"";
    for (char c : s) q += (c == '\\' || c == '"' || c == '$') ? std::string("\\") + c : std::string(1, c);
    return q + "\"";
  };
  std::string s = "# The config's include_dirs (their headers copied into include/), defines and\n"
                  "# extra_sources (compiled as C).\n";
  if (hasHeaders)
    s += "target_include_directories(" + program + " PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)\n";
  if (!defines.empty()) {
    s += "target_compile_definitions(" + program + " PRIVATE";
    for (const std::string &d : defines) s += " " + quoted(d);
    s += ")\n";
  }
  if (!options.extraSources.empty()) {
    s += "enable_language(C)\ntarget_sources(" + program + " PRIVATE";
    for (const std::string &f : extraSourcePaths(options)) s += " " + f;
    s += ")\n";
  }
  return s;
}

}  // namespace rtcuda
