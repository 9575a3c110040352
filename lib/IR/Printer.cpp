#include "rtcuda/IR/Printer.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace rtcuda::ir {

namespace {

int precedence(const Expr &e) {
  switch (e->kind) {
  case ExprKind::IntImm:
    return e->intValue < 0 ? 15 : 16;
  case ExprKind::FloatImm:
    return e->floatValue < 0 || std::signbit(e->floatValue) ? 15 : 16;
  case ExprKind::Var: case ExprKind::Load: case ExprKind::Call:
    return 16;
  case ExprKind::Unary: case ExprKind::Cast:
    return 15;
  case ExprKind::Select:
    return 3;
  case ExprKind::Binary: {
    const std::string &op = e->name;
    if (op == "*" || op == "/" || op == "%") return 13;
    if (op == "+" || op == "-") return 12;
    if (op == "<<" || op == ">>") return 11;
    if (op == "<" || op == "<=" || op == ">" || op == ">=") return 10;
    if (op == "==" || op == "!=") return 9;
    if (op == "&") return 8;
    if (op == "^") return 7;
    if (op == "|") return 6;
    if (op == "&&") return 5;
    if (op == "||") return 4;
    return 1;
  }
  }
  return 1;
}

std::string intLiteral(const Expr &e) {
  std::string s = std::to_string(e->intValue);
  switch (e->type.kind) {
  case ScalarKind::UInt: return s + "u";
  case ScalarKind::Long: return s + "L";
  case ScalarKind::ULong: return s + "UL";
  case ScalarKind::LongLong: return s + "LL";
  case ScalarKind::ULongLong: return s + "ULL";
  default: return s;
  }
}

std::string floatLiteral(const Expr &e) {
  if (!e->spelling.empty()) return e->spelling;
  char buf[64];
  bool isFloat = e->type.kind == ScalarKind::Float;
  std::snprintf(buf, sizeof buf, isFloat ? "%.9g" : "%.17g", e->floatValue);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return isFloat ? s + "f" : s;
}

std::string printOperand(const Expr &e, int parentPrec, bool strict) {
  std::string s = print(e);
  int p = precedence(e);
  if (p < parentPrec || (strict && p == parentPrec)) return "(" + s + ")";
  return s;
}

std::string paramDecl(const Param &p, PrintMode mode) {
  std::string s;
  if (p.isConst && p.isArray) s += "const ";
  s += p.type.cName();
  if (!p.isArray) return s + " " + p.name;
  if (mode == PrintMode::Dump) {
    s += " " + p.name;
    for (size_t i = 0; i < p.dims.size(); ++i) {
      std::string qualifier = i == 0 && p.isRestrict ? "restrict" : "";
      std::string size = p.dims[i] ? print(p.dims[i]) : "";
      s += "[" + qualifier + (qualifier.empty() || size.empty() ? "" : " ") + size + "]";
    }
    return s;
  }
  s += " *";
  if (p.isRestrict) s += mode == PrintMode::Cuda ? "__restrict__ " : "restrict ";
  return s + p.name;
}

}  // namespace

std::string print(const Expr &e) {
  if (!e) return "<null>";
  switch (e->kind) {
  case ExprKind::IntImm: return intLiteral(e);
  case ExprKind::FloatImm: return floatLiteral(e);
  case ExprKind::Var: return e->name;
  case ExprKind::Load: {
    std::string s = e->name;
    for (const Expr &i : e->operands) s += "[" + print(i) + "]";
    return s;
  }
  case ExprKind::Unary: {
    std::string inner = printOperand(e->operands[0], 15, false);
    if (e->name == "-" && !inner.empty() && inner[0] == '-') inner = "(" + inner + ")";
    return e->name + inner;
  }
  case ExprKind::Binary: {
    int p = precedence(e);
    return printOperand(e->operands[0], p, false) + " " + e->name + " " +
           printOperand(e->operands[1], p, true);
  }
  case ExprKind::Select:
    return printOperand(e->operands[0], 4, false) + " ? " + printOperand(e->operands[1], 4, false) +
           " : " + printOperand(e->operands[2], 3, false);
  case ExprKind::Call: {
    std::string s = e->name + "(";
    for (size_t i = 0; i < e->operands.size(); ++i)
      s += (i ? ", " : "") + print(e->operands[i]);
    return s + ")";
  }
  case ExprKind::Cast:
    return "(" + e->type.cName() + ")" + printOperand(e->operands[0], 15, false);
  }
  return "<?>";
}

