// TiledTranspose over triangular bounds and in place: BoundingBox runs a triangular nest over
// its bounding box with the bounds as a guard around the store; the guard joins the tile's range
// check in both steps. In place (A[i][j] = A[j][i] over one triangle) the loops are parallel, so
// the tile may read the array it writes. A full-square transpose in place is not parallel and a
// guard that reads an array is not moved: both keep their mapping. With the guard dropped from
// the range check, verify reports mismatches in every kernel but the last two.
// RUN: rm -rf %t && split-file %s %t
// RUN: %rtcuda translate %t/config.yaml -o %t/out --print-after=TiledTranspose | FileCheck %s
// RUN: %rtcuda verify %t/out --seed 3 --sizes 1,2,31,37,70 | FileCheck --check-prefix=VERIFY %s
//
// CHECK-LABEL: IR after TiledTranspose (kernel symmetrize)
// CHECK:      // a 32 x 33 tile: read along 'i', written along 'j'
// CHECK:          int j = 32 * (int)blockIdx.x + 1 + r;
// CHECK-NEXT:     int i = 32 * i_tile + (int)threadIdx.x % 32;
// CHECK-NEXT:     if (r < 32 && (j < n && i < n && (j >= i + 1 && j < n))) {
// CHECK-NEXT:       tile[r * 33 + (int)threadIdx.x % 32] = A[j][i];
// CHECK:          if (r < 32 && (j < n && i < n && (j >= i + 1 && j < n))) {
// CHECK-NEXT:       A[i][j] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel lower_from_upper)
// CHECK:      // a 32 x 33 tile
// CHECK-LABEL: IR after TiledTranspose (kernel trtranspose)
// CHECK:      // a 32 x 33 tile
// CHECK:        B[j][i] = tile[(int)threadIdx.x % 32 * 33 + r];
// CHECK-LABEL: IR after TiledTranspose (kernel halve_into_upper)
// CHECK:      // a 32 x 33 tile
// CHECK:        tile[r * 33 + (int)threadIdx.x % 32] = 0.5f * A[i][j];
// CHECK-LABEL: IR after TiledTranspose (kernel square_in_place_1)
// CHECK-NOT:  tile
// CHECK-LABEL: IR after TiledTranspose (kernel masked)
// CHECK-NOT:  tile
// CHECK:      if (M[i][j] > 0)
//
// VERIFY: verified 6 kernel(s) at {{[0-9]+}} parameter point(s) and 5 size(s): 0 mismatch(es)

//--- kernel.c
/* The upper triangle from the lower one, in place. */
void symmetrize(int n, float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      A[i][j] = A[j][i];
}
/* The lower triangle from the upper one, the column loop outer. */
void lower_from_upper(int n, double A[n][n]) {
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      A[i][j] = A[j][i];
}
/* A lower triangle, diagonal included, transposed into another array. */
void trtranspose(int n, const float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      B[j][i] = A[i][j];
}
/* In place with the diagonal: iteration (i, i) reads and writes the same element. */
void halve_into_upper(int n, float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      A[j][i] = 0.5f * A[i][j];
}
/* Every element from its mirror in place: iterations (i, j) and (j, i) depend on each other
   (the loop over i stays on the host). */
void square_in_place(int n, float A[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[j][i] = A[i][j];
}
/* The guard reads an array. */
void masked(int n, const int M[n][n], const float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (M[i][j] > 0)
        B[j][i] = A[i][j];
}

//--- config.yaml
kernel_files: [kernel.c]
kernels: [symmetrize, lower_from_upper, trtranspose, halve_into_upper, square_in_place, masked]
