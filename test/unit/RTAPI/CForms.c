/* Compiled as C99: both call forms of the optional trailing format argument, and the original
 * examples' square outer product RTdSVV(C, A, B, n), compile and compute the right thing.
 * Returns 0, or the number of the first check that failed. */
#include "rtapi.h"

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
