// RegisterTiling with loops that do not start at 0: the tile's first row and column keep the
// loops' offsets, and the 128-bit loads are taken only where each group of 4 starts at a
// multiple of 4. Here k starts at 1, so A is always read element by element (no 128-bit path
// for A); j starts at 4, so B's groups stay aligned and B_vec tests the launch. Verified on the
// emulator at even and odd sizes (the vector path at 100, the scalar one at 31 and 33).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,31,33,100 --max-points 12 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK:      void rtcuda_load4(float *to, const float &first) {
// CHECK:      void rtcuda_load4(float *, const float &&) = delete;
// CHECK:      int row0 = tile_row * rows_of_threads * MM_OFF_MERGE_LEVEL + 1LL;
// CHECK:      int col0 = MM_OFF_SKEW_STRIPED
// CHECK:      tile_col * MM_OFF_THREAD_COLS * MM_OFF_SKEW_LEVEL + 4LL;
// CHECK-NOT:  A_vec
// CHECK:      int B_vec = {{derived_size(_[0-9]+)?}} && col0 % 4 == 0 && p % 4 == 0 && rtcuda_aligned16(B[0]);
// CHECK:      int j = col0 + s / col_group * thread_cols_x_col_group +
// CHECK-NOT:  rtcuda_load4(&A_next
// CHECK:      for (int k_tile = 1; k_tile < m; k_tile += depth) {
//
// VERIFY: verified 1 kernel(s) at 12 parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void mm_off(int n, int m, int p, float C[restrict n][p], const float A[restrict n][m],
            const float B[restrict m][p]) {
  for (int i = 1; i < n; i++)
    for (int j = 4; j < p; j++) {
      float sum = 0.0f;
      for (int k = 1; k < m; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}

//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: mm_off
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 8], skew_level: [1, 8], tile_k: [4, 16]}
