// With collapse off, two parallel loops stay apart: the outer one becomes a grid-stride loop
// over blockIdx.y (at most 65535 blocks), the inner one is spread over x threads.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LoopCollapse --print-after=LoopPartition | FileCheck %s
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
//
// CHECK-LABEL: IR after LoopCollapse (kernel add)
// CHECK:      for (int i = 0; i < n; i++) {  // parallel
// CHECK-NEXT:   for (int j = 0; j < m; j++) {  // parallel
// CHECK-LABEL: IR after LoopPartition (kernel add)
// CHECK:      for (long long i_row = (long long)blockIdx.y; i_row < (long long)n; i_row += (long long)gridDim.y) {  // block
// CHECK-NEXT:   int i = i_row;
// CHECK-NEXT:   int j = (int)llmin((long long)blockIdx.x * ADD_BLOCKSIZE + threadIdx.x, (long long)m);
// CHECK-NEXT:   if (j < m) {
// CHECK-NEXT:     c[i * m + j] = a[i * m + j] + b[i * m + j];
//
// HOST: dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, ADD_BLOCKSIZE), (unsigned)rtcuda_min(rtcuda_ceil_div(iterations_y, 1), 65535LL));

//--- kernel.c
void add(int n, int m, float c[n][m], const float a[n][m], const float b[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      c[i][j] = a[i][j] + b[i][j];
}
//--- main.c
#include <stdlib.h>
void add(int n, int m, float c[n][m], const float a[n][m], const float b[n][m]);
int main(void) {
  int n = 3, m = 5;
  float *a = calloc(n * m, sizeof(float)), *b = calloc(n * m, sizeof(float)), *c = calloc(n * m, sizeof(float));
  add(n, m, (float (*)[m])c, (const float (*)[m])a, (const float (*)[m])b);
  free(a); free(b); free(c);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels:
  - name: add
    collapse: false
