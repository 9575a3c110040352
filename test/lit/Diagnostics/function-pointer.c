// A function-pointer parameter is refused at its declaration.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:1:23: error: parameter 'op': function pointers are not supported in a kernel

//--- kernel.c
void f(int n, float (*op)(float), float a[n]) {
  for (int i = 0; i < n; i++)
    a[i] = op(a[i]);
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
