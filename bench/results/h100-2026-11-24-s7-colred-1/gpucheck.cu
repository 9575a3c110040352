// GPU check of ReductionSplit's kernels (colsum, colsum_acc, tmv of bench/kernels) against a
// double-precision CPU sum, at shapes where the rows are split across blocks (and one where
// they are not), through the launch functions main.cu calls. Prints one line per case.
#include "launch.cuh"
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

static int check(const char *what, int rows, int cols, const std::vector<float> &got,
                 const std::vector<double> &want, const std::vector<double> &mag) {
  int bad = 0;
  for (int j = 0; j < cols; ++j)
    if (std::fabs(got[j] - want[j]) > 1e-5 * mag[j] + 1e-6) ++bad;
  std::printf("GPUCHECK %s rows=%d cols=%d mismatches=%d\n", what, rows, cols, bad);
  return bad;
}

int main(int argc, char **argv) {
  int shapes[][2] = {{4099, 37}, {65537, 1031}, {131071, 257}, {1031, 37}, {37, 41}};
  int n = argc > 1 ? 1 : 5;  // argc > 1: the small shape only (for compute-sanitizer)
  int total = 0;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int s = 0; s < 5; ++s) {
    if (n == 1 && s != 0) continue;
    int rows = shapes[s][0], cols = shapes[s][1];
    std::vector<float> A((size_t)rows * cols), x(rows), y0(cols), out(cols, 123.0f), y(cols);
    for (float &v : A) v = u(rng);
    for (float &v : x) v = u(rng);
    for (float &v : y0) v = u(rng);
    std::vector<double> sum(cols, 0), tsum(cols, 0), mag(cols, 0), tmag(cols, 0);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        double a = A[(size_t)i * cols + j];
        sum[j] += a, mag[j] += std::fabs(a);
        tsum[j] += a * x[i], tmag[j] += std::fabs(a * x[i]);
      }
    for (int j = 0; j < cols; ++j) tsum[j] += y0[j], tmag[j] += std::fabs(y0[j]);
    rtcuda_launch_colsum("colsum", rows, cols, A.data(), out.data());
    total += check("colsum", rows, cols, out, sum, mag);
    std::fill(out.begin(), out.end(), 123.0f);
    rtcuda_launch_colsum_acc("colsum_acc", rows, cols, A.data(), out.data());
    total += check("colsum_acc", rows, cols, out, sum, mag);
    y = y0;
    rtcuda_launch_tmv("tmv", rows, cols, A.data(), x.data(), y.data());
    total += check("tmv", rows, cols, y, tsum, tmag);
  }
  std::printf("GPUCHECK total mismatches=%d\n", total);
  return total != 0;
}
