// A dereference of a pointer parameter is the subscript it stands for: `*out` is out[0] (a
// scalar result written through a pointer), `*(x + i)` and `*(i + x)` are x[i]; read, assigned
// and updated. Other pointer operations are still refused. Verified.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=ParallelLoops > %t/ir
// RUN: FileCheck %s < %t/ir
// RUN: %rtcuda verify %t/out --seed 5 --sizes 1,7,31 --max-points 2 | FileCheck --check-prefix=VERIFY %s
// RUN: %exit1 %rtcuda translate %t/bad.yaml -o %t/bad 2>&1 | FileCheck --check-prefix=BAD %s
// RUN: test ! -e %t/bad
//
// CHECK-LABEL: IR after ParallelLoops (kernel dotp)
// CHECK:      for (int i = 0; i < n; i++) {  // parallel
// CHECK-NEXT:   s += x[i] * y[i];
// CHECK:      out[0] = s;
// CHECK-LABEL: IR after ParallelLoops (kernel scale)
// CHECK:      for (int i = 0; i < n; i++) {  // parallel
// CHECK-NEXT:   y[i] = a[0] * x[i];
//
// VERIFY: verified 2 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)
// BAD: bad.c:2:38: error: pointer operations ('*', '&') are not supported in a kernel

//--- kernel.c
void dotp(int n, const float *restrict x, const float *restrict y, float *restrict out) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += *(x + i) * *(i + y);
  *out = s;
}
void scale(int n, const float *restrict a, const float *restrict x, float *restrict y) {
  for (int i = 0; i < n; i++)
    *(y + i) = *a * x[i];
}

//--- config.yaml
kernel_files: [kernel.c]
kernels: [dotp, scale]

//--- bad.c
void addr(int n, float *restrict x, float *restrict y) {
  for (int i = 0; i < n; i++) y[i] = *&x[i];
}

//--- bad.yaml
kernel_files: [bad.c]
kernels: [addr]
