// Loops with a non-zero start, '<=' and 'j += 1' over non-square arrays: the collapsed index
// covers (N-2) x M iterations and recovers i from 1 and j from 0. (Two arrays are read, not one at
// two rows: a stencil would get several outputs per thread from NeighbourReuse first.)
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=LoopCollapse --stop-after=LoopPartition | FileCheck %s
//
// CHECK-LABEL: IR after LoopCollapse (kernel shift)
// CHECK:      for (long long ij = 0; ij < ((long long)N - 2) * (long long)M; ij++) {  // collapsed
// CHECK-NEXT:   // recover the loop indices from the collapsed index
// CHECK-NEXT:   long long i_q = ij / (long long)M;
// CHECK-NEXT:   int i = i_q + 1LL;
// CHECK-NEXT:   int j = ij - i_q * (long long)M;
// CHECK-NEXT:   out[i][j] = 0.5f * (up[i - 1][j] + in[i + 1][j]);
// CHECK-LABEL: IR after LoopPartition (kernel shift)
// CHECK:      long long ij = (long long)blockIdx.x * SHIFT_BLOCKSIZE + threadIdx.x;
// CHECK-NEXT: if (ij < ((long long)N - 2) * (long long)M) {
// CHECK:        out[i * M + j] = 0.5f * (up[(i - 1) * M + j] + in[(i + 1) * M + j]);

//--- kernel.c
void shift(int N, int M, float out[N][M], const float in[N][M], const float up[N][M]) {
  int i, j;
  for (i = 1; i <= N - 2; i++)
    for (j = 0; j < M; j += 1)
      out[i][j] = 0.5f * (up[i - 1][j] + in[i + 1][j]);
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [shift]
