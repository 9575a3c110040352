// A parallel loop whose body is statements around one parallel loop: the statements go into
// loops of their own, so that the two loops are one parallel nest (PolyBench's correlation:
// `corr[i][i] = 1` before the `j` loop kept the nest to one thread per row). `correl`: the
// diagonal first, then the (i, j) nest, which then reaches RegisterTiling (ContractionForm's
// mirrored store; test/lit/ContractionForm/symmetric.c). `first`: the statement writes the
// element that the nest's first iteration updates, `last` reads what the nest wrote: each
// keeps its order (a planted bug, the statements' loop put after the nest, makes `first` print
// other numbers than gcc's build and verify report mismatches). Left as written: `small` (the
// inner loop runs 3 times: not worth a launch) and `scalar` (a scalar declared before the
// loop is used in it). All print what gcc's build prints and verify at odd and prime sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Fission --print-after=ParallelLoops > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,2,13,37 --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:2:3: remark: loop 'i' ({{.*}}kernel.c:2:3) distributed into 2 loops: its statements outside loop 'j' ({{.*}}kernel.c:4:5) in loops of their own, so that loops 'i' and 'j' are one parallel nest; no statement depends on a later one in an earlier iteration of loop 'i' [-Rpass=Fission]
// REMARK: {{.*}}kernel.c:14:3: remark: loop 'i' ({{.*}}kernel.c:14:3) distributed into 3 loops
// REMARK: {{.*}}kernel.c:23:3: remark: loop 'i' ({{.*}}kernel.c:23:3) distributed into 2 loops
// REMARK-NOT: distributed into
//
// DUMP-LABEL: IR after ParallelLoops (kernel correl_1)
// DUMP:      for (int i = 0; i < m - 1; i++) {  // parallel
// DUMP-NEXT:   corr[i][i] = 1.0f;
// DUMP-NEXT: }
// DUMP-LABEL: IR after ParallelLoops (kernel correl_2)
// DUMP:      for (int i = 0; i < m - 1; i++) {  // parallel
// DUMP-NEXT:   for (int j = 1; j < m; j++) {  // parallel
// DUMP-LABEL: IR after ParallelLoops (kernel first_1)
// DUMP:        C[i][0] = 1.0f;
// DUMP-NEXT:   C[i][n - 1] = 2.0f;
// DUMP-LABEL: IR after ParallelLoops (kernel first_2)
// DUMP:        for (int j = 0; j < n; j++) {  // parallel
// DUMP-NEXT:     C[i][j] += A[i][j];
// DUMP-LABEL: IR after ParallelLoops (kernel first_3)
// DUMP:        s[i] = C[i][0] * 3.0f;
// DUMP-LABEL: IR after ParallelLoops (kernel last_2)
// DUMP:        s[i] = C[i][n - 1] + C[i][0];
// DUMP-LABEL: IR after ParallelLoops (kernel small)
// DUMP:      for (int i = 0; i < n; i++) {  // parallel
// DUMP-NEXT:   D[i][0] = 0.0f;
// DUMP-NEXT:   for (int j = 0; j < 3; j++) {
// DUMP-LABEL: IR after ParallelLoops (kernel scalar)
// DUMP:      for (int i = 0; i < n; i++) {  // parallel
// DUMP-NEXT:   float t = A[i][0];
//
// VERIFY: verified 5 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void correl(int m, int n, float corr[m][m], const float data[n][m]) {
  for (int i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0f;
    for (int j = i + 1; j < m; j++) {
      corr[i][j] = 0.0f;
      for (int k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0f;
}
void first(int n, float C[n][n], const float A[n][n], float s[n]) {
  for (int i = 0; i < n; i++) {
    C[i][0] = 1.0f;
    C[i][n - 1] = 2.0f;
    for (int j = 0; j < n; j++)
      C[i][j] += A[i][j];
    s[i] = C[i][0] * 3.0f;
  }
}
void last(int n, float C[n][n], const float A[n][n], float s[n]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      C[i][j] = A[i][j] * 2.0f + (float)j;
    s[i] = C[i][n - 1] + C[i][0];
  }
}
void small(int n, float D[n][3], const float A[n][n]) {
  for (int i = 0; i < n; i++) {
    D[i][0] = 0.0f;
    for (int j = 0; j < 3; j++)
      D[i][j] += A[i][0] * (float)j;
  }
}
void scalar(int n, float C[n][n], const float A[n][n]) {
  for (int i = 0; i < n; i++) {
    float t = A[i][0];
    for (int j = 0; j < n; j++)
      C[i][j] = A[i][j] - t;
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void correl(int m, int n, float corr[m][m], const float data[n][m]);
void first(int n, float C[n][n], const float A[n][n], float s[n]);
void last(int n, float C[n][n], const float A[n][n], float s[n]);
void small(int n, float D[n][3], const float A[n][n]);
void scalar(int n, float C[n][n], const float A[n][n]);
int main(void) {
  int n = 23, m = 19;
  float (*A)[n] = malloc(sizeof(float) * n * n), (*C)[n] = malloc(sizeof(float) * n * n);
  float (*corr)[m] = malloc(sizeof(float) * m * m), (*data)[m] = malloc(sizeof(float) * n * m);
  float *s = malloc(sizeof(float) * n), (*D)[3] = malloc(sizeof(float) * n * 3);
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) A[i][j] = ((i + 2 * j) % 5 - 2) * 0.25f;
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) data[i][j] = ((3 * i + j) % 7 - 3) * 0.5f;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = (i * j) % 3;
  correl(m, n, corr, data);
  first(n, C, A, s);
  double t = 0;
  for (int i = 0; i < n; i++) t += s[i] * (i + 1);
  last(n, C, A, s);
  for (int i = 0; i < n; i++) t += s[i] * (i + 2);
  for (int i = 0; i < n; i++) for (int j = 0; j < 3; j++) D[i][j] = j;
  small(n, D, A);
  scalar(n, C, A);
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) t += C[i][j] * (i + 3 * j + 1);
  for (int i = 0; i < n; i++) for (int j = 0; j < 3; j++) t += D[i][j] * (i + j + 1);
  for (int i = 0; i < m; i++) for (int j = 0; j < m; j++) t += corr[i][j] * (2 * i + j + 1);
  printf("%.3f\n", t);
  free(A); free(C); free(corr); free(data); free(s); free(D);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [correl, first, last, small, scalar]
