// Hand variants of conv1d (experiment): cp.async double-buffered tiles, outputs staged in a
// buffer of their own; C1_LAZY loads window elements when first needed.
#ifndef C1_LAZY
#define C1_LAZY 0
#endif
__global__ void __launch_bounds__(CONV1D_BLOCKSIZE)
conv1d(int n, const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y) {
  constexpr int BS = CONV1D_BLOCKSIZE, IT = CONV1D_ITEMS, TS = BS * IT, SIZE = TS + 15;
  constexpr int SLOTS = SIZE + SIZE / 32 + 1, LOADS = (SIZE + BS - 1) / BS;
  float w_reg[16];
#pragma unroll
  for (int e = 0; e < 16; e++) w_reg[e] = w[e];
  const int tid = threadIdx.x, allTiles = (n + TS - 1) / TS;
  __shared__ __align__(16) float X[2 * SLOTS];
  __shared__ __align__(16) float Y[TS + TS / 32 + 1];
  __shared__ int anchor[1];
  auto issue = [&](int tile, int slot) {
    int i0 = tile * TS;
#pragma unroll
    for (int r = 0; r < LOADS; r++) {
      int e = tid + r * BS, i_at = i0 + e;
      if (e < SIZE) rtcuda_copy_async(&X[slot * SLOTS + e + e / 32], i_at < n + 15 ? x[i_at] : x[0]);
    }
    rtcuda_async_commit(anchor, 0);
  };
  int slot = 0;
  if ((int)blockIdx.x < allTiles) issue(blockIdx.x, 0);
  for (int tile = blockIdx.x; tile < allTiles; tile += gridDim.x) {
    rtcuda_async_wait(anchor, 0);
    __syncthreads();
    if (tile + (int)gridDim.x < allTiles) issue(tile + gridDim.x, slot ^ 1);
    const float *T = X + slot * SLOTS;
    slot ^= 1;
    const int i_first = tile * TS;
    float win[IT + 15];
#if !C1_LAZY
#pragma unroll
    for (int e = 0; e < IT + 15; e++) win[e] = T[tid * IT + e + (tid * IT + e) / 32];
#endif
#pragma unroll
    for (int q = 0; q < IT; q++) {
#if C1_LAZY
#pragma unroll
      for (int e = (q == 0 ? 0 : q + 15); e <= q + 15; e++) win[e] = T[tid * IT + e + (tid * IT + e) / 32];
#endif
      int i = i_first + tid * IT + q;
      if (i < n) {
        float s = 0.0f;
#pragma unroll
        for (int t = 0; t < 16; t++) s += w_reg[t] * win[q + t];
        Y[tid * IT + q + (tid * IT + q) / 32] = s;
      }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < IT; r++) {
      int e = tid + r * BS, i_out = i_first + e;
      if (i_out < n) y[i_out] = Y[e + e / 32];
    }
  }
}
