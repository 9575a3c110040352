// Translate never succeeds with a main.cu that does not build. This main.c is C that the host
// rewriting leaves as it is but C++ rejects (a variable named `new`, a string that fills its
// array without the terminating zero): the check that compiles main.cu with the host C++
// compiler reports the compiler's messages at main.c's lines and writes nothing. Without the
// check, translate exits 0 here (remove checkHostBuilds from Translate.cpp to see it).
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK-DAG: main.c:6:{{[0-9]+}}: error:
// CHECK-DAG: main.c:7:{{[0-9]+}}: error:
// CHECK: main.c: error: the main.cu written from this file does not compile as C++

//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
//--- kernel.c
#pragma rtcuda kernel
void twice(int n, float a[n]) {
  for (int i = 0; i < n; i++) a[i] *= 2;
}
//--- main.c
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int n = 5;
  float *a = calloc(n, sizeof(float));
  int new = 3;
  char tag[3] = "abc";
  twice(n, a);
  printf("%g %d %c\n", a[0], new, tag[0]);
  free(a);
  return 0;
}
