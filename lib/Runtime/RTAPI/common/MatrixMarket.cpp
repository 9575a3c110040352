#include "MatrixMarket.h"

#include "Error.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

namespace rtapi {
namespace {

std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

std::string lower(std::string text) {
  for (char &c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool blank(const std::string &line) {
  return std::all_of(line.begin(), line.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}

bool parseInteger(const std::string &token, long long &value) {
  errno = 0;
  char *end = nullptr;
  value = std::strtoll(token.c_str(), &end, 10);
  return errno == 0 && end != token.c_str() && *end == '\0';
}

bool parseReal(const std::string &token, double &value) {
  errno = 0;
  char *end = nullptr;
  value = std::strtod(token.c_str(), &end);
  return errno != ERANGE && end != token.c_str() && *end == '\0';
}

class Parser {
public:
  Parser(std::istream &in, const std::string &name) : in_(in), name_(name) {}

  MatrixMarket run() {
    MatrixMarket out;
    readHeader(out);
    readSize(out);
    readEntries(out);
    return out;
  }

private:
  std::istream &in_;
  const std::string &name_;
  std::string line_;
  long long lineNo_ = 0;
  long long declared_ = 0;

  [[noreturn]] void error(const std::string &message) const {
    throw Error(RT_ERROR_PARSE, message, name_ + ":" + std::to_string(lineNo_));
  }

  bool next() {
    if (!std::getline(in_, line_)) {
      if (in_.bad()) throw Error(RT_ERROR_FILE, "read error", name_);
      return false;
    }
    ++lineNo_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    return true;
  }

  // The next line that is neither blank nor a % comment.
  bool nextData() {
    while (next())
      if (!blank(line_) && line_[line_.find_first_not_of(" \t")] != '%') return true;
    return false;
  }

  void readHeader(MatrixMarket &out) {
    if (!next()) {
      lineNo_ = 1;
      error("empty file; expected a '%%MatrixMarket' header");
    }
    const std::vector<std::string> t = split(line_);
    if (t.empty() || lower(t[0]) != "%%matrixmarket")
      error("bad header: the first line must start with '%%MatrixMarket'");
    if (t.size() != 5)
      error("bad header: expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
    if (lower(t[1]) != "matrix") error("bad header: object '" + t[1] + "' is not 'matrix'");
    const std::string format = lower(t[2]);
    if (format == "array") error("dense 'array' files are not supported; use 'coordinate'");
    if (format != "coordinate") error("bad header: unknown format '" + t[2] + "'");
    const std::string field = lower(t[3]);
    if (field == "real" || field == "double")
      out.field = MatrixMarket::Field::Real;
    else if (field == "integer")
      out.field = MatrixMarket::Field::Integer;
    else if (field == "pattern")
      out.field = MatrixMarket::Field::Pattern;
    else if (field == "complex")
      error("complex matrices are not supported");
    else
      error("bad header: unknown field '" + t[3] + "'");
    const std::string symmetry = lower(t[4]);
    if (symmetry == "general")
      out.symmetry = MatrixMarket::Symmetry::General;
    else if (symmetry == "symmetric")
      out.symmetry = MatrixMarket::Symmetry::Symmetric;
    else if (symmetry == "skew-symmetric")
      out.symmetry = MatrixMarket::Symmetry::SkewSymmetric;
    else if (symmetry == "hermitian")
      error("hermitian matrices are not supported");
    else
      error("bad header: unknown symmetry '" + t[4] + "'");
  }

  long long sizeField(const std::string &token, const char *what, long long limit) {
    long long value = 0;
    if (!parseInteger(token, value))
      error(std::string(what) + " '" + token + "' is not an integer");
    if (value < 0) error(std::string(what) + " " + token + " is negative");
    if (value > limit) error(std::string(what) + " " + token + " is too large");
    return value;
  }

  void readSize(MatrixMarket &out) {
    if (!nextData()) error("file ends before the size line 'rows columns entries'");
    const std::vector<std::string> t = split(line_);
    if (t.size() != 3)
      error("the size line needs 3 integers 'rows columns entries', found " +
            std::to_string(t.size()) + " fields");
    const long long intMax = std::numeric_limits<int>::max();
    out.rows = static_cast<int>(sizeField(t[0], "row count", intMax));
    out.cols = static_cast<int>(sizeField(t[1], "column count", intMax));
    declared_ = sizeField(t[2], "entry count", intMax);
    if (out.symmetry != MatrixMarket::Symmetry::General && out.rows != out.cols)
      error("a symmetric matrix must be square, not " + std::to_string(out.rows) + " x " +
            std::to_string(out.cols));
    const std::size_t reserve = static_cast<std::size_t>(std::min<long long>(declared_, 1 << 22));
    const std::size_t factor = out.symmetry == MatrixMarket::Symmetry::General ? 1 : 2;
    out.row.reserve(reserve * factor);
    out.col.reserve(reserve * factor);
    out.val.reserve(reserve * factor);
  }

  int index(const std::string &token, const char *what, int extent) {
    long long value = 0;
    if (!parseInteger(token, value))
      error(std::string(what) + " '" + token + "' is not an integer");
    if (value < 1 || value > extent)
      error(std::string(what) + " " + token + " out of range 1.." + std::to_string(extent));
    return static_cast<int>(value - 1);
  }

  void readEntries(MatrixMarket &out) {
    const bool pattern = out.field == MatrixMarket::Field::Pattern;
    const std::size_t fields = pattern ? 2 : 3;
    long long found = 0;
    while (nextData()) {
      if (found == declared_)
        error("more entries than the " + std::to_string(declared_) + " the size line declares");
      const std::vector<std::string> t = split(line_);
      if (t.size() != fields)
        error(std::string("expected ") +
              (pattern ? "2 fields 'row column'" : "3 fields 'row column value'") + ", found " +
              std::to_string(t.size()));
      const int i = index(t[0], "row index", out.rows);
      const int j = index(t[1], "column index", out.cols);
      double v = 1.0;
      if (out.field == MatrixMarket::Field::Integer) {
        long long iv = 0;
        if (!parseInteger(t[2], iv)) error("value '" + t[2] + "' is not an integer");
        v = static_cast<double>(iv);
      } else if (!pattern && !parseReal(t[2], v)) {
        error("value '" + t[2] + "' is not a number");
      }
      const std::string where = "(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")";
      if (out.symmetry != MatrixMarket::Symmetry::General && i < j)
        error("entry " + where +
              " is above the diagonal; a symmetric file stores the lower "
              "triangle");
      if (out.symmetry == MatrixMarket::Symmetry::SkewSymmetric && i == j)
        error("entry " + where + " is on the diagonal of a skew-symmetric matrix");
      out.row.push_back(i);
      out.col.push_back(j);
      out.val.push_back(v);
      if (out.symmetry != MatrixMarket::Symmetry::General && i != j) {
        out.row.push_back(j);
        out.col.push_back(i);
        out.val.push_back(out.symmetry == MatrixMarket::Symmetry::SkewSymmetric ? -v : v);
      }
      ++found;
    }
    if (found < declared_) {
      error("file ends after " + std::to_string(found) + " of the " + std::to_string(declared_) +
            " entries the size line declares");
    }
  }
};

} // namespace

MatrixMarket parseMatrixMarket(std::istream &in, const std::string &name) {
  return Parser(in, name).run();
}

MatrixMarket readMatrixMarket(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw Error(RT_ERROR_FILE, std::string("cannot open: ") + std::strerror(errno), path);
  return parseMatrixMarket(in, path);
}

} // namespace rtapi
