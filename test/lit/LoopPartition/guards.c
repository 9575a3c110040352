// LoopPartition guards every thread so that any size works (primes included): the grid is
// ceil-div of the iteration count, the kernel checks its index, and the host launches only
// when every parallel loop has iterations. A loop with step 3 is spread over threads too.
// (interior reads one neighbour: a stencil would get several outputs per thread from
// NeighbourReuse first.)
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LoopPartition | FileCheck %s
// RUN: FileCheck --check-prefix=HOST %s < %t/out/launch.cuh
//
// CHECK-LABEL: IR after LoopPartition (kernel every_third)
// CHECK:      long long i_thread = (long long)blockIdx.x * EVERY_THIRD_BLOCKSIZE + threadIdx.x;
// CHECK-NEXT: if (i_thread < (long long)n / 3) {
// CHECK-NEXT:   int i = 3LL * i_thread + 2LL;
// CHECK-NEXT:   a[i] = 0.0f;
// CHECK-LABEL: IR after LoopPartition (kernel interior)
// CHECK:      int i = (int)llmin(1 + ((long long)blockIdx.x * INTERIOR_BLOCKSIZE + threadIdx.x), (long long)(n - 1));
// CHECK-NEXT: if (i < n - 1) {
//
// HOST-LABEL: static inline void rtcuda_launch_interior_on_device(
// HOST:       const long long iterations_x = (long long)n - 2;
// HOST:       rtcuda_check_grid_blocks(rtcuda_ceil_div(iterations_x, INTERIOR_BLOCKSIZE), "interior", where);
// HOST:       if ((long long)n - 2 > 0) {
// HOST-NEXT:    dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, INTERIOR_BLOCKSIZE));

//--- kernel.c
void every_third(int n, float a[n]) {
  for (int i = 2; i < n; i += 3)
    a[i] = 0.0f;
}
void interior(int n, float b[n], const float a[n]) {
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i - 1] + b[i];
}
//--- main.c
#include <stdlib.h>
void every_third(int n, float a[n]);
void interior(int n, float b[n], const float a[n]);
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 31;
  float *a = calloc(n, sizeof(float)), *b = calloc(n, sizeof(float));
  every_third(n, a);
  interior(n, b, a);
  free(a);
  free(b);
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [every_third, interior]
