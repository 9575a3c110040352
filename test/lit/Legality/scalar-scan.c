// A running sum written out at every iteration is a scan, not a reduction: the store reads the
// value the previous iteration left in 's'. Refused, naming the scalar's declaration and the
// statement that reads it.
// RUN: rm -rf %t && split-file %s %t
// RUN: %exit1 %rtcuda translate %t/config.yaml -o %t/out 2> %t/err
// RUN: FileCheck %s < %t/err
// RUN: test ! -e %t/out
// CHECK: kernel.c:2:9: error: scalar 's' carries a value from one iteration of the parallel loop to the next (it is used before it is assigned in the loop body); declare and initialize it inside the loop ({{.*}}kernel.c:5:5 reads the value of the previous iteration); it cannot run in parallel

//--- kernel.c
void running_sum(int n, const float x[n], float y[n]) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    s += x[i];
    y[i] = s;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [running_sum]