std::string print(const Stmt &s, PrintMode mode, int indent) {
  if (!s) return "";
  std::string pad(indent * 2, ' ');
  std::ostringstream out;
  auto nested = [&](const Stmt &body) {
    // A Block prints its statements one level deeper; anything else gets its own level too.
    if (body && body->kind == StmtKind::Block) {
      std::string text;
      for (const Stmt &c : body->stmts) text += print(c, mode, indent + 1);
      return text;
    }
    return print(body, mode, indent + 1);
  };
  switch (s->kind) {
  case StmtKind::Block:
    for (const Stmt &c : s->stmts) out << print(c, mode, indent);
    break;
  case StmtKind::For: {
    int64_t step = 1;
    bool constantStep = isConst(s->step, &step);
    std::string inc = !constantStep ? s->name + " += " + print(s->step)
                    : step == 1 ? s->name + "++" : step == -1 ? s->name + "--"
                    : step > 0 ? s->name + " += " + std::to_string(step)
                               : s->name + " -= " + std::to_string(-step);
    bool unrolled = s->loopKind == LoopKind::Merge || s->loopKind == LoopKind::Skew ||
                    s->loopKind == LoopKind::Unrolled;
    if (mode == PrintMode::Cuda && unrolled) out << pad << "#pragma unroll\n";
    // The condition is printed as an expression: a bound such as a select needs parentheses.
    Expr condition = binary(step > 0 ? "<" : ">", var(s->name, s->type), s->end);
    out << pad << "for (" << s->type.cName() << " " << s->name << " = " << print(s->min) << "; "
        << print(condition) << "; " << inc << ") {";
    if (mode == PrintMode::Dump && s->loopKind != LoopKind::Serial)
      out << "  // " << loopKindName(s->loopKind);
    out << "\n" << nested(s->body) << pad << "}\n";
    break;
  }
  case StmtKind::While:
    out << pad << "while (" << print(s->cond) << ") {\n" << nested(s->body) << pad << "}\n";
    break;
  case StmtKind::If:
    out << pad << "if (" << print(s->cond) << ") {\n" << nested(s->body);
    if (s->elseBody) out << pad << "} else {\n" << nested(s->elseBody);
    out << pad << "}\n";
    break;
  case StmtKind::Decl:
    if (s->shared && s->arraySize && !isConst(s->arraySize) && mode == PrintMode::Cuda) {
      // Sized by tuning macros: a macro that the emulator can size at run time.
      out << pad << "RTCUDA_SHARED_ARRAY(" << s->type.cName() << ", " << s->name << ", "
          << print(s->arraySize) << ");\n";
      break;
    }
    out << pad << (s->shared ? "__shared__ " : "") << (s->constant ? "const " : "")
        << s->type.cName() << " " << s->name;
    if (s->arraySize) out << "[" << print(s->arraySize) << "]";
    if (s->value) out << " = " << print(s->value);
    out << ";\n";
    break;
  case StmtKind::Assign:
    out << pad << s->name << " " << s->op << " " << print(s->value) << ";\n";
    break;
  case StmtKind::Store: {
    // An op that is a function name is an atomic update of the element: op(&A[i], value).
    bool call = !s->op.empty() && (std::isalpha(static_cast<unsigned char>(s->op[0])) || s->op[0] == '_');
    out << pad << (call ? s->op + "(&" : "") << s->name;
    for (const Expr &i : s->indices) out << "[" << print(i) << "]";
    if (call) out << ", " << print(s->value) << ");\n";
    else out << " " << s->op << " " << print(s->value) << ";\n";
    break;
  }
  case StmtKind::Barrier:
    out << pad << "__syncthreads();\n";
    break;
  case StmtKind::Break:
    out << pad << "break;\n";
    break;
  case StmtKind::Continue:
    out << pad << "continue;\n";
    break;
  case StmtKind::Comment:
    out << pad << "// " << s->text << "\n";
    break;
  }
  return out.str();
}

std::string printSignature(const Kernel &k, PrintMode mode) {
  std::string s;
  if (mode == PrintMode::Cuda)
    s += "__global__ void __launch_bounds__(" + k.macro("BLOCKSIZE") +
         (k.minBlocksPerSM > 0 ? ", " + std::to_string(k.minBlocksPerSM) : std::string()) + ")\n";
  else if (mode == PrintMode::Dump)
    s += "kernel ";
  else
    s += "void ";
  s += k.name + "(";
  for (size_t i = 0; i < k.params.size(); ++i)
    s += (i ? ", " : "") + paramDecl(k.params[i], mode);
  for (const DeviceBuffer &b : k.buffers)  // after the user's parameters
    s += (k.params.empty() && &b == &k.buffers.front() ? "" : ", ") + b.type.cName() + " *" + b.name;
  return s + ")";
}

std::string printKernel(const Kernel &k, PrintMode mode) {
  std::string s = printSignature(k, mode) + "\n{\n";
  if (k.body && k.body->kind == StmtKind::Block)
    for (const Stmt &c : k.body->stmts) s += print(c, mode, 1);
  else
    s += print(k.body, mode, 1);
  s += "}\n";
  if (k.finish && mode == PrintMode::Dump)  // CodeGen prints it as its own kernel
    s += "then once, in one thread (kernel " + k.name + "_finish):\n{\n" +
         print(k.finish, mode, 1) + "}\n";
  return s;
}

}  // namespace rtcuda::ir
