// What outlining cannot do correctly is refused with the reason, and no output is written.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/last.yaml -o %t/out 2> %t/err
// RUN: %exit1 %rtcuda translate %t/param.yaml -o %t/out 2>> %t/err
// RUN: %exit1 %rtcuda translate %t/serial.yaml -o %t/out 2>> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
//
// CHECK: kernel.c:2:7: error: variable 'i' is a loop variable and is also used outside its loops; outlining needs loop variables that live only in their loop
// CHECK: kernel.c:14:3: error: parameter 'n' is assigned in code that runs on the GPU; assign a local copy instead
// CHECK: kernel.c:17:6: error: function 'serial': no loop of it can run in parallel; loop 'i' ({{.*}}kernel.c:18:3): loop 'i' carries a dependence: 'a[i] = a[i - 1] + 1.0f;' reads a[i - 1], written by the previous iteration of loop 'i'

//--- kernel.c
void last(int n, float a[n], float b[n]) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = 1.0f;
  for (i = 0; i < n; i++)
    b[i] = a[i];
  b[0] = i;
}
void param(int n, float a[n], float b[n]) {
  for (int i = 0; i < n; i++)
    a[i] = 1.0f;
  for (int i = 0; i < n; i++)
    b[i] = a[i];
  n = a[0];
  b[0] = n;
}
void serial(int n, float a[n], float b[n]) {
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1] + 1.0f;
  for (int i = 1; i < n; i++)
    b[i] = b[i - 1] * 2.0f;
}
//--- last.yaml
kernel_files: [kernel.c]
kernels: [last]
//--- param.yaml
kernel_files: [kernel.c]
kernels: [param]
//--- serial.yaml
kernel_files: [kernel.c]
kernels: [serial]
