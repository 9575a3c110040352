// GPU check of ReductionSplit's kernels of bench/kernels (colsum, colsum_acc, tmv, bcolsum,
// dcolsum) against a double-precision CPU sum, through the launch functions main.cu calls, at
// shapes where the rows are split across blocks (and where they are not). Each shape is run
// three times in a row with fresh random inputs and the output poisoned first: the per-column
// slots and counts of the __device__ arrays must be back at zero after each launch.
// Usage: gpucheck [small]   (small: the split shapes 4099 x 37 only, for compute-sanitizer)
#include "launch.cuh"
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

static std::mt19937 rng(7);

template <class T>
static int check(const char *what, int rows, int cols, const std::vector<T> &got,
                 const std::vector<double> &want, const std::vector<double> &mag, double eps) {
  int bad = 0;
  for (size_t j = 0; j < got.size(); ++j)
    if (!(std::fabs((double)got[j] - want[j]) <= eps * mag[j] + 1e-6)) ++bad;
  std::printf("GPUCHECK %s rows=%d cols=%d mismatches=%d\n", what, rows, cols, bad);
  return bad;
}

int main(int argc, char **argv) {
  int shapes[][2] = {{4099, 37}, {65537, 1031}, {16411, 4099}, {8191, 8193}, {131071, 257}, {1031, 37}, {37, 41}};
  const int batch = 5;
  int total = 0;
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto &shape : shapes) {
    if (argc > 1 && shape[0] != 4099) continue;
    int rows = shape[0], cols = shape[1];
    for (int rep = 0; rep < 3; ++rep) {
      std::vector<float> A((size_t)rows * cols), x(rows), y0(cols), out(cols), y(cols);
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
      std::fill(out.begin(), out.end(), NAN);
      rtcuda_launch_colsum("colsum", rows, cols, A.data(), out.data());
      total += check("colsum", rows, cols, out, sum, mag, 1e-5);
      std::fill(out.begin(), out.end(), NAN);
      rtcuda_launch_colsum_acc("colsum_acc", rows, cols, A.data(), out.data());
      total += check("colsum_acc", rows, cols, out, sum, mag, 1e-5);
      y = y0;
      rtcuda_launch_tmv("tmv", rows, cols, A.data(), x.data(), y.data());
      total += check("tmv", rows, cols, y, tsum, tmag, 1e-5);
      std::vector<double> dA(A.begin(), A.end()), dout(cols, NAN);
      rtcuda_launch_dcolsum("dcolsum", rows, cols, dA.data(), dout.data());
      total += check("dcolsum", rows, cols, dout, sum, mag, 1e-12);
      if ((long long)rows * cols * batch < 200000000LL) {  // batched: the matrix 5 times, shifted
        std::vector<float> B((size_t)batch * rows * cols), bout((size_t)batch * cols, NAN);
        std::vector<double> bsum((size_t)batch * cols, 0), bmag((size_t)batch * cols, 0);
        for (int b = 0; b < batch; ++b)
          for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) {
              float v = A[(size_t)i * cols + j] + 0.125f * b;
              B[((size_t)b * rows + i) * cols + j] = v;
              bsum[(size_t)b * cols + j] += v, bmag[(size_t)b * cols + j] += std::fabs(v);
            }
        rtcuda_launch_bcolsum("bcolsum", batch, rows, cols, B.data(), bout.data());
        total += check("bcolsum", rows, cols, bout, bsum, bmag, 1e-5);
      }
    }
  }
  std::printf("GPUCHECK total mismatches=%d\n", total);
  return total != 0;
}
