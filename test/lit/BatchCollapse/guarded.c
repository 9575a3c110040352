// A batched contraction over arrays of constant dimensions whose loop 'q' stops before the
// second dimension: the rows r * 7 + q of q >= nq are skipped by the guard rq % 7 < nq, and the
// nest is the two-loop contraction RegisterTiling tiles. A copy nest with three parallel loops
// and no serial loop (NeighbourReuse gives it planes per thread, element-wise), and a nest that
// also reads W[0][q] (not only W[r][q]), are not collapsed.
// Run against gcc's build and verified at sizes within the dimensions.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > %t/summary 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=SUMMARY %s < %t/summary
// RUN: %rtcuda translate %t/config.yaml -o %t/dump --print-after=BatchCollapse 2>&1 | FileCheck --check-prefix=DUMP %s
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,5,6 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: batch: loops 'r' and 'q' are the first two subscripts of every access to 'A', 'T' (rows of 7): one loop 'rq' over the {{.*}} rows of those arrays taken as two-dimensional, guarded by rq % 7 < nq [-Rpass=BatchCollapse]
//
// SUMMARY: bmm: BatchCollapse, ContractionForm, BlockMerge, BlockSkew, RegisterTiling,
// SUMMARY: copy3: BlockMerge, NeighbourReuse, LoopCollapse,
// SUMMARY: mixed: LoopCollapse,
//
// DUMP-LABEL: IR after BatchCollapse (kernel bmm)
// DUMP: kernel bmm(int nr, int nq, int np, float A[42][16], float C4[16][16], float T[42][16])
// DUMP: for (int rq = 0; rq < 7 * nr + nq - 7; rq++) {  // parallel
// DUMP-NEXT: for (int p = 0; p < np; p++) {  // parallel
// DUMP-NEXT: if (rq % 7 < nq) {
// DUMP-NEXT: T[rq][p] = 0.0f;
// DUMP: T[rq][p] += A[rq][s] * C4[s][p];
// DUMP-LABEL: IR after BatchCollapse (kernel copy3)
// DUMP: for (int r = 0; r < nr; r++) {  // parallel
// DUMP-LABEL: IR after BatchCollapse (kernel mixed)
// DUMP: for (int r = 0; r < nr; r++) {  // parallel
//
// VERIFY: verified 3 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void bmm(int nr, int nq, int np, float A[6][7][16], float C4[16][16], float T[6][7][16]) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++)
      for (int p = 0; p < np; p++) {
        T[r][q][p] = 0.0f;
        for (int s = 0; s < np; s++)
          T[r][q][p] += A[r][q][s] * C4[s][p];
      }
}
void copy3(int nr, int nq, int np, float A[6][7][16], float T[6][7][16]) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++)
      for (int p = 0; p < np; p++)
        A[r][q][p] = T[r][q][p] * 0.5f;
}
void mixed(int nr, int nq, int np, float W[6][7][16], float C4[16][16], float U[6][7][16]) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++)
      for (int p = 0; p < np; p++) {
        float acc = W[0][q][p];
        for (int s = 0; s < np; s++)
          acc += W[r][q][s] * C4[s][p];
        U[r][q][p] = acc;
      }
}
//--- main.c
#include <stdio.h>
void bmm(int nr, int nq, int np, float A[6][7][16], float C4[16][16], float T[6][7][16]);
void copy3(int nr, int nq, int np, float A[6][7][16], float T[6][7][16]);
void mixed(int nr, int nq, int np, float W[6][7][16], float C4[16][16], float U[6][7][16]);
static float A[6][7][16], C4[16][16], T[6][7][16], U[6][7][16];
int main(void) {
  for (int r = 0; r < 6; r++)
    for (int q = 0; q < 7; q++)
      for (int p = 0; p < 16; p++) A[r][q][p] = (r * 7 + q * 3 + p) % 11 - 5, T[r][q][p] = -2;
  for (int s = 0; s < 16; s++)
    for (int p = 0; p < 16; p++) C4[s][p] = (s * 5 + p) % 9 - 4;
  bmm(5, 5, 13, A, C4, T);
  mixed(5, 5, 13, A, C4, U);
  copy3(4, 6, 11, A, T);
  double check = 0;
  for (int r = 0; r < 6; r++)
    for (int q = 0; q < 7; q++)
      for (int p = 0; p < 16; p++)
        check += (A[r][q][p] + 2 * T[r][q][p] + 3 * U[r][q][p]) * (1 + (r + q + p) % 3);
  printf("%.3f %.3f %.3f %.3f\n", check, T[4][4][12], T[4][5][0], U[4][4][12]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [bmm, copy3, mixed]
