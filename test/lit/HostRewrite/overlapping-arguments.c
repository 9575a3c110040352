// Overlapping array arguments (issue 16): y[i] = x[i] + x[i + 1] called as pairsum(n, a, a), and
// y[i] = x[i] + x[i] called as twice(n, a + 1, a), are recurrences in C; the launch copies each
// parameter separately and runs the iterations in any order, so the calls are refused with
// their lines (before, they were parallelized and printed other numbers than gcc). The very
// same array for a read-only and a written parameter with one subscript, read before the store
// (twice(n, a, a), cg's p = r + beta * p), computes what C computes: translated and run. A
// kernel used through a function pointer is refused at that line.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/bad.yaml -o %t/bad 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/bad
// RUN: %exit1 %rtcuda translate %t/pointer.yaml -o %t/bad 2> %t/err2
// RUN: FileCheck --check-prefix=POINTER %s < %t/err2
// RUN: %rtcuda translate %t/inplace.yaml -o %t/out > /dev/null
// RUN: %rtcuda run %t/out | FileCheck --check-prefix=OUTPUT %s
//
// REFUSE: bad.c:8:3: error: the arguments 'a' and 'a' of this call of kernel 'pairsum' may overlap, and the kernel writes 'y'
// REFUSE: bad.c:9:3: error: the arguments 'a + 1' and 'a' of this call of kernel 'twice' may overlap
// POINTER: pointer.c:6:46: error: kernel 'twice' is used here other than by a direct call
// OUTPUT: 0 2 4 6 8 10 12 14 16 18 20

//--- kernel.c
void pairsum(int n, const double x[n + 1], double y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + x[i + 1];
}
void twice(int n, const double x[n], double y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + x[i];
}
//--- bad.c
#include <stdlib.h>
void pairsum(int n, const double x[n + 1], double y[n]);
void twice(int n, const double x[n], double y[n]);
int main(void) {
  int n = 10;
  double *a = malloc((n + 2) * sizeof(double));
  for (int i = 0; i < n + 2; i++) a[i] = i;
  pairsum(n, a, a);
  twice(n, a + 1, a);
  free(a);
  return 0;
}
//--- bad.yaml
kernel_files: [kernel.c]
main_file: bad.c
kernels: [pairsum, twice]
//--- pointer.c
#include <stdlib.h>
void twice(int n, const double x[n], double y[n]);
int main(void) {
  int n = 10;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  void (*f)(int, const double *, double *) = twice;
  f(n, a, b);
  return 0;
}
//--- pointer.yaml
kernel_files: [kernel.c]
main_file: pointer.c
kernels: [twice]
//--- inplace.c
#include <stdio.h>
#include <stdlib.h>
void twice(int n, const double x[n], double y[n]);
int main(void) {
  int n = 11;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  twice(n, a, a);
  for (int i = 0; i < n; i++) printf("%g ", a[i]);
  printf("\n");
  free(a);
  return 0;
}
//--- inplace.yaml
kernel_files: [kernel.c]
main_file: inplace.c
kernels: [twice]
