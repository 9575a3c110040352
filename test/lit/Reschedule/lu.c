// PolyBench's lu in its left-looking form: every (i, j) waits for the one before, so as written
// loops 'i' and 'j' stay on the host around two launches per (i, j). isl's schedule is the
// right-looking form: one host loop 'c0' (the pivot), three nests per pivot (the column's
// division, the trailing matrix's two triangles; LaunchFusion then makes the triangles one
// kernel over the square, test/lit/LaunchFusion/lu.c: two launches per pivot). The program prints what gcc's build prints
// (the same operations per element, in the same order); verify at odd and prime sizes.
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
// REMARK: {{.*}}kernel.c:3:3: remark: loop 'i' ({{.*}}kernel.c:3:3): rescheduled with isl (3 statements): launches 2 inside 2 host loops, 1 inside 1 host loop before, 3 inside 1 host loop after [-Rpass=Reschedule]
//
// HOST:      for (int c0 = 0; c0 < n - 1; c0 += 1) {
// HOST-NEXT:   rtcuda_launch_lu_1_on_device(where, n, d_A, c0);
// HOST-NEXT:   rtcuda_launch_lu_2_on_device(where, n, d_A, c0);
// HOST-NEXT: }
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void lu(int n, double A[n][n]) {
  int i, j, k;
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < n; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void lu(int n, double A[n][n]);
int main(void) {
  int n = 37;
  double (*A)[n] = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A[i][j] = i == j ? 2.0 * n : (double)((i * 7 + j * 3) % 11) / 5 - 1;
  lu(n, A);
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) s += A[i][j] * ((i + 2 * j) % 5 + 1);
  printf("A %.9f %.9f %.9f\n", s, A[n - 1][0], A[n - 1][n - 1]);
  free(A);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [lu]
