// Session 13: the row reductions' block-a-row mapping (LaneReduction's ROW_BLOCK; its
// several-warp rtcuda_lane_sum runs only on a GPU, not in the CPU emulator) checked on the GPU.
// Inputs are small integers, so every sum is exact in any order and the results must equal the
// CPU's exactly. Sizes where rows are at least 2 x BLOCKSIZE long (a block a row) and shorter
// ones (LANES), at the point the build's -D flags give.
#include "rtcuda_runtime.h"
#include "launch.cuh"
#include <cstdio>
#include <vector>

static long long bad = 0, checked = 0;
template <class T> static void same(const char *what, int a, int b, const std::vector<T> &got, const std::vector<T> &want) {
  long long wrong = 0;
  for (size_t k = 0; k < want.size(); k++) wrong += got[k] != want[k];
  printf("%-8s %6d x %-6d %s\n", what, a, b, wrong ? "WRONG" : "ok");
  if (wrong) printf("  %lld of %zu differ (first: got %g want %g)\n", wrong, want.size(), (double)got[0], (double)want[0]);
  bad += wrong; checked += want.size();
}
static float val(long long k, int salt) { return (float)((k * 7 + salt * 13) % 7 - 3); }

int main() {
  int shapes[][2] = {{37, 1031}, {5, 65537}, {1031, 600}, {3, 33}, {129, 2049}, {2, 200003}};
  for (auto &s : shapes) {
    int rows = s[0], cols = s[1];
    std::vector<float> A((size_t)rows * cols), B(A.size()), x(cols);
    for (size_t k = 0; k < A.size(); k++) { A[k] = val(k, 1); B[k] = val(k, 2); }
    for (int j = 0; j < cols; j++) x[j] = val(j, 3);
    std::vector<float> out(rows), want(rows), tmp(rows), y(rows), wt(rows), wy(rows);
    for (int i = 0; i < rows; i++) {
      double t = 0, u = 0, r = 0;
      for (int j = 0; j < cols; j++) { r += A[(size_t)i * cols + j]; t += A[(size_t)i * cols + j] * x[j]; u += B[(size_t)i * cols + j] * x[j]; }
      want[i] = (float)r; wt[i] = (float)t; wy[i] = (float)(1.5 * t + 1.25 * u);
    }
    rtcuda_launch_rowsum("gpucheck", rows, cols, A.data(), out.data());
    same("rowsum", rows, cols, out, want);
    rtcuda_launch_mvrect("gpucheck", rows, cols, A.data(), x.data(), out.data());
    same("mvrect", rows, cols, out, wt);
    rtcuda_launch_gesummv("gpucheck", rows, cols, 1.5f, 1.25f, A.data(), B.data(), x.data(), tmp.data(), y.data());
    same("gesummv", rows, cols, y, wy);
    same("gesummv.tmp", rows, cols, tmp, wt);
    int batch = 3;
    std::vector<double> dA((size_t)batch * rows * cols), dx((size_t)batch * cols), dy((size_t)batch * rows), dw(dy.size());
    for (size_t k = 0; k < dA.size(); k++) dA[k] = val(k, 4);
    for (size_t k = 0; k < dx.size(); k++) dx[k] = val(k, 5);
    for (int b = 0; b < batch; b++)
      for (int i = 0; i < rows; i++) {
        double t = 0;
        for (int j = 0; j < cols; j++) t += dA[((size_t)b * rows + i) * cols + j] * dx[(size_t)b * cols + j];
        dw[(size_t)b * rows + i] = t;
      }
    rtcuda_launch_bmv("gpucheck", batch, rows, cols, dA.data(), dx.data(), dy.data());
    same("bmv", rows, cols, dy, dw);
  }
  printf("GPUCHECK %lld values, %lld wrong\n", checked, bad);
  return bad != 0;
}
