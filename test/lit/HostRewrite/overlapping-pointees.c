// Arguments that point into a variable through '*', '&a[i]' or a subscript (PolyBench passes
// '*A' through POLYBENCH_ARRAY): two into one variable may overlap and are refused with the
// call's line; two into different variables are distinct, as two plain variables are, and the
// program runs and prints what C prints.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/bad.yaml -o %t/bad 2> %t/err
// RUN: FileCheck --check-prefix=REFUSE %s < %t/err
// RUN: test ! -e %t/bad
// RUN: %exit1 %rtcuda translate %t/bad2.yaml -o %t/bad 2> %t/err2
// RUN: FileCheck --check-prefix=REFUSE2 %s < %t/err2
// RUN: %rtcuda translate %t/good.yaml -o %t/out > /dev/null
// RUN: %rtcuda run %t/out | FileCheck --check-prefix=OUTPUT %s
//
// REFUSE: bad.c:7:3: error: the arguments '&a[1]' and 'a' of this call of kernel 'twice' may overlap
// REFUSE2: bad2.c:7:3: error: the arguments '*m' and 'm[1]' of this call of kernel 'twice' may overlap
// OUTPUT: 0 2 4 6 8 10 12 14 16 18 20

//--- kernel.c
void twice(int n, const double x[n], double y[n]) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] + x[i];
}
//--- bad.c
#include <stdlib.h>
void twice(int n, const double x[n], double y[n]);
int main(void) {
  int n = 10;
  double *a = malloc((n + 2) * sizeof(double));
  for (int i = 0; i < n + 2; i++) a[i] = i;
  twice(n, &a[1], a);
  free(a);
  return 0;
}
//--- bad.yaml
kernel_files: [kernel.c]
main_file: bad.c
kernels: [twice]
//--- bad2.c
#include <stdlib.h>
void twice(int n, const double x[n], double y[n]);
int main(void) {
  int n = 10;
  double (*m)[12] = malloc(2 * sizeof(*m));
  for (int i = 0; i < n + 2; i++) m[0][i] = i;
  twice(n, *m, m[1]);
  free(m);
  return 0;
}
//--- bad2.yaml
kernel_files: [kernel.c]
main_file: bad2.c
kernels: [twice]
//--- good.c
#include <stdio.h>
#include <stdlib.h>
void twice(int n, const double x[n], double y[n]);
int main(void) {
  int n = 11;
  double (*p)[11] = malloc(sizeof(*p)), (*q)[11] = malloc(sizeof(*q));
  for (int i = 0; i < n; i++) (*p)[i] = i;
  twice(n, *p, *q);
  for (int i = 0; i < n; i++) printf("%g ", (*q)[i]);
  printf("\n");
  free(p);
  free(q);
  return 0;
}
//--- good.yaml
kernel_files: [kernel.c]
main_file: good.c
kernels: [twice]
