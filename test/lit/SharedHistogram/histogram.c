// SharedHistogram: atomic additions into an array of constant size (64 int bins, 256 float
// weights, subtractions) go to a per-block copy in shared memory, zeroed first and added to the
// global array once per block after a barrier; each block covers ITEMS strips of BLOCKSIZE
// iterations. An array of unknown size (int *bins) and a maximum (no atomicAdd) keep the global
// atomics. Verify runs the race check (ThreadSanitizer) too. With the barrier before the merge
// removed from the pass, verify at sizes 37 and 70 reported 1309 mismatches.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=SharedHistogram | FileCheck %s
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/hist64_params.h
// RUN: FileCheck --check-prefix=LAUNCH %s < %t/out/launch.cuh
// RUN: %rtcuda verify %t/out --seed 9 --sizes 1,37,1000 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after SharedHistogram (kernel hist64)
// CHECK:      __shared__ int hist_block[64];
// CHECK-NEXT: for (int t = (int)threadIdx.x; t < 64; t += HIST64_BLOCKSIZE) {
// CHECK-NEXT:   hist_block[t] = (int)0;
// CHECK:      __syncthreads();
// CHECK-NEXT: for (int r = 0; r < HIST64_ITEMS; r++) {
// CHECK-NEXT:   int i = (int)llmin((long long)(blockIdx.x * HIST64_ITEMS + r) * HIST64_BLOCKSIZE + threadIdx.x, (long long)n);
// CHECK-NEXT:   if (i < n) {
// CHECK-NEXT:     atomicAdd(&hist_block[data[i] & 63], 1);
// CHECK:      __syncthreads();
// CHECK-NEXT: for (int t = (int)threadIdx.x; t < 64; t += HIST64_BLOCKSIZE) {
// CHECK-NEXT:   if (hist_block[t] != (int)0) {
// CHECK-NEXT:     atomicAdd(&hist[t], hist_block[t]);
// CHECK-LABEL: IR after SharedHistogram (kernel weights)
// CHECK:      __shared__ float acc_block[256];
// CHECK:      atomicAdd(&acc_block[key[i] & 255], w[i]);
// CHECK-LABEL: IR after SharedHistogram (kernel down)
// CHECK:      atomicSub(&bins_block[data[i] & 15], 1);
// CHECK:      atomicAdd(&bins[t], bins_block[t]);
// CHECK-LABEL: IR after SharedHistogram (kernel unsized)
// CHECK-NOT:  _block
// CHECK:      atomicAdd(&bins[data[i] & 63], 1);
// CHECK-LABEL: IR after SharedHistogram (kernel highest)
// CHECK-NOT:  _block
//
// PARAMS: // ITEMS: search space 1, 4, 16, 64
// PARAMS: #define HIST64_ITEMS 64
// LAUNCH: dim3 grid((unsigned)rtcuda_ceil_div(iterations_x, HIST64_BLOCKSIZE * HIST64_ITEMS));
//
// VERIFY: verified 5 kernel(s) at {{[0-9]+}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void hist64(int n, const int data[n], int hist[64]) {
  for (int i = 0; i < n; i++)
    hist[data[i] & 63] += 1;
}
void weights(int n, const int key[n], const float w[n], float acc[256]) {
  for (int i = 0; i < n; i++)
    acc[key[i] & 255] += w[i];
}
void down(int n, const int data[n], int bins[16]) {
  for (int i = 0; i < n; i++)
    bins[data[i] & 15] -= 1;
}
void unsized(int n, const int data[n], int *bins) {
  for (int i = 0; i < n; i++)
    bins[data[i] & 63] += 1;
}
void highest(int n, const int key[n], const int v[n], int top[8]) {
  for (int i = 0; i < n; i++)
    top[key[i] & 7] = top[key[i] & 7] > v[i] ? top[key[i] & 7] : v[i];
}
//--- config.yaml
kernel_files: [kernel.c]
kernels: [hist64, weights, down, unsized, highest]
