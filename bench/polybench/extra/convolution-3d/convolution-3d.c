/* convolution-3d.c: a 15-term weighted sum over the 3 x 3 x 3 neighbourhood of each interior
   point of a 3-D grid, written for rtcuda in the style of PolyBench/C 4.2.1 (see
   ../README.md). PolyBench-ACC's 3DConvolution computes the same sum (the same points and
   weights, three of them read twice) on the GPU; PolyBench/C 4.2.1 has no such program. */

#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include <polybench.h>

#include "convolution-3d.h"


/* The grid, and the output zeroed: its border is not computed but is printed. */
static
void init_array (int ni, int nj, int nk,
		 DATA_TYPE POLYBENCH_3D(A,NI,NJ,NK,ni,nj,nk),
		 DATA_TYPE POLYBENCH_3D(B,NI,NJ,NK,ni,nj,nk))
{
  int i, j, k;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      for (k = 0; k < nk; k++)
	{
	  A[i][j][k] = (DATA_TYPE) ((i + 2 * j + 3 * k) % 17) / 17;
	  B[i][j][k] = SCALAR_VAL(0.0);
	}
}


static
void print_array(int ni, int nj, int nk,
		 DATA_TYPE POLYBENCH_3D(B,NI,NJ,NK,ni,nj,nk))
{
  int i, j, k;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      for (k = 0; k < nk; k++) {
	if (((i * nj + j) * nk + k) % 20 == 0) fprintf(POLYBENCH_DUMP_TARGET, "\n");
	fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j][k]);
      }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}


/* Weights by the offsets (di, dj, dk) of the points read: (-1,-1,-1) 2 + 5 - 8 (read three
   times), (1,-1,-1) 4 + 7 + 10 (three times), (0,-1,0) -3, (0,0,0) 6, (0,1,0) -9,
   (-1,-1,1) 2, (1,-1,1) 4, (-1,0,1) 5, (1,0,1) 7, (-1,1,1) -8, (1,1,1) 10. */
static
void kernel_convolution_3d(int ni, int nj, int nk,
			   DATA_TYPE POLYBENCH_3D(A,NI,NJ,NK,ni,nj,nk),
			   DATA_TYPE POLYBENCH_3D(B,NI,NJ,NK,ni,nj,nk))
{
  int i, j, k;

#pragma scop
  for (i = 1; i < _PB_NI - 1; i++)
    for (j = 1; j < _PB_NJ - 1; j++)
      for (k = 1; k < _PB_NK - 1; k++)
	B[i][j][k] = SCALAR_VAL(2.0) * A[i-1][j-1][k-1] + SCALAR_VAL(4.0) * A[i+1][j-1][k-1]
	  + SCALAR_VAL(5.0) * A[i-1][j-1][k-1] + SCALAR_VAL(7.0) * A[i+1][j-1][k-1]
	  + SCALAR_VAL(-8.0) * A[i-1][j-1][k-1] + SCALAR_VAL(10.0) * A[i+1][j-1][k-1]
	  + SCALAR_VAL(-3.0) * A[i][j-1][k] + SCALAR_VAL(6.0) * A[i][j][k]
	  + SCALAR_VAL(-9.0) * A[i][j+1][k] + SCALAR_VAL(2.0) * A[i-1][j-1][k+1]
	  + SCALAR_VAL(4.0) * A[i+1][j-1][k+1] + SCALAR_VAL(5.0) * A[i-1][j][k+1]
	  + SCALAR_VAL(7.0) * A[i+1][j][k+1] + SCALAR_VAL(-8.0) * A[i-1][j+1][k+1]
	  + SCALAR_VAL(10.0) * A[i+1][j+1][k+1];
#pragma endscop

}


int main(int argc, char** argv)
{
  int ni = NI;
  int nj = NJ;
  int nk = NK;

  POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, NI, NJ, NK, ni, nj, nk);
  POLYBENCH_3D_ARRAY_DECL(B, DATA_TYPE, NI, NJ, NK, ni, nj, nk);

  init_array (ni, nj, nk, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;

  kernel_convolution_3d (ni, nj, nk, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(ni, nj, nk, POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);

  return 0;
}
