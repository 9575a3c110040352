// Matrix Market reader (coordinate format; real, integer or pattern values; general, symmetric
// or skew-symmetric). Malformed input is refused with an rtapi::Error whose location is
// "<file>:<line>" (RT_ERROR_PARSE), or RT_ERROR_FILE when the file cannot be read.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace rtapi {

struct MatrixMarket {
  enum class Field { Real, Integer, Pattern };
  enum class Symmetry { General, Symmetric, SkewSymmetric };

  int rows = 0;
  int cols = 0;
  Field field = Field::Real;
  Symmetry symmetry = Symmetry::General;
  // Entries, 0-based, with the mirrored half of a (skew-)symmetric matrix already added;
  // pattern entries have value 1. Values are read as double whatever the target precision.
  std::vector<int> row;
  std::vector<int> col;
  std::vector<double> val;
};

MatrixMarket readMatrixMarket(const std::string &path);
// `name` is the file name the messages show.
MatrixMarket parseMatrixMarket(std::istream &in, const std::string &name);

} // namespace rtapi
