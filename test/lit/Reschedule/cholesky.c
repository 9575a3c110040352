// PolyBench's cholesky: as written, loops 'i' and 'j' stay on the host around the row's
// updates; rescheduled, one host loop over the pivot column launches three kernels (the
// square root on the diagonal is one of the statements isl orders). The program prints what
// gcc's build prints; verify at odd and prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Reschedule 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13,37 --max-points 3 --tolerance 1000 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:4:3: remark: loop 'i' ({{.*}}kernel.c:4:3): rescheduled with isl (4 statements): launches 2 inside 2 host loops, 2 inside 1 host loop before, 3 inside 1 host loop after [-Rpass=Reschedule]
//
// HOST:      for (int c0 = 0; c0 < n; c0 += 1) {
// HOST-NEXT:   rtcuda_launch_cholesky_{{[0-9]}}_on_device(where, n, d_A, c0);
// HOST-NEXT:   rtcuda_launch_cholesky_{{[0-9]}}_on_device(where, n, d_A, c0);
// HOST-NEXT:   rtcuda_launch_cholesky_{{[0-9]}}_on_device(where, n, d_A, c0);
// HOST-NEXT: }
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void cholesky(int n, double A[n][n]) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void cholesky(int n, double A[n][n]);
int main(void) {
  int n = 37;
  double (*A)[n] = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A[i][j] = i == j ? 4.0 * n : 1.0 / (1 + i + j);
  cholesky(n, A);
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) s += A[i][j] * ((i + 2 * j) % 5 + 1);
  printf("A %.9f %.9f %.9f\n", s, A[n - 1][0], A[n - 1][n - 1]);
  free(A);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [cholesky]
