// A hand-written rtcuda output of one outlined function (tests of rtcuda-tune): prog_2 reads
// the variable t of the host loop around its launch (for t in [0, steps)), so it is checked and
// timed at t's first, middle and last values. Planted: BLOCKSIZE=64 is wrong whenever t > 0 and
// BLOCKSIZE=128 only at t = 63, the last value at steps = 64: a check at the first value
// alone passes both; each must be excluded as wrong at the sample that shows it.
#pragma once
#include "prog_1_params.h"
#include "prog_2_params.h"

__global__ void prog_1(int n, int steps, double *x) {
  int i = (int)(blockIdx.x * PROG_1_BLOCKSIZE + threadIdx.x);
  if (i < n) x[i] = x[i] * 2.0 + steps;
}

__global__ void prog_2(int n, double *x, int t) {
  int i = (int)(blockIdx.x * PROG_2_BLOCKSIZE + threadIdx.x);
  if (i < n && i != t) x[i] += x[t];
#if PROG_2_BLOCKSIZE == 64
  if (i == n - 1 && t > 0) x[i] += 1.0;
#elif PROG_2_BLOCKSIZE == 128
  if (i == n - 1 && t == 63) x[i] += 1.0;
#endif
}
