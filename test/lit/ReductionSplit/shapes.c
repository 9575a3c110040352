// ReductionSplit cuts a column sum's reduction loop into row chunks along the grid's y
// dimension when its columns give too few blocks (decided at launch: COLSUM_SPLIT_BLOCKS blocks
// in all, chunks of at least BLOCKSIZE / 2 rows; a loop with one load per row only below
// SPLIT_BLOCKS / 16 column blocks, tmv with two at any count below SPLIT_BLOCKS); the blocks of a column add their partial
// sums atomically. It fires the same however the nest is written: a column sum into a scalar
// (colsum: the blocks add into a __device__ slot per column and count themselves in; the last
// stores the total, no other launch), y += A^T x written row by row (tmv: Fission makes it a
// column per thread; the blocks add into y itself), a sum starting from another array (start:
// the last block stores b[j] plus the total), double, a triangle (rows i <= j, split per
// thread), a batched (3-D) column sum (collapsed b, j: the slot is the collapsed index).
// Row sums (rowsum) and a sum stored through an expression (scaled) are not split.
// Checked in the emulator at 1031 x 37 (primes: 2 column blocks, 9 chunks of 115 rows at
// BLOCKSIZE 256, up to 65 at 32) and 1 x 1, at every tuning point including SPLIT_BLOCKS = 1
// (one chunk: the store of before); the harness launches each kernel at every point and size
// in one process, so a slot or count left non-zero by one launch spoils the next. Planted bugs
// that verify caught (kernel.cu edited): rtcuda_split_take reading the slot without setting it
// back to zero (atomicAdd(sum, 0.0f): 7392 mismatches), the count not wrapping
// (atomicAdd(count, 1u) for atomicInc: 8679 mismatches).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --seed 3 --size rows=1031 --size cols=37 --size n=131 --size batch=3 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel colsum)
// CHECK:      int j = (int)llmin((long long)blockIdx.x * 32 + threadIdx.x % 32, (long long)cols);
// CHECK:      s = 0.0f;
// CHECK-NEXT: i_chunk = ((rows < 0 ? 0 : rows) + (int)gridDim.y - 1) / (int)gridDim.y;
// CHECK-NEXT: i_lo = (int)blockIdx.y * i_chunk;
// CHECK-NEXT: i_hi = rows < i_lo + i_chunk ? rows : i_lo + i_chunk;
// CHECK-NEXT: for (int i = i_lo + lane; i < i_hi; i += COLSUM_BLOCKSIZE / 32) {
// CHECK:      if ((int)gridDim.y == 1) {
// CHECK-NEXT:   out[j] = s;
// CHECK-NEXT: } else {
// CHECK-NEXT:   int j_slot = j;
// CHECK-NEXT:   if (rtcuda_split_add(rtcuda_colsum_split_sums + j_slot, rtcuda_colsum_split_counts + j_slot, s)) {
// CHECK-NEXT:     out[j] = rtcuda_split_take(rtcuda_colsum_split_sums + j_slot);
// CHECK-LABEL: IR after LaneReduction (kernel tmv)
// CHECK:      y_sum = lane == 0 ? ((int)gridDim.y == 1 ? y[j] : 0.0f) : 0.0f;
// CHECK:      for (int i = i_lo + lane; i < i_hi; i += TMV_BLOCKSIZE / 32) {
// CHECK:      atomicAdd(&y[j], y_sum);
// CHECK-LABEL: IR after LaneReduction (kernel start)
// CHECK:      s = lane == 0 ? ((int)gridDim.y == 1 ? b[j] : 0.0f) : 0.0f;
// CHECK:      out[j] = b[j] + rtcuda_split_take(rtcuda_start_split_sums + j_slot);
// CHECK-LABEL: IR after LaneReduction (kernel dcolsum)
// CHECK:      out[j] = rtcuda_split_take(rtcuda_dcolsum_split_sums + j_slot);
// CHECK-LABEL: IR after LaneReduction (kernel triangle)
// CHECK:      i_chunk = ((j + 1 < 0 ? 0 : j + 1) + (int)gridDim.y - 1) / (int)gridDim.y;
// CHECK-NEXT: i_lo = (int)blockIdx.y * i_chunk;
// CHECK-NEXT: i_hi = j + 1 < i_lo + i_chunk ? j + 1 : i_lo + i_chunk;
// CHECK:      out[j] = rtcuda_split_take(rtcuda_triangle_split_sums + j_slot);
// CHECK-LABEL: IR after LaneReduction (kernel batched)
// CHECK:      long long bj_slot = bj;
// CHECK:      out[b * cols + j] = rtcuda_split_take(rtcuda_batched_split_sums + bj_slot);
// CHECK-LABEL: IR after LaneReduction (kernel rowsum)
// CHECK-NOT:  gridDim.y
// CHECK:      for (int j = lane; j < cols; j += lanes) {
// CHECK-LABEL: IR after LaneReduction (kernel scaled)
// CHECK-NOT:  gridDim.y
// CHECK:      out[j] = 2.0f * s;
//
// LAUNCH-LABEL: rtcuda_launch_colsum_on_device(
// LAUNCH:      iterations_y = 131072 < (long long)cols ? 1 : (1 < ((long long)cols + 32 - 1) / 32 ? ((long long)cols + 32 - 1) / 32 : 1) * 16 < COLSUM_SPLIT_BLOCKS ?
// LAUNCH-NOT:  _init
// LAUNCH:      RTCUDA_LAUNCH(colsum, grid, block, rows, cols, A, out);
// LAUNCH-LABEL: rtcuda_launch_tmv_on_device(
// LAUNCH:      iterations_y = 1 < (((long long)rows + TMV_BLOCKSIZE / 2 - 1) / (TMV_BLOCKSIZE / 2) <
// LAUNCH-NOT:  _init
// LAUNCH:      RTCUDA_LAUNCH(tmv, grid, block, rows, cols, A, x, y);
// LAUNCH-LABEL: rtcuda_launch_start_on_device(
// LAUNCH-NOT:  _init
// LAUNCH:      RTCUDA_LAUNCH(start, grid, block, rows, cols, A, b, out);
//
// KERNEL:      static __device__ inline int rtcuda_split_add(T *sum, unsigned int *count, T partial) {
// KERNEL:      static __device__ inline double rtcuda_split_take(double *sum) {
// KERNEL:      __device__ float rtcuda_colsum_split_sums[131072];
// KERNEL-NEXT: __device__ unsigned int rtcuda_colsum_split_counts[131072];
// KERNEL-NOT:  rtcuda_tmv_split
// KERNEL:      __device__ double rtcuda_dcolsum_split_sums[131072];
// KERNEL-NOT:  rtcuda_rowsum_split
//
// VERIFY: verified 8 kernel(s) at {{[0-9]+}} parameter point(s) and {{[0-9]+}} size(s): 0 mismatch(es)

