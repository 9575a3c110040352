// An LDL^T factorization, row by row: the row loop i and the column loop j carry dependences
// (A[i][j] reads the A[i][k] of earlier columns, and the rows of earlier i), so as written both
// stay on the host around launches per (i, j). Reschedule (test/lit/Reschedule/) gives it the
// right-looking order: d's initializations in one parallel kernel, then one host loop over the
// pivot column c0 with two parallel kernels each; Outline launches them from that loop. main
// builds A as L D L^T from an integer L and powers of two in D, so every value is exact in any
// order.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > /dev/null 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
//
// REMARK: remark: loop 'i' ({{.*}}kernel.c:2:3): rescheduled with isl (4 statements): launches 2 inside 2 host loops, 2 inside 1 host loop before, 2 inside 1 host loop, 1 inside 0 host loops after [-Rpass=Reschedule]
// REMARK: remark: kernel 'ldl_1': the loop nest at {{.*}}kernel.c:2:3 runs in parallel
// REMARK: remark: kernel 'ldl_2': the loop nest at {{.*}}kernel.c:2:3 runs in parallel
// REMARK: remark: kernel 'ldl_3': the loop nest at {{.*}}kernel.c:2:3 runs in parallel
// REMARK: remark: loop 'c0' ({{.*}}kernel.c:2:3) stays on the host, one launch per iteration: loop 'c0' carries a dependence
//
// HOST-LABEL: static inline void rtcuda_launch_ldl(
// HOST:      rtcuda_launch_ldl_1_on_device(
// HOST-NEXT: for (int c0 = 0; c0 < n - 1; c0 += 1) {
// HOST-NEXT:   rtcuda_launch_ldl_2_on_device(
// HOST-NEXT:   rtcuda_launch_ldl_3_on_device(
// HOST-NEXT: }

//--- kernel.c
void ldl(int n, double A[n][n], double d[n]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * d[k] * A[j][k];
      A[i][j] = A[i][j] / d[j];
    }
    d[i] = A[i][i];
    for (int k = 0; k < i; k++)
      d[i] -= A[i][k] * A[i][k] * d[k];
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void ldl(int n, double A[n][n], double d[n]);
int main(void) {
  int n = 13;
  double (*L)[n] = malloc(sizeof(double) * n * n), (*A)[n] = malloc(sizeof(double) * n * n);
  double *D = malloc(sizeof(double) * n), *d = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) L[i][j] = j < i ? (i * 3 + j) % 3 - 1 : j == i;
    D[i] = 1 << (i % 3);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = 0;
      for (int k = 0; k < n; k++) A[i][j] += L[i][k] * D[k] * L[j][k];
    }
  ldl(n, A, d);
  int wrong = 0;
  for (int i = 0; i < n; i++) {
    wrong += d[i] != D[i];
    for (int j = 0; j < i; j++) wrong += A[i][j] != L[i][j];
  }
  printf("ldl: %d wrong; d[n-1] %.1f A[n-1][0] %.1f\n", wrong, d[n - 1], A[n - 1][0]);
  free(L);
  free(A);
  free(D);
  free(d);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [ldl]
