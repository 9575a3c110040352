// LaneReduction over maxima and minima: a loop that only takes `m = fmaxf(m, v)` (fmax, max, and
// the min forms, either operand order) gets the lanes of a sum. Every lane starts from the
// initial value (taking it more than once changes no maximum), and the lanes combine with max or
// min, which ignore a NaN as fmaxf does: rtcuda_lane_max / rtcuda_lane_min by warp shuffles
// (rows), max over the warps' slots (columns). A sum and a maximum in one loop each keep their
// own operator. A maximum by comparison (`if (v > m) m = v`) gets the lanes too: it skips a NaN
// as fmaxf does, and a NaN start every lane keeps (argmax.c runs NaN rows against gcc). Planted bugs caught by verify (sizes 1, 7, 37, 101): rowmax's
// rtcuda_lane_max made rtcuda_lane_min (1420 mismatches), colmax's max over the slots made min
// (1752), and rowmax's lanes other than 0 started from 0 instead of A[i][0] (1: a row of
// negative values).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,7,37,101 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel rowmax)
// CHECK:      if (i < n) {
// CHECK-NEXT:   best = A[i * m];
// CHECK-NEXT:   for (int k = 1 + lane; k < m; k += lanes) {
// CHECK-NEXT:     best = fmaxf(best, A[i * m + k]);
// CHECK:      // combine the lanes' partial results of best (warp shuffles)
// CHECK:      best = rtcuda_lane_max(best, lanes, best_lanes);
// CHECK-NEXT: if (i < n && lane == 0) {
// CHECK-NEXT:   y[i] = best;
// CHECK-LABEL: IR after LaneReduction (kernel rowmin)
// CHECK:        lo = 1e300;
// CHECK:      lo = rtcuda_lane_min(lo, lanes, lo_lanes);
// CHECK-LABEL: IR after LaneReduction (kernel sum_and_max)
// CHECK:        sum = 0.0f;
// CHECK-NEXT:   top = -1e30f;
// CHECK:      sum = rtcuda_lane_sum(sum, lanes, sum_lanes);
// CHECK-NEXT: top = rtcuda_lane_max(top, lanes, top_lanes);
// CHECK-LABEL: IR after LaneReduction (kernel colmax)
// CHECK:      int lane = (int)(threadIdx.x / 32);
// CHECK:      // combine the lanes' partial results of best
// CHECK:          best = max(best, best_lanes[(int)threadIdx.x + other * 32]);
// CHECK-LABEL: IR after LaneReduction (kernel ifmax)
// CHECK:      for (int k = 1 + lane; k < m; k += lanes) {
// CHECK-NEXT:   if (A[i * m + k] > best) {
// CHECK:      best = rtcuda_lane_max(best, lanes, best_lanes);
//
// VERIFY: verified 5 kernel(s) at {{[0-9]+}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
/* Row maxima, a warp (or a block) a row. */
void rowmax(int n, int m, float y[n], const float A[n][m]) {
  for (int i = 0; i < n; i++) {
    float best = A[i][0];
    for (int k = 1; k < m; k++)
      best = fmaxf(best, A[i][k]);
    y[i] = best;
  }
}
/* Row minima in double, the operand first. */
void rowmin(int n, int m, double y[n], const double A[n][m]) {
  for (int i = 0; i < n; i++) {
    double lo = 1e300;
    for (int k = 0; k < m; k++)
      lo = fmin(A[i][k] * 2.0, lo);
    y[i] = lo;
  }
}
/* A sum and a maximum in one loop. */
void sum_and_max(int n, int m, float s[n], float t[n], const float A[n][m]) {
  for (int i = 0; i < n; i++) {
    float sum = 0.0f, top = -1e30f;
    for (int k = 0; k < m; k++) {
      sum += A[i][k];
      top = fmaxf(top, A[i][k]);
    }
    s[i] = sum;
    t[i] = top;
  }
}
/* Column maxima: the block's warps split the rows of 32 neighbouring columns. */
void colmax(int n, int m, float y[m], const float A[n][m]) {
  for (int j = 0; j < m; j++) {
    float best = A[0][j];
    for (int i = 1; i < n; i++)
      best = fmaxf(best, A[i][j]);
    y[j] = best;
  }
}
/* A maximum by comparison: the lanes of fmaxf's maximum (every lane starts from A[i][0]). */
void ifmax(int n, int m, float y[n], const float A[n][m]) {
  for (int i = 0; i < n; i++) {
    float best = A[i][0];
    for (int k = 1; k < m; k++)
      if (A[i][k] > best)
        best = A[i][k];
    y[i] = best;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [rowmax, rowmin, sum_and_max, colmax, ifmax]
