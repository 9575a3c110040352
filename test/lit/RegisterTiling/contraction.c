// RegisterTiling: a contraction with merge, skew and both operands prefetched becomes a register
// tile: a block owns a rectangle of C, stages slabs of A (transposed) and B through two shared
// buffers each (the next slab loaded into registers, with 128-bit loads where the launch's
// arrays are aligned, while the block multiplies the current one; one barrier per slab), a
// thread's columns come in groups of 4, and the multiply-adds read the tiles without guards. The init
// (which reads bias) and the stores keep their guards. A kernel that reads A transposed (A[k][i])
// stages it along its rows (consecutive threads take consecutive rows of the tile); one that
// reads B at a column other than j is not a contraction: it keeps the collapsed mapping, with a
// remark saying what was found.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=RegisterTiling | FileCheck %s
// RUN: FileCheck --check-prefix=NOTES %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/gemm_bias_params.h
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1,7,37 --max-points 30 --no-race-check | FileCheck --check-prefix=VERIFY %s
// The interior slabs (one test per block: every operand aligned, the slab inside both matrices)
// load with no per-group guards; they need rows of a multiple of 4 floats, which the sizes above
// never give (m = n + 2), so this verify takes m and p multiples of 4 and n odd. Planted: those
// loads of A one column off, the guarded loads as they are: caught.
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1 --size n=69 --size m=40 --size p=132 --max-points 6 --no-race-check | FileCheck --check-prefix=VERIFY4 %s
// RUN: cp -r %t/out %t/p1 && awk '/if \(A_vec && \(row0/ {on=1} on && /4 \* t % depth\]/ {sub(/4 \* t % depth\]/, "4 * t % depth + 1]"); on=0} {print}' %t/out/kernel.cu > %t/p1/kernel.cu
// RUN: not %rtcuda verify %t/p1 --seed 3 --sizes 1 --size n=69 --size m=40 --size p=132 --max-points 6 --no-race-check | FileCheck --check-prefix=PLANTED %s
//
// CHECK-LABEL: IR after RegisterTiling (kernel gemm_bias)
// CHECK:      int rows_of_threads = GEMM_BIAS_BLOCKSIZE / GEMM_BIAS_THREAD_COLS;
// CHECK-NEXT: int block_rows = GEMM_BIAS_BLOCKSIZE / GEMM_BIAS_THREAD_COLS * GEMM_BIAS_MERGE_LEVEL;
// CHECK-NEXT: int block_cols = GEMM_BIAS_THREAD_COLS * GEMM_BIAS_SKEW_LEVEL;
// CHECK:      int thread_col = (int)(threadIdx.x % GEMM_BIAS_THREAD_COLS);
// CHECK-NEXT: int thread_row = (int)(threadIdx.x / GEMM_BIAS_THREAD_COLS);
// CHECK:      int i_merged = tile_row * rows_of_threads + thread_row;
// CHECK-NEXT: int j_skewed = tile_col * GEMM_BIAS_THREAD_COLS + thread_col;
// CHECK:      __shared__ float A_tile[
// CHECK:      __shared__ float B_tile[
// CHECK:      int A_vec = depth % 4 == 0 && m % 4 == 0 && rtcuda_aligned16(A[0][0]);
// CHECK-NEXT: int B_vec = block_cols % 4 == 0 && col0 % 4 == 0 && p % 4 == 0 && rtcuda_aligned16(B[0][0]);
// CHECK:        int j = col0 + s / col_group * (GEMM_BIAS_THREAD_COLS * col_group) + (thread_col * col_group + s % col_group);
// CHECK:          sum[m_ * GEMM_BIAS_SKEW_LEVEL + s] = bias[j];
// CHECK:      int stage = 0;
// A slab inside both matrices (one test for the block) is loaded with no per-group guards; the
// others take the guarded code, element by element at the edges.
// CHECK:      if (A_vec && (row0 + (block_rows - 1) < n && k_begin + (depth - 1) < m) && (B_vec && (k_begin + (depth - 1) < m && col0 + (block_cols - 1) < p))) {
// CHECK-NEXT:   for (int v = 0; v < a_quads; v++) {  // unrolled
// CHECK-NEXT:     int t = (int)threadIdx.x + v * GEMM_BIAS_BLOCKSIZE;
// CHECK-NEXT:     if (t * 4 < block_rows * depth) {
// CHECK-NEXT:       rtcuda_load4(&A_next[v * 4], A[row0 + t * 4 / depth][k_begin + t * 4 % depth]);
// CHECK:        } else {
// CHECK:            rtcuda_load4(&A_next[v * 4], A[row0 + t * 4 / depth][k_begin + t * 4 % depth]);
// CHECK:              A_next[v * 4 + e] = t * 4 + e < block_rows * depth && (row0 + r < n && k_begin + q < m) ? A[row0 + r][k_begin + q] : (float)0;
// CHECK:          A_tile[0 * (depth * A_pitch) + q * A_pitch + r] = A_next[v * 4 + e];
// B's groups of 4 go to 4 consecutive elements of a B_tile row: one 128-bit shared store where
// the width is a multiple of 4 (nvcc folds the test).
// CHECK:        if (block_cols % 4 == 0) {
// CHECK-NEXT:     if (t * 4 < depth * block_cols) {
// CHECK-NEXT:       rtcuda_store4(&B_tile[0 * (depth * block_cols) + t * 4 / block_cols * block_cols + t * 4 % block_cols], B_next[v * 4]);
// CHECK:        } else {
// CHECK:              B_tile[0 * (depth * block_cols) + r * block_cols + q] = B_next[v * 4 + e];
// CHECK:      __syncthreads();
// CHECK-NEXT: for (int k_tile = k_begin; k_tile < k_stop; k_tile += depth) {  // tile
// CHECK-NEXT:   int A_tile_base = stage * (depth * A_pitch);
// CHECK-NEXT:   int B_tile_base = stage * (depth * block_cols);
// CHECK-NEXT:   if (k_tile + depth < k_stop) {
// CHECK-NEXT:     if (A_vec && (row0 + (block_rows - 1) < n && k_tile + depth + (depth - 1) < m) && (B_vec && (k_tile + depth + (depth - 1) < m && col0 + (block_cols - 1) < p))) {
// CHECK:              rtcuda_load4(&A_next[v * 4], A[row0 + t * 4 / depth][k_tile + depth + t * 4 % depth]);
// CHECK:              rtcuda_load4(&B_next[v * 4], B[k_tile + depth + t * 4 / block_cols][col0 + t * 4 % block_cols]);
// CHECK:          } else {
// CHECK:              rtcuda_load4(&A_next[v * 4], A[row0 + t * 4 / depth][k_tile + depth + t * 4 % depth]);
// CHECK:              rtcuda_load4(&B_next[v * 4], B[k_tile + depth + t * 4 / block_cols][col0 + t * 4 % block_cols]);
// CHECK:                B_next[v * 4 + e] = t * 4 + e < depth * block_cols && (k_tile + depth + r < m && col0 + q < p) ? B[k_tile + depth + r][col0 + q] : (float)0;
// The body only adds products of staged elements (zero past the end of k): the last slab runs
// the whole unrolled loop over the staged zeros, with no tail loop.
// CHECK-NOT:    if (k_tile + depth <= m) {
// CHECK:          for (int k = k_tile; k < k_tile + depth; k++) {  // unrolled
// CHECK-NEXT:       for (int m_ = 0; m_ < GEMM_BIAS_MERGE_LEVEL; m_++) {  // merge
// CHECK-NEXT:         int i = i_merged * GEMM_BIAS_MERGE_LEVEL + m_;
// CHECK-NEXT:         for (int s = 0; s < GEMM_BIAS_SKEW_LEVEL; s++) {  // skew
// CHECK-NEXT:           int j =
// CHECK-NEXT:           sum[m_ * GEMM_BIAS_SKEW_LEVEL + s] += A_tile[A_tile_base + (k - k_tile) * A_pitch + (i - row0)] * B_tile[B_tile_base + (k - k_tile) * block_cols + (j - col0)];
// CHECK-NOT:    } else {
// CHECK:        if (k_tile + depth < k_stop) {
// CHECK:                A_tile[(1 - stage) * (depth * A_pitch) + q * A_pitch + r] = A_next[v * 4 + e];
// CHECK:              rtcuda_store4(&B_tile[(1 - stage) * (depth * block_cols) + t * 4 / block_cols * block_cols + t * 4 % block_cols], B_next[v * 4]);
// CHECK:                B_tile[(1 - stage) * (depth * block_cols) + r * block_cols + q] = B_next[v * 4 + e];
// CHECK:        __syncthreads();
// CHECK-NEXT:   stage = 1 - stage;
// CHECK-NEXT: }
// CHECK:      if (j < p) {
// CHECK-NEXT:   C[i][j] = sum[m_ * GEMM_BIAS_SKEW_LEVEL + s];
//
// CHECK-LABEL: IR after RegisterTiling (kernel gemm_at)
// CHECK:      __shared__ float A_tile[2 * (depth * A_pitch)];
// CHECK:      __shared__ float B_tile[2 * (depth * block_cols)];
// CHECK:      int A_vec = block_rows % 4 == 0 && row0 % 4 == 0 && n % 4 == 0 && rtcuda_aligned16(A[0][0]);
// CHECK:      A_next[v * 4 + e] = t * 4 + e < depth * block_rows && (k_begin + r < m && row0 + q < n) ? A[k_begin + r][row0 + q] : (float)0;
// CHECK:      A_tile[0 * (depth * A_pitch) + r * A_pitch + q] = A_next[v * 4 + e];
// A factor that is not staged (`scale`, which could be infinite: inf * 0 is NaN) keeps the
// partial last slab in its own loop over the real end of k.
// CHECK:      if (k_tile + depth <= m) {
// CHECK-NEXT:   for (int k = k_tile; k < k_tile + depth; k++) {  // unrolled
// CHECK:            sum[m_ * GEMM_AT_SKEW_LEVEL + s] += A_tile[A_tile_base + (k - k_tile) * A_pitch + (i - row0)] * B_tile[B_tile_base + (k - k_tile) * block_cols + (j - col0)] * scale;
// CHECK:      } else {
// CHECK-NEXT:   for (int k = k_tile; k < m; k++) {
//
// CHECK-LABEL: IR after RegisterTiling (kernel gemm_shift)
// CHECK:      for (long long i_merged = 0;
// CHECK-NOT:  __shared__
// CHECK:      }
//
// kernel.cu names each size once (lib/CodeGen/NamedSizes.cpp): every use reads the name.
// NOTES: register tiling: a block computes (GEMM_BIAS_BLOCKSIZE / GEMM_BIAS_THREAD_COLS *
// NOTES: prefetch: A and B staged in shared memory
// NOTES: const int rows_of_threads = GEMM_BIAS_BLOCKSIZE / GEMM_BIAS_THREAD_COLS;
// NOTES-NEXT: const int block_rows = rows_of_threads * GEMM_BIAS_MERGE_LEVEL;
// NOTES-NEXT: const int block_cols = GEMM_BIAS_THREAD_COLS * GEMM_BIAS_SKEW_LEVEL;
// NOTES: const int A_pitch = block_rows - block_rows % 4 + 4;
// NOTES:      const int fit_depth = 49152 / (2 * (A_pitch * 4 + block_cols * 4));
// NOTES-NEXT: const int max_depth = fit_depth >= 4 ? fit_depth - fit_depth % 4 : fit_depth;
// NOTES-NEXT: const int depth = GEMM_BIAS_TILE_K < max_depth ? GEMM_BIAS_TILE_K : max_depth;
// NOTES: RTCUDA_SHARED_ARRAY(float, A_tile, 2 * depth_x_a_pitch);
// NOTES: float A_tile_reg = 
// NOTES-NOT: float A_tile_reg_tail = 
// NOTES: prefetch: A (transposed) and B staged in shared memory
// NOTES: register tiling: not a contraction (loop 'k' reads no prefetched array as C[k][j] or
// NOTES-NEXT: C[j][k]; 'B' also read with subscripts other than [i][k], [k][i], [k][j], [j][k]); not tiled
//
// PARAMS: #define GEMM_BIAS_THREAD_COLS 16
// PARAMS: // TILE_K: search space 4, 8
//
// VERIFY: verified 3 kernel(s) at 90 parameter point(s) and 3 size(s): 0 mismatch(es)
// VERIFY4: verified 3 kernel(s) at 18 parameter point(s) and 1 size(s): 0 mismatch(es)
// PLANTED: MISMATCH gemm_bias (
// PLANTED: verified 3 kernel(s) at 18 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)

//--- kernel.c
void gemm_bias(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p],
               const float bias[p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = bias[j];
      for (int k = 0; k < m; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
}
void gemm_at(int n, int m, int p, float C[n][p], const float A[m][n], const float B[m][p],
             float scale) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++)
        sum += A[k][i] * B[k][j] * scale;
      C[i][j] = sum;
    }
}
void gemm_shift(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p + 1]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float sum = 0.0f;
      for (int k = 0; k < m; k++)
        sum += A[i][k] * B[k][j + 1];
      C[i][j] = sum;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: gemm_bias
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 4], skew_level: [1, 4], tile_k: [4, 8]}
  - name: gemm_at
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 4], skew_level: [1, 4]}
  - name: gemm_shift
    merge: true
    skew: true
    prefetch: [A, B]
    tuning: {block_size: [32, 256], merge_level: [1, 4], skew_level: [1, 4]}
