// A column sum before a column update (gramschmidt's column step): the sum and the update go
// into loops of their own, so that the sum can be split across blocks (ReductionSplit) and the
// update is a 2-D parallel nest (LoopOrder walks it row by row). `gs` is the step inside
// gramschmidt's serial `k` loop, which also sets the scalar `nrm` (the host loop is looked
// into all the same). `rownorm` sums along rows before a row update: one warp per row reads
// its row twice, so it stays one kernel. `two` has two parallel inner loops: left as written.
// All print what gcc's build prints and verify at odd and prime sizes; in `gs`'s update, a
// planted `r[i % cols]` for `r[j]` in kernel.cu gives verify mismatches (checked by hand: 15340
// at sizes 1, 7, 33 on bench/kernels' gsupdate).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Fission --print-after=ParallelLoops > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,2,13,37 --max-points 2 | FileCheck --check-prefix=VERIFY %s
//
// REMARK: {{.*}}kernel.c:9:5: remark: loop 'j' ({{.*}}kernel.c:9:5) distributed into 2 loops: its statements outside loop 'i' ({{.*}}kernel.c:13:7) in loops of their own, so that loops 'j' and 'i' are one parallel nest
// REMARK-NOT: distributed into
//
// DUMP-LABEL: IR after ParallelLoops (kernel gs_4)
// DUMP:      for (int j = k + 1; j < n; j++) {  // parallel
// DUMP-NEXT:   R[k][j] = 0.0f;
// DUMP-NEXT:   for (int i = 0; i < m; i++) {
// DUMP-NEXT:     R[k][j] += Q[i][k] * A[i][j];
// DUMP-LABEL: IR after ParallelLoops (kernel gs_5)
// DUMP:      for (int j = k + 1; j < n; j++) {  // parallel
// DUMP-NEXT:   for (int i = 0; i < m; i++) {  // parallel
// DUMP-NEXT:     A[i][j] = A[i][j] - Q[i][k] * R[k][j];
// DUMP-LABEL: IR after ParallelLoops (kernel rownorm)
// DUMP:      for (int i = 0; i < rows; i++) {  // parallel
// DUMP-NEXT:   nrm[i] = 0.0f;
// DUMP-LABEL: IR after ParallelLoops (kernel two)
// DUMP:      for (int j = 0; j < n; j++) {  // parallel
// DUMP-NEXT:   for (int i = 0; i < n; i++) {
//
// KERNEL-LABEL: Kernel 'gs_4'
// KERNEL: Passes: {{.*}}ReductionSplit LaneReduction
// KERNEL-LABEL: Kernel 'gs_5'
// KERNEL: Passes: LoopOrder LoopCollapse
//
// VERIFY: verified 3 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
#include <math.h>
void gs(int m, int n, float A[m][n], float R[n][n], float Q[m][n]) {
  float nrm;
  for (int k = 0; k < n; k++) {
    nrm = 0.0f;
    for (int i = 0; i < m; i++) nrm += A[i][k] * A[i][k];
    R[k][k] = sqrtf(nrm);
    for (int i = 0; i < m; i++) Q[i][k] = A[i][k] / R[k][k];
    for (int j = k + 1; j < n; j++) {
      R[k][j] = 0.0f;
      for (int i = 0; i < m; i++)
        R[k][j] += Q[i][k] * A[i][j];
      for (int i = 0; i < m; i++)
        A[i][j] = A[i][j] - Q[i][k] * R[k][j];
    }
  }
}
void rownorm(int rows, int cols, const float A[rows][cols], float B[rows][cols], float nrm[rows]) {
  for (int i = 0; i < rows; i++) {
    nrm[i] = 0.0f;
    for (int j = 0; j < cols; j++)
      nrm[i] += A[i][j] * A[i][j];
    for (int j = 0; j < cols; j++)
      B[i][j] = A[i][j] / (1.0f + nrm[i]);
  }
}
void two(int n, float C[n][n], float D[n][n], const float A[n][n]) {
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) C[i][j] = A[i][j] * 2.0f;
    for (int i = 0; i < n; i++) D[i][j] = A[i][j] + 1.0f;
  }
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void gs(int m, int n, float A[m][n], float R[n][n], float Q[m][n]);
void rownorm(int rows, int cols, const float A[rows][cols], float B[rows][cols], float nrm[rows]);
void two(int n, float C[n][n], float D[n][n], const float A[n][n]);
int main(void) {
  int m = 29, n = 17;
  float (*A)[n] = malloc(sizeof(float) * m * n), (*Q)[n] = malloc(sizeof(float) * m * n);
  float (*R)[n] = malloc(sizeof(float) * n * n), (*B)[n] = malloc(sizeof(float) * m * n);
  float (*C)[n] = malloc(sizeof(float) * n * n), (*D)[n] = malloc(sizeof(float) * n * n);
  float *nrm = malloc(sizeof(float) * m);
  for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) A[i][j] = ((i * 7 + j * 3) % 11 + 1) * 0.125f + (i == j);
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) R[i][j] = 0.0f;
  rownorm(m, n, (const float (*)[n])A, B, nrm);
  two(n, C, D, (const float (*)[n])A);
  gs(m, n, A, R, Q);
  double t = 0;
  for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) t += (Q[i][j] + B[i][j]) * (i + 2 * j + 1);
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) t += (R[i][j] + C[i][j] + D[i][j]) * (3 * i + j + 1);
  for (int i = 0; i < m; i++) t += nrm[i];
  printf("%.2f\n", t);
  free(A); free(Q); free(R); free(B); free(C); free(D); free(nrm);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [gs, rownorm, two]
defaults:
  on_dependence: host
