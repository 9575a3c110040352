// Kernels marked with '#pragma rtcuda kernel' need no config entry; two kernels in one file
// each get their own parameter header and macros, and main.cu calls each launch function.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out | FileCheck --check-prefix=SUMMARY %s
// RUN: FileCheck --check-prefix=SCALE %s < %t/out/scale_params.h
// RUN: FileCheck --check-prefix=SHIFT %s < %t/out/shift_params.h
// RUN: FileCheck --check-prefix=KERNEL %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=HOST %s < %t/out/main.cu
//
// SUMMARY: translated 2 kernel(s)
// SCALE: #define SCALE_BLOCKSIZE 128
// SCALE-NOT: SHIFT_
// SHIFT: #define SHIFT_BLOCKSIZE 64
// SHIFT-NOT: SCALE_
// KERNEL: #include "scale_params.h"
// KERNEL: #include "shift_params.h"
// KERNEL: __global__ void __launch_bounds__(SCALE_BLOCKSIZE)
// KERNEL: __global__ void __launch_bounds__(SHIFT_BLOCKSIZE)
// HOST: rtcuda_launch_scale("main.c:9", n, (float *)(y), 2.0f);
// HOST: rtcuda_launch_shift("main.c:10", n, (float *)(y), (const float *)(x));

//--- kernel.c
#pragma rtcuda kernel
void scale(int n, float x[n], float a) {
  for (int i = 0; i < n; i++)
    x[i] = a * x[i];
}

void helper_not_a_kernel(void) {}

#pragma rtcuda kernel
void shift(int n, float y[n], const float x[n]) {
  for (int i = 0; i < n - 1; i++)
    y[i] = x[i + 1];
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 37;
  float *x = malloc(n * sizeof(float));
  float *y = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) x[i] = i;
  /* two kernels, two launches */
  scale(n, y, 2.0f);
  shift(n, y, x);
  printf("%f\n", y[0]);
  free(x);
  free(y);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: scale
    tuning: {default_block_size: 128}
  - name: shift
    tuning: {default_block_size: 64}
