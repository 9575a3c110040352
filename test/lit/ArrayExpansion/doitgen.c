// PolyBench's doitgen with sizes from the parameters: the scratch row sum[p], private to each
// (r, q) after LocalArrays, is expanded into a device array sum_own_x[nr][nq][16] (a slice per
// iteration, the shape of A's first two dimensions), and the nest becomes two kernels: the
// contraction, which BatchCollapse makes a two-loop one that RegisterTiling tiles, and the copy
// back into A. The program prints what gcc's build prints (sum included); verify compares A
// and sum at odd sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > %t/summary 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=SUMMARY %s < %t/summary
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,7,13 --max-points 3 | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: array 'sum_own' ({{.*}}kernel.c:1:{{[0-9]+}}) expanded into the device array 'sum_own_x'[nr][nq][16] (a slice per iteration of loops 'r', 'q', no larger than 'A', which the nest indexes with the same loops); the statements that write it and those that read it become two nests: the loops carry no dependence [-Rpass=ArrayExpansion]
// REMARK: remark: batch: loops 'r' and 'q' are the first two subscripts of every access to 'A', 'sum_own_x' (rows of nq): one loop 'rq' over the nr * nq rows of those arrays taken as two-dimensional [-Rpass=BatchCollapse]
// REMARK: remark: register tiling: chosen by the analysis for this contraction
//
// SUMMARY: dg_1: BatchCollapse, ContractionForm, BlockMerge, BlockSkew, RegisterTiling,
// SUMMARY: dg_2: LoopCollapse,
//
// LAUNCH: const long long sum_own_x_elements = rtcuda_nonnegative((long long)nr * (long long)nq * 16);
// LAUNCH: rtcuda_launch_dg_1_on_device(where, nr, nq, np, d_A, d_C4, d_sum_own_x);
// LAUNCH: rtcuda_launch_dg_2_on_device(where, nr, nq, np, d_A, d_sum, d_sum_own_x);
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void dg(int nr, int nq, int np, double A[nr][nq][16], double C4[16][16], double sum[16]) {
  for (int r = 0; r < nr; r++)
    for (int q = 0; q < nq; q++) {
      for (int p = 0; p < np; p++) {
        sum[p] = 0.0;
        for (int s = 0; s < np; s++)
          sum[p] += A[r][q][s] * C4[s][p];
      }
      for (int p = 0; p < np; p++)
        A[r][q][p] = sum[p];
    }
}
//--- main.c
#include <stdio.h>
void dg(int nr, int nq, int np, double A[nr][nq][16], double C4[16][16], double sum[16]);
int main(void) {
  static double A[5][7][16], C4[16][16], sum[16];
  for (int r = 0; r < 5; r++)
    for (int q = 0; q < 7; q++)
      for (int p = 0; p < 16; p++) A[r][q][p] = (r * 7 + q * 3 + p) % 11 - 5;
  for (int s = 0; s < 16; s++)
    for (int p = 0; p < 16; p++) C4[s][p] = (s * 5 + p) % 9 - 4;
  for (int p = 0; p < 16; p++) sum[p] = -1.0;
  dg(5, 7, 13, A, C4, sum);
  double check = 0;
  for (int r = 0; r < 5; r++)
    for (int q = 0; q < 7; q++)
      for (int p = 0; p < 16; p++) check += A[r][q][p] * (1 + (r + q + p) % 3);
  printf("%.3f %.3f %.3f %.3f %.3f\n", check, A[4][6][12], A[0][0][13], sum[0], sum[12]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [dg]
