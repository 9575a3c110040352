// The statistics of a variant's timed runs (median, extremes, quartiles by linear
// interpolation between order statistics), shared by the measurement harness, which
// rtcuda-tune writes out next to each generated harness.cpp, and by the unit tests that make
// up timings (test/unit/Tuner/SelectionTest.cpp). Plain C++: no CUDA.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rtcuda_tune {

struct Stats {
  double median = 0, min = 0, max = 0, q1 = 0, q3 = 0;
};

inline Stats stats(std::vector<double> t) {
  Stats s;
  if (t.empty()) return s;
  std::sort(t.begin(), t.end());
  auto at = [&](double q) {
    double pos = q * double(t.size() - 1);
    size_t i = size_t(pos);
    double f = pos - double(i);
    return i + 1 < t.size() ? t[i] * (1 - f) + t[i + 1] * f : t[i];
  };
  s.median = at(0.5), s.min = t.front(), s.max = t.back(), s.q1 = at(0.25), s.q3 = at(0.75);
  return s;
}

}  // namespace rtcuda_tune
