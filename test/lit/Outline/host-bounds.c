// The host loops around a kernel bound its scalars, and the dependence analysis uses that:
// in band, A[k][j] is never the updated A[i][j] only because k < j < i, and j, i are host loop
// variables of the k kernel. Loops with parallel work inside launch per iteration unless the
// parallel loops inside have a small constant trip count: then (small) the loop runs in one
// thread, except when that would leave the function no parallel loop at all (tiny).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: remark: kernel 'band_1': {{.*}}kernel.c:3:5 runs in one GPU thread: it reads or writes arrays
// REMARK: remark: kernel 'band_3': the loop nest at {{.*}}kernel.c:6:7 runs in parallel
// REMARK: remark: loop 'j' ({{.*}}kernel.c:4:5) stays on the host, one launch per iteration: loop 'j' carries a dependence: {{.*}}; 2 launches per iteration, since the parallel loops inside have j ('k') iterations: more work than one launch costs
// REMARK: remark: loop 'i' ({{.*}}kernel.c:2:3) stays on the host, one launch per iteration: loop 'i' carries a dependence
// REMARK: remark: kernel 'small_1': the loop nest at {{.*}}kernel.c:12:3 runs in parallel
// REMARK: remark: kernel 'small_2': {{.*}}kernel.c:14:3 runs in one GPU thread: loop 'i' cannot run in parallel (loop 'i' carries a dependence: {{.*}}); its parallel loops have at most 4 iterations, fewer than one launch per iteration is worth
// REMARK: remark: kernel 'tiny_2': the loop nest at {{.*}}kernel.c:23:5 runs in parallel
// REMARK: remark: loop 'i' ({{.*}}kernel.c:21:3) stays on the host, one launch per iteration: loop 'i' carries a dependence: {{.*}}; 2 launches per iteration, since the parallel loops inside have 4 ('q') iterations

//--- kernel.c
void band(int n, double A[n][n]) {
  for (int i = 1; i < n; i++) {
    A[i][0] = A[i - 1][1] + 1.0;
    for (int j = 1; j < i; j++) {
      A[i][j] += A[i][j - 1];
      for (int k = 0; k < j; k++)
        A[i][j] += A[k][j] * 0.5;
    }
  }
}
void small(int n, double y[n], double c[n][4]) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + 1.0;
  for (int i = 1; i < n; i++) {
    y[i] = y[i - 1] * 0.5 + c[i - 1][0];
    for (int q = 0; q < 4; q++)
      c[i][q] = y[i] + q;
  }
}
void tiny(int n, double y[n], double c[n][4]) {
  for (int i = 1; i < n; i++) {
    y[i] = y[i - 1] * 0.5 + c[i - 1][0];
    for (int q = 0; q < 4; q++)
      c[i][q] = y[i] - q;
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void band(int n, double A[n][n]);
void small(int n, double y[n], double c[n][4]);
void tiny(int n, double y[n], double c[n][4]);
int main(void) {
  int n = 11;
  double (*A)[n] = malloc(sizeof(double) * n * n), (*c)[4] = malloc(sizeof(double) * n * 4);
  double *y = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    y[i] = i % 3;
    for (int q = 0; q < 4; q++) c[i][q] = q;
    for (int j = 0; j < n; j++) A[i][j] = (i + 2 * j) % 5;
  }
  band(n, A);
  small(n, y, c);
  double s = c[n - 1][3];
  tiny(n, y, c);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += A[i][j] * (i + 1) + (j < 4 ? c[i][j] : 0);
  printf("band %.4f %.4f\n", s, A[n - 1][n - 2]);
  free(A);
  free(c);
  free(y);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [band, small, tiny]
