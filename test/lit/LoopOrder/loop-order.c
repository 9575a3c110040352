// LoopOrder: the loop that moves the last subscript of the most accesses goes innermost,
// so that neighbouring threads touch neighbouring addresses however the nest was written.
// `colupdate` is written column by column (`for j for i A[i][j]`, gramschmidt's update):
// collapsed as written, neighbouring threads would read and write a row apart. `scale3` walks
// its 3-D array with the last subscript outermost. `tie` (one access moved by each loop) keeps
// its order (TiledTranspose takes it); `bounds`, a triangle written column by column, is
// reordered in its bounding box (BoundingBox: the rectangle, the triangle's test a guard).
// All print what gcc's build prints and verify at odd and prime sizes. With the pass taken
// out of the pipeline (planted) the DUMP lines fail and the answers stay the same (any order
// of parallel loops is legal).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=LoopOrder --print-after=LoopOrder --print-after=LoopCollapse > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,7,31 --max-points 2 | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:2:3: remark: loop 'j' ({{.*}}kernel.c:2:3) moved innermost: it moves the last subscript of 3 access(es) by one element, loop 'i' of 1, so neighbouring threads touch neighbouring addresses [-Rpass=LoopOrder]
// REMARK: {{.*}}kernel.c:7:3: remark: loop 'k' ({{.*}}kernel.c:7:3) moved innermost: it moves the last subscript of 2 access(es) by one element, loop 'j' of 0
// REMARK: {{.*}}kernel.c:18:3: remark: loop 'j' ({{.*}}kernel.c:18:3) moved innermost
// REMARK-NOT: moved innermost
//
// DUMP-LABEL: IR after LoopOrder (kernel colupdate)
// DUMP:      for (int i = 0; i < rows; i++) {  // parallel
// DUMP-NEXT:   for (int j = 0; j < cols; j++) {  // parallel
// DUMP-NEXT:     A[i][j] = A[i][j] - q[i] * r[j];
// DUMP-LABEL: IR after LoopCollapse (kernel colupdate)
// DUMP:        int i = ij / (long long)cols;
// DUMP-NEXT:   int j = ij - (long long)i * (long long)cols;
// DUMP-LABEL: IR after LoopOrder (kernel scale3)
// DUMP:      for (int i = 0; i < a; i++) {  // parallel
// DUMP-NEXT:   for (int j = 0; j < b; j++) {  // parallel
// DUMP-NEXT:     for (int k = 0; k < c; k++) {  // parallel
// DUMP-NEXT:       t[i][j][k] = 2.0f * s[i][j][k];
// DUMP-LABEL: IR after LoopOrder (kernel tie)
// DUMP:      for (int i = 0; i < n; i++) {  // parallel
// DUMP-NEXT:   for (int j = 0; j < n; j++) {  // parallel
// DUMP-NEXT:     B[j][i] = A[i][j];
// DUMP-LABEL: IR after LoopOrder (kernel bounds)
// DUMP:      for (int i = 0; i < n; i++) {  // parallel
// DUMP-NEXT:   for (int j = 0; j < n; j++) {  // parallel
// DUMP-NEXT:     if (i >= j && i < n) {
//
// VERIFY: verified 4 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void colupdate(int rows, int cols, const float q[rows], float A[rows][cols], const float r[cols]) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      A[i][j] = A[i][j] - q[i] * r[j];
}
void scale3(int a, int b, int c, float t[a][b][c], const float s[a][b][c]) {
  for (int k = 0; k < c; k++)
    for (int i = 0; i < a; i++)
      for (int j = 0; j < b; j++)
        t[i][j][k] = 2.0f * s[i][j][k];
}
void tie(int n, float B[n][n], const float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[j][i] = A[i][j];
}
void bounds(int n, float L[n][n]) {
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++)
      L[i][j] = L[i][j] * 0.5f + (float)(i - j);
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void colupdate(int rows, int cols, const float q[rows], float A[rows][cols], const float r[cols]);
void scale3(int a, int b, int c, float t[a][b][c], const float s[a][b][c]);
void tie(int n, float B[n][n], const float A[n][n]);
void bounds(int n, float L[n][n]);
int main(void) {
  int rows = 37, cols = 23, a = 5, b = 7, c = 11, n = 19;
  float (*A)[cols] = malloc(sizeof(float) * rows * cols), *q = malloc(sizeof(float) * rows);
  float *r = malloc(sizeof(float) * cols);
  float *t = malloc(sizeof(float) * a * b * c), *s = malloc(sizeof(float) * a * b * c);
  float (*B)[n] = malloc(sizeof(float) * n * n), (*S)[n] = malloc(sizeof(float) * n * n);
  for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) A[i][j] = ((i + 2 * j) % 5 - 2) * 0.25f;
  for (int i = 0; i < rows; i++) q[i] = (i % 7) * 0.5f;
  for (int j = 0; j < cols; j++) r[j] = (j % 3) - 1.0f;
  for (int i = 0; i < a * b * c; i++) s[i] = (i % 11) * 0.125f;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) S[i][j] = (i * j) % 5;
  colupdate(rows, cols, q, A, r);
  scale3(a, b, c, (float (*)[b][c])t, (const float (*)[b][c])s);
  tie(n, B, (const float (*)[n])S);
  bounds(n, S);
  double sum = 0;
  for (int i = 0; i < rows; i++) for (int j = 0; j < cols; j++) sum += A[i][j] * (i + 3 * j + 1);
  for (int i = 0; i < a * b * c; i++) sum += t[i] * (i + 1);
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) sum += (B[i][j] + 2 * S[i][j]) * (2 * i + j + 1);
  printf("%.3f\n", sum);
  free(A); free(q); free(r); free(t); free(s); free(B); free(S);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [colupdate, scale3, tie, bounds]
