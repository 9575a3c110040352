// A variable-length local array sized by a parameter: one device array of n + 1 elements for
// the call, sized when the function is called. The program prints what gcc's build of it
// prints; verify finds no mismatch at its default sizes.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --max-points 2 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// HOST-LABEL: static inline void rtcuda_launch_scan2(
// HOST:      const long long w_elements = rtcuda_nonnegative((long long)n + 1);
// HOST:      float *d_w = NULL;
// HOST:      rtcuda_check(cudaFree(d_w), "cudaFree", where);
//
// VERIFY: verified 1 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)

//--- kernel.c
void scan2(int n, float a[n], float b[n]) {
  float w[n + 1];
  for (int i = 0; i <= n; i++)
    w[i] = i * 0.5f;
  for (int i = 0; i < n; i++)
    b[i] = a[i] * w[i + 1] - w[i];
}
//--- main.c
#include <stdio.h>
void scan2(int n, float a[n], float b[n]);
int main(void) {
  float a[41], b[41];
  for (int i = 0; i < 41; i++) a[i] = (i % 9) - 4;
  scan2(41, a, b);
  printf("%.3f %.3f %.3f\n", b[0], b[20], b[40]);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [scan2]
