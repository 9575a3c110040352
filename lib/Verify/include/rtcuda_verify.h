// Support code for the harnesses `rtcuda verify` generates: random inputs, problem sizes,
// tolerant comparison, reporting. Compiled into each harness (with the emulation shim).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace rtcuda_verify {

struct Session {
  unsigned seed = 1;
  std::mt19937_64 rng;
  std::mt19937_64 moveRng;  // for moved(): its own stream, so a seed still gives the same inputs
  std::vector<long long> sizeBases;                  // one problem size per entry
  std::map<std::string, long long> sizeOverrides;    // --size NAME=VALUE
  std::map<std::string, int> pointFilter;            // --point NAME=VALUE
  int maxReports = 5;                                 // mismatches printed per comparison
  double tolerance = 1;                               // --tolerance: factor on the bound
  long long mismatches = 0, comparisons = 0, points = 0;
  long long alternatives = 0;  // runs of alternative instantiations (forced by their macro)

  // The j-th size parameter of a kernel gets base + 2j: non-square shapes, primes included;
  // never more than `atMost` (its loops index a dimension of that constant extent). A --size
  // given by the user is taken as it is.
  long long size(const char *name, long long base, int j,
                 long long atMost = std::numeric_limits<long long>::max()) const {
    auto it = sizeOverrides.find(name);
    return it != sizeOverrides.end() ? it->second : std::min(base + 2 * j, atMost);
  }

  template <class T> T randomValue() {
    if (std::is_floating_point<T>::value)
      return T(std::uniform_real_distribution<double>(-2.0, 2.0)(rng));
    return T(std::uniform_int_distribution<int>(1, 9)(rng));
  }

  // Arrays are never all zeros: unwritten outputs and wrong indexing must show.
  template <class T> T *randomArray(long long count) {
    if (count < 0) count = 0;
    T *a = static_cast<T *>(malloc(sizeof(T) * size_t(count > 0 ? count : 1)));
    for (long long i = 0; i < count; ++i) {
      if (std::is_floating_point<T>::value)
        a[i] = T(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
      else
        a[i] = T(std::uniform_int_distribution<int>(-1000, 1000)(rng));
    }
    return a;
  }

  // An integer array whose values index another array's dimension of `extent` elements.
  template <class T> void indexValues(T *a, long long count, long long extent) {
    std::uniform_int_distribution<long long> pick(0, extent > 0 ? extent - 1 : 0);
    for (long long i = 0; i < count; ++i) a[i] = T(pick(rng));
  }

  // Offsets (CSR row pointers): non-decreasing, from 0 to at most `total`.
  template <class T> void offsetValues(T *a, long long count, long long total) {
    indexValues(a, count, (total > 0 ? total : 0) + 1);
    std::sort(a, a + count);
    if (count) a[0] = 0;
  }

  template <class T> static T *copy(const T *a, long long count) {
    if (count < 0) count = 0;
    T *b = static_cast<T *>(malloc(sizeof(T) * size_t(count > 0 ? count : 1)));
    if (count) memcpy(b, a, sizeof(T) * size_t(count));
    return b;
  }

  bool selected(const char *param, int value) const {
    auto it = pointFilter.find(param);
    return it == pointFilter.end() || it->second == value;
  }

  // The machine epsilon the bounds below are written in.
  template <class T> static double epsilon() {
    return std::is_same<T, float>::value ? 1.1920929e-7 : 2.220446e-16;
  }

  // A copy of `a` whose floating-point elements are each moved by a random relative amount of
  // at most R * eps, R the reduction bound: what summing R terms in another order may do to
  // them (its backward error). The sequential C run on moved inputs shows how far its own answer
  // moves under such rounding: little for a sum, much for a solve whose steps divide by sums
  // earlier steps formed (trisolv and LU without pivoting on random inputs).
  template <class T> T *moved(const T *a, long long count, long long reduction) {
    T *b = copy(a, count);
    if (!std::is_floating_point<T>::value || count <= 0) return b;
    double amount = epsilon<T>() * double(reduction > 1 ? reduction : 1);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    // Within the array's own range: a value the C turns into an index stays in the indices the
    // drawn inputs reach.
    auto range = std::minmax_element(a, a + count);
    for (long long i = 0; i < count; ++i)
      b[i] = std::min(std::max(T(double(b[i]) * (1 + amount * unit(moveRng))), *range.first),
                      *range.second);
    return b;
  }

  // Integers must match exactly. Floating point within a tolerance that grows with the
  // epsilon of the type and the length of the longest reduction the sizes allow, plus what the
  // sequential C's own answer moved on moved inputs (`shifted`, its output on them; may be null).
  template <class T>
  long long compare(const char *kernel, const std::string &where, const char *array,
                    const T *got, const T *want, const T *shifted, long long count,
                    long long reduction) {
    ++comparisons;
    double tol = 0;
    double scale = 0;
    double shiftScale = 0;  // rms of the finite moves
    auto shift = [&](long long i) {
      double d = shifted ? std::fabs(double(shifted[i]) - double(want[i])) : 0;
      return std::isfinite(d) ? d : 0;
    };
    if (std::is_floating_point<T>::value) {
      tol = 16 * epsilon<T>() * double(reduction > 1 ? reduction : 1) * tolerance;
      for (long long i = 0; i < count; ++i) {
        scale += double(want[i]) * double(want[i]);
        shiftScale += shift(i) * shift(i);
      }
      scale = count ? std::sqrt(scale / double(count)) : 0;
      shiftScale = count ? std::sqrt(shiftScale / double(count)) : 0;
    }
    long long bad = 0;
    for (long long i = 0; i < count; ++i) {
      bool same;
      if (std::is_floating_point<T>::value) {
        double g = double(got[i]), w = double(want[i]);
        same = (std::isnan(g) && std::isnan(w)) || g == w ||
               std::fabs(g - w) <= tol * std::max(std::fabs(w), scale) +
                                       16 * tolerance * std::max(shift(i), shiftScale);
      } else {
        same = got[i] == want[i];
      }
      if (same) continue;
      if (bad < maxReports)
        printf("  MISMATCH %s (%s): %s[%lld] = %.9g, sequential C gives %.9g\n", kernel,
               where.c_str(), array, i, double(got[i]), double(want[i]));
      ++bad;
    }
    if (bad > maxReports) printf("  ... %lld more mismatches in %s\n", bad - maxReports, array);
    mismatches += bad;
    return bad;
  }
};

}  // namespace rtcuda_verify
