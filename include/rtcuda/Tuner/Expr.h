// Evaluating the manifest's C expressions ("(N - 16) * (N - 16)", "MM_BLOCKSIZE * MM_MERGE_LEVEL")
// in 64-bit integers, with the names bound to values, as the generated launch code does.
#pragma once

#include <map>
#include <stdexcept>
#include <string>

namespace rtcuda::tune {

class ExprError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Integer arithmetic (+ - * / % << >> comparisons && || ! ?: parentheses), casts to integer
// types (ignored), and the runtime's helpers rtcuda_min/max/ceil_div. Throws ExprError naming
// the expression on an unknown name, a division by zero or a syntax error.
long long evalExpr(const std::string &expr, const std::map<std::string, long long> &names);

}  // namespace rtcuda::tune
