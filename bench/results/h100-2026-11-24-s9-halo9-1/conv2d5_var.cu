// Hand variants of conv2d5 (experiment): C5_LAZY loads the window rows when first needed
// (column-sliding), C5_PIPE double-buffers tiles with cp.async across a block's tiles.
#ifndef C5_LAZY
#define C5_LAZY 0
#endif
#ifndef C5_PIPE
#define C5_PIPE 0
#endif
__global__ void __launch_bounds__(CONV2D5_BLOCKSIZE)
conv2d5(int rows, int cols, const float *__restrict__ A, const float *__restrict__ K,
        float *__restrict__ B) {
  constexpr int BS = CONV2D5_BLOCKSIZE, IT = CONV2D5_ITEMS, H = BS * IT / 32, W = 36;
  constexpr int SIZE = (H + 4) * W, LOADS = (SIZE + BS - 1) / BS;
  float K_reg[25];
#pragma unroll
  for (int e = 0; e < 25; e++) K_reg[e] = K[e];
  const int tid = threadIdx.x, col = tid % 32, grp = tid / 32;
  const int tilesJ = (cols + 31) / 32, allTiles = (rows + H - 1) / H * tilesJ;
#if C5_PIPE
  __shared__ __align__(16) float A_tile[2 * SIZE];
  __shared__ int anchor[1];
  auto issue = [&](int tile, int slot) {
    int i0 = tile / tilesJ * H, j0 = 32 * (tile % tilesJ);
#pragma unroll
    for (int r = 0; r < LOADS; r++) {
      int e = tid + r * BS;
      int i_at = i0 + e / W, j_at = j0 + e % W;
      if (e < SIZE)
        rtcuda_copy_async(&A_tile[slot * SIZE + e],
                          i_at < rows + 4 && j_at < cols + 4 ? A[i_at * (cols + 4) + j_at] : A[0]);
    }
    rtcuda_async_commit(anchor, 0);
  };
  int slot = 0;
  if ((int)blockIdx.x < allTiles) issue(blockIdx.x, 0);
  for (int tile = blockIdx.x; tile < allTiles; tile += gridDim.x) {
    rtcuda_async_wait(anchor, 0);
    __syncthreads();
    if (tile + (int)gridDim.x < allTiles) issue(tile + gridDim.x, slot ^ 1);
    const float *T = A_tile + slot * SIZE;
    slot ^= 1;
#else
  __shared__ __align__(16) float A_tile[SIZE];
  for (int tile = blockIdx.x; tile < allTiles; tile += gridDim.x) {
    {
      int i0 = tile / tilesJ * H, j0 = 32 * (tile % tilesJ);
      float v[LOADS];
#pragma unroll
      for (int r = 0; r < LOADS; r++) {
        int e = tid + r * BS;
        int i_at = i0 + e / W, j_at = j0 + e % W;
        v[r] = e < SIZE && i_at < rows + 4 && j_at < cols + 4 ? A[i_at * (cols + 4) + j_at] : 0.0f;
      }
#pragma unroll
      for (int r = 0; r < LOADS; r++) {
        int e = tid + r * BS;
        if (e < SIZE) A_tile[e] = v[r];
      }
    }
    __syncthreads();
    const float *T = A_tile;
#endif
    const int i_first = tile / tilesJ * H, j_first = 32 * (tile % tilesJ);
    float A_win[(IT + 4) * 5];
#if !C5_LAZY
#pragma unroll
    for (int e = 0; e < (IT + 4) * 5; e++) A_win[e] = T[(grp * IT + e / 5) * W + col + e % 5];
#endif
#pragma unroll
    for (int q = 0; q < IT; q++) {
#if C5_LAZY
#pragma unroll
      for (int r = (q == 0 ? 0 : q + 4); r <= q + 4; r++)
#pragma unroll
        for (int b = 0; b < 5; b++) A_win[r * 5 + b] = T[(grp * IT + r) * W + col + b];
#endif
      int i = i_first + grp * IT + q, j = j_first + col;
      if (i < rows && j < cols) {
        float s = 0.0f;
#pragma unroll
        for (int a = 0; a < 5; a++)
#pragma unroll
          for (int b = 0; b < 5; b++) s += K_reg[5 * a + b] * A_win[(q + a) * 5 + b];
        B[i * cols + j] = s;
      }
    }
#if !C5_PIPE
    __syncthreads();
#endif
  }
}
