// A hand-written rtcuda output with planted bad variants, for testing rtcuda-tune's
// measurement (bench/tune_on_gpu.sh): BLOCKSIZE=64 traps, BLOCKSIZE=96 never finishes,
// BLOCKSIZE=128 writes a wrong result; the other block sizes are correct.
#pragma once
#include <math.h>
#include "planted_params.h"

__global__ void __launch_bounds__(PLANTED_BLOCKSIZE)
planted(float *C, const float *__restrict__ A, const float *__restrict__ B, int n)
{
  int i = (int)(blockIdx.x * PLANTED_BLOCKSIZE + threadIdx.x);
#if PLANTED_BLOCKSIZE == 64
  if (i == n / 2) __trap();
#elif PLANTED_BLOCKSIZE == 96
  if (i == 0)
    for (;;)
      if (clock64() < 0) break;  // clock64 never goes negative: spins until killed
#endif
  if (i < n) {
#if PLANTED_BLOCKSIZE == 128
    C[i] = A[i] + B[i] + (i == n - 1 ? 1.0f : 0.0f);
#else
    C[i] = A[i] + B[i];
#endif
  }
}
