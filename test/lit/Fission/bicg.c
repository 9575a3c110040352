// PolyBench's bicg (s = A^T r, q = A p) in one row loop: the inner loop `j` holds an update of
// every s[j] and the row's sum q[i]. Fission cuts the inner loop in two, groups the pieces by
// what loop `i` carries for them (q's zeroing and sum: nothing; s: updates of one element from
// several rows), moves the q loop before the s loop (they touch no common element) and
// interchanges the s loop: two kernels, no atomics. Verified at odd and prime sizes and
// several tuning points; the program prints what gcc's build prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Fission --print-after=ParallelLoops > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,13,37 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:4:3: remark: loop 'i' ({{.*}}kernel.c:4:3) (parallel with atomic updates) distributed into 2 loop(s): loop 'i' parallel, loop 'j' parallel; no statement depends on a later one in an earlier iteration of loop 'i' [-Rpass=Fission]
// REMARK: {{.*}}kernel.c:4:3: remark: loop 'i' ({{.*}}kernel.c:4:3) and loop 'j' ({{.*}}kernel.c:6:5) interchanged after distribution
//
// DUMP-LABEL: IR after ParallelLoops (kernel bicg_2)
// DUMP:      for (int i = 0; i < n; i++) {  // parallel
// DUMP-NEXT:   q[i] = 0.0;
// DUMP-NEXT:   for (int j = 0; j < m; j++) {
// DUMP-NEXT:     q[i] = q[i] + A[i][j] * p[j];
// DUMP-NEXT:   }
// DUMP-NEXT: }
// DUMP-LABEL: IR after ParallelLoops (kernel bicg_3)
// DUMP:      for (int j = 0; j < m; j++) {  // parallel
// DUMP-NEXT:   for (int i = 0; i < n; i++) {
// DUMP-NEXT:     s[j] = s[j] + r[i] * A[i][j];
// DUMP-NEXT:   }
// DUMP-NEXT: }
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void bicg(int m, int n, double A[n][m], double s[m], double q[n], double p[m], double r[n]) {
  int i, j;
  for (i = 0; i < m; i++) s[i] = 0;
  for (i = 0; i < n; i++) {
    q[i] = 0.0;
    for (j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void bicg(int m, int n, double A[n][m], double s[m], double q[n], double p[m], double r[n]);
int main(void) {
  int m = 23, n = 31;
  double (*A)[m] = malloc(sizeof(double) * n * m);
  double *s = malloc(sizeof(double) * m), *p = malloc(sizeof(double) * m);
  double *q = malloc(sizeof(double) * n), *r = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) A[i][j] = (i * j + 1) % 9 - 4;
  for (int j = 0; j < m; j++) p[j] = j % 3 + 1;
  for (int i = 0; i < n; i++) r[i] = i % 4 - 2;
  bicg(m, n, A, s, q, p, r);
  double a = 0, b = 0;
  for (int j = 0; j < m; j++) a += s[j] * (j + 1);
  for (int i = 0; i < n; i++) b += q[i] * (i + 2);
  printf("s %.1f q %.1f %.1f %.1f\n", a, b, s[m - 1], q[n - 1]);
  free(A); free(s); free(p); free(q); free(r);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [bicg]
