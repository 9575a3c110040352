// The host side of an outlined function (lib/Transforms/Outline.cpp): one function with the C
// function's parameters that copies every array the function touches to the GPU once, runs the
// host part as written (serial loops, scalar statements) with a launch where each kernel was
// outlined, copies a scalar a kernel computed back after its launch, and copies the written
// arrays back at the end. Inside a resident loop of main.c the copies are the loop's
// (rtcuda_array_in / rtcuda_array_out).
#include "rtcuda/CodeGen/CodeGen.h"
#include "rtcuda/IR/Mutate.h"
#include "rtcuda/IR/Printer.h"

#include <cctype>
#include <functional>
#include <sstream>

namespace rtcuda {

namespace {

std::string wideSize(const ir::Expr &e, const ir::Kernel &k) {
  std::map<std::string, ir::Expr> widened;
  for (const ir::Param &p : k.params)
    if (!p.isArray) widened[p.name] = ir::cast(ir::Type::of(ir::ScalarKind::LongLong),
                                               ir::var(p.name, p.type));
  return ir::print(ir::substitute(e, widened));
}

std::string pointerType(const ir::Param &p) {
  return std::string(p.isConst ? "const " : "") + p.type.cName() + " *";
}

class HostPrinter {
public:
  HostPrinter(const OutlinedFunction &f, const std::vector<LoweredKernel> &kernels,
              std::ostringstream &out)
      : f(f), out(out) {
    for (const LoweredKernel &k : kernels) byName[k.kernel.name] = &k;
  }

  void print(const ir::Stmt &s, int indent) {
    if (!s) return;
    std::string pad(indent * 2, ' ');
    switch (s->kind) {
    case ir::StmtKind::Block:
      for (const ir::Stmt &c : s->stmts) print(c, indent);
      return;
    case ir::StmtKind::For: {
      int64_t step = 1;
      ir::isConst(s->step, &step);
      ir::Expr cond = ir::binary(step > 0 ? "<" : ">", ir::var(s->name, s->type), s->end);
      out << pad << "for (" << s->type.cName() << " " << s->name << " = " << ir::print(s->min)
          << "; " << ir::print(cond) << "; " << s->name << " += " << step << ") {\n";
      print(s->body, indent + 1);
      out << pad << "}\n";
      return;
    }
    case ir::StmtKind::While:
      out << pad << "while (" << ir::print(s->cond) << ") {\n";
      print(s->body, indent + 1);
      out << pad << "}\n";
      return;
    case ir::StmtKind::If:
      out << pad << "if (" << ir::print(s->cond) << ") {\n";
      print(s->body, indent + 1);
      if (s->elseBody) {
        out << pad << "} else {\n";
        print(s->elseBody, indent + 1);
      }
      out << pad << "}\n";
      return;
    case ir::StmtKind::Comment:
      if (s->text == "launch") return launch(s->name, pad);
      break;
    default:
      break;
    }
    out << ir::print(s, ir::PrintMode::C, indent);
  }

private:
  const OutlinedFunction &f;
  std::ostringstream &out;
  std::map<std::string, const LoweredKernel *> byName;

