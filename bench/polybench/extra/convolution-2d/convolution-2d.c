/* convolution-2d.c: a 3 x 3 convolution of a 2-D grid, written for rtcuda in the style of
   PolyBench/C 4.2.1 (see ../README.md). PolyBench-ACC's 2DConvolution computes the same
   weighted sum on the GPU; PolyBench/C 4.2.1 has no such program. */

#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include <polybench.h>

#include "convolution-2d.h"


/* The grid, and the output zeroed: its border is not computed but is printed. */
static
void init_array (int ni, int nj,
		 DATA_TYPE POLYBENCH_2D(A,NI,NJ,ni,nj),
		 DATA_TYPE POLYBENCH_2D(B,NI,NJ,ni,nj))
{
  int i, j;

  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      {
	A[i][j] = (DATA_TYPE) ((i * (j + 1) + 3) % ni) / ni;
	B[i][j] = SCALAR_VAL(0.0);
      }
}


static
void print_array(int ni, int nj,
		 DATA_TYPE POLYBENCH_2D(B,NI,NJ,ni,nj))
{
  int i, j;

  POLYBENCH_DUMP_START;
  POLYBENCH_DUMP_BEGIN("B");
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      if ((i * nj + j) % 20 == 0) fprintf(POLYBENCH_DUMP_TARGET, "\n");
      fprintf(POLYBENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, B[i][j]);
    }
  POLYBENCH_DUMP_END("B");
  POLYBENCH_DUMP_FINISH;
}


/* Each interior point of B: the nine points of A around it, weighted (one row of weights per
   row of the window: 0.2 0.5 -0.8 / -0.3 0.6 -0.9 / 0.4 0.7 0.1). */
static
void kernel_convolution_2d(int ni, int nj,
			   DATA_TYPE POLYBENCH_2D(A,NI,NJ,ni,nj),
			   DATA_TYPE POLYBENCH_2D(B,NI,NJ,ni,nj))
{
  int i, j;

#pragma scop
  for (i = 1; i < _PB_NI - 1; i++)
    for (j = 1; j < _PB_NJ - 1; j++)
      B[i][j] = SCALAR_VAL(0.2) * A[i-1][j-1] + SCALAR_VAL(0.5) * A[i-1][j]
	+ SCALAR_VAL(-0.8) * A[i-1][j+1] + SCALAR_VAL(-0.3) * A[i][j-1]
	+ SCALAR_VAL(0.6) * A[i][j] + SCALAR_VAL(-0.9) * A[i][j+1]
	+ SCALAR_VAL(0.4) * A[i+1][j-1] + SCALAR_VAL(0.7) * A[i+1][j]
	+ SCALAR_VAL(0.1) * A[i+1][j+1];
#pragma endscop

}


int main(int argc, char** argv)
{
  int ni = NI;
  int nj = NJ;

  POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NJ, ni, nj);
  POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NI, NJ, ni, nj);

  init_array (ni, nj, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_start_instruments;

  kernel_convolution_2d (ni, nj, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

  polybench_stop_instruments;
  polybench_print_instruments;

  polybench_prevent_dce(print_array(ni, nj, POLYBENCH_ARRAY(B)));

  POLYBENCH_FREE_ARRAY(A);
  POLYBENCH_FREE_ARRAY(B);

  return 0;
}
