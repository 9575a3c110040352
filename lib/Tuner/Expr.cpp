// A recursive-descent evaluator for the C expressions of manifest.json (see Expr.h).
#include "rtcuda/Tuner/Expr.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <vector>

namespace rtcuda::tune {

namespace {

class Parser {
public:
  Parser(const std::string &text, const std::map<std::string, long long> &names)
      : s(text), names(names) {}

  long long run() {
    long long v = ternary();
    skip();
    if (pos != s.size()) fail("unexpected '" + s.substr(pos, 1) + "'");
    return v;
  }

private:
  const std::string &s;
  const std::map<std::string, long long> &names;
  size_t pos = 0;

  [[noreturn]] void fail(const std::string &why) {
    throw ExprError("cannot evaluate '" + s + "': " + why);
  }
  void skip() {
    while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  bool eat(const char *op) {
    skip();
    size_t n = std::char_traits<char>::length(op);
    if (s.compare(pos, n, op) != 0) return false;
    // Do not take "<" from "<<" or "<=", "&" from "&&", and so on.
    if (n == 1 && pos + 1 < s.size()) {
      char c = s[pos], d = s[pos + 1];
      if ((c == '<' || c == '>') && (d == c || d == '=')) return false;
      if ((c == '&' || c == '|') && d == c) return false;
      if ((c == '!' || c == '=') && d == '=') return false;
    }
    pos += n;
    return true;
  }

  long long ternary() {
    long long c = binary(0);
    if (!eat("?")) return c;
    long long a = ternary();
    if (!eat(":")) fail("expected ':'");
    long long b = ternary();
    return c ? a : b;
  }

  // Precedence climbing over the binary operators, loosest first.
  long long binary(int level) {
    static const std::vector<std::vector<const char *>> levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"},
        {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    long long left = binary(level + 1);
    for (;;) {
      const char *found = nullptr;
      for (const char *op : levels[level])
        if (eat(op)) {
          found = op;
          break;
        }
      if (!found) return left;
      long long right = binary(level + 1);
      left = apply(found, left, right);
    }
  }

  long long apply(const std::string &op, long long a, long long b) {
    if ((op == "/" || op == "%") && b == 0) fail("division by zero");
    if (op == "||") return a || b;
    if (op == "&&") return a && b;
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&") return a & b;
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<=") return a <= b;
    if (op == ">=") return a >= b;
    if (op == "<") return a < b;
    if (op == ">") return a > b;
    if (op == "<<") return a << b;
    if (op == ">>") return a >> b;
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (op == "/") return a / b;
    return a % b;
  }

  long long unary() {
    if (eat("-")) return -unary();
    if (eat("+")) return unary();
    if (eat("!")) return !unary();
    if (eat("~")) return ~unary();
    return primary();
  }

  std::string identifier() {
    skip();
    size_t start = pos;
    while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_'))
      ++pos;
    return s.substr(start, pos - start);
  }

  // "(long long)", "(int)", "(size_t)": casts are skipped (the value is already 64-bit).
  bool cast() {
    static const std::set<std::string> types = {"int", "long", "unsigned", "signed", "short",
                                                "size_t", "char", "const"};
    size_t save = pos;
    if (!eat("(")) return false;
    bool any = false;
    for (;;) {
      std::string word = identifier();
      if (word.empty()) break;
      if (!types.count(word)) {
        pos = save;
        return false;
      }
      any = true;
    }
    if (any && eat(")")) return true;
    pos = save;
    return false;
  }

  long long primary() {
    skip();
    if (pos >= s.size()) fail("unexpected end");
    if (cast()) return unary();
    if (eat("(")) {
      long long v = ternary();
      if (!eat(")")) fail("expected ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(s[pos]))) {
      size_t used = 0;
      long long v = std::stoll(s.substr(pos), &used, 0);
      pos += used;
      while (pos < s.size() && std::strchr("uUlL", s[pos]) && s[pos]) ++pos;
      return v;
    }
    std::string name = identifier();
    if (name.empty()) fail("unexpected '" + s.substr(pos, 1) + "'");
    if (eat("(")) return call(name);
    auto it = names.find(name);
    if (it == names.end()) fail("unknown name '" + name + "'");
    return it->second;
  }

  long long call(const std::string &name) {
    std::vector<long long> args;
    if (!eat(")")) {
      do args.push_back(ternary());
      while (eat(","));
      if (!eat(")")) fail("expected ')'");
    }
    auto need = [&](size_t n) {
      if (args.size() != n) fail(name + " takes " + std::to_string(n) + " argument(s)");
    };
    if (name == "rtcuda_min" || name == "min") return need(2), std::min(args[0], args[1]);
    if (name == "rtcuda_max" || name == "max") return need(2), std::max(args[0], args[1]);
    if (name == "rtcuda_nonnegative") return need(1), std::max(args[0], 0LL);
    if (name == "rtcuda_ceil_div") {
      need(2);
      if (args[1] == 0) fail("division by zero");
      return args[0] <= 0 ? 0 : (args[0] + args[1] - 1) / args[1];
    }
    fail("unknown function '" + name + "'");
  }
};

}  // namespace

long long evalExpr(const std::string &expr, const std::map<std::string, long long> &names) {
  if (expr.empty()) throw ExprError("empty expression");
  return Parser(expr, names).run();
}

}  // namespace rtcuda::tune