  void launch(const std::string &name, const std::string &pad) {
    const ir::Kernel &k = byName.at(name)->kernel;
    out << pad << launchFunctionName(k) << "_on_device(where";
    std::vector<std::string> cells;
    for (const ir::Param &p : k.params) {
      const ir::Param *own = f.function.findParam(p.name);
      bool temporary = false;
      for (const ir::Param &t : f.temporaries) temporary |= t.name == p.name;
      out << ", ";
      if ((own && own->isArray) || temporary) {
        out << "d_" << p.name;
      } else if (p.name.rfind(outlineCellName(""), 0) == 0) {
        out << p.name;
        cells.push_back(p.name.substr(outlineCellName("").size()));
      } else if (p.name.rfind(outlineInName(""), 0) == 0) {
        out << p.name.substr(outlineInName("").size());
      } else {
        out << p.name;
      }
    }
    out << ");\n";
    for (const std::string &v : cells)
      out << pad << "rtcuda_check(cudaMemcpy(&" << v << ", " << outlineCellName(v) << ", sizeof("
          << v << "), cudaMemcpyDeviceToHost), \"cudaMemcpy (device to host)\", where);\n";
  }
};

}  // namespace

std::string hostFunction(const OutlinedFunction &f, const std::vector<LoweredKernel> &kernels) {
  const ir::Kernel &fn = f.function;
  std::map<std::string, ArrayFootprint> footprints = computeFootprints(fn);
  std::ostringstream out;
  auto signature = [&](const std::string &name, bool where) {
    out << "static inline void " << name << "(" << (where ? "const char *where" : "");
    for (size_t i = 0; i < fn.params.size(); ++i) {
      const ir::Param &p = fn.params[i];
      out << (where || i ? ", " : "") << (p.isArray ? pointerType(p) : p.type.cName() + " ")
          << p.name;
    }
    out << ")";
  };
  if (f.hostOnly) {
    // No loop could run in parallel (on_dependence: host): the C function on the host's arrays,
    // after what kernels of an enclosing resident loop left on the GPU is copied back.
    out << "// Function '" << fn.name << "' (" << fn.loc.str() << "): no loop of it can run in "
        << "parallel; it runs\n// on the host as written (on_dependence: host).\n";
    signature(launchFunctionName(fn), true);
    out << " {\n  rtcuda_resident_flush(where);\n";
    HostPrinter(f, kernels, out).print(f.host, 1);
  } else {
    out << "// Function '" << fn.name << "' (" << fn.loc.str() << "), outlined: the host runs its "
        << "serial part and\n// launches " << f.kernels.size() << " kernel(s); its arrays stay on "
        << "the GPU from the first launch to the end.\n";
    signature(launchFunctionName(fn), true);
    out << " {\n";
    for (const ir::Param &p : fn.params) {
      if (!p.isArray) continue;
      const ArrayFootprint &fp = footprints.at(p.name);
      if (!fp.read && !fp.written) continue;
      if (!fp.elements)
        throw CompileError(p.loc, "cannot tell how many elements of '" + p.name + "' function '" +
                                      fn.name + "' accesses; declare the parameter with its size");
      out << "  const long long " << p.name << "_elements = rtcuda_nonnegative("
          << wideSize(fp.elements, fn) << ");\n"
          << "  rtcuda_check_index_range(" << p.name << "_elements, \"" << fn.name << "\", where);\n"
          << "  const size_t " << p.name << "_bytes = (size_t)" << p.name << "_elements * sizeof("
          << p.type.cName() << ");\n"
          << "  " << pointerType(p) << "d_" << p.name << " = (" << pointerType(p)
          << ")rtcuda_array_in(" << p.name << ", " << p.name << "_bytes, where);\n";
    }
    for (const ir::Param &c : f.cells)
      out << "  " << c.type.cName() << " *" << c.name << " = NULL;\n"
          << "  rtcuda_check(cudaMalloc((void **)&" << c.name << ", sizeof(" << c.type.cName()
          << ")), \"cudaMalloc\", where);\n";
    // Local arrays outside the parallel loops: device arrays of this call (uninitialized, as in C).
    for (const ir::Param &t : f.temporaries) {
      ir::Expr elements = t.dims[0];  // ArrayExpansion's temporaries have several dimensions
      for (size_t d = 1; d < t.dims.size(); ++d) elements = ir::mul(elements, t.dims[d]);
      out << "  const long long " << t.name << "_elements = rtcuda_nonnegative("
          << wideSize(elements, fn) << ");\n"
          << "  rtcuda_check_index_range(" << t.name << "_elements, \"" << fn.name << "\", where);\n"
          << "  " << pointerType(t) << "d_" << t.name << " = NULL;\n"
          << "  rtcuda_check(cudaMalloc((void **)&d_" << t.name << ", (size_t)(" << t.name
          << "_elements > 0 ? " << t.name << "_elements : 1) * sizeof(" << t.type.cName()
          << ")), \"cudaMalloc\", where);\n";
    }
    HostPrinter printer(f, kernels, out);
    printer.print(f.host, 1);
    out << "  rtcuda_check_launch(\"" << fn.name << "\", where);\n";
    for (const ir::Param &p : fn.params)
      if (p.isArray && footprints.at(p.name).written)
        out << "  rtcuda_array_out(" << p.name << ", " << p.name << "_bytes, where);\n";
    for (const ir::Param &c : f.cells)
      out << "  rtcuda_check(cudaFree(" << c.name << "), \"cudaFree\", where);\n";
    for (const ir::Param &t : f.temporaries)
      out << "  rtcuda_check(cudaFree(d_" << t.name << "), \"cudaFree\", where);\n";
  }
  out << "}\n\n// '" << fn.name << "' under its own name, for code that calls it directly.\n";
  signature(fn.name, false);
  out << " {\n  " << launchFunctionName(fn) << "(\"" << fn.name << "\"";
  for (const ir::Param &p : fn.params) out << ", " << p.name;
  out << ");\n}\n";
  return out.str();
}

std::map<std::string, HostLoops> hostLoopsOfKernels(const OutlinedFunction &f) {
  std::map<std::string, HostLoops> out;
  HostLoops around;
  std::function<void(const ir::Stmt &)> walk = [&](const ir::Stmt &s) {
    if (!s) return;
    switch (s->kind) {
    case ir::StmtKind::Block:
      for (const ir::Stmt &c : s->stmts) walk(c);
      return;
    case ir::StmtKind::For: {
      int64_t step = 1;
      HostLoops saved = around;
      // Bounds the tuner can evaluate: integer arithmetic over names (no loads, calls, casts);
      // a launch inside any other loop is marked conditional (its values are not known).
      bool plain = ir::isConst(s->step, &step) && step != 0;
      for (const ir::Expr &b : {s->min, s->end})
        ir::visitExpr(b, [&](const ir::Expr &e) {
          plain &= e->kind == ir::ExprKind::IntImm || e->kind == ir::ExprKind::Var ||
                   e->kind == ir::ExprKind::Unary || e->kind == ir::ExprKind::Binary ||
                   e->kind == ir::ExprKind::Select;
        });
      if (plain)
        around.loops.push_back({s->name, s->type.cName(), ir::print(s->min), ir::print(s->end), step});
      else
        around.conditional = true;
      walk(s->body);
      around = saved;
      return;
    }
    case ir::StmtKind::While:
    case ir::StmtKind::If: {
      HostLoops saved = around;
      around.conditional = true;
      walk(s->body);
      walk(s->elseBody);
      around = saved;
      return;
    }
    case ir::StmtKind::Comment:
      if (s->text == "launch") out.emplace(s->name, around);
      return;
    default:
      return;
    }
  };
  walk(f.host);
  return out;
}

LoweredKernel functionShell(const OutlinedFunction &f, const std::vector<LoweredKernel> &kernels) {
  LoweredKernel shell;
  shell.options = f.options;
  shell.kernel = f.function;
  std::string prefix;
  for (char c : f.function.name) prefix += char(std::toupper(static_cast<unsigned char>(c)));
  shell.kernel.macroPrefix = prefix;
  shell.kernel.passes = {"Outline"};
  for (const std::string &name : f.kernels)
    for (const LoweredKernel &k : kernels)
      if (k.kernel.name == name)
        for (ir::TuningParam t : k.kernel.tuning) {
          bool seen = false;
          for (const ir::TuningParam &u : shell.kernel.tuning) seen |= u.macro == t.macro;
          if (seen) continue;
          t.name = t.macro;  // unique across the function's kernels
          shell.kernel.tuning.push_back(t);
        }
  shell.footprints = computeFootprints(f.function);
  shell.source = shell.kernel;
  return shell;
}

std::vector<LoweredKernel> userNamedKernels(const std::vector<LoweredKernel> &kernels,
                                            const OutlinedProgram &outlined) {
  std::vector<LoweredKernel> named;
  for (const LoweredKernel &k : kernels) {
    if (!outlined.parentOf.count(k.kernel.name)) {
      named.push_back(k);
      continue;
    }
    // Its rtcuda_ parameters are the generator's own; the user's names are the function's.
    LoweredKernel prefixOnly;
    prefixOnly.kernel.macroPrefix = k.kernel.macroPrefix;
    prefixOnly.source.name = k.kernel.name;
    named.push_back(prefixOnly);
  }
  for (const OutlinedFunction &f : outlined.functions) {
    LoweredKernel user;
    user.source = user.kernel = f.function;
    for (char c : f.function.name)
      user.kernel.macroPrefix += char(std::toupper(static_cast<unsigned char>(c)));
    named.push_back(user);
  }
  return named;
}

}  // namespace rtcuda
