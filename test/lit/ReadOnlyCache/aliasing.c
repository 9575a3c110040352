// ReadOnlyCache: const __restrict__ only on arrays the kernel never writes and that no call
// passes together with an argument sharing its memory. scaleaddstore is called with p twice,
// so neither aliased parameter gets restrict (the user's restrict on A is dropped); without a
// host program nothing would be changed.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > %t/log 2> %t/remarks
// RUN: FileCheck %s < %t/out/kernel.cu
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
//
// CHECK: axpby(float *__restrict__ y, const float *__restrict__ x, int n, float a)
// CHECK: scaleaddstore(float *C, float *A, const float *__restrict__ B, int n, float a)
// REMARK: remark: read-only cache: 'x' is never written and not aliased at the 1 call site(s): const __restrict__
// REMARK: remark: read-only cache: 'A' shares memory with another argument at a call site: restrict dropped

//--- kernel.c
void axpby(float *y, float *x, int n, float a) {
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void scaleaddstore(float *C, float *restrict A, float *B, int n, float a) {
  for (int i = 0; i < n; i++) C[i] = a * A[i] + B[i];
}
//--- main.c
#include <stdlib.h>
void axpby(float *y, float *x, int n, float a);
void scaleaddstore(float *C, float *restrict A, float *B, int n, float a);
int main(void) {
  int n = 100;
  float *p = calloc(n, sizeof(float)), *r = calloc(n, sizeof(float));
  axpby(p, r, n, 2.0f);
  scaleaddstore(p, p, r, n, 0.5f);
  free(p);
  free(r);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [axpby, scaleaddstore]
