// A host function with variable-length array parameters (PolyBench's helpers under
// POLYBENCH_USE_C99_PROTO) is C that C++ does not accept: main.cu is C++, so the translation
// is refused at the parameter's line and writes nothing.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: prog.c:4:38: error: parameter 'a' of 'init' is a variable-length array; main.cu is compiled as C++

//--- config.yaml
source: prog.c
//--- prog.c
#include <stdlib.h>
#include <stdio.h>

static void init(int n, int m, float a[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = i + j;
}

#pragma rtcuda kernel
void twice(int n, int m, float a[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] *= 2;
}

int main(void) {
  int n = 5, m = 7;
  float (*a)[7] = malloc(sizeof(float[5][7]));
  init(n, m, a);
  twice(n, m, a);
  printf("%g\n", a[4][6]);
  free(a);
  return 0;
}
