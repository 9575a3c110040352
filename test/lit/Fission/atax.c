// PolyBench's atax (y = A^T (A x)): the row loop holds a row reduction into tmp[i] and an
// update of every y[j]. As one loop, y[j] needed atomics; distributed, the first loop is
// parallel over rows and the second, interchanged, over columns (each thread sums a column),
// with no atomics. The program prints what gcc's build prints; verify at odd and prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Fission,ParallelLoops,AtomicUpdates --print-after=ParallelLoops > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13,37 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:4:3: remark: loop 'i' ({{.*}}kernel.c:4:3) (parallel with atomic updates) distributed into 2 loop(s): loop 'i' parallel, loop 'j' parallel; no statement depends on a later one in an earlier iteration of loop 'i' [-Rpass=Fission]
// REMARK: {{.*}}kernel.c:4:3: remark: loop 'i' ({{.*}}kernel.c:4:3) and loop 'j' ({{.*}}kernel.c:8:5) interchanged after distribution: loop 'j' outside is parallel, loop 'i' outside was parallel with atomic updates [-Rpass=Fission]
// REMARK-NOT: {{\[}}-Rpass=AtomicUpdates]
//
// DUMP-LABEL: IR after ParallelLoops (kernel atax_2)
// DUMP:      for (int i = 0; i < m; i++) {  // parallel
// DUMP-NEXT:   tmp[i] = 0.0;
// DUMP-NEXT:   for (int j = 0; j < n; j++) {
// DUMP-NEXT:     tmp[i] = tmp[i] + A[i][j] * x[j];
// DUMP-LABEL: IR after ParallelLoops (kernel atax_3)
// DUMP:      for (int j = 0; j < n; j++) {  // parallel
// DUMP-NEXT:   for (int i = 0; i < m; i++) {
// DUMP-NEXT:     y[j] = y[j] + A[i][j] * tmp[i];
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void atax(int m, int n, double A[m][n], double x[n], double y[n], double tmp[m]) {
  int i, j;
  for (i = 0; i < n; i++) y[i] = 0;
  for (i = 0; i < m; i++) {
    tmp[i] = 0.0;
    for (j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i][j] * x[j];
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * tmp[i];
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void atax(int m, int n, double A[m][n], double x[n], double y[n], double tmp[m]);
int main(void) {
  int m = 29, n = 41;
  double (*A)[n] = malloc(sizeof(double) * m * n);
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  double *tmp = malloc(sizeof(double) * m);
  for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) A[i][j] = (i * j + 3) % 7 - 2;
  for (int j = 0; j < n; j++) x[j] = j % 5 - 1;
  atax(m, n, A, x, y, tmp);
  double s = 0;
  for (int j = 0; j < n; j++) s += y[j] * (j + 1);
  printf("y %.1f %.1f %.1f\n", s, y[0], y[n - 1]);
  free(A); free(x); free(y); free(tmp);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [atax]
