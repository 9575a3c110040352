// PolyBench's syrk as written: triangular `j <= i` loops, `k` outside `j`. Interchange and
// Fusion as for gemm; BoundingBox then runs `j` over 0..n-1 with the body guarded by
// `j >= 0 && j < i + 1`, so ParallelLoops maps (i, j) on threads. The upper triangle, which the
// kernel must not touch, is printed too; sizes 11 x 6 here, and verify's primes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=BoundingBox --print-after=ParallelLoops > %t/ir 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=IR %s < %t/ir
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13,29 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:6:5: remark: loop 'k' ({{.*}}kernel.c:6:5) and loop 'j' ({{.*}}kernel.c:7:7) interchanged: {{.*}} [-Rpass=Interchange]
// REMARK: kernel.c:4:5: remark: loop 'j' ({{.*}}kernel.c:4:5) and loop 'j' ({{.*}}kernel.c:7:7) fused: {{.*}} [-Rpass=Fusion]
// REMARK: kernel.c:4:5: remark: loop 'j' ({{.*}}kernel.c:4:5) runs from 0 to n, the bounding box of its iterations, guarded by its bounds 0 and i + 1 [-Rpass=BoundingBox]
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel [-Rpass=ParallelLoops]
// REMARK: remark: loop 'j' ({{.*}}kernel.c:4:5): parallel [-Rpass=ParallelLoops]
//
// IR-LABEL: IR after BoundingBox (kernel syrk)
// IR:      for (int i = 0; i < n; i++) {
// IR-NEXT:   for (int j = 0; j < n; j++) {
// IR-NEXT:     if (j >= 0 && j < i + 1) {
// IR-NEXT:       C[i][j] *= beta;
// IR-NEXT:       for (int k = 0; k < m; k++) {
// IR-NEXT:         C[i][j] += alpha * A[i][k] * A[j][k];
// IR-LABEL: IR after ParallelLoops (kernel syrk)
// IR:      for (int i = 0; i < n; i++) {  // parallel
// IR-NEXT:   for (int j = 0; j < n; j++) {  // parallel
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void syrk(int n, int m, double alpha, double beta, double C[n][n], double A[n][m]) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= beta;
    for (k = 0; k < m; k++) {
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
    }
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void syrk(int n, int m, double alpha, double beta, double C[n][n], double A[n][m]);
int main(void) {
  int n = 11, m = 6;
  double (*C)[n] = malloc(sizeof(double) * n * n);
  double (*A)[m] = malloc(sizeof(double) * n * m);
  for (int i = 0; i < n; i++) for (int k = 0; k < m; k++) A[i][k] = (i * k + 2) % 7 - 3.25;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = (i * 5 + j) % 9 + 0.5;
  syrk(n, m, 1.5, 1.2, C, A);
  double lower = 0, upper = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j <= i) lower += C[i][j] * (i + 2 * j + 1);
      else upper += C[i][j] * (i + j + 1);
    }
  printf("lower %.6f upper %.6f corner %.6f\n", lower, upper, C[n - 1][0]);
  free(C); free(A);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: syrk
