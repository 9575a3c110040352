// Delinearize: arrays passed as flat pointers and indexed a row at a time get the mappings of
// their two- and three-dimensional forms (register tiles, a tiled transpose, halo tiles), the
// row length a parameter, a parameter plus a constant, or a constant. An array whose column
// part can leave its row (overlap's B[i * cols + j], j <= cols) stays flat, and so does the
// nest's analysis of it; so does one whose subscript reads another flat array (gather's A,
// whose row index is idx[i * m + j]: idx is split first and the rewrite keeps them apart). Verified at odd and prime sizes, with the race check.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=Delinearize --print-after=ParallelLoops > %t/dump 2> %t/remarks
// RUN: FileCheck --check-prefix=REMARK %s < %t/remarks
// RUN: FileCheck --check-prefix=DUMP %s < %t/dump
// RUN: FileCheck --check-prefix=PASSES %s < %t/out/kernel.cu
// RUN: %rtcuda verify %t/out --sizes 1,7,37 --max-points 2 | FileCheck --check-prefix=VERIFY %s
//
// REMARK: kernel.c:1:{{[0-9]+}}: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][p] [-Rpass=Delinearize]
// REMARK: kernel.c:1:{{[0-9]+}}: remark: delinearize: 'B' is indexed a row at a time; the passes see it as an array of rows: B[...][m] [-Rpass=Delinearize]
// REMARK: kernel.c:1:{{[0-9]+}}: remark: delinearize: 'C' is indexed a row at a time; the passes see it as an array of rows: C[...][m] [-Rpass=Delinearize]
// REMARK: kernel.c:10:{{[0-9]+}}: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][cols] [-Rpass=Delinearize]
// REMARK: kernel.c:10:{{[0-9]+}}: remark: delinearize: 'B' is indexed a row at a time; the passes see it as an array of rows: B[...][rows] [-Rpass=Delinearize]
// REMARK: kernel.c:15:{{[0-9]+}}: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][cols + 2] [-Rpass=Delinearize]
// REMARK: kernel.c:15:{{[0-9]+}}: remark: delinearize: 'K' is indexed a row at a time; the passes see it as an array of rows: K[...][3] [-Rpass=Delinearize]
// REMARK: kernel.c:15:{{[0-9]+}}: remark: delinearize: 'B' is indexed a row at a time; the passes see it as an array of rows: B[...][cols] [-Rpass=Delinearize]
// REMARK: kernel.c:25:{{[0-9]+}}: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][ny][nx] [-Rpass=Delinearize]
// REMARK: kernel.c:25:{{[0-9]+}}: remark: delinearize: 'B' is indexed a row at a time; the passes see it as an array of rows: B[...][ny][nx] [-Rpass=Delinearize]
// REMARK: kernel.c:37:{{[0-9]+}}: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][cols] [-Rpass=Delinearize]
// REMARK: kernel.c:37:{{[0-9]+}}: remark: delinearize: 'B' is indexed a row at a time; the passes see it as an array of rows: B[...][cols] [-Rpass=Delinearize]
// REMARK: kernel.c:42:{{[0-9]+}}: remark: delinearize: 'A' is indexed a row at a time; the passes see it as an array of rows: A[...][cols + 1] [-Rpass=Delinearize]
// REMARK: kernel.c:47:{{[0-9]+}}: remark: delinearize: 'idx' is indexed a row at a time; the passes see it as an array of rows: idx[...][m] [-Rpass=Delinearize]
// REMARK: kernel.c:47:{{[0-9]+}}: remark: delinearize: 'B' is indexed a row at a time; the passes see it as an array of rows: B[...][m] [-Rpass=Delinearize]
// REMARK-NOT: remark: delinearize
//
// DUMP-LABEL: IR after ParallelLoops (kernel mmflat)
// DUMP:          s += A[i][k] * B[k][j];
// DUMP:        C[i][j] = s;
// DUMP-LABEL: IR after ParallelLoops (kernel transflat)
// DUMP:        B[j][i] = A[i][j];
// DUMP-LABEL: IR after ParallelLoops (kernel conv2dflat)
// DUMP:            s += K[a][b] * A[i + a][j + b];
// DUMP-LABEL: IR after ParallelLoops (kernel box3dflat)
// DUMP:                s += A[k + c][j + b][i + a];
// DUMP:          B[k][j][i] = s;
// DUMP-LABEL: IR after ParallelLoops (kernel revrow)
// DUMP:        B[i][cols - j - 1] = 2.0f * A[i][j];
// DUMP-LABEL: IR after ParallelLoops (kernel overlap_1)
// DUMP:      B[i * cols + j] = A[i][j] + (float)i;
//
// PASSES: Kernel 'mmflat'
// PASSES-NEXT: Passes: BlockMerge BlockSkew RegisterTiling
// PASSES: Kernel 'transflat'
// PASSES-NEXT: Passes: TiledTranspose
// PASSES: Kernel 'conv2dflat'
// PASSES-NEXT: Passes: HaloTile
// PASSES: Kernel 'box3dflat'
// PASSES-NEXT: Passes: HaloTile
//
// VERIFY: verified 7 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 3 size(s): 0 mismatch(es)

//--- kernel.c
void mmflat(int n, int m, int p, const float *restrict A, const float *restrict B, float *restrict C) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      float s = 0.0f;
      for (int k = 0; k < p; k++)
        s += A[i * p + k] * B[k * m + j];
      C[i * m + j] = s;
    }
}
void transflat(int rows, int cols, const float *restrict A, float *restrict B) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[j * rows + i] = A[i * cols + j];
}
void conv2dflat(int rows, int cols, const float *restrict A, const float *restrict K, float *restrict B) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      float s = 0.0f;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
          s += K[a * 3 + b] * A[(i + a) * (cols + 2) + j + b];
      B[i * cols + j] = s;
    }
}
void box3dflat(int nz, int ny, int nx, const float *restrict A, float *restrict B) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++) {
        float s = 0.0f;
        for (int c = -1; c <= 1; c++)
          for (int b = -1; b <= 1; b++)
            for (int a = -1; a <= 1; a++)
              s += A[(k + c) * ny * nx + (j + b) * nx + i + a];
        B[(k * ny + j) * nx + i] = s;
      }
}
void revrow(int rows, int cols, const float *restrict A, float *restrict B) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      B[i * cols + cols - 1 - j] = 2.0f * A[i * cols + j];
}
void overlap(int rows, int cols, const float *restrict A, float *restrict B) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j <= cols; j++)
      B[i * cols + j] = A[i * (cols + 1) + j] + (float)i;
}
void gather(int n, int m, const int *restrict idx, const float A[restrict 2 * m], float *restrict B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i * m + j] = A[(idx[i * m + j] & 1) * m + j];
}

//--- config.yaml
kernel_files: [kernel.c]
kernels: [mmflat, transflat, conv2dflat, box3dflat, revrow, overlap, gather]
