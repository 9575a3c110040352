// PolyBench's gemm as written: `k` outside `j`, with the `C[i][j] *= beta` loop before it.
// Interchange moves `j` outside `k` (no dependence with direction (<, >) on (k, j)), Fusion
// fuses the two `j` loops (no dependence from a later beta iteration to an earlier update),
// and ParallelLoops then finds `i` and `j` parallel: a 2-D nest with `k` serial in each thread.
// Odd sizes (13 x 7 x 11); the program prints what gcc's build of it prints, and verify runs
// it at more sizes (primes) and tuning points.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=Fusion --print-after=ParallelLoops > %t/ir 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=IR %s < %t/ir
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,17,31 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:6:5: remark: loop 'k' ({{.*}}kernel.c:6:5) and loop 'j' ({{.*}}kernel.c:7:7) interchanged: loop 'j' now runs outside loop 'k' (no dependence with direction (<, >) on them) [-Rpass=Interchange]
// REMARK: kernel.c:4:5: remark: loop 'j' ({{.*}}kernel.c:4:5) and loop 'j' ({{.*}}kernel.c:7:7) fused: no dependence from a later iteration of the first to an earlier one of the second [-Rpass=Fusion]
// REMARK: remark: loop 'i' ({{.*}}kernel.c:3:3): parallel [-Rpass=ParallelLoops]
// REMARK: remark: loop 'j' ({{.*}}kernel.c:4:5): parallel [-Rpass=ParallelLoops]
//
// IR-LABEL: IR after Fusion (kernel gemm)
// IR:      for (int i = 0; i < ni; i++) {
// IR-NEXT:   for (int j = 0; j < nj; j++) {
// IR-NEXT:     C[i][j] *= beta;
// IR-NEXT:     for (int k = 0; k < nk; k++) {
// IR-NEXT:       C[i][j] += alpha * A[i][k] * B[k][j];
// IR-LABEL: IR after ParallelLoops (kernel gemm)
// IR:      for (int i = 0; i < ni; i++) {  // parallel
// IR-NEXT:   for (int j = 0; j < nj; j++) {  // parallel
// IR-NEXT:     C[i][j] *= beta;
// IR-NEXT:     for (int k = 0; k < nk; k++) {
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], double A[ni][nk], double B[nk][nj]) {
  int i, j, k;
  for (i = 0; i < ni; i++) {
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (k = 0; k < nk; k++) {
      for (j = 0; j < nj; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
    }
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], double A[ni][nk], double B[nk][nj]);
int main(void) {
  int ni = 13, nj = 7, nk = 11;
  double (*C)[nj] = malloc(sizeof(double) * ni * nj);
  double (*A)[nk] = malloc(sizeof(double) * ni * nk);
  double (*B)[nj] = malloc(sizeof(double) * nk * nj);
  for (int i = 0; i < ni; i++) for (int k = 0; k < nk; k++) A[i][k] = (i * k + 1) % 7 - 2.5;
  for (int k = 0; k < nk; k++) for (int j = 0; j < nj; j++) B[k][j] = (k + 2 * j) % 5 * 0.75;
  for (int i = 0; i < ni; i++) for (int j = 0; j < nj; j++) C[i][j] = (i * 3 + j) % 4 + 0.5;
  gemm(ni, nj, nk, 1.5, 1.2, C, A, B);
  double s = 0;
  for (int i = 0; i < ni; i++) for (int j = 0; j < nj; j++) s += C[i][j] * (i + j + 1);
  printf("C %.6f %.6f %.6f\n", s, C[0][0], C[ni - 1][nj - 1]);
  free(C); free(A); free(B);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: gemm
