// Where Fission leaves a loop as written. `carried`: the second statement writes t[i + 1],
// which the first reads in the next iteration (and the first updates the y[i] the second
// reads later): no cut is legal, the remark names the dependence, and the row loop stays on
// the host around its parallel inner loop. `parallel`: a loop that carries nothing is
// parallel as it is; it stays one loop (and the function one kernel). Both print what gcc's
// build prints and verify. `reversed` counts down: its second statement writes the a[i] that
// the first reads in the next iteration, which runs earlier in the loop's order; the cuts' test
// orders iterations by the variable, so a loop whose step is not positive is never cut (cut,
// it printed other numbers than gcc's build; here it runs in one thread). A planted bug (the legality test of a cut switched off) makes the
// run print other numbers than gcc's and verify report mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Fission --print-after=ParallelLoops > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13,37 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:3:3: remark: loop 'i' ({{.*}}kernel.c:3:3) not distributed before 't[i + 1] = t[i] + y[i];' ({{.*}}kernel.c:6:5): the dependence analysis found 't[i + 1] = t[i] + y[i];' {{(writes t\[i \+ 1\]|reads y\[i\])}}, which {{.*}} in a later iteration of loop 'i' [-Rpass=Fission]
// REMARK-NOT: distributed into
//
// DUMP-LABEL: IR after ParallelLoops (kernel carried_1)
// DUMP:      for (int j = 0; j < n; j++) {  // parallel
// DUMP-NEXT:   y[j] = y[j] + A[i][j] * t[i];
// DUMP-LABEL: IR after ParallelLoops (kernel parallel)
// DUMP:      for (int i = 0; i < n; i++) {  // parallel
// DUMP-NEXT:   a[i] = b[i] * 2.0;
// DUMP-NEXT:   c[i] = a[i] + 1.0;
//
// VERIFY: verified 3 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void carried(int n, double A[n][n], double y[n], double t[n + 1]) {
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * t[i];
    t[i + 1] = t[i] + y[i];
  }
}
void parallel(int n, double a[n], double b[n], double c[n]) {
  for (int i = 0; i < n; i++) {
    a[i] = b[i] * 2.0;
    c[i] = a[i] + 1.0;
  }
}
void reversed(int n, double a[n + 1], double b[n], double c[n]) {
  for (int i = 0; i < n; i++)
    c[i] = c[i] + 1.0;
  for (int i = n - 1; i >= 0; i--) {
    b[i] = a[i + 1] * 2.0;
    a[i] = c[i] + b[i];
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void carried(int n, double A[n][n], double y[n], double t[n + 1]);
void parallel(int n, double a[n], double b[n], double c[n]);
void reversed(int n, double a[n + 1], double b[n], double c[n]);
int main(void) {
  int n = 19;
  double (*A)[n] = malloc(sizeof(double) * n * n);
  double *y = malloc(sizeof(double) * n), *t = malloc(sizeof(double) * (n + 1));
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n), *c = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) A[i][j] = ((i + 2 * j) % 5 - 2) * 0.25;
  for (int i = 0; i < n; i++) y[i] = 0, b[i] = i % 7;
  for (int i = 0; i <= n; i++) t[i] = i == 0 ? 1.0 : 0.0;
  carried(n, A, y, t);
  parallel(n, a, b, c);
  reversed(n, t, y, c);
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i] * (i + 1) + c[i];
  printf("%.6f %.6f %.6f\n", s, t[n], y[n - 1]);
  free(A); free(y); free(t); free(a); free(b); free(c);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [carried, parallel, reversed]
