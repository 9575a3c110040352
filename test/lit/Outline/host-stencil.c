// A Gauss-Seidel sweep in place: every loop carries a dependence (a[i] reads the a[i - 1] of
// this sweep and the a[i + 1] of the previous one, and each step reads the last), so no loop
// can run on GPU threads. With on_dependence: host the function stays the user's C, on the
// host's arrays, with a warning at each loop naming the dependence found; without it, it is
// refused. The program prints what gcc's build of it prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out > /dev/null 2> %t/warnings
// RUN: FileCheck --check-prefix=WARN %s < %t/warnings
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,17 --no-race-check | FileCheck --check-prefix=VERIFY %s
// RUN: %exit1 %rtcuda translate %t/refuse.yaml -o %t/refused 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/refused
//
// WARN: kernel.c:2:3: warning: loop 't' stays on the host, in the function's C (on_dependence: host): loop 't' carries a dependence: 'a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;'
// WARN: kernel.c:3:5: warning: loop 'i' stays on the host, in the function's C (on_dependence: host): loop 'i' carries a dependence: 'a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;' reads a[i - 1], written by the previous iteration of loop 'i'
//
// HOST-LABEL: static inline void rtcuda_launch_sweep(const char *where, int steps, int n, double *a) {
// HOST-NEXT: rtcuda_resident_flush(where);
// HOST-NEXT: for (int t = 0; t < steps; t += 1) {
// HOST-NEXT:   for (int i = 1; i < n - 1; i += 1) {
// HOST-NEXT:     a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
// HOST-NEXT:   }
// HOST-NEXT: }
// HOST-NEXT: }
//
// VERIFY: 0 mismatch(es)
//
// REFUSE: kernel.c:4:7: error: loop 't' carries a dependence

//--- kernel.c
void sweep(int steps, int n, double a[n]) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < n - 1; i++)
      a[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
void sweep(int steps, int n, double a[n]);
int main(void) {
  int n = 29;
  double *a = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) a[i] = (i * 11) % 7;
  sweep(4, n, a);
  for (int i = 0; i < n; i++) printf("%.6f%c", a[i], i % 6 == 5 ? '\n' : ' ');
  printf("\n");
  free(a);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [sweep]
defaults:
  on_dependence: host
//--- refuse.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [sweep]
