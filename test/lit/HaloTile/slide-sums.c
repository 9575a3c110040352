// HaloTile in three dimensions, a linear body (HaloTileSlideSums.cpp): the output is a linear
// form of the tiled reads, so each new plane adds its partial sums to the accumulators of the
// planes that read it, and no halo plane stays in registers. The analysis finds the sharing: the
// 27-point box's one weight is multiplied at the store and its planes share one partial sum of
// row sums (slide.c); a filter with 27 taps has a partial sum per plane; a plane weighted by a tap shares
// the row sums (the weight multiplies the plane's sum); terms of one weight are summed first; a
// read at one place with two weights is one term; two arrays and a scalar weight and a constant;
// arithmetic in another type than the arrays' (a double literal on floats) keeps the window.
// Verified at odd and prime sizes, ITEMS 1 and 4, DEPTH 1 and 3, PLANES 8; star13 (5 planes)
// at its default of two planes per barrier. (Until session 10 the runs pinned with --point had
// --max-points 1 and verified no point at all; the VERIFY lines now ask for at least one.)
// Planted bugs caught: the accumulator a plane offset c adds to taken as c - lo instead of
// hi - c (each output gets its planes' partial sums in reverse order): verify at 1, 2, 17, 31,
// 2 points each, reported 287396 mismatches in conv, boxw, pair and twice (a 27-point box then in this file
// and star13 are symmetric along the planes: they matched). A part's rows taken from the first array's window
// (pair's C_win read a row too far): verify at 17 stopped on an index out of bounds.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --remarks=HaloTile --print-after=HaloTile 2> %t/remarks | FileCheck %s
// RUN: FileCheck --check-prefix=REMARKS %s < %t/remarks
// RUN: FileCheck --check-prefix=PARAMS %s < %t/out/conv_params.h
// RUN: FileCheck --check-prefix=PARAMS13 %s < %t/out/star13_params.h
// RUN: %rtcuda verify %t/out --seed 21 --sizes 1,2,17,31 --max-points 2 | FileCheck --check-prefix=VERIFY %s
// RUN: %rtcuda verify %t/out --seed 22 --sizes 13,29 --max-points 2 --point ITEMS=2 --point DEPTH=3 | FileCheck --check-prefix=VERIFY2 %s
// RUN: %rtcuda verify %t/out --seed 23 --sizes 37 --max-points 2 --point ITEMS=1 --point DEPTH=1 --point PLANES=8 | FileCheck --check-prefix=VERIFY1 %s
//
// CHECK-LABEL: IR after HaloTile (kernel conv)
// CHECK:          for (int q = 0; q < CONV_ITEMS; q++) {  // unrolled
// CHECK-NEXT:       acc[2 * CONV_ITEMS + q] += K_reg[0] * A_win[3 * q] + K_reg[1] * A_win[3 * q + 1] + K_reg[2] * A_win[3 * q + 2]
// CHECK:            acc[q] += K_reg[18] * A_win[3 * q] + K_reg[19] * A_win[3 * q + 1]
// CHECK:                B[k][j][i] = acc[q];
// CHECK-LABEL: IR after HaloTile (kernel star13)
// CHECK:          float plane1[STAR13_ITEMS];
// CHECK-NEXT:     for (int q = 0; q < STAR13_ITEMS; q++) {  // unrolled
// CHECK-NEXT:       plane1[q] = -0.025f * A_win[5 * q + 12];
// CHECK:            acc[4 * STAR13_ITEMS + q] += plane1[q];
// CHECK-NEXT:       acc[q] += plane1[q];
// CHECK:            acc[3 * STAR13_ITEMS + q] += plane2[q];
// CHECK-NEXT:       acc[STAR13_ITEMS + q] += plane2[q];
// CHECK:            acc[2 * STAR13_ITEMS + q] += -0.025f * (A_win[5 * q + 2] + A_win[5 * q + 10] + A_win[5 * q + 14] + A_win[5 * q + 22]) + 0.1f * (A_win[5 * q + 7] + A_win[5 * q + 11] + A_win[5 * q + 13] + A_win[5 * q + 17]) + 0.5f * A_win[5 * q + 12];
// CHECK-LABEL: IR after HaloTile (kernel boxw)
// CHECK:            rows1[r] = A_win[5 * r] + A_win[5 * r + 1] + A_win[5 * r + 2] + A_win[5 * r + 3] + A_win[5 * r + 4];
// CHECK:            acc[2 * BOXW_ITEMS + q] += wz_reg[0] * (rows1[q] + rows1[q + 1] + rows1[q + 2]);
// CHECK:            acc[q] += wz_reg[2] * (rows3[q] + rows3[q + 1] + rows3[q + 2]);
// CHECK-LABEL: IR after HaloTile (kernel pair)
// CHECK:            acc[2 * PAIR_ITEMS + q] += alpha * A_win[3 * q + 4] + C_win[q];
// CHECK:            acc[PAIR_ITEMS + q] += alpha * (A_win[3 * q + 1] + A_win[3 * q + 3] + A_win[3 * q + 5] + A_win[3 * q + 7]) + (1.0f + -1.0f) * C_win[q];
// CHECK:            acc[q] += alpha * A_win[3 * q + 4] + -1.0f * C_win[q];
// CHECK:                B[k][j][i] = acc[q] + 1.5f;
// CHECK-LABEL: IR after HaloTile (kernel twice)
// CHECK:            acc[2 * TWICE_ITEMS + q] += rows1[q] + rows1[q + 1] + rows1[q + 2];
// CHECK:            acc[TWICE_ITEMS + q] += A_win[3 * q] + A_win[3 * q + 8] + (2.0f + 3.0f) * A_win[3 * q + 4];
// CHECK:            acc[q] += A_win[3 * q + 3] + A_win[3 * q + 4] + A_win[3 * q + 5];
// CHECK-LABEL: IR after HaloTile (kernel wide)
// CHECK:            A_win[p * (3 * WIDE_ITEMS + 6) + e] = A_win[(p + 1) * (3 * WIDE_ITEMS + 6) + e];
// CHECK:                  s += 0.5 * A_win[
//
// REMARKS: remark: halo tile: 'A' is read at 27 places around each iteration (offsets [0, 2] x [0, 2] x [0, 2]); a block slides
// PARAMS: // BLOCKSIZE: search space 32, 64, 96, 128, 160, 192, 224, 256, ... 512
// PARAMS: #define CONV_BLOCKSIZE 128
// PARAMS: // ITEMS: search space 1, 2, 4
// PARAMS: #define CONV_ITEMS 4
// A window of 5 planes: two planes per barrier (HaloTileSlide.cpp, GROUP).
// PARAMS13: // GROUP: search space 1, 2
// PARAMS13: #define STAR13_GROUP 2
//
// VERIFY: verified 6 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 4 size(s): 0 mismatch(es)
// VERIFY1: verified 6 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 1 size(s): 0 mismatch(es)
// VERIFY2: verified 6 kernel(s) at {{[1-9][0-9]*}} parameter point(s) and 2 size(s): 0 mismatch(es)

