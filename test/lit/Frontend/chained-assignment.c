// Chained assignment (deriche: a1 = a5 = k;) is the inner assignment, then the outer one with
// the inner target's new value; compound outer operators and array elements too. Verified.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=ParallelLoops > %t/ir
// RUN: FileCheck %s < %t/ir
// RUN: %rtcuda verify %t/out --seed 5 --sizes 7,31 --max-points 3 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after ParallelLoops (kernel chain)
// CHECK:      for (int i = 0; i < n; i++) {  // parallel
// CHECK-NEXT:   a5 = alpha * i;
// CHECK-NEXT:   a1 = a5;
// CHECK-NEXT:   y[i] = a1 + 1;
// CHECK-NEXT:   x[i] = y[i];
// CHECK-NEXT:   c = 2;
// CHECK-NEXT:   b = c;
// CHECK-NEXT:   a = b;
// CHECK-NEXT:   b = 3 * i;
// CHECK-NEXT:   a += b;
// CHECK-NEXT:   z[i] = a + a5;
// VERIFY: 0 mismatch(es)

//--- kernel.c
void chain(int n, double alpha, double x[n], double y[n], int z[n]) {
  double a1, a5;
  int a, b, c;
  for (int i = 0; i < n; i++) {
    a1 = a5 = alpha * i;
    x[i] = y[i] = a1 + 1;
    a = b = c = 2;
    a += (b = 3 * i);
    z[i] = a + a5;
  }
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [chain]
