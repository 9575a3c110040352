// LaneReduction with several sums and with statements after the loop (issue 13, PolyBench's
// gesummv and gramschmidt): gesummv's two sums into tmp[i] and y[i] (AccumulatorPromotion makes
// them two scalars, their zeroing the starts) each get the lanes' partial sums and one shuffle
// combine, lane 0 runs the epilogue; colstats' two column sums (one starting from b[j]) share
// one barrier; a loop after the sum whose iterations are independent is split between the lanes
// once lane 0 has shared the sums through its slots (rownorm: rows, shuffles; rowshort: rows,
// the shared-memory tree; gs4, gramschmidt's kernel 4: columns, the warps split the column
// update, R[k][j] read as the sum; `parallel_loops: 1` keeps it one kernel, which Fission
// otherwise splits: test/lit/Fission/column-update.c); rowscan's loop after the sum carries a dependence and stays
// lane 0's. Scalar steps between the sum and the shared loop (colnorm's `s = sqrtf(s)`,
// rowstep's `float r = 1.0f / (s + 1)`: scalars set from the sums, the parameters and arrays the
// kernel never writes) are run again by every lane after it takes the sums, so the lanes still
// split the loop that reads them (session 20; before, lane 0, the block's first warp, walked the
// column alone). Planted: without colnorm's step in the shared block, verify reports 142932
// mismatches. Verified at odd and prime sizes (rows of 1 and 7, shorter than a warp) and several
// tuning points. Planted: every lane taking the sum from its own slot instead of lane 0's
// (firstSlot = threadIdx.x) makes verify report 329919 mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction --remarks=LaneReduction > %t/dump 2> %t/remarks
// RUN: FileCheck %s < %t/dump
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --sizes 1,7,37,101 --size k=2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel gesummv)
// CHECK:        if (i < n) {
// CHECK-NEXT:     tmp_sum = 0.0f;
// CHECK-NEXT:     y_sum = 0.0f;
// CHECK-NEXT:     for (int j = lane; j < n; j += lanes) {
// CHECK-NEXT:       tmp_sum += A[i * n + j] * x[j];
// CHECK-NEXT:       y_sum += B[i * n + j] * x[j];
// CHECK:        // combine the lanes' partial sums of tmp_sum, y_sum (warp shuffles)
// CHECK:        tmp_sum = rtcuda_lane_sum(tmp_sum, lanes, tmp_sum_lanes);
// CHECK-NEXT:   y_sum = rtcuda_lane_sum(y_sum, lanes, y_sum_lanes);
// CHECK-NEXT:   if (i < n && lane == 0) {
// CHECK-NEXT:     tmp[i] = tmp_sum;
// CHECK-NEXT:     y[i] = y_sum;
// CHECK-NEXT:     y[i] = alpha * tmp[i] + beta * y[i];
// CHECK-LABEL: IR after LaneReduction (kernel colstats)
// CHECK:          s_sum = lane == 0 ? b[j] : 0.0;
// CHECK-NEXT:     q_sum = 0.0;
// CHECK:        __syncthreads();
// CHECK-NEXT:   if (j < m && lane == 0) {
// CHECK-NEXT:     for (int other = 1; other < COLSTATS_BLOCKSIZE / 32; other++) {
// CHECK-NEXT:       s_sum += s_sum_lanes[(int)threadIdx.x + other * 32];
// CHECK-NEXT:       q_sum += q_sum_lanes[(int)threadIdx.x + other * 32];
// CHECK-LABEL: IR after LaneReduction (kernel rownorm)
// CHECK:        s = rtcuda_lane_sum(s, lanes, s_lanes);
// CHECK-NEXT:   if (i < n && lane == 0) {
// CHECK-NEXT:     s_lanes[(int)threadIdx.x] = s;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     s = s_lanes[(int)threadIdx.x - lane];
// CHECK-NEXT:   }
// CHECK-NEXT:   if (i < n && lane == 0) {
// CHECK-NEXT:     nrm[i] = s;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       B[i * m + j] = A[i * m + j] / s;
// CHECK-LABEL: IR after LaneReduction (kernel rowshort)
// CHECK:          w = (w + 1) / 2;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     s = s_lanes[(int)threadIdx.x - lane];
// CHECK-NEXT:   }
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-LABEL: IR after LaneReduction (kernel rowscan)
// CHECK:        if (i < n && lane == 0) {
// CHECK-NEXT:     for (int j = 1; j < m; j++) {
// CHECK-LABEL: IR after LaneReduction (kernel gs4)
// CHECK:        if (j < n && lane == 0) {
// CHECK-NEXT:     for (int other = 1; other < GS4_BLOCKSIZE / 32; other++) {
// CHECK-NEXT:       R_sum += R_sum_lanes[(int)threadIdx.x + other * 32];
// CHECK-NEXT:     }
// CHECK-NEXT:     R_sum_lanes[(int)threadIdx.x] = R_sum;
// CHECK-NEXT:     R[k * n + j] = R_sum;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (j < n) {
// CHECK-NEXT:     R_sum = R_sum_lanes[(int)threadIdx.x % 32];
// CHECK-NEXT:     for (int i = lane; i < m; i += GS4_BLOCKSIZE / 32) {
// CHECK-NEXT:       A[i * n + j] = A[i * n + j] - Q[i * n + k] * R_sum;
// CHECK-LABEL: IR after LaneReduction (kernel colnorm)
// CHECK:        if (j < m && lane == 0) {
// CHECK:          s_lanes[(int)threadIdx.x] = s;
// CHECK-NEXT:     s = sqrtf(s);
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (j < m) {
// CHECK-NEXT:     s = s_lanes[(int)threadIdx.x % 32];
// CHECK-NEXT:     s = sqrtf(s);
// CHECK-NEXT:     for (int i = lane; i < n; i += COLNORM_BLOCKSIZE / 32) {
// CHECK-NEXT:       A[i * m + j] /= s;
// CHECK-LABEL: IR after LaneReduction (kernel rowstep)
// CHECK:          w = (w + 1) / 2;
// CHECK:        if (i < n && lane == 0) {
// CHECK-NEXT:     r = 1.0f / (s + 1);
// CHECK-NEXT:     y[i] = r;
// CHECK-NEXT:   }
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     s = s_lanes[(int)threadIdx.x - lane];
// CHECK-NEXT:     r = 1.0f / (s + 1);
// CHECK-NEXT:     for (int j = lane; j < m; j += lanes) {
// CHECK-NEXT:       B[i * m + j] = A[i * m + j] * r;
//
// REMARK: partial sums of 'tmp_sum', 'y_sum' by warp shuffles [-Rpass=LaneReduction]
// REMARK: partial sums of 's_sum', 'q_sum' in shared memory [-Rpass=LaneReduction]
// REMARK: partial sums of 's' by warp shuffles; the lanes split loop 'j' after it
// REMARK: partial sums of 's' in shared memory; the lanes split loop 'j' after it
// REMARK: partial sums of 's' by warp shuffles [-Rpass=LaneReduction]
// REMARK: partial sums of 'R_sum' in shared memory; the warps split loop 'i' after it
// REMARK: partial sums of 's' in shared memory; the warps split loop 'i' after it
// REMARK: partial sums of 's' in shared memory; the lanes split loop 'j' after it
//
// VERIFY: verified 8 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void gesummv(int n, float alpha, float beta, const float A[n][n], const float B[n][n], float tmp[n], const float x[n], float y[n]) {
  for (int i = 0; i < n; i++) {
    tmp[i] = 0.0f;
    y[i] = 0.0f;
    for (int j = 0; j < n; j++) {
      tmp[i] = A[i][j] * x[j] + tmp[i];
      y[i] = B[i][j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}
void colstats(int n, int m, const double A[n][m], const double b[m], double s[m], double q[m]) {
  for (int j = 0; j < m; j++) {
    q[j] = 0.0;
    s[j] = b[j];
    for (int i = 0; i < n; i++) {
      s[j] += A[i][j];
      q[j] = q[j] + A[i][j] * A[i][j];
    }
  }
}
void rownorm(int n, int m, const float A[n][m], float B[n][m], float nrm[n]) {
  for (int i = 0; i < n; i++) {
    float s = 1.0f;
    for (int j = 0; j < m; j++)
      s += A[i][j] * A[i][j];
    nrm[i] = s;
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] / nrm[i];
  }
}
void rowshort(int n, int m, const short A[n][m], short B[n][m]) {
  for (int i = 0; i < n; i++) {
    short s = 0;
    for (int j = 0; j < m; j++)
      s += A[i][j];
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] - s;
  }
}
void rowscan(int n, int m, const float A[n][m], float B[n][m]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += A[i][j];
    for (int j = 1; j < m; j++)
      B[i][j] = B[i][j - 1] + A[i][j] * s;
  }
}
void gs4(int m, int n, int k, float A[m][n], float R[n][n], const float Q[m][n]) {
  for (int j = k + 1; j < n; j++) {
    R[k][j] = 0.0f;
    for (int i = 0; i < m; i++)
      R[k][j] += Q[i][k] * A[i][j];
    for (int i = 0; i < m; i++)
      A[i][j] = A[i][j] - Q[i][k] * R[k][j];
  }
}
/* A column's norm, then the column divided by it. */
void colnorm(int n, int m, float A[n][m]) {
  for (int j = 0; j < m; j++) {
    float s = 0.0f;
    for (int i = 0; i < n; i++)
      s += A[i][j] * A[i][j];
    s = sqrtf(s);
    for (int i = 0; i < n; i++)
      A[i][j] /= s;
  }
}
/* A row's sum of shorts (the shared-memory tree), a step read by the shared loop, and a store. */
void rowstep(int n, int m, const short A[n][m], float B[n][m], float y[n]) {
  for (int i = 0; i < n; i++) {
    short s = 0;
    for (int j = 0; j < m; j++)
      s += A[i][j];
    float r = 1.0f / (s + 1);
    y[i] = r;
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j] * r;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - gesummv
  - colstats
  - rownorm
  - rowshort
  - rowscan
  - name: gs4
    parallel_loops: 1
  - colnorm
  - rowstep