//--- config.yaml
kernel_files: [kernel.c]
kernels: [conv, star13, boxw, pair, twice, wide]
//--- kernel.c
void conv(int nz, int ny, int nx, const float A[nz + 2][ny + 2][nx + 2], const float K[3][3][3],
          float B[nz][ny][nx]) {
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        float s = 0.0f;
        for (int c = 0; c < 3; c++)
          for (int b = 0; b < 3; b++)
            for (int a = 0; a < 3; a++)
              s += K[c][b][a] * A[k + c][j + b][i + a];
        B[k][j][i] = s;
      }
}
void star13(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 2; k < nz - 2; k++)
    for (int j = 2; j < ny - 2; j++)
      for (int i = 2; i < nx - 2; i++)
        B[k][j][i] = 0.5f * A[k][j][i] +
                     0.1f * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] + A[k][j + 1][i] +
                             A[k][j][i - 1] + A[k][j][i + 1]) -
                     0.025f * (A[k - 2][j][i] + A[k + 2][j][i] + A[k][j - 2][i] + A[k][j + 2][i] +
                               A[k][j][i - 2] + A[k][j][i + 2]);
}
void boxw(int nz, int ny, int nx, const float A[nz][ny][nx], const float wz[3], float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 2; i < nx - 2; i++) {
        float s = 0.0f;
        for (int c = 0; c < 3; c++) {
          float p = 0.0f;
          for (int b = -1; b <= 1; b++)
            for (int a = -2; a <= 2; a++)
              p += A[k + c - 1][j + b][i + a];
          s += wz[c] * p;
        }
        B[k][j][i] = s;
      }
}
void pair(int nz, int ny, int nx, float alpha, const float A[nz][ny][nx], const float C[nz][ny][nx],
          float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        B[k][j][i] = alpha * (A[k - 1][j][i] + A[k + 1][j][i] + A[k][j - 1][i] + A[k][j + 1][i] +
                              A[k][j][i - 1] + A[k][j][i + 1]) +
                     C[k - 1][j][i] - C[k + 1][j][i] + C[k][j][i] - C[k][j][i] + 1.5f;
}
void twice(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        B[k][j][i] = 2.0f * A[k][j][i] + A[k - 1][j - 1][i] + A[k - 1][j + 1][i] + A[k + 1][j][i - 1] +
                     A[k + 1][j][i + 1] + A[k][j - 1][i - 1] + A[k][j + 1][i + 1] + A[k - 1][j][i] +
                     A[k + 1][j][i] + 3.0f * A[k][j][i];
}
void wide(int nz, int ny, int nx, const float A[nz][ny][nx], float B[nz][ny][nx]) {
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++) {
        float s = 0.0f;
        for (int c = -1; c <= 1; c++)
          for (int b = -1; b <= 1; b++)
            for (int a = -1; a <= 1; a++)
              s += 0.5 * A[k + c][j + b][i + a];
        B[k][j][i] = s;
      }
}
