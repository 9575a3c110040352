// NeighbourReuse: the analysis gives stencils and filters several outputs per thread (BlockMerge
// and BlockSkew at their default levels), with no merge or skew in the config: a 5-point stencil
// (A read at places a constant apart, fewer than 9: HaloTile leaves it) and an 8-tap filter over
// strided windows (w[t] read by every output; x[8 * i + t], x[i][t] after Delinearize, is no halo). An
// element-wise sum, a matrix-vector product (a loop as long as the problem: LaneReduction's) and
// a stencil whose config turns merge on itself keep what they had.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks 2> %t/remarks | FileCheck --check-prefix=SUMMARY %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/stencil_params.h
// RUN: %rtcuda verify %t/out --seed 4 --sizes 1,7,37 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// SUMMARY: stencil: BlockMerge, BlockSkew, NeighbourReuse, LoopCollapse,
// SUMMARY: taps: BlockMerge, NeighbourReuse, ArrayFlatten, LoopPartition, RedundantLoadElim;
// SUMMARY: add: LoopCollapse, ArrayFlatten, LoopPartition;
// SUMMARY: gemv: ArrayFlatten, LoopPartition, LaneReduction;
// SUMMARY: chosen: BlockMerge, LoopCollapse,
//
// REMARKS: remark: neighbour reuse: one array is read at places a constant apart; several outputs per thread (merge and skew), shared reads once
// REMARKS: remark: neighbour reuse: every iteration reads the same filter values; several outputs per thread (merge and skew), shared reads once
// REMARKS-NOT: neighbour reuse
//
// PARAMS: #define STENCIL_MERGE_LEVEL 4
// PARAMS: #define STENCIL_SKEW_LEVEL 2
//
// VERIFY: verified 5 kernel(s) at {{[0-9]+}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void stencil(int n, int m, const float A[n][m], float B[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = 0.2f * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}
void taps(int n, const double x[8 * n], const double w[8], double y[n]) {
  for (int i = 0; i < n; i++) {
    double acc = 0.0;
    for (int t = 0; t < 8; t++)
      acc += x[8 * i + t] * w[t];
    y[i] = acc;
  }
}
void add(int n, int m, const float A[n][m], const float B[n][m], float C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[i][j] = A[i][j] + B[i][j];
}
void gemv(int n, int m, const float A[n][m], const float x[m], float y[n]) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int k = 0; k < m; k++)
      s += A[i][k] * x[k];
    y[i] = s;
  }
}
void chosen(int n, int m, const float A[n][m], float B[n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = 0.5f * (A[i - 1][j] + A[i + 1][j]);
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - stencil
  - taps
  - add
  - gemv
  - name: chosen
    merge: true
