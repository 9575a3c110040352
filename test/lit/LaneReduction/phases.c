// Rows of several phases (LaneReductionPhases.cpp): a row's body that goes on after its first
// reduction with more reductions. Every lane takes each combine's result (rtcuda_lane_*(..., 1))
// and the lanes split the later reduction loops and the loops of independent iterations, while
// scalar steps run in every lane and single stores in lane 0. Before, every loop after the first
// ran on lane 0 alone (a softmax walked two of its three passes over the row on one thread).
// An array that two or more of the loops read along the row and nothing writes (softmax's and
// scale_row's X) is copied once into shared memory where the block's rows fit (X_cached), each
// loop in two forms; the in-place layer norm writes X and keeps reading it. A scalar step that
// reads what its own phase's loop writes (stepread's t = Y[i][0]) keeps the body lane 0's: every
// lane would run the step while others store.
// Kept as they were: a later loop that reads what an earlier split loop stored with no combine
// between (prefix: lane 0 walks it), and the column mapping's last loop (splittableEpilogue:
// the warps take the sums through shared memory). A row's single last loop (scale_row) now takes
// the sums from the combine itself, not through a slot and a barrier. Planted bugs caught by verify
// (sizes 1, 7, 37, 101): softmax's sum combined into lane 0 only (its `1` made `0`: 86482
// mismatches), the layer norm's variance loop started at 0 in every lane (`+ lane` removed:
// 107494), softmax's copy filled from lane + 1 (its first element never copied: 45638).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1,7,37,101 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 7 --size n=3 --size m=4099 --max-points 6 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 7 --size n=3 --size m=11111 --max-points 6 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel softmax)
// CHECK:      int X_cached = SOFTMAX_ROW_CACHE && m <= (-(16 * SOFTMAX_BLOCKSIZE) + 48128) / 4 / (SOFTMAX_BLOCKSIZE / lanes);
// CHECK:      __shared__ float X_row[(-(16 * SOFTMAX_BLOCKSIZE) + 48128) / 4];
// CHECK:      if (i < n && X_cached) {
// CHECK-NEXT:   for (int j_ = lane; j_ < m; j_ += lanes) {
// CHECK-NEXT:     X_row[(int)threadIdx.x / lanes * m + j_] = X[i * m + j_];
// CHECK:      __syncthreads();
// CHECK:      mx = rtcuda_lane_max(mx, lanes, mx_lanes, 1);
// CHECK-NEXT: if (i < n) {
// CHECK-NEXT:   s = 0.0f;
// CHECK-NEXT:   if (X_cached) {
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       s += expf(X_row[(int)threadIdx.x / lanes * m + j] - mx);
// CHECK:      // combine the lanes' partial sums of s into every lane (warp shuffles)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes, 1);
// CHECK-NEXT: if (i < n) {
// CHECK-NEXT:   if (X_cached) {
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       Y[i * m + j] = expf(X_row[(int)threadIdx.x / lanes * m + j] - mx) / s;
// CHECK:        } else {
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       Y[i * m + j] = expf(X[i * m + j] - mx) / s;
// CHECK-LABEL: IR after LaneReduction (kernel layernorm_inplace)
// CHECK-NOT:  _row
// CHECK:      mean = rtcuda_lane_sum(mean, lanes, mean_lanes, 1);
// CHECK-NEXT: if (i < n) {
// CHECK-NEXT:   mean /= m;
// CHECK-NEXT:   var = 0.0f;
// CHECK-NEXT:   for (int j = lane; j < m; j += lanes) {
// CHECK:      var = rtcuda_lane_sum(var, lanes, var_lanes, 1);
// CHECK-NEXT: if (i < n && lane == 0) {
// CHECK-NEXT:   stats[i] = var;
// CHECK:      if (i < n) {
// CHECK-NEXT:   for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:     X[i * m + j] = (X[i * m + j] - mean) / sqrtf(var / m + 1e-5f);
// CHECK-LABEL: IR after LaneReduction (kernel prefix)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes);
// CHECK-NEXT: if (i < n && lane == 0) {
// CHECK-LABEL: IR after LaneReduction (kernel scale_row)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes, 1);
// CHECK-NEXT: if (i < n) {
// CHECK-NEXT:   if (X_cached) {
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       Y[i * m + j] = X_row[(int)threadIdx.x / lanes * m + j] * s;
// CHECK-LABEL: IR after LaneReduction (kernel col_update)
// CHECK:      R_lanes[(int)threadIdx.x] = R;
// CHECK:      __syncthreads();
// CHECK-LABEL: IR after LaneReduction (kernel stepread)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes);
// CHECK-NEXT: if (i < n && lane == 0) {
// CHECK-NEXT:   t = Y[i * m];
//
// VERIFY: 0 mismatch(es)

//--- kernel.c
#include <math.h>
/* Softmax of each row: a maximum, a sum of exponentials, the row written. */
void softmax(int n, int m, const float X[n][m], float Y[n][m]) {
  for (int i = 0; i < n; i++) {
    float mx = X[i][0];
    for (int j = 1; j < m; j++)
      mx = fmaxf(mx, X[i][j]);
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += expf(X[i][j] - mx);
    for (int j = 0; j < m; j++)
      Y[i][j] = expf(X[i][j] - mx) / s;
  }
}
/* A layer norm in place, its variance stored on the way: the row read twice, then overwritten
 * (the combines order every lane's reads before any lane's stores). */
void layernorm_inplace(int n, int m, float X[n][m], float stats[n]) {
  for (int i = 0; i < n; i++) {
    float mean = 0.0f;
    for (int j = 0; j < m; j++)
      mean += X[i][j];
    mean /= m;
    float var = 0.0f;
    for (int j = 0; j < m; j++)
      var += (X[i][j] - mean) * (X[i][j] - mean);
    stats[i] = var;
    for (int j = 0; j < m; j++)
      X[i][j] = (X[i][j] - mean) / sqrtf(var / m + 1e-5f);
  }
}
/* After the sum, a loop that writes Y and one that reads it back shifted: no combine between,
 * so lane 0 keeps both. */
void prefix(int n, int m, const float X[n][m], float Y[n][m]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += X[i][j];
    for (int j = 0; j < m; j++)
      Y[i][j] = X[i][j] / s;
    for (int j = 1; j < m; j++)
      Y[i][j] = Y[i][j] + Y[i][j - 1];
  }
}
/* One sum, one last loop: the lanes split it. */
void scale_row(int n, int m, const float X[n][m], float Y[n][m]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += X[i][j];
    for (int j = 0; j < m; j++)
      Y[i][j] = X[i][j] * s;
  }
}
/* A column's sum, then the column updated (gramschmidt's step): the columns' warps, as before. */
void col_update(int n, int m, float A[n][m], const float q[n], float r[m]) {
  for (int j = 0; j < m; j++) {
    float R = 0.0f;
    for (int i = 0; i < n; i++)
      R += A[i][j] * q[i];
    r[j] = R;
    for (int i = 0; i < n; i++)
      A[i][j] -= q[i] * R;
  }
}
/* A step that reads the row its loop then writes. */
void stepread(int n, int m, const float X[n][m], float Y[n][m]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += X[i][j];
    float t = Y[i][0];
    for (int j = 0; j < m; j++)
      Y[i][j] = X[i][j] * s + t;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [softmax, layernorm_inplace, prefix, scale_row, col_update, stepread]
