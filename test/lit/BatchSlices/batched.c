// Batches of contractions: each value of the outer parallel loop is one slice of the arrays it
// indexes first, and RegisterTiling tiles the contraction of one slice; the grid holds every
// slice's tiles. bmm (C[b] = A[b] B[b]), bgemm_tn (C[b] = alpha A[b]^T B[b] + beta C[b] in
// place), scores (heads and batches, Q K^T: BatchCollapse makes one batch loop of the two) and
// bscaled (the slice's number read as a value) are sliced; triangle (b bounds a loop) and badd
// (no contraction) are not.
// Run against gcc's build and verified at sizes of their own.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks > %t/summary 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=SUMMARY %s < %t/summary
// RUN: FileCheck --check-prefix=CUDA %s < %t/out/kernel.cu
// RUN: %rtcuda translate %t/config.yaml -o %t/dump --print-after=BatchSlices 2>&1 | FileCheck --check-prefix=DUMP %s
// RUN: gcc -std=gnu99 -O1 -w %t/main.c %t/kernel.c -lm -o %t/ref
// RUN: %t/ref > %t/gcc.txt
// RUN: %rtcuda run %t/out > %t/run.txt
// RUN: diff %t/gcc.txt %t/run.txt
// RUN: %rtcuda verify %t/out --sizes 1,6,19 --max-points 3 --no-race-check | FileCheck --check-prefix=VERIFY %s
//
// REMARK: remark: batch: loop 'b' is the first subscript of every access to 'A', 'B', 'C' and bounds no loop: each of its batch values is one slice of those arrays, the rest of the nest a contraction of that slice; a block computes in one slice, 'b' its number [-Rpass=BatchSlices]
// REMARK: remark: batch: one grid for the batch slices, blocks_per_slice blocks each; a block's slice is blockIdx.x / blocks_per_slice [-Rpass=BatchBlocks]
//
// SUMMARY: bmm: BatchSlices, BlockMerge, BlockSkew, RegisterTiling, ArrayFlatten, RedundantLoadElim, {{.*}}BatchBlocks;
// SUMMARY: bgemm_tn: BatchSlices, ContractionForm, BlockMerge, BlockSkew, RegisterTiling, {{.*}}BatchBlocks;
// SUMMARY: scores: BatchCollapse, BatchSlices, BlockMerge, BlockSkew, RegisterTiling, {{.*}}BatchBlocks;
// SUMMARY: bscaled: BatchSlices, {{.*}}RegisterTiling, {{.*}}BatchBlocks;
// SUMMARY: triangle: LoopCollapse,
// SUMMARY: badd: LoopCollapse,
//
// CUDA-LABEL: Kernel 'bmm'
// CUDA: int b = (int)blockIdx.x / blocks_per_slice;
// CUDA-NEXT: int block_in_slice = (int)blockIdx.x - b * blocks_per_slice;
// CUDA-NEXT: A += (long long)b * ((long long)n * (long long)p);
// CUDA-NEXT: B += (long long)b * ((long long)p * (long long)m);
// CUDA-NEXT: C += (long long)b * ((long long)n * (long long)m);
// CUDA: int tile_row = block_in_slice / col_tiles;
// CUDA-LABEL: Kernel 'bscaled'
// CUDA: C[i * m + j] = s[{{.*}}] * (b + 1);
//
// DUMP-LABEL: IR after BatchSlices (kernel bmm)
// DUMP: kernel bmm(int batch, int n, int m, int p, const float A[n][p], const float B[p][m], float C[n][m])
// DUMP-NEXT: {
// DUMP-NEXT: for (int i = 0; i < n; i++) {  // parallel
// DUMP: s += A[i][k] * B[k][j];
// DUMP-LABEL: IR after BatchSlices (kernel triangle)
// DUMP: for (int b = 0; b < batch; b++) {  // parallel
//
// VERIFY: verified 6 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void bmm(int batch, int n, int m, int p, const float A[batch][n][p], const float B[batch][p][m],
         float C[batch][n][m]) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) {
        float s = 0.0f;
        for (int k = 0; k < p; k++)
          s += A[b][i][k] * B[b][k][j];
        C[b][i][j] = s;
      }
}
void bgemm_tn(int batch, int n, int m, int p, float alpha, float beta, const float A[batch][p][n],
              const float B[batch][p][m], float C[batch][n][m]) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) {
        C[b][i][j] *= beta;
        for (int k = 0; k < p; k++)
          C[b][i][j] += alpha * A[b][k][i] * B[b][k][j];
      }
}
void scores(int heads, int nb, int n, int d, const float Q[heads][nb][n][d],
            const float K[heads][nb][n][d], float S[heads][nb][n][n]) {
  for (int h = 0; h < heads; h++)
    for (int b = 0; b < nb; b++)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          float s = 0.0f;
          for (int k = 0; k < d; k++)
            s += Q[h][b][i][k] * K[h][b][j][k];
          S[h][b][i][j] = s;
        }
}
void bscaled(int batch, int n, int m, int p, const float A[batch][n][p], const float B[batch][p][m],
             float C[batch][n][m]) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) {
        float s = 0.0f;
        for (int k = 0; k < p; k++)
          s += A[b][i][k] * B[b][k][j];
        C[b][i][j] = s * (b + 1);
      }
}
void triangle(int batch, int n, int p, const float A[batch][n][p], float C[batch][n][n]) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int k = 0; k < p - b; k++)
          s += A[b][i][k] * A[b][j][k];
        C[b][i][j] = s;
      }
}
void badd(int batch, int n, int m, const float A[batch][n][m], const float B[batch][n][m],
          float C[batch][n][m]) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        C[b][i][j] = A[b][i][j] + 2.0f * B[b][i][j];
}
//--- main.c
#include <stdio.h>
void bmm(int batch, int n, int m, int p, const float A[batch][n][p], const float B[batch][p][m],
         float C[batch][n][m]);
