// Local arrays that cannot be placed are refused with what the analysis found, and no output is
// written. 'prefix' reads z[i - 1], which the previous iteration wrote: z stays one array for
// the call, and its dependence keeps loop 'i' sequential; no loop of the function is parallel.
// (The scalar 'one', used by its first and last statements, keeps Fission from cutting the loop.)
// 'perthread' declares a variable-length array inside the parallel loop: a thread's own copy
// needs a constant size.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/prefix.yaml -o %t/out --remarks 2> %t/err
// RUN: %exit1 %rtcuda translate %t/perthread.yaml -o %t/out 2>> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
//
// CHECK: kernel.c:1:6: remark: local array 'z' ({{.*}}kernel.c:2:10) is one array for the whole call (a device array when the function is outlined): loop 'i' ({{.*}}kernel.c:3:3) cannot own it: {{.*}}kernel.c:5:5 is the iteration's first use of 'z', and not a loop 'for (p = lo; p < hi; p++) z[p] = ...' from which the analysis could tell that the iteration writes what it reads
// CHECK: kernel.c:1:6: error: function 'prefix': no loop of it can run in parallel; loop 'i' ({{.*}}kernel.c:3:3): loop 'i' carries a dependence: 'z[i] += z[i - 1];' reads z[i - 1], written by the previous iteration of loop 'i'
// CHECK: kernel.c:14:12: error: variable-length local array 'w' inside a loop that runs on the GPU: a thread's own copy needs a constant size; declare it at the top of the function

//--- kernel.c
void prefix(int n, double a[n]) {
  double z[64];
  for (int i = 0; i < n; i++) {
    double one = 1.0;
    z[i] = a[i] * one;
    if (i > 0)
      z[i] += z[i - 1];
    a[i] = z[i] * one;
  }
}

void perthread(int n, int m, double a[n], double b[n]) {
  for (int i = 0; i < n; i++) {
    double w[m];
    for (int k = 0; k < m; k++)
      w[k] = a[i] + k;
    b[i] = w[m - 1];
  }
}
//--- prefix.yaml
kernel_files: [kernel.c]
kernels: [prefix]
//--- perthread.yaml
kernel_files: [kernel.c]
kernels: [perthread]
