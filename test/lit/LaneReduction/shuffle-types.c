// LaneReduction's warp shuffles take the accumulator types __shfl_down_sync takes (float, double,
// int, unsigned, long, long long); a short accumulator keeps the shared-memory tree with a
// barrier per step. A 3-D batch (collapsed index, a guard on it alone) shuffles too. Verified at
// odd and prime sizes: the tree and the shuffles' emulation add the same pairs.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 11 --sizes 1,5,31,43 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel dsum)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes);
// CHECK-LABEL: IR after LaneReduction (kernel lsum)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes);
// CHECK-LABEL: IR after LaneReduction (kernel ssum)
// CHECK-NOT:  rtcuda_lane_sum
// CHECK:      __syncthreads();
// CHECK-NEXT: int w = lanes;
// CHECK-NEXT: while (w > 1) {
// CHECK-NEXT:   if (i < n && lane < w / 2) {
// CHECK-NEXT:     s_lanes[(int)threadIdx.x] += s_lanes[(int)threadIdx.x + (w + 1) / 2];
// CHECK-LABEL: IR after LaneReduction (kernel bsum)
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes);
// CHECK-NEXT: if (bi < (long long)nb * (long long)n && lane == 0) {
//
// VERIFY: verified 4 kernel(s) at 48 parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void dsum(int n, int m, double y[n], const double A[n][m]) {
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < m; k++)
      s += A[i][k];
    y[i] = s;
  }
}
void lsum(int n, int m, long long y[n], const int A[n][m]) {
  for (int i = 0; i < n; i++) {
    long long s = 0;
    for (int k = 0; k < m; k++)
      s += A[i][k];
    y[i] = s;
  }
}
void ssum(int n, int m, short y[n], const short A[n][m]) {
  for (int i = 0; i < n; i++) {
    short s = 0;
    for (int k = 0; k < m; k++)
      s += A[i][k];
    y[i] = s;
  }
}
void bsum(int nb, int n, int m, float y[nb][n], const float A[nb][n][m]) {
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < n; i++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++)
        s += A[b][i][k];
      y[b][i] = s;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [dsum, lsum, ssum, bsum]