void bgemm_tn(int batch, int n, int m, int p, float alpha, float beta, const float A[batch][p][n],
              const float B[batch][p][m], float C[batch][n][m]);
void scores(int heads, int nb, int n, int d, const float Q[heads][nb][n][d],
            const float K[heads][nb][n][d], float S[heads][nb][n][n]);
void bscaled(int batch, int n, int m, int p, const float A[batch][n][p], const float B[batch][p][m],
             float C[batch][n][m]);
void triangle(int batch, int n, int p, const float A[batch][n][p], float C[batch][n][n]);
void badd(int batch, int n, int m, const float A[batch][n][m], const float B[batch][n][m],
          float C[batch][n][m]);
#define BATCH 3
#define N 13
#define M 11
#define P 9
#define HEADS 2
#define NB 3
#define D 5
static float A[BATCH][N][P], At[BATCH][P][N], B[BATCH][P][M], C[BATCH][N][M], T[BATCH][N][N];
static float Q[HEADS][NB][N][D], K[HEADS][NB][N][D], S[HEADS][NB][N][N], E[BATCH][N][P];
static void fill(float *x, int count, int seed) {
  for (int e = 0; e < count; e++) x[e] = (float)((e * 7 + seed * 13) % 11 - 5);
}
static double sum(const float *x, int count) {
  double s = 0;
  for (int e = 0; e < count; e++) s += x[e] * (1 + e % 7);
  return s;
}
int main(void) {
  fill(&A[0][0][0], BATCH * N * P, 1), fill(&B[0][0][0], BATCH * P * M, 2);
  fill(&C[0][0][0], BATCH * N * M, 3), fill(&At[0][0][0], BATCH * P * N, 4);
  fill(&Q[0][0][0][0], HEADS * NB * N * D, 5), fill(&K[0][0][0][0], HEADS * NB * N * D, 6);
  fill(&S[0][0][0][0], HEADS * NB * N * N, 7), fill(&T[0][0][0], BATCH * N * N, 8);
  bmm(BATCH, N, M, P, A, B, C);
  printf("bmm %.1f\n", sum(&C[0][0][0], BATCH * N * M));
  bgemm_tn(BATCH, N, M, P, 2.0f, -1.0f, At, B, C);
  printf("bgemm_tn %.1f\n", sum(&C[0][0][0], BATCH * N * M));
  scores(HEADS, NB, N, D, Q, K, S);
  printf("scores %.1f\n", sum(&S[0][0][0][0], HEADS * NB * N * N));
  bscaled(BATCH, N, M, P, A, B, C);
  printf("bscaled %.1f\n", sum(&C[0][0][0], BATCH * N * M));
  triangle(BATCH, N, P, A, T);
  printf("triangle %.1f\n", sum(&T[0][0][0], BATCH * N * N));
  badd(BATCH, N, P, A, A, E);
  printf("badd %.1f\n", sum(&E[0][0][0], BATCH * N * P));
  return 0;
}
//--- config.yaml
kernel_files: [kernel.c]
main_file: main.c
kernels: [bmm, bgemm_tn, scores, bscaled, triangle, badd]
