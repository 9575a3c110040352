// A syntax error is reported by Clang at the user's line; exit status 1, no output folder.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:3:16: error: expected ';' after expression

//--- kernel.c
void f(int n, float a[n]) {
  for (int i = 0; i < n; i++)
    a[i] = 1.0f
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
