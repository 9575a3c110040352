// An imperfect nest (PolyBench's gemm: C[i][j] *= beta and the k loop under a parallel i) is
// one kernel; Interchange and Fusion make it an (i, j) parallel nest with k serial in each
// thread (test/lit/Interchange/); a pivot loop (right-looking LU) carries a
// dependence and stays on the host, its triangular inner nests are kernels whose bounds use
// the pivot k, passed as a parameter at each launch. The program prints what gcc's build of
// it prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks --print-after=ParallelLoops > %t/ir 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=IR %s < %t/ir
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: remark: kernel 'gemm_lu_1': the loop nest at {{.*}}kernel.c:3:3 runs in parallel
// REMARK: remark: kernel 'gemm_lu_2': the loop nest at {{.*}}kernel.c:11:5 runs in parallel
// REMARK: remark: kernel 'gemm_lu_3': the loop nest at {{.*}}kernel.c:13:5 runs in parallel
// REMARK: remark: loop 'k' ({{.*}}kernel.c:10:3) stays on the host, one launch per iteration: loop 'k' carries a dependence
//
// IR-LABEL: IR after ParallelLoops (kernel gemm_lu_1)
// IR:      for (int i = 0; i < n; i++) {  // parallel
// IR-NEXT:   for (int j = 0; j < n; j++) {  // parallel
// IR-NEXT:     C[i][j] *= beta;
// IR:        for (int k = 0; k < n; k++) {
// IR-LABEL: IR after ParallelLoops (kernel gemm_lu_3)
// IR:      kernel gemm_lu_3(int n, double alpha, double beta, double L[n][n], int k)
// IR:      for (int i = k + 1; i < n; i++) {  // parallel
// IR-NEXT:   for (int j = k + 1; j < n; j++) {  // parallel
//
// HOST-LABEL: static inline void rtcuda_launch_gemm_lu(
// HOST:      rtcuda_launch_gemm_lu_1_on_device(where, n, alpha, beta, d_C, d_A, d_B);
// HOST-NEXT: for (int k = 0; k < n; k += 1) {
// HOST-NEXT:   rtcuda_launch_gemm_lu_2_on_device(where, n, alpha, beta, d_L, k);
// HOST-NEXT:   rtcuda_launch_gemm_lu_3_on_device(where, n, alpha, beta, d_L, k);
// HOST-NEXT: }

//--- kernel.c
void gemm_lu(int n, double alpha, double beta, double C[n][n], double A[n][n], double B[n][n], double L[n][n]) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      C[i][j] *= beta;
    for (k = 0; k < n; k++)
      for (j = 0; j < n; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
  for (k = 0; k < n; k++) {
    for (i = k + 1; i < n; i++)
      L[i][k] = L[i][k] / L[k][k];
    for (i = k + 1; i < n; i++)
      for (j = k + 1; j < n; j++)
        L[i][j] = L[i][j] - L[i][k] * L[k][j];
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void gemm_lu(int n, double alpha, double beta, double C[n][n], double A[n][n], double B[n][n], double L[n][n]);
int main(void) {
  int n = 19;
  double (*A)[n] = malloc(sizeof(double) * n * n), (*B)[n] = malloc(sizeof(double) * n * n);
  double (*C)[n] = malloc(sizeof(double) * n * n), (*L)[n] = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = (i * 7 + j * 3) % 8;
      B[i][j] = (i + j) % 3;
      C[i][j] = (i * j) % 5;
      L[i][j] = i == j ? n + 1.0 : ((i + 2 * j) % 4) * 0.25;
    }
  gemm_lu(n, 2.0, 0.5, C, A, B, L);
  double s = 0, t = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      s += C[i][j] * (i + 1);
      t += L[i][j] * (j + 1);
    }
  printf("gemm %.6f lu %.10f %.10f\n", s, t, L[n - 1][n - 1]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [gemm_lu]