//--- kernel.c
void colsum(int rows, int cols, const float A[rows][cols], float out[cols]) {
  for (int j = 0; j < cols; j++) {
    float s = 0.0f;
    for (int i = 0; i < rows; i++)
      s += A[i][j];
    out[j] = s;
  }
}
void tmv(int rows, int cols, const float A[rows][cols], const float x[rows], float y[cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      y[j] += A[i][j] * x[i];
}
void start(int rows, int cols, const float A[rows][cols], const float b[cols], float out[cols]) {
  for (int j = 0; j < cols; j++) {
    float s = b[j];
    for (int i = 0; i < rows; i++)
      s += A[i][j];
    out[j] = s;
  }
}
void dcolsum(int rows, int cols, const double A[rows][cols], double out[cols]) {
  for (int j = 0; j < cols; j++) {
    double s = 0.0;
    for (int i = 0; i < rows; i++)
      s += A[i][j];
    out[j] = s;
  }
}
void triangle(int n, const float A[n][n], float out[n]) {
  for (int j = 0; j < n; j++) {
    float s = 0.0f;
    for (int i = 0; i <= j; i++)
      s += A[i][j];
    out[j] = s;
  }
}
void batched(int batch, int rows, int cols, const float A[batch][rows][cols], float out[batch][cols]) {
  for (int b = 0; b < batch; b++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int i = 0; i < rows; i++)
        s += A[b][i][j];
      out[b][j] = s;
    }
}
void rowsum(int rows, int cols, const float A[rows][cols], float out[rows]) {
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++)
      s += A[i][j];
    out[i] = s;
  }
}
void scaled(int rows, int cols, const float A[rows][cols], float out[cols]) {
  for (int j = 0; j < cols; j++) {
    float s = 0.0f;
    for (int i = 0; i < rows; i++)
      s += A[i][j];
    out[j] = 2.0f * s;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [colsum, tmv, start, dcolsum, triangle, batched, rowsum, scaled]
