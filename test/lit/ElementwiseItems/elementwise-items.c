// ElementwiseItems: an element-wise update in place of a collapsed nest gets ITEMS iterations a
// thread, a block apart, every item's loads before any item's arithmetic or store. `rank1`
// (written column by column: LoopOrder walks it row by row), `addrows` (`+=`) and `ramp` (the
// value uses the recovered indices: the store phase recovers them again) get it; `scaled`
// (reads A, writes B: not in place), `sum2` (two streams), `shifted` (reads the stored array
// at another element), `relu` (a load only under a select: not hoisted) and `vec` (one loop,
// nothing collapsed) keep one iteration a thread. All print what gcc's build prints and verify
// at odd and prime sizes and every ITEMS. Planted: the store phase writing `A_item[0]` instead
// of `A_item[item]` makes verify report mismatches (PLANTED below).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=ElementwiseItems > %t/dump
// RUN: FileCheck %s < %t/dump
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,7,31 --max-points 4 | FileCheck --check-prefix=VERIFY %s
// RUN: cp -r %t/out %t/planted
// RUN: sed -i 's#= A_item\[item\] - q_item#= A_item[0] - q_item#' %t/planted/kernel.cu
// RUN: grep -c 'A_item\[0\] - q_item' %t/planted/kernel.cu | FileCheck --check-prefix=TWICE %s
// RUN: %exit1 %rtcuda verify %t/planted --sizes 7,31 --max-points 2 --no-race-check > %t/planted.log 2>&1
// RUN: FileCheck --check-prefix=PLANTED %s < %t/planted.log
//
// CHECK-LABEL: IR after ElementwiseItems (kernel rank1)
// CHECK:      long long ij_base = (long long)blockIdx.x * (RANK1_BLOCKSIZE * RANK1_ITEMS) + threadIdx.x;
// CHECK-NEXT: float A_item[RANK1_ITEMS];
// CHECK-NEXT: float q_item[RANK1_ITEMS];
// CHECK-NEXT: float r_item[RANK1_ITEMS];
// CHECK-NEXT: long long A_at[RANK1_ITEMS];
// CHECK-NEXT: for (int item = 0; item < RANK1_ITEMS; item++) {  // merge
// CHECK-NEXT:   long long ij = ij_base + (long long)item * RANK1_BLOCKSIZE;
// CHECK:          A_item[item] = A[i * cols + j];
// CHECK-NEXT:     q_item[item] = q[i];
// CHECK-NEXT:     r_item[item] = r[j];
// CHECK-NEXT:     A_at[item] = i * cols + j;
// CHECK:      for (int item = 0; item < RANK1_ITEMS; item++) {  // merge
// CHECK-NEXT:   long long ij = ij_base + (long long)item * RANK1_BLOCKSIZE;
// CHECK-NEXT:   if (ij < (long long)rows * (long long)cols) {
// CHECK-NEXT:     A[A_at[item]] = A_item[item] - q_item[item] * r_item[item];
// CHECK-LABEL: IR after ElementwiseItems (kernel addrows)
// CHECK:          C[C_at[item]] = C_item[item] + x_item[item];
// CHECK-LABEL: IR after ElementwiseItems (kernel scaled)
// CHECK-NOT:  _item
// CHECK-LABEL: IR after ElementwiseItems (kernel ramp)
// CHECK:          D_item[item] = D[i * m + j];
// CHECK:        if (ij < (long long)n * (long long)m) {
// CHECK-NEXT:     int i = ij / (long long)m;
// CHECK-NEXT:     int j = ij - (long long)i * (long long)m;
// CHECK-NEXT:     D[D_at[item]] = D_item[item] + (float)(i - 2 * j);
// CHECK-LABEL: IR after ElementwiseItems (kernel relu)
// CHECK-NOT:  _item
// CHECK-LABEL: IR after ElementwiseItems (kernel sum2)
// CHECK-NOT:  _item
// CHECK-LABEL: IR after ElementwiseItems (kernel shifted)
// CHECK-NOT:  _item
// CHECK-LABEL: IR after ElementwiseItems (kernel vec)
// CHECK-NOT:  _item
//
// VERIFY: verified 8 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)
// TWICE: 2
// PLANTED: MISMATCH rank1
// PLANTED: verified 8 kernel(s) at {{[0-9]+}} parameter point(s) and 2 size(s): {{[1-9][0-9]*}} mismatch(es)

