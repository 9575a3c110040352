// Names the generated code needs for itself: a kernel, parameter or local variable named like
// one of them would give kernel.cu or launch.cuh that nvcc rejects (or that means something
// else), so it is refused at its declaration with the name to change.
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"

#include <set>

namespace rtcuda {

namespace {

// Generated files are CUDA C++: C++ keywords (valid C names) cannot name anything there.
const std::set<std::string> &cxxKeywords() {
  static const std::set<std::string> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char16_t",
      "char32_t", "char8_t", "class", "compl", "concept", "consteval", "constexpr", "constinit",
      "const_cast", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
      "explicit", "export", "false", "friend", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
      "reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this",
      "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual",
      "wchar_t", "xor", "xor_eq"};
  return words;
}

// CUDA's built-in variables and types, and the runtime helpers every kernel may call.
const std::set<std::string> &cudaNames() {
  static const std::set<std::string> names = {
      "blockIdx", "threadIdx", "blockDim", "gridDim", "warpSize", "dim3", "atomicAdd", "atomicSub",
      "atomicMin", "atomicMax", "atomicCAS", "atomicExch", "atomicAnd", "atomicOr", "atomicXor",
      "min", "max"};
  return names;
}

// Locals of the launch function in launch.cuh, which takes the kernel's parameters.
const std::set<std::string> &launchLocals() {
  static const std::set<std::string> names = {"where", "grid", "block", "iterations_x",
                                              "iterations_y", "iterations_z"};
  return names;
}

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

void checkReservedNames(const std::vector<LoweredKernel> &kernels, Diagnostics &diags) {
  std::vector<std::string> macroPrefixes;
  for (const LoweredKernel &k : kernels) macroPrefixes.push_back(k.kernel.macroPrefix + "_");
  // Why `name` cannot be used, or "" when it can.
  auto clash = [&](const std::string &name) -> std::string {
    if (cxxKeywords().count(name)) return "is a C++ keyword, and the generated files are CUDA C++";
    if (cudaNames().count(name)) return "is a CUDA built-in name the generated kernel uses";
    if (startsWith(name, "__") || (name.size() > 1 && name[0] == '_' && isupper(static_cast<unsigned char>(name[1]))))
      return "is reserved to the compiler";
    if (startsWith(name, "rtcuda_") || startsWith(name, "RTCUDA_"))
      return "starts with rtcuda_/RTCUDA_, which the generated code reserves for its helpers";
    for (const std::string &p : macroPrefixes)
      if (startsWith(name, p)) return "starts with " + p + ", the prefix of a kernel's tuning macros";
    return "";
  };
  for (const LoweredKernel &lk : kernels) {
    const ir::Kernel &k = lk.source;
    auto refuse = [&](const ir::SourceLoc &loc, const std::string &what, const std::string &name,
                      const std::string &why) {
      diags.error(loc, what + " '" + name + "' of kernel '" + k.name + "' " + why + "; rename it");
    };
    std::string why = clash(k.name);
    if (why.empty() && launchLocals().count(k.name)) why = "names a local of the launch code";
    if (!why.empty()) refuse(k.loc, "the name", k.name, why);
    std::set<std::string> launchNames = launchLocals();
    for (const ir::Param &p : k.params)
      if (p.isArray)
        for (const char *suffix : {"_elements", "_bytes", "_count", "_init", "_ref", "_dev"})
          launchNames.insert(p.name + suffix);
    for (const ir::Param &p : k.params)
      if (p.isArray) launchNames.insert("d_" + p.name);
    for (const ir::Param &p : k.params) {
      why = clash(p.name);
      if (why.empty() && launchNames.count(p.name))
        why = "is a name the generated launch or verify code gives its own variables";
      if (!why.empty()) refuse(p.loc, "parameter", p.name, why);
    }
    std::set<std::string> seen;
    auto local = [&](const ir::Stmt &s) {
      if (s->kind != ir::StmtKind::Decl && s->kind != ir::StmtKind::For) return;
      if (!seen.insert(s->name).second) return;
      std::string reason = clash(s->name);
      if (!reason.empty()) refuse(s->loc, "variable", s->name, reason);
    };
    if (k.body) ir::visitStmt(k.body, local);
    if (k.finish) ir::visitStmt(k.finish, local);
  }
}

}  // namespace rtcuda
