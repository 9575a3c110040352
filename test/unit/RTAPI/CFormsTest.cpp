// Runs the C99 translation unit CForms.c, and the same call forms from C++.
#include "rtapi.h"

#include <gtest/gtest.h>

extern "C" int rtapi_c_forms(void);
extern "C" int rtapi_seed_dense_example(int N);

TEST(RTAPICForms, BothFormatFormsCompileAndRunFromC) { EXPECT_EQ(rtapi_c_forms(), 0); }

TEST(RTAPICForms, OriginalDenseExampleCompilesAndRuns) {
  RTAPISetErrorMode(RT_ERRORS_RETURN);
  EXPECT_EQ(rtapi_seed_dense_example(33), 0) << RTAPIGetLastErrorMessage();
}

TEST(RTAPICForms, BothFormatFormsFromCxx) {
  RTAPISetErrorMode(RT_ERRORS_RETURN);
  ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  const double dense[4] = {2, 0, 0, 3};
  const double x[2] = {1, 1};
  double y[2];
  RTspDArray A;
  ASSERT_EQ(RTspDArrayCreate(dense, &A, 2, 2), RT_SUCCESS);
  EXPECT_EQ(RTspDMV(y, &A, x, 2, 2), RT_SUCCESS);
  EXPECT_EQ(y[1], 3.0);
  EXPECT_EQ(RTspDMV(y, &A, x, 2, 2, RTBSR), RT_SUCCESS);
  EXPECT_EQ(y[0], 2.0);
  double C[4];
  EXPECT_EQ(RTspdDMM(C, &A, dense, 2, 2, 2), RT_SUCCESS);
  EXPECT_EQ(C[3], 9.0);
  EXPECT_EQ(RTspdDMM(C, &A, dense, 2, 2, 2, RTHYB), RT_SUCCESS);
  RTspDArray P;
  EXPECT_EQ(RTspDMM(&P, &A, &A, 2, 2, 2), RT_SUCCESS);
  EXPECT_EQ(P.val[1], 9.0);
  RTspDArrayDestroy(&P);
  EXPECT_EQ(RTdDVV(C, x, x, 2), RT_SUCCESS);
  EXPECT_EQ(RTdDVV(C, x, 2, x, 2), RT_SUCCESS);
  RTspDArrayDestroy(&A);
  EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS);
}
