// RedundantLoadElim: loads repeated across the iterations of a merge or skew strip are made once,
// into registers, under the guard of the strip's first iteration. b[j] is the same for every row
// of the outer product; in the merge x skew matrix multiply A[i][k] is the same for every column
// and B[k][j] for every row (one register per column). A load in a ?: branch stays put.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=RedundantLoadElim | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 4 --sizes 1,7,37 --max-points 20 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after RedundantLoadElim (kernel outer)
// CHECK:      float b_reg = (int)llmin(i_merged * OUTER_MERGE_LEVEL, (long long)n) < n ? b[j] : (float)0;
// CHECK-NEXT: for (int m = 0; m < OUTER_MERGE_LEVEL; m++) {  // merge
// CHECK:          C[i * p + j] = a[i] * b_reg;
//
// CHECK-LABEL: IR after RedundantLoadElim (kernel gemm)
// CHECK:      for (int k = 0; k < m; k++) {
// CHECK-NEXT:   float B_reg[GEMM_SKEW_LEVEL];
// CHECK-NEXT:   for (int s = 0; s < GEMM_SKEW_LEVEL; s++) {  // skew
// CHECK-NEXT:     int j =
// CHECK-NEXT:     B_reg[s] = (int)llmin(i_merged * GEMM_MERGE_LEVEL, (long long)n) < n && j < p ? B[k * p + j] : (float)0;
// CHECK:          float A_reg = {{.*}} < p ? A[i * m + k] : (float)0;
// CHECK:              sum[m_ * GEMM_SKEW_LEVEL + s] += A_reg * B_reg[s];
//
// CHECK-LABEL: IR after RedundantLoadElim (kernel masked)
// CHECK-NOT:  _reg
// CHECK:      C[i * p + j] = a[i] > 0.0f ? b[j] : 0.0f;
//
// VERIFY: verified 3 kernel(s) at 60 parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void outer(int n, int p, float C[n][p], const float a[n], const float b[p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++)
      C[i][j] = a[i] * b[j];
}
void gemm(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p],
          const float w[m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++) {
        sum += A[i][k] * B[k][j];
        if (w[k] > 0.5f)
          sum += w[k];
      }
      C[i][j] = sum;
    }
}
void masked(int n, int p, float C[n][p], const float a[n], const float b[p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++)
      C[i][j] = a[i] > 0.0f ? b[j] : 0.0f;
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: outer
    merge: true
    tuning: {merge_level: [1, 8]}
  - name: gemm
    merge: true
    skew: true
    tuning: {block_size: [32, 128], merge_level: [1, 4], skew_level: [1, 4]}
  - name: masked
    merge: true
    tuning: {merge_level: [1, 8]}
