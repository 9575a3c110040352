// A time loop around two parallel nests (PolyBench's jacobi-2d): the time loop carries a
// dependence, so it stays on the host and launches both kernels once per step; the arrays stay
// on the GPU from the first launch to the end of the call. The program prints what gcc's build
// of it prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: remark: kernel 'jacobi_1': the loop nest at {{.*}}kernel.c:4:5 runs in parallel
// REMARK: remark: kernel 'jacobi_2': the loop nest at {{.*}}kernel.c:7:5 runs in parallel
// REMARK: remark: loop 't' ({{.*}}kernel.c:3:3) stays on the host, one launch per iteration: loop 't' carries a dependence
//
// HOST-LABEL: static inline void rtcuda_launch_jacobi(const char *where, int tsteps, int n, double *A, double *B) {
// HOST:      double *d_B = (double *)rtcuda_array_in(B, B_bytes, where);
// HOST-NEXT: for (int t = 0; t < tsteps; t += 1) {
// HOST-NEXT:   rtcuda_launch_jacobi_1_on_device(where, tsteps, n, d_A, d_B);
// HOST-NEXT:   rtcuda_launch_jacobi_2_on_device(where, tsteps, n, d_A, d_B);
// HOST-NEXT: }
// HOST-NEXT: rtcuda_check_launch("jacobi", where);
// HOST-NEXT: rtcuda_array_out(A, A_bytes, where);
// HOST-NEXT: rtcuda_array_out(B, B_bytes, where);

//--- kernel.c
void jacobi(int tsteps, int n, double A[n][n], double B[n][n]) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.25 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j]);
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.5 * (B[i][j] + B[i - 1][j]);
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void jacobi(int tsteps, int n, double A[n][n], double B[n][n]);
int main(void) {
  int n = 19;
  double (*A)[n] = malloc(sizeof(double) * n * n), (*B)[n] = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = (i * 7 + j * 3) % 8;
      B[i][j] = (i + j) % 3;
    }
  jacobi(5, n, A, B);
  jacobi(0, n, A, B);
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += A[i][j] * (i + 1) + B[i][j];
  printf("jacobi %.6f %.6f %.6f\n", s, A[1][1], B[n - 2][n - 2]);
  free(A);
  free(B);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [jacobi]
