// LaneScan: running sums along rows (prefix sums, cumsum), LANES threads a row, chunks of LANES x
// ITEMS iterations scanned by warp shuffles: an inclusive scan (cumsum), an exclusive one (the store before the update, in
// double, with the row's total stored after the loop by lane 0), a sum in place (`A[i][j] +=
// A[i][j - 1]`, rowscan), and an int count. Not scanned: a row whose bound depends on the row
// (triangle), and column sums in place, whose neighbouring threads are neighbouring columns
// (colscan: one thread a column is already coalesced). Run against gcc's build (integer-valued
// data: the regrouped sums are exact) and verified at sizes 1, 7, 37, 101.
// Planted bugs caught (the program's output then differs from gcc's): the carry not added to the
// stored element, and a scan one step short (its first step, from the lane before, skipped).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > %t/summary
// RUN: FileCheck --check-prefix=SUMMARY %s < %t/summary
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --seed 4 --sizes 1,7,37,101 --max-points 3 | FileCheck --check-prefix=VERIFY %s
// RUN: cp %t/out/kernel.cu %t/right.cu
// RUN: sed -e 's/Y\[i \* cols + j\] = s + prefix;/Y[i * cols + j] = prefix;/' %t/right.cu > %t/out/kernel.cu
// RUN: %rtcuda run %t/out > %t/planted1.txt
// RUN: not diff -q %t/gcc.txt %t/planted1.txt
// RUN: sed -e 's/for (int d = 1; d < lanes; d \*= 2) {/for (int d = 2; d < lanes; d *= 2) {/' %t/right.cu > %t/out/kernel.cu
// RUN: %rtcuda run %t/out > %t/planted2.txt
// RUN: not diff -q %t/gcc.txt %t/planted2.txt
//
// SUMMARY: cumsum: ArrayFlatten, LoopPartition, LaneScan,
// SUMMARY: exclusive: ArrayFlatten, LoopPartition, LaneScan,
// SUMMARY: rowscan: ArrayFlatten, LoopPartition, LaneScan,
// SUMMARY: count: ArrayFlatten, LoopPartition, LaneScan,
// SUMMARY: triangle: ArrayFlatten, LoopPartition,
// SUMMARY: colscan: ArrayFlatten, LoopPartition,
//
// CHECK-LABEL: Kernel 'cumsum'
// CHECK:      for (int j_chunk = 0; j_chunk < cols; j_chunk += lanes * CUMSUM_ITEMS) {
// CHECK-NEXT:   float v[CUMSUM_ITEMS];
// CHECK:          int j = j_chunk + q * lanes + lane;
// CHECK:            v[q] = X[i * cols + j];
// CHECK:          float prefix = rtcuda_lane_scan(v[q], lanes, v_lanes);
// CHECK-NEXT:     if (i < rows && j < cols) {
// CHECK-NEXT:       Y[i * cols + j] = s + prefix;
// CHECK:          s += rtcuda_lane_last(prefix, lanes, v_lanes);
// CHECK-LABEL: Kernel 'exclusive'
// CHECK:            Y[i * cols + j] = s + (prefix - v[q]);
// CHECK:      if (i < rows && lane == 0) {
// CHECK-NEXT:   total[i] = s;
// CHECK-LABEL: Kernel 'rowscan'
// CHECK:        running = 1 < cols ? A[i * cols] : 0.0f;
//
// VERIFY: verified 6 kernel(s) at {{[0-9]+}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void cumsum(int rows, int cols, const float X[rows][cols], float Y[rows][cols]) {
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++) {
      s += X[i][j];
      Y[i][j] = s;
    }
  }
}
void exclusive(int rows, int cols, const double X[rows][cols], double Y[rows][cols], double total[rows]) {
  for (int i = 0; i < rows; i++) {
    double s = 10.0;
    for (int j = 0; j < cols; j++) {
      Y[i][j] = s;
      s += 2.0 * X[i][j];
    }
    total[i] = s;
  }
}
void rowscan(int rows, int cols, float A[rows][cols]) {
  for (int i = 0; i < rows; i++)
    for (int j = 1; j < cols; j++)
      A[i][j] += A[i][j - 1];
}
void count(int rows, int cols, const float X[rows][cols], int C[rows][cols]) {
  for (int i = 0; i < rows; i++) {
    int c = 0;
    for (int j = 0; j < cols; j++) {
      int positive = X[i][j] > 0.0f;
      c += positive;
      C[i][j] = c;
    }
  }
}
void triangle(int rows, int cols, const float X[rows][cols], float Y[rows][cols]) {
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int j = 0; j <= i; j++) {
      s += X[i][j];
      Y[i][j] = s;
    }
  }
}
void colscan(int rows, int cols, float A[rows][cols]) {
  for (int j = 0; j < cols; j++)
    for (int i = 1; i < rows; i++)
      A[i][j] += A[i - 1][j];
}
//--- main.c
#include <stdio.h>
#define ROWS 11
#define COLS 203
void cumsum(int rows, int cols, const float X[rows][cols], float Y[rows][cols]);
void exclusive(int rows, int cols, const double X[rows][cols], double Y[rows][cols], double total[rows]);
void rowscan(int rows, int cols, float A[rows][cols]);
void count(int rows, int cols, const float X[rows][cols], int C[rows][cols]);
void triangle(int rows, int cols, const float X[rows][cols], float Y[rows][cols]);
void colscan(int rows, int cols, float A[rows][cols]);
static float X[ROWS][COLS], Y[ROWS][COLS], A[ROWS][COLS], T[ROWS][COLS], B[ROWS][COLS];
static double D[ROWS][COLS], E[ROWS][COLS], total[ROWS];
static int C[ROWS][COLS];
int main(void) {
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) {
      X[i][j] = (float)((i * 7 + j * 13) % 9) - 4.0f;
      A[i][j] = B[i][j] = X[i][j];
      D[i][j] = X[i][j] * 0.5;
    }
  cumsum(ROWS, COLS, X, Y);
  exclusive(ROWS, COLS, D, E, total);
  rowscan(ROWS, COLS, A);
  count(ROWS, COLS, X, C);
  triangle(ROWS, COLS, X, T);  /* ROWS < COLS: j <= i stays in the row */
  colscan(ROWS, COLS, B);
  for (int i = 0; i < ROWS; i++) {
    double s = 0;
    for (int j = 0; j < COLS; j++)
      s += (Y[i][j] + 2 * E[i][j] + 3 * A[i][j] + 5 * C[i][j] + 7 * T[i][j] + 11 * B[i][j]) * (1 + j % 5);
    printf("%d %.1f %.1f %.1f %.1f %d\n", i, s, total[i], Y[i][COLS - 1], A[i][COLS - 1], C[i][COLS - 1]);
  }
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [cumsum, exclusive, rowscan, count, triangle, colscan]
