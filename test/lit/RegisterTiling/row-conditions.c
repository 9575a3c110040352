// A contraction whose k loop holds an if that depends on the row (if (A[i][k] > 0), if (i > 5))
// or the column (if (j > 3)). After RegisterTiling drops the strip guard (i < n), the user's
// if was the only statement left in the merge loop, and RedundantLoadElim took it for the
// strip's guard: it loaded B's registers under the first row's condition for every row (verify
// found 3828 mismatches in the first two kernels). Only `v < end` on the strip's index is a
// strip guard now; the kernels are tiled and compute what the C computes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > %t/summary
// RUN: FileCheck --check-prefix=REMARK %s < %t/summary
// RUN: %rtcuda verify %t/out --seed 3 --sizes 7,37 --max-points 4 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: mm_pos: BlockMerge, BlockSkew, RegisterTiling
// REMARK: mm_row: BlockMerge, BlockSkew, RegisterTiling
// REMARK: mm_col: BlockMerge, BlockSkew, RegisterTiling
// VERIFY: verified 3 kernel(s) at 12 parameter point(s) and 2 size(s): 0 mismatch(es)

//--- kernel.c
void mm_pos(int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float s = 0;
      for (int k = 0; k < p; k++)
        if (A[i][k] > 0) s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
void mm_row(int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float s = 0;
      for (int k = 0; k < p; k++)
        if (i > 5) s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
void mm_col(int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float s = 0;
      for (int k = 0; k < p; k++)
        if (j > 3 && B[k][j] < 0.5f) s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: mm_pos
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 4], skew_level: [1, 4], tile_k: [4, 8]}
  - name: mm_row
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 4], skew_level: [1, 4], tile_k: [4, 8]}
  - name: mm_col
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 4], skew_level: [1, 4], tile_k: [4, 8]}
