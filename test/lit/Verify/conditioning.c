// verify's tolerance follows how far rounding moves the sequential C's own answer on the inputs
// drawn (rtcuda_verify.h, moved()): LU without pivoting in float on random inputs divides by
// pivots earlier steps formed, so summing in another order (ParallelReduction, LaneReduction)
// moves late elements by far more than 16 * eps * n of their size. With the fixed bound alone
// every one of seeds 1 to 8 reported such an element at n = 31 (A[585] = -2.37556434 against
// -2.37499356 at seed 1); the reference run on inputs moved by n * eps shows that spread and the
// bound takes it in. Not always: LU without pivoting also grows its own rounding, which moved
// inputs do not show, and seed 5 still reports 4 elements (2.4e-4 apart) at n = 31 and seed 1
// 112 at n = 64; such functions keep `--tolerance` (docs/verify.md). A wrong coefficient of
// 1e-4 in one kernel is still caught.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: %rtcuda verify %t/out --seed 1 --sizes 31 --max-points 2 --no-race-check | FileCheck --check-prefix=GOOD %s
// RUN: %rtcuda verify %t/out --seed 2 --sizes 31 --max-points 2 --no-race-check | FileCheck --check-prefix=GOOD %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 31 --max-points 2 --no-race-check | FileCheck --check-prefix=GOOD %s
// RUN: sed -i '0,/w -= A\[i \* n + k\] \* A\[k \* n + j\];/s//w -= A[i * n + k] * A[k * n + j] * 1.0001f;/' %t/out/kernel.cu
// RUN: grep -c 1.0001f %t/out/kernel.cu | FileCheck --check-prefix=PLANTED %s
// RUN: %exit1 %rtcuda verify %t/out --seed 1 --sizes 31 --max-points 2 --no-race-check | FileCheck --check-prefix=BAD %s
// RUN: %exit1 %rtcuda verify %t/out --seed 2 --sizes 31 --max-points 2 --no-race-check | FileCheck --check-prefix=BAD %s
//
// GOOD: verified 1 kernel(s) at 2 parameter point(s) and 1 size(s): 0 mismatch(es)
// PLANTED: 1
// BAD: MISMATCH doolittle
// BAD: verified 1 kernel(s) at 2 parameter point(s) and 1 size(s): {{[1-9][0-9]*}} mismatch(es)

//--- kernel.c
void doolittle(int n, float A[n][n]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      float w = A[i][j];
      for (int k = 0; k < j; k++) w -= A[i][k] * A[k][j];
      A[i][j] = w / A[j][j];
    }
    for (int j = i; j < n; j++) {
      float w = A[i][j];
      for (int k = 0; k < i; k++) w -= A[i][k] * A[k][j];
      A[i][j] = w;
    }
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [doolittle]
