// BlockMerge: each thread computes MERGE_LEVEL rows; the accumulator becomes a per-thread
// array initialized where the source initialized it, the k loop is shared by the rows (so each
// B[k][j] serves MERGE_LEVEL results), and every row is guarded, so any N works.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=BlockMerge | FileCheck %s
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/mm_params.h
// RUN: %rtcuda verify %t/out --seed 11 --sizes 1,31,70 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK:      for (long long i_merged = 0; i_merged < ((long long)n + MM_MERGE_LEVEL - 1) / MM_MERGE_LEVEL; i_merged++) {  // parallel
// CHECK-NEXT:   for (int j = 0; j < p; j++) {  // parallel
// CHECK-NEXT:     float sum[MM_MERGE_LEVEL];
// CHECK-NEXT:     for (int m = 0; m < MM_MERGE_LEVEL; m++) {  // merge
// CHECK-NEXT:       int i = (int)llmin(i_merged * MM_MERGE_LEVEL + m, (long long)n);
// CHECK-NEXT:       if (i < n) {
// CHECK-NEXT:         sum[m] = 0.0f;
// CHECK:          for (int k = 0; k < q; k++) {
// CHECK-NEXT:       for (int m = 0; m < MM_MERGE_LEVEL; m++) {  // merge
// CHECK-NEXT:         int i = (int)llmin(i_merged * MM_MERGE_LEVEL + m, (long long)n);
// CHECK-NEXT:         if (i < n) {
// CHECK-NEXT:           sum[m] += A[i][k] * B[k][j];
// CHECK:            C[i][j] = sum[m];
//
// PARAMS: // MERGE_LEVEL: search space 1, 2, 4, 8
// PARAMS: #define MM_MERGE_LEVEL 4
//
// VERIFY: verified 1 kernel(s) at 12 parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void mm(int n, int q, int p, float C[n][p], const float A[n][q], const float B[q][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < q; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: mm
    merge: true
    tuning: {merge_level: [1, 8]}
