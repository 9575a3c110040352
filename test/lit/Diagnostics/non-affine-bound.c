// A parallel loop whose bound reads an array cannot be launched from the host.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:2:3: error: bound 'len[0]' of parallel loop 'i' must be an expression of the kernel's scalar parameters ('len[0]' is not one)

//--- kernel.c
void f(int n, const int len[1], float a[n]) {
  for (int i = 0; i < len[0]; i++)
    a[i] = 1.0f;
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
