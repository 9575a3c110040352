// NeighbourReuse's whole strips, rows and planes: a stencil's strips get a path without guards
// where the thread's strips are whole (all its loads issue together; the guarded copies stay
// for the edges), a 3-D stencil also ROW_LEVEL rows per thread (defaults 2 planes x 4 rows x
// 1 column), and a 3-D element-wise nest over restrict arrays MERGE_LEVEL planes per thread. An
// in-place update (Y read and written) and an element-wise nest over arrays that may alias keep
// one output per thread. Verified at odd and prime sizes (5, 23, 37: each size parameter
// base + 2j), every kernel at 12 points covering each level.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks 2> %t/remarks | FileCheck --check-prefix=SUMMARY %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: cat %t/out/st3_params.h %t/out/add3_params.h | FileCheck --check-prefix=PARAMS %s
// RUN: %rtcuda verify %t/out --seed 4 --sizes 5,23,37 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// SUMMARY: st2: BlockMerge, BlockSkew, NeighbourReuse, LoopCollapse, ArrayFlatten, LoopPartition;
// SUMMARY: st3: BlockMerge, BlockSkew, NeighbourReuse, LoopCollapse, ArrayFlatten, LoopPartition;
// SUMMARY: add3: BlockMerge, NeighbourReuse, LoopCollapse, ArrayFlatten, LoopPartition;
// SUMMARY: inplace: LoopCollapse, ArrayFlatten, LoopPartition;
// SUMMARY: mayalias: LoopCollapse, ArrayFlatten, LoopPartition;
//
// REMARKS: remark: rows: each thread computes ST3_ROW_LEVEL consecutive iterations of loop 'j'
// REMARKS: remark: several planes: each output reads only the element it writes; ADD3_MERGE_LEVEL iterations of loop 'k' per thread
//
// The whole strips first: the last row and column of the thread's strips below the ends, then
// the copies without guards; the guarded copies (clamped indices) for the edges.
// KERNEL-LABEL: st2(int n, int m,
// KERNEL:      if (i_merged * ST2_MERGE_LEVEL + ST2_MERGE_LEVEL < n - 1 &&
// KERNEL:          : j_skewed * ST2_SKEW_LEVEL + ST2_SKEW_LEVEL) < m - 1) {
// KERNEL:        int i = i_merged * ST2_MERGE_LEVEL + m_ + 1;
// KERNEL-NOT:  if (
// KERNEL:        B[i * m + j] =
// KERNEL:      } else {
// KERNEL:        int i = min(i_merged * ST2_MERGE_LEVEL + m_ + 1, n - 1);
// KERNEL-NEXT:   if (i < n - 1) {
// KERNEL-LABEL: st3(int nz, int ny, int nx,
// KERNEL:      j_rows * ST3_ROW_LEVEL + ST3_ROW_LEVEL < ny - 1 &&
// KERNEL:          int j = j_rows * ST3_ROW_LEVEL + r + 1;
// KERNEL-LABEL: add3(int nz, int ny, int nx,
// KERNEL:      if (k_merged * ADD3_MERGE_LEVEL + ADD3_MERGE_LEVEL - 1 < nz) {
// KERNEL:        int k = k_merged * ADD3_MERGE_LEVEL + m;
// KERNEL-NEXT:   B[(k * ny + j) * nx + i] = A[(k * ny + j) * nx + i] + 2.0f * C[(k * ny + j) * nx + i];
// KERNEL:      } else {
//
// PARAMS: #define ST3_MERGE_LEVEL 2
// PARAMS: #define ST3_ROW_LEVEL 4
// PARAMS: #define ST3_SKEW_LEVEL 1
// PARAMS: #define ADD3_MERGE_LEVEL 2
//
// VERIFY: verified 5 kernel(s) at {{[0-9]+}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void st2(int n, int m, const float A[restrict n][m], float B[restrict n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
void st3(int nz, int ny, int nx, const float A[restrict nz][ny][nx], float B[restrict nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        B[k][j][i] = 0.4f * A[k][j][i] + 0.1f * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] +
                                                 A[k][j + 1][i] + A[k][j][i - 1] + A[k][j][i + 1]);
}
void add3(int nz, int ny, int nx, const float A[restrict nz][ny][nx],
          const float C[restrict nz][ny][nx], float B[restrict nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 1; j < ny; j++)
      for (int i = 0; i < nx - 1; i++)
        B[k][j][i] = A[k][j][i] + 2.0f * C[k][j][i];
}
void inplace(int nz, int ny, int nx, float a, const float X[restrict nz][ny][nx],
             float Y[restrict nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++)
        Y[k][j][i] = a * X[k][j][i] + Y[k][j][i];
}
void mayalias(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++)
        B[k][j][i] = 3.0f * A[k][j][i];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [st2, st3, add3, inplace, mayalias]
