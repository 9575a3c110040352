// RegisterTiling chosen by the analysis for contractions as code writes them, with a config
// that leaves merge, skew and prefetch alone: PolyBench's gemm (C *= beta before k, k outside
// j, accumulated into C with a scalar factor), B read transposed into a scalar then scaled,
// syrk and syr2k (triangular j, made rectangular by BoundingBox; one array read as rows and as
// columns: two tiles of A, four tiles for syr2k). ContractionForm keeps C[i][j] in a register
// across k and the triangle's guard on the initialization and the store only; a block whose
// rectangle lies wholly outside the triangle skips its slabs (skipping the blocks inside
// instead: 20664 mismatches in the second verify). A triangle whose
// k loop divides keeps its guard around k and is not tiled (the remark says why); `merge:
// false` keeps the collapsed mapping. Verified at odd and prime sizes, rectangular, at 12
// tuning points each.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=ContractionForm 2>&1 | FileCheck --check-prefix=FORM %s
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=RegisterTiling | FileCheck %s
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks 2>&1 | FileCheck --check-prefix=REMARKS %s
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,7,37 --max-points 12 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1 --size n=41 --size m=13 --size p=29 --size ni=31 --size nj=43 --size nk=17 --max-points 12 --no-race-check | FileCheck --check-prefix=VERIFY1 %s
//
// FORM-LABEL: IR after ContractionForm (kernel gemm_pb)
// FORM:         for (int j = 0; j < nj; j++) {  // parallel
// FORM-NEXT:      float acc = C[i][j];
// FORM-NEXT:      acc *= beta;
// FORM-NEXT:      for (int k = 0; k < nk; k++) {
// FORM-NEXT:        acc += alpha * A[i][k] * B[k][j];
// FORM-NEXT:      }
// FORM-NEXT:      C[i][j] = acc;
// FORM-LABEL: IR after ContractionForm (kernel syrk)
// FORM:         for (int j = 0; j < n; j++) {  // parallel
// FORM-NEXT:      float acc = (float)0;
// FORM-NEXT:      if (j >= 0 && j < i + 1) {
// FORM-NEXT:        acc = C[i][j];
// FORM-NEXT:        acc *= beta;
// FORM-NEXT:      }
// FORM-NEXT:      for (int k = 0; k < m; k++) {
// FORM-NEXT:        acc += alpha * A[i][k] * A[j][k];
// FORM-NEXT:      }
// FORM-NEXT:      if (j >= 0 && j < i + 1) {
// FORM-NEXT:        C[i][j] = acc;
// FORM-LABEL: IR after ContractionForm (kernel tri_div)
// FORM:           if (j >= 0 && j < i + 1) {
// FORM-NEXT:        float s = 0.0f;
// FORM-NEXT:        for (int k = 0; k < m; k++) {
//
// CHECK-LABEL: IR after RegisterTiling (kernel gemm_pb)
// CHECK:      __shared__ float A_tile[
// CHECK:      __shared__ float B_tile[
// CHECK:      acc[m * GEMM_PB_SKEW_LEVEL + s] += alpha * A_tile[{{.*}}] * B_tile[{{.*}}];
// CHECK-LABEL: IR after RegisterTiling (kernel gemm_bt)
// CHECK:      __shared__ float A_tile[
// CHECK:      __shared__ float B_tile[
// CHECK:      B_next[v * 4 + e] = t * 4 + e < block_cols * depth && (col0 + r < p && k_begin + q < m) ? B[col0 + r][k_begin + q] : (float)0;
// CHECK:      B_tile[0 * (depth * block_cols) + q * block_cols + r] = B_next[v * 4 + e];
// CHECK:      C[i][j] = 2.0f * s[m_ * GEMM_BT_SKEW_LEVEL + s_];
// CHECK-LABEL: IR after RegisterTiling (kernel syrk)
// CHECK:      __shared__ float A_rows_tile[
// CHECK:      __shared__ float A_cols_tile[
// CHECK:      // a block whose rectangle holds no stored element skips its slabs
// CHECK-NEXT: if ((col0 >= 0 || col0 + block_cols - 1 >= 0 || col0 >= 0 || col0 + block_cols - 1 >= 0) && (col0 < row0 + 1 || col0 + block_cols - 1 < row0 + 1 || col0 < row0 + block_rows || col0 + block_cols - 1 < row0 + block_rows)) {
// CHECK:      acc[m_ * SYRK_SKEW_LEVEL + s] += alpha * A_rows_tile[{{.*}}] * A_cols_tile[{{.*}}];
// CHECK:      if (j >= 0 && j < i + 1) {
// CHECK-NEXT:   C[i][j] = acc[m_ * SYRK_SKEW_LEVEL + s];
// CHECK-LABEL: IR after RegisterTiling (kernel syr2k)
// CHECK:      __shared__ float B_rows_tile[
// CHECK:      __shared__ float A_rows_tile[
// CHECK:      __shared__ float A_cols_tile[
// CHECK:      __shared__ float B_cols_tile[
// CHECK-LABEL: IR after RegisterTiling (kernel tri_div)
// CHECK-NOT:  __shared__
// CHECK-LABEL: IR after RegisterTiling (kernel gemm_kept)
// CHECK-NOT:  __shared__
// CHECK:      }
//
// REMARKS: kernel.c:3:3: remark: register tiling: chosen by the analysis for this contraction (the config leaves merge, skew and prefetch to it): merge, skew, prefetch A, B
// REMARKS: remark: contraction: 'C[i][j]' accumulates in a register across loop 'k', stored once after it
// REMARKS: remark: prefetch: A and B staged in shared memory
// REMARKS: remark: prefetch: A and B (transposed) staged in shared memory
// REMARKS: remark: contraction: the guard of loop 'j''s body stays on the initialization and the store; loop 'k' runs over the bounding box (its sums outside are never stored)
// REMARKS: remark: register tiling: a block whose rectangle holds no element that the guard of the stores passes (checked at its corners) skips its slabs
// REMARKS: remark: prefetch: A and A (transposed) staged in shared memory
// REMARKS: remark: prefetch: B, A, A (transposed) and B (transposed) staged in shared memory
// REMARKS: remark: register tiling: not chosen: the guard of loop 'j''s body stays around loop 'k': it divides
// REMARKS-NOT: remark: register tiling: chosen
//
// VERIFY: verified 6 kernel(s) at 72 parameter point(s) and 3 size(s): 0 mismatch(es)
// VERIFY1: verified 6 kernel(s) at 72 parameter point(s) and 1 size(s): 0 mismatch(es)

//--- kernel.c
void gemm_pb(int ni, int nj, int nk, float alpha, float beta, float C[ni][nj],
             const float A[ni][nk], const float B[nk][nj]) {
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (int k = 0; k < nk; k++)
      for (int j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}
void gemm_bt(int n, int m, int p, float C[n][p], const float A[n][m], const float B[p][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++)
        s += A[i][k] * B[j][k];
      C[i][j] = 2.0f * s;
    }
}
void syrk(int n, int m, float alpha, float beta, float C[n][n], const float A[n][m]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
}
void syr2k(int n, int m, float alpha, float beta, float C[n][n], const float A[n][m],
           const float B[n][m]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++)
        C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
  }
}
void tri_div(int n, int m, float C[n][n], const float A[n][m], const float B[m][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++)
        s += A[i][k] / B[k][j];
      C[i][j] = s;
    }
}
void gemm_kept(int n, int m, int p, float C[n][p], const float A[n][m], const float B[m][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      C[i][j] = 0.0f;
      for (int k = 0; k < m; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: gemm_pb
  - name: gemm_bt
  - name: syrk
  - name: syr2k
  - name: tri_div
  - name: gemm_kept
    merge: false
