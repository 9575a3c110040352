// ReductionSplit cuts a column sum's reduction loop into row chunks along the grid's y
// dimension when its columns give too few blocks (decided at launch: COLSUM_SPLIT_BLOCKS blocks
// in all, chunks of at least BLOCKSIZE / 2 rows; a sum that starts from a value, which needs the
// _init launch, only below SPLIT_BLOCKS / 8 column blocks); the blocks of a column add their
// partial sums atomically. It fires the same however the nest is written: a column sum into a scalar
// (colsum, out[j] set by colsum_init first), y += A^T x written row by row (tmv: Fission makes
// it a column per thread; the blocks add into y itself, no _init kernel), a sum starting from
// another array (start), double, a triangle (rows i <= j, split per thread), a batched (3-D)
// column sum. Row sums (rowsum) and a sum stored through an expression (scaled) are not split.
// Checked in the emulator at 1031 x 37 (primes: 2 column blocks, 9 chunks of 115 rows at
// BLOCKSIZE 256, up to 65 at 32) and 1 x 1, at every tuning point including SPLIT_BLOCKS = 1
// (one chunk: the store of before). Planted bugs that verify caught: colsum_init not launched
// (1287 mismatches), each chunk's last row dropped (3383 mismatches).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
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
// CHECK-NEXT:   atomicAdd(&out[j], s);
// CHECK-LABEL: IR after LaneReduction (kernel tmv)
// CHECK:      y_sum = lane == 0 ? ((int)gridDim.y == 1 ? y[j] : 0.0f) : 0.0f;
// CHECK:      for (int i = i_lo + lane; i < i_hi; i += TMV_BLOCKSIZE / 32) {
// CHECK:      atomicAdd(&y[j], y_sum);
// CHECK-LABEL: IR after LaneReduction (kernel start)
// CHECK:      s = lane == 0 ? ((int)gridDim.y == 1 ? b[j] : 0.0f) : 0.0f;
// CHECK:      atomicAdd(&out[j], s);
// CHECK-LABEL: IR after LaneReduction (kernel dcolsum)
// CHECK:      atomicAdd(&out[j], s);
// CHECK-LABEL: IR after LaneReduction (kernel triangle)
// CHECK:      i_chunk = ((j + 1 < 0 ? 0 : j + 1) + (int)gridDim.y - 1) / (int)gridDim.y;
// CHECK-NEXT: i_lo = (int)blockIdx.y * i_chunk;
// CHECK-NEXT: i_hi = j + 1 < i_lo + i_chunk ? j + 1 : i_lo + i_chunk;
// CHECK:      atomicAdd(&out[j], s);
// CHECK-LABEL: IR after LaneReduction (kernel batched)
// CHECK:      atomicAdd(&out[b * cols + j], s);
// CHECK-LABEL: IR after LaneReduction (kernel rowsum)
// CHECK-NOT:  gridDim.y
// CHECK:      for (int j = lane; j < cols; j += ROWSUM_LANES) {
// CHECK-LABEL: IR after LaneReduction (kernel scaled)
// CHECK-NOT:  gridDim.y
// CHECK:      out[j] = 2.0f * s;
//
// LAUNCH-LABEL: rtcuda_launch_colsum_on_device(
// LAUNCH:      iterations_y = (1 < ((long long)cols + 32 - 1) / 32 ? ((long long)cols + 32 - 1) / 32 : 1) * 8 < COLSUM_SPLIT_BLOCKS ?
// LAUNCH:      if (grid.y > 1) {
// LAUNCH-NEXT:   RTCUDA_LAUNCH(colsum_init, dim3((unsigned)rtcuda_ceil_div(iterations_x, COLSUM_BLOCKSIZE)), block, rows, cols, A, out);
// LAUNCH:      RTCUDA_LAUNCH(colsum, grid, block, rows, cols, A, out);
// LAUNCH-LABEL: rtcuda_launch_tmv_on_device(
// LAUNCH:      iterations_y = 1 < (((long long)rows + TMV_BLOCKSIZE / 2 - 1) / (TMV_BLOCKSIZE / 2) <
// LAUNCH-NOT:  _init
// LAUNCH:      RTCUDA_LAUNCH(tmv, grid, block, rows, cols, A, x, y);
// LAUNCH-LABEL: rtcuda_launch_start_on_device(
// LAUNCH:      RTCUDA_LAUNCH(start_init,
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
