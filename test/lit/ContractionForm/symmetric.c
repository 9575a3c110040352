// Symmetric products as PolyBench writes them reach RegisterTiling: the mirrored store
// `C[j][i] = C[i][j]` after the last update of C[i][j] stores the accumulator too (a second,
// transposed store of each thread's register tile), under the triangle's guard. `covar`
// (covariance: j from i, a division after k), `correl` (correlation: j from i + 1, its
// diagonal distributed into a loop of its own by Fission), `lower` (j <= i, the mirror above
// the diagonal), `scaled` (syrk's C *= beta first: the accumulator starts from C[i][j]). Refused, with the reason: `late` (C[i][j] updated after its mirror). Verified
// at odd and prime sizes, square and not, with blocks wholly outside the triangle (m = 131);
// a planted bug (the mirror stored at [i][j] instead of [j][i]) makes the three verifies below
// report 19952, 212844 and 17220 mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=ContractionForm 2>&1 | FileCheck --check-prefix=FORM %s
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=RegisterTiling | FileCheck %s
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks 2>&1 | FileCheck --check-prefix=REMARKS %s
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,2,7,37 --max-points 4 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 7 --sizes 1 --size m=131 --size n=17 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY1 %s
// RUN: %rtcuda verify %t/out --seed 9 --sizes 1 --size m=41 --size n=53 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY1 %s
//
// FORM-LABEL: IR after ContractionForm (kernel covar)
// FORM:         for (int j = 0; j < m; j++) {  // parallel
// FORM-NEXT:      float acc = (float)0;
// FORM-NEXT:      if (j >= i && j < m) {
// FORM-NEXT:        acc = 0.0f;
// FORM-NEXT:      }
// FORM-NEXT:      for (int k = 0; k < n; k++) {
// FORM-NEXT:        acc += data[k][i] * data[k][j];
// FORM-NEXT:      }
// FORM-NEXT:      if (j >= i && j < m) {
// FORM-NEXT:        acc /= float_n - 1.0f;
// FORM-NEXT:        cov[i][j] = acc;
// FORM-NEXT:        cov[j][i] = acc;
// FORM-LABEL: IR after ContractionForm (kernel correl_2)
// FORM:             corr[i][j] = acc;
// FORM-NEXT:        corr[j][i] = acc;
// FORM-LABEL: IR after ContractionForm (kernel lower)
// FORM:             C[i][j] = acc;
// FORM-NEXT:        C[j][i] = acc;
// FORM-LABEL: IR after ContractionForm (kernel scaled)
// FORM:         if (j >= 0 && j < i + 1) {
// FORM-NEXT:      acc = C[i][j];
// FORM-NEXT:      acc *= beta;
// FORM:             C[i][j] = acc;
// FORM-NEXT:        C[j][i] = acc;
// FORM-LABEL: IR after ContractionForm (kernel late)
// FORM:             C[j][i] = C[i][j];
// FORM-NEXT:        C[i][j] *= 2.0f;
//
// CHECK-LABEL: IR after RegisterTiling (kernel covar)
// CHECK:      __shared__ float data_rows_tile[
// CHECK:      __shared__ float data_cols_tile[
// CHECK:      // a block whose rectangle holds no stored element skips its slabs
// CHECK:      if (j >= i && j < m) {
// CHECK-NEXT:   acc[m_ * COVAR_SKEW_LEVEL + s] /= float_n - 1.0f;
// CHECK-NEXT:   cov[i][j] = acc[m_ * COVAR_SKEW_LEVEL + s];
// CHECK-NEXT:   cov[j][i] = acc[m_ * COVAR_SKEW_LEVEL + s];
// CHECK-LABEL: IR after RegisterTiling (kernel correl_2)
// CHECK:      __shared__ float data_rows_tile[
// CHECK:      corr[j][i] = acc[m_ * CORREL_2_SKEW_LEVEL + s];
// CHECK-LABEL: IR after RegisterTiling (kernel lower)
// CHECK:      __shared__ float A_rows_tile[
// CHECK:      C[j][i] = acc[m_ * LOWER_SKEW_LEVEL + s];
// CHECK-LABEL: IR after RegisterTiling (kernel scaled)
// CHECK:      C[j][i] = acc[m_ * SCALED_SKEW_LEVEL + s];
// CHECK-LABEL: IR after RegisterTiling (kernel late)
// CHECK-NOT:  __shared__
// CHECK:      }
//
// REMARKS: remark: loop 'i' ({{.*}}) distributed into 2 loops
// REMARKS: remark: contraction: the mirrored store 'cov[j][i] = cov[i][j]' stores the accumulator too
// REMARKS: remark: prefetch: data (transposed) and data staged in shared memory
// REMARKS: remark: contraction: the mirrored store 'corr[j][i] = corr[i][j]' stores the accumulator too
// REMARKS: remark: contraction: the mirrored store 'C[j][i] = C[i][j]' stores the accumulator too
// REMARKS: remark: contraction: the mirrored store 'C[j][i] = C[i][j]' stores the accumulator too
// REMARKS: remark: register tiling: not chosen: the mirrored store 'C[j][i]' comes before the last update of 'C[i][j]'
//
// VERIFY: verified 5 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)
// VERIFY1: verified 5 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 1 size(s): 0 mismatch(es)

//--- kernel.c
void covar(int m, int n, float float_n, float cov[m][m], const float data[n][m]) {
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      cov[i][j] = 0.0f;
      for (int k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (float_n - 1.0f);
      cov[j][i] = cov[i][j];
    }
}
void correl(int m, int n, float corr[m][m], const float data[n][m]) {
  for (int i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0f;
    for (int j = i + 1; j < m; j++) {
      corr[i][j] = 0.0f;
      for (int k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0f;
}
void lower(int m, int n, float C[m][m], const float A[m][n]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= i; j++) {
      C[i][j] = 0.5f;
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * A[j][k];
      C[j][i] = C[i][j];
    }
}
void scaled(int m, int n, float beta, float C[m][m], const float A[m][n]) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j <= i; j++) {
      C[i][j] *= beta;
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * A[j][k];
      C[j][i] = C[i][j];
    }
}
void late(int m, int n, float C[m][m], const float A[m][n]) {
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      C[i][j] = 0.0f;
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * A[j][k];
      C[j][i] = C[i][j];
      C[i][j] *= 2.0f;
    }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels:
  - name: covar
  - name: correl
  - name: lower
  - name: scaled
  - name: late
