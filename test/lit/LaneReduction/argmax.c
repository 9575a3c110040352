// LaneReduction over a maximum by comparison and over the index of a maximum (argmax): rows of
// NaNs (at the start, in the middle), ties, infinities and negative values, run against gcc's
// build. `if (v > m) m = v` skips a NaN v as fmaxf does and keeps a NaN start, which every lane
// starts from, so combining lanes with max gives the loop's result. `if (v > m) { m = v; k = j; }`
// keeps the first j of the largest value: the lanes combine the value into every lane, then take
// the smallest index among the lanes that hold it. Not lanes: `>=` (the last of equal values,
// whose start index may lie anywhere) and an index other than the loop's variable.
// Planted bugs caught (the program's output then differs from gcc's): the index combined with
// rtcuda_lane_max instead of min, and the candidate test without `bv != bv` (the NaN row).
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > %t/summary
// RUN: FileCheck --check-prefix=SUMMARY %s < %t/summary
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1,7,37,101 --max-points 4 | FileCheck --check-prefix=VERIFY %s
// RUN: cp %t/out/kernel.cu %t/right.cu
// RUN: sed -e 's/best = rtcuda_lane_min(bv == bv_best/best = rtcuda_lane_max(bv == bv_best/' %t/right.cu > %t/out/kernel.cu
// RUN: %rtcuda run %t/out > %t/planted1.txt
// RUN: not diff -q %t/gcc.txt %t/planted1.txt
// RUN: sed -e 's/ || bv != bv//' %t/right.cu > %t/out/kernel.cu
// RUN: %rtcuda run %t/out > %t/planted2.txt
// RUN: not diff -q %t/gcc.txt %t/planted2.txt
//
// SUMMARY: argmax: ArrayFlatten, LoopPartition, LaneReduction, ReadOnlyCache;
// SUMMARY: argmin: ArrayFlatten, LoopPartition, LaneReduction, ReadOnlyCache;
// SUMMARY: ifmax: ArrayFlatten, LoopPartition, LaneReduction, ReadOnlyCache;
// SUMMARY: lastmax: ArrayFlatten, LoopPartition, ReadOnlyCache;
// SUMMARY: shifted: ArrayFlatten, LoopPartition, ReadOnlyCache;
//
// CHECK-LABEL: Kernel 'argmax'
// CHECK:      for (int j = 1 + lane; j < cols; j += lanes) {
// CHECK-NEXT:   if (X[i * cols + j] > bv) {
// CHECK:      float bv_best = rtcuda_lane_max(bv, lanes, bv_lanes, 1);
// CHECK-NEXT: best = rtcuda_lane_min(bv == bv_best || bv != bv ? best : 2147483647, lanes, best_lanes);
// CHECK-NEXT: bv = bv_best;
// CHECK-LABEL: Kernel 'argmin'
// CHECK:      double lo_best = rtcuda_lane_min(lo, lanes, lo_lanes, 1);
// CHECK-NEXT: at = rtcuda_lane_min(lo == lo_best || lo != lo ? at : 2147483647, lanes, at_lanes);
//
// VERIFY: verified 5 kernel(s) at {{[0-9]+}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
/* The first column of each row's maximum. */
void argmax(int rows, int cols, const float X[rows][cols], int idx[rows], float top[rows]) {
  for (int i = 0; i < rows; i++) {
    int best = 0;
    float bv = X[i][0];
    for (int j = 1; j < cols; j++)
      if (X[i][j] > bv) {
        bv = X[i][j];
        best = j;
      }
    idx[i] = best;
    top[i] = bv;
  }
}
/* The first column of the minimum, written the other way round, in double. */
void argmin(int rows, int cols, const double X[rows][cols], int idx[rows]) {
  for (int i = 0; i < rows; i++) {
    double lo = 1e300;
    int at = -1;
    for (int j = 0; j < cols; j++)
      if (lo > X[i][j]) {
        at = j;
        lo = X[i][j];
      }
    idx[i] = at;
  }
}
/* A maximum by comparison. */
void ifmax(int rows, int cols, const float X[rows][cols], float top[rows]) {
  for (int i = 0; i < rows; i++) {
    float m = X[i][0];
    for (int j = 1; j < cols; j++)
      if (X[i][j] > m)
        m = X[i][j];
    top[i] = m;
  }
}
/* The last column of the maximum: one thread a row. */
void lastmax(int rows, int cols, const float X[rows][cols], int idx[rows]) {
  for (int i = 0; i < rows; i++) {
    int best = 0;
    float bv = X[i][0];
    for (int j = 1; j < cols; j++)
      if (X[i][j] >= bv) {
        bv = X[i][j];
        best = j;
      }
    idx[i] = best;
  }
}
/* An index other than the loop's variable: one thread a row. */
void shifted(int rows, int cols, const float X[rows][cols], int idx[rows]) {
  for (int i = 0; i < rows; i++) {
    int best = 0;
    float bv = X[i][0];
    for (int j = 1; j < cols; j++)
      if (X[i][j] > bv) {
        bv = X[i][j];
        best = j + 1;
      }
    idx[i] = best;
  }
}
//--- main.c
#include <math.h>
#include <stdio.h>
#define ROWS 9
#define COLS 300
void argmax(int rows, int cols, const float X[rows][cols], int idx[rows], float top[rows]);
void argmin(int rows, int cols, const double X[rows][cols], int idx[rows]);
void ifmax(int rows, int cols, const float X[rows][cols], float top[rows]);
void lastmax(int rows, int cols, const float X[rows][cols], int idx[rows]);
void shifted(int rows, int cols, const float X[rows][cols], int idx[rows]);
static float X[ROWS][COLS], top[ROWS], top2[ROWS];
static double D[ROWS][COLS];
static int idx[ROWS], idx2[ROWS], idx3[ROWS], idx4[ROWS];
int main(void) {
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) X[i][j] = (float)((i * 37 + j * 11) % 23) - 30.0f;
  X[1][0] = NAN;                                   /* a NaN start: kept */
  X[2][5] = NAN, X[2][200] = NAN;                  /* NaNs in the middle: skipped */
  X[3][40] = 50.0f, X[3][41] = 50.0f, X[3][299] = 50.0f;  /* ties: the first */
  X[4][7] = INFINITY, X[4][100] = INFINITY;
  for (int j = 0; j < COLS; j++) X[5][j] = -1.0f;  /* all equal: the start */
  X[6][299] = 99.0f;                               /* the last column */
  X[7][0] = 99.0f;                                 /* the first column */
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) D[i][j] = -(double)X[i][j];
  argmax(ROWS, COLS, X, idx, top);
  argmin(ROWS, COLS, D, idx2);
  ifmax(ROWS, COLS, X, top2);
  lastmax(ROWS, COLS, X, idx3);
  shifted(ROWS, COLS, X, idx4);
  for (int i = 0; i < ROWS; i++)
    printf("%d %d %d %d %d %g %g\n", i, idx[i], idx2[i], idx3[i], idx4[i], top[i], top2[i]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [argmax, argmin, ifmax, lastmax, shifted]
