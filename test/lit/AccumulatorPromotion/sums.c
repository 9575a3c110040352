// Sums written into the array element (PolyBench's form) accumulate in a scalar, so that
// LaneReduction takes them: `rowacc` starts from y[i] (rows: lane 0 starts from it), `colacc`
// from the constant stored just before the loop (that store is dropped; the sum is written
// `v + X[e]`), `twosums` (two sums in one loop, gesummv's form: one scalar each, LaneReduction
// combines both; both stores before the loop are taken as the starts, whatever their order),
// `samearray` (two stores into one array) is left alone. Each verified at odd and prime sizes and
// several tuning points. Starting every sum from zero instead of y[i] (planted) makes
// verify report mismatches for rowacc.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=AccumulatorPromotion --print-after=LaneReduction --remarks=AccumulatorPromotion > %t/dump 2> %t/remarks
// RUN: FileCheck %s < %t/dump
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --sizes 1,13,37 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after AccumulatorPromotion (kernel rowacc)
// CHECK:        if (i < n) {
// CHECK-NEXT:     float y_sum = y[i];
// CHECK-NEXT:     for (int j = 0; j < m; j++) {
// CHECK-NEXT:       y_sum += A[i * m + j] * x[j];
// CHECK-NEXT:     }
// CHECK-NEXT:     y[i] = y_sum;
// CHECK-LABEL: IR after LaneReduction (kernel rowacc)
// CHECK:        y_sum = lane == 0 ? y[i] : 0.0f;
// CHECK-LABEL: IR after AccumulatorPromotion (kernel colacc)
// CHECK:        if (j < m) {
// CHECK-NEXT:     double s_sum = 0.5;
// CHECK-NEXT:     for (int i = 0; i < n; i++) {
// CHECK-NEXT:       s_sum += A[i * m + j];
// CHECK-NEXT:     }
// CHECK-NEXT:     s[j] = s_sum;
// CHECK-LABEL: IR after LaneReduction (kernel colacc)
// CHECK:        for (int i = i_lo + lane; i < i_hi; i += COLACC_BLOCKSIZE / 32) {
// CHECK-LABEL: IR after AccumulatorPromotion (kernel twosums)
// CHECK:        if (i < n) {
// CHECK-NEXT:     float a_sum = 0.5f;
// CHECK-NEXT:     float b_sum = 0.0f;
// CHECK-NEXT:     for (int j = 0; j < m; j++) {
// CHECK-NEXT:       a_sum += A[i * m + j];
// CHECK-NEXT:       b_sum += A[i * m + j] * 2.0f;
// CHECK-NEXT:     }
// CHECK-NEXT:     a[i] = a_sum;
// CHECK-NEXT:     b[i] = b_sum;
// CHECK-LABEL: IR after LaneReduction (kernel twosums)
// CHECK:        a_sum = lane == 0 ? 0.5f : 0.0f;
// CHECK-NEXT:   b_sum = 0.0f;
// CHECK:        a_sum = rtcuda_lane_sum(a_sum, lanes, a_sum_lanes);
// CHECK-NEXT:   b_sum = rtcuda_lane_sum(b_sum, lanes, b_sum_lanes);
// CHECK-LABEL: IR after AccumulatorPromotion (kernel samearray)
// CHECK:        a[i] = a[i] + A[i * m + j];
// CHECK-NEXT:   a[i] = a[i] + 1.0f;
//
// REMARK: remark: accumulator: loop 'j' adds into 'y_sum', stored into y once after it [-Rpass=AccumulatorPromotion]
// REMARK: remark: accumulator: loop 'i' adds into 's_sum', stored into s once after it [-Rpass=AccumulatorPromotion]
// REMARK: remark: accumulator: loop 'j' adds into 'a_sum', stored into a once after it [-Rpass=AccumulatorPromotion]
// REMARK: remark: accumulator: loop 'j' adds into 'b_sum', stored into b once after it [-Rpass=AccumulatorPromotion]
// REMARK-NOT: accumulator:
//
// VERIFY: verified 4 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void rowacc(int n, int m, const float A[n][m], const float x[m], float y[n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i] = y[i] + A[i][j] * x[j];
}
void colacc(int n, int m, const double A[n][m], double s[m]) {
  for (int j = 0; j < m; j++) {
    s[j] = 0.5;
    for (int i = 0; i < n; i++)
      s[j] = A[i][j] + s[j];
  }
}
void twosums(int n, int m, const float A[n][m], float a[n], float b[n]) {
  for (int i = 0; i < n; i++) {
    b[i] = 0.0f;
    a[i] = 0.5f;
    for (int j = 0; j < m; j++) {
      a[i] = a[i] + A[i][j];
      b[i] = b[i] + A[i][j] * 2.0f;
    }
  }
}
void samearray(int n, int m, const float A[n][m], float a[n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      a[i] = a[i] + A[i][j];
      a[i] = a[i] + 1.0f;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [rowacc, colacc, twosums, samearray]