//--- kernel.c
void rank1(int rows, int cols, const float q[rows], float A[rows][cols], const float r[cols]) {
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++)
      A[i][j] = A[i][j] - q[i] * r[j];
}
void addrows(int n, int m, float C[n][m], const float x[m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      C[i][j] += x[j];
}
void scaled(int n, int m, const float A[n][m], float B[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = 2.0f * A[i][j];
}
void ramp(int n, int m, float D[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      D[i][j] += (float)(i - 2 * j);
}
void relu(int n, int m, float R[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      R[i][j] = R[i][j] > 0.0f ? R[i][j] : 0.0f;
}
void sum2(int n, int m, const float A[n][m], const float B[n][m], float S[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      S[i][j] = A[i][j] + B[i][j];
}
void shifted(int n, int m, const float B[n][m + 1], float D[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      D[i][j] = B[i][j + 1] - B[i][j];
}
void vec(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + 3.0f * x[i];
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void rank1(int rows, int cols, const float q[rows], float A[rows][cols], const float r[cols]);
void addrows(int n, int m, float C[n][m], const float x[m]);
void scaled(int n, int m, const float A[n][m], float B[n][m]);
void ramp(int n, int m, float D[n][m]);
void relu(int n, int m, float R[n][m]);
void sum2(int n, int m, const float A[n][m], const float B[n][m], float S[n][m]);
void shifted(int n, int m, const float B[n][m + 1], float D[n][m]);
void vec(int n, float y[n], const float x[n]);
int main(void) {
  int n = 37, m = 23;
  float *A = malloc(sizeof(float) * n * m), *C = malloc(sizeof(float) * n * m);
  float *B = malloc(sizeof(float) * n * m), *P = malloc(sizeof(float) * n * m);
  float *S = malloc(sizeof(float) * n * m), *D = malloc(sizeof(float) * n * m);
  float *W = malloc(sizeof(float) * n * (m + 1));
  float *q = malloc(sizeof(float) * n), *r = malloc(sizeof(float) * m), *y = malloc(sizeof(float) * n);
  for (int k = 0; k < n * m; k++) { A[k] = ((k * 7) % 11 - 5) * 0.25f; C[k] = (k % 5) * 0.5f; }
  for (int k = 0; k < n * (m + 1); k++) W[k] = ((k * 3) % 13 - 6) * 0.125f;
  for (int k = 0; k < n * m; k++) P[k] = (k % 9) * 0.5f;
  for (int i = 0; i < n; i++) { q[i] = (i % 7) * 0.5f; y[i] = i * 0.25f; }
  for (int j = 0; j < m; j++) r[j] = (j % 3) - 1.0f;
  rank1(n, m, q, (float (*)[m])A, r);
  addrows(n, m, (float (*)[m])C, r);
  scaled(n, m, (const float (*)[m])A, (float (*)[m])B);
  ramp(n, m, (float (*)[m])P);
  relu(n, m, (float (*)[m])W);
  sum2(n, m, (const float (*)[m])A, (const float (*)[m])C, (float (*)[m])S);
  shifted(n, m, (const float (*)[m + 1])W, (float (*)[m])D);
  vec(n, y, q);
  double t = 0;
  for (int k = 0; k < n * m; k++) t += (A[k] + 2 * C[k] + 3 * B[k] + P[k] - S[k] + D[k]) * (k % 17 + 1);
  for (int i = 0; i < n; i++) t += y[i] * (i + 1);
  printf("%.4f\n", t);
  free(A); free(C); free(B); free(P); free(S); free(D); free(W); free(q); free(r); free(y);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [rank1, addrows, ramp, scaled, sum2, shifted, relu, vec]
