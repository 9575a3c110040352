// A hand-written rtcuda output of one outlined function (tests of rtcuda-tune): prog_1 is a
// parallel loop over the function's sizes (tunable), prog_2 reads the host loop's variable t
// (not measurable on its own), prog_3 runs in one thread (nothing to tune).
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
}

__global__ void prog_3(int n, double *x) {
  for (int i = 1; i < n; i++) x[i] += x[i - 1];
}
