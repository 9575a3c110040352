// goto in a kernel is refused at its line.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:4:7: error: goto is not supported in a kernel

//--- kernel.c
void f(int n, float a[n]) {
  for (int i = 0; i < n; i++) {
    if (a[i] < 0.0f)
      goto done;
    a[i] = 1.0f;
  done:;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [f]
