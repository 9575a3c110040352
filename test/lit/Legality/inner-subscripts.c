// Writes subscripted by the variables of loops inside the candidate loop (issue 12 item 3):
// an inner loop's variable is existentially quantified in the access relation. The written
// element is C[i][j] (an outer and an inner variable: gemm's shape), d[j] with j == i (one inner
// variable, parallel only because the analysis is exact), E[j][k] with j in [2i, 2i + 2) (two
// inner variables) and G[i][k][j]: every loop 'i' is parallel, and the kernels are verified.
// Where the rows written really are shared by every i (r[j], F[j][k]) loop 'i' carries the
// dependence found, and stays on the host.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: %rtcuda verify %t/out --seed 3 --sizes 7,13 --max-points 4 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda translate %t/shared.yaml -o %t/shared --remarks 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
//
// REMARK: {{.*}}kernel.c:2:3: remark: loop 'i' ({{.*}}kernel.c:2:3): parallel
// REMARK: {{.*}}kernel.c:9:3: remark: loop 'i' ({{.*}}kernel.c:9:3): parallel
// REMARK: {{.*}}kernel.c:16:3: remark: loop 'i' ({{.*}}kernel.c:16:3): parallel
// REMARK: {{.*}}kernel.c:24:3: remark: loop 'i' ({{.*}}kernel.c:24:3): parallel
// VERIFY: verified 4 kernel(s) at 16 parameter point(s) and 2 size(s): 0 mismatch(es)
//
// REFUSE: remark: loop 'i' ({{.*}}shared.c:2:3) stays on the host, one launch per iteration: loop 'i' carries a dependence: 'r[j] = A[i][j] * t;' writes r[j], which other iterations of loop 'i' also write
// REFUSE: remark: loop 'i' ({{.*}}shared.c:9:3) stays on the host, one launch per iteration: loop 'i' carries a dependence: 'F[j][k] = t;' writes F[j][k], which other iterations of loop 'i' also write

//--- kernel.c
void fill(int ni, int nj, double beta, double C[ni][nj]) {
  for (int i = 0; i < ni; i++) {
    double t = beta * i;
    for (int j = 0; j < nj; j++)
      C[i][j] = t + j;
  }
}
void diag(int n, const double A[n][n], double d[n]) {
  for (int i = 0; i < n; i++) {
    double x = A[i][i];
    for (int j = i; j < i + 1; j++)
      d[j] = 2 * x;
  }
}
void blocks(int n, int m, const double s[n], double E[2 * n][m]) {
  for (int i = 0; i < n; i++) {
    double t = s[i];
    for (int j = 2 * i; j < 2 * i + 2; j++)
      for (int k = 0; k < m; k++)
        E[j][k] = t * k;
  }
}
void cube(int n, int m, const double s[n], double G[n][m][m]) {
  for (int i = 0; i < n; i++) {
    double t = s[i];
    for (int j = 0; j < m; j++)
      for (int k = 0; k < m; k++)
        G[i][k][j] = t + j - k;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [fill, diag, blocks, cube]
//--- shared.c
void rows(int n, int m, const double A[n][m], double r[m]) {
  for (int i = 0; i < n; i++) {
    double t = 1.0;
    for (int j = 0; j < m; j++)
      r[j] = A[i][j] * t;
  }
}
void tiles(int n, int m, const double A[n][m], double F[m][m]) {
  for (int i = 0; i < n; i++) {
    double t = A[i][0];
    for (int j = 0; j < m; j++)
      for (int k = 0; k < m; k++)
        F[j][k] = t;
  }
}
//--- shared.yaml
kernel_files: [shared.c]
kernels: [rows, tiles]
