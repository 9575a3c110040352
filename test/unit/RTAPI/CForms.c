/* Compiled as C99: both call forms of the optional trailing format argument, and the original
 * examples' square outer product RTdSVV(C, A, B, n), compile and compute the right thing.
 * Returns 0, or the number of the first check that failed. */
#include "rtapi.h"

#include <stdlib.h>
#include <string.h>

int rtapi_c_forms(void) {
  /* A = [1 0 2; 0 3 0] (2 x 3), x = (1, 2, 3) */
  const float dense[6] = {1, 0, 2, 0, 3, 0};
  const float x[3] = {1, 2, 3};
  float y[2] = {0, 0};
  float C[6];
  const float b[2] = {2, 5};
  RTspSArray A = {0};
  RTspSArray P;
  RTspSArray T;
  const float tdense[6] = {1, 0, 0, 1, 2, 0}; /* 3 x 2 */
  int status = RTAPISetErrorMode(RT_ERRORS_RETURN) < 0;
  if (status) return 1;
  /* The placement setting is C-callable too; these arrays are host memory: the default. */
  if (RTAPIGetArrayPlacement() != RT_ARRAYS_ANYWHERE) return 1;
  if (RTAPISetArrayPlacement(RT_ARRAYS_ANYWHERE) != RT_ARRAYS_ANYWHERE) return 1;
  if (RTAPIInit() != RT_SUCCESS) return 2;
  if (RTspSArrayCreate(dense, &A, 2, 3) != RT_SUCCESS) return 3;

  if (RTspSMV(y, &A, x, 2, 3) != RT_SUCCESS || y[0] != 7 || y[1] != 6) return 4;
  memset(y, 0, sizeof y);
  if (RTspSMV(y, &A, x, 2, 3, RTCSR) != RT_SUCCESS || y[0] != 7 || y[1] != 6) return 5;
  memset(y, 0, sizeof y);
  if (RTspSMV(y, &A, x, 2, 3, RTBSR) != RT_SUCCESS || y[0] != 7 || y[1] != 6) return 6;

  /* A (2 x 3) times the 3 x 2 dense tdense is [5 0; 0 3] */
  if (RTspdSMM(C, &A, tdense, 2, 2, 3) != RT_SUCCESS) return 7;
  if (C[0] != 5 || C[1] != 0 || C[2] != 0 || C[3] != 3) return 8;
  if (RTspdSMM(C, &A, tdense, 2, 2, 3, RTBSR) != RT_SUCCESS || C[0] != 5 || C[3] != 3) return 9;

  if (RTspSArrayCreate(tdense, &T, 3, 2) != RT_SUCCESS) return 10;
  if (RTspSMM(&P, &A, &T, 2, 2, 3) != RT_SUCCESS || P.rows != 2 || P.cols != 2) return 11;
  RTspSArrayDestroy(&P);
  if (RTspSMM(&P, &A, &T, 2, 2, 3, RTCSR) != RT_SUCCESS || P.nnz != 2) return 12;
  RTspSArrayDestroy(&P);

  /* Outer products: x (3) times b (2), and the square form with x and x. */
  if (RTdSVV(C, x, 3, b, 2) != RT_SUCCESS || C[0] != 2 || C[1] != 5 || C[4] != 6) return 13;
  {
    float S[9];
    if (RTdSVV(S, x, x, 3) != RT_SUCCESS || S[1] != 2 || S[5] != 6 || S[8] != 9) return 14;
  }
  /* The functions themselves, through their names in parentheses. */
  if ((RTspSMV)(y, &A, x, 2, 3, RTHYB) != RT_SUCCESS || y[0] != 7) return 15;

  RTspSArrayDestroy(&T);
  RTspSArrayDestroy(&A);
  if (RTAPIFinalize() != RT_SUCCESS) return 16;
  return 0;
}

/* The calls of the original dense example (Listing 5.11), verbatim, on malloc'd arrays: they
 * compile, including the four-argument RTdSVV, and compute what the loops would. Returns 0, or
 * the number of the first check that failed. */
int rtapi_seed_dense_example(int N) {
  float *C, *A, *B, *X, *Y;
  float result;
  int i, failed = 0;
  int memsize = N * N * sizeof(float);
  int memsizevec = N * sizeof(float);
  C = (float *)malloc(memsize);
  A = (float *)malloc(memsize);
  B = (float *)malloc(memsize);
  X = (float *)malloc(memsizevec);
  Y = (float *)malloc(memsizevec);
  for (i = 0; i < N * N; ++i) {
    A[i] = (float)(i % 7 - 3);
    B[i] = (float)(i % 5 - 2);
  }
  for (i = 0; i < N; ++i) X[i] = (float)(i % 3 - 1);

  RTAPIInit();
  RTdSMM(C, A, B, N, N, N);
  {
    float c12 = 0; /* C[1][2] */
    for (i = 0; i < N; ++i) c12 += A[N + i] * B[i * N + 2];
    if (C[N + 2] != c12) failed = 1;
  }
  RTdSMV(Y, A, X, N, N);
  {
    float y0 = 0;
    for (i = 0; i < N; ++i) y0 += A[i] * X[i];
    if (Y[0] != y0) failed = failed ? failed : 2;
  }
  RTdSMT(C, A, N, N);
  if (C[1] != A[N]) failed = failed ? failed : 3;
  RTdSVV(C, X, Y, N);
  if (C[N + 2] != X[1] * Y[2]) failed = failed ? failed : 4;
  RTdSDOT(X, Y, N, &result);
  {
    float r = 0;
    for (i = 0; i < N; ++i) r += X[i] * Y[i];
    if (result != r) failed = failed ? failed : 5;
  }
  RTAPIFinalize();

  free(C);
  free(A);
  free(B);
  free(X);
  free(Y);
  return failed;
}
