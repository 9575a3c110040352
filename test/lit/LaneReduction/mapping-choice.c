// LaneReduction chooses the mapping from the accesses, whatever the config says: row sums and a
// batched (3-D) matrix-vector product get LANES threads per row (their loops read rows that
// neighbouring threads would read a row apart); column sums get 32 columns per block, the
// block's warps splitting the rows (threads already read neighbouring addresses; BLOCKSIZE / 32
// partial sums, any number of them); a 1-D convolution (16 taps, a constant trip count) keeps
// one thread per iteration. A sum that starts from a value other than zero
// (y[i]) counts it once: lane 0 starts from it, the other lanes from zero. With every lane
// starting from y[i], verify reported 1485 mismatches for accrow. A CSR row's loop, whose bounds
// are read at the thread's index (rowptr[i] .. rowptr[i + 1]), gets the lanes of a row: its
// loads' subscripts do not name i, but neighbouring threads walk stretches of their own (one
// thread a row before); with LANES 0, its default, the lanes are the power of two that covers
// the mean row length, nnz / rows (each lane about one element), chosen at launch. Verified also
// at rows of 32 on average (37 rows, 1200 entries: 32 lanes).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LaneReduction | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1,7,37 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 3 --size rows=37 --size nnz=1200 --size cols=5 --size n=3 --size b=2 --max-points 8 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after LaneReduction (kernel rowsum)
// CHECK:      for (int j = lane; j < cols; j += lanes) {
// CHECK-LABEL: IR after LaneReduction (kernel colsum)
// CHECK:      int j = (int)llmin((long long)blockIdx.x * 32 + threadIdx.x % 32, (long long)cols);
// CHECK-NEXT: int lane = (int)(threadIdx.x / 32);
// CHECK:      for (int i = i_lo + lane; i < i_hi; i += COLSUM_BLOCKSIZE / 32) {
// CHECK-NEXT:   s += A[i * cols + j];
// CHECK:      if (j < cols && lane == 0) {
// CHECK-NEXT:   for (int other = 1; other < COLSUM_BLOCKSIZE / 32; other++) {
// CHECK-NEXT:     s += s_lanes[(int)threadIdx.x + other * 32];
// CHECK:          out[j] = s;
// CHECK-LABEL: IR after LaneReduction (kernel bmv)
// CHECK:      long long bi = (long long)blockIdx.x * (BMV_BLOCKSIZE / lanes) + threadIdx.x / lanes;
// CHECK:      for (int j = lane; j < cols; j += lanes) {
// CHECK-NEXT:   s += A[(b * rows + i) * cols + j] * x[b * cols + j];
// CHECK-LABEL: IR after LaneReduction (kernel conv)
// CHECK-NOT:  lane
// CHECK:      for (int t = 0; t < 16; t++) {
// CHECK-LABEL: IR after LaneReduction (kernel accrow)
// CHECK:      s = lane == 0 ? y[i] : 0.0f;
// CHECK-LABEL: IR after LaneReduction (kernel spmv)
// CHECK:      int lanes = SPMV_LANES ? SPMV_LANES : (rows > 0 ? (nnz - 1) / rows : 0) >= 16 ? 32 : (rows > 0 ? (nnz - 1) / rows : 0) >= 8 ? 16
// CHECK:      for (int k = rowptr[i] + lane; k < rowptr[i + 1]; k += lanes) {
// CHECK-NEXT:   s += val[k] * x[col[k]];
// CHECK:      s = rtcuda_lane_sum(s, lanes, s_lanes);
//
// VERIFY: verified 6 kernel(s) at {{[0-9]+}} parameter point(s) and {{[0-9]+}} size(s): 0 mismatch(es)

//--- kernel.c
void rowsum(int rows, int cols, const float A[rows][cols], float out[rows]) {
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++)
      s += A[i][j];
    out[i] = s;
  }
}
void colsum(int rows, int cols, const float A[rows][cols], float out[cols]) {
  for (int j = 0; j < cols; j++) {
    float s = 0.0f;
    for (int i = 0; i < rows; i++)
      s += A[i][j];
    out[j] = s;
  }
}
void bmv(int batch, int rows, int cols, const double A[batch][rows][cols],
         const double x[batch][cols], double y[batch][rows]) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < rows; i++) {
      double s = 0.0;
      for (int j = 0; j < cols; j++)
        s += A[b][i][j] * x[b][j];
      y[b][i] = s;
    }
}
void conv(int n, const float x[n + 15], const float w[16], float y[n]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int t = 0; t < 16; t++)
      s += w[t] * x[i + t];
    y[i] = s;
  }
}
void accrow(int n, int m, const float A[n][m], float y[n]) {
  for (int i = 0; i < n; i++) {
    float s = y[i];
    for (int j = 0; j < m; j++)
      s += A[i][j];
    y[i] = s;
  }
}
/* Sparse matrix times vector, CSR. */
void spmv(int rows, int nnz, const int rowptr[rows + 1], const int col[nnz], const float val[nnz],
          const float x[rows], float y[rows]) {
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      s += val[k] * x[col[k]];
    y[i] = s;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [rowsum, colsum, bmv, conv, accrow, spmv]
