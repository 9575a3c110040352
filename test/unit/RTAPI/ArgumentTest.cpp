// Wrong arguments are errors with a clear message, never crashes; the error policy (abort by
// default, or return) and the context rules.
#include "RTAPITestSupport.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace rtapitest;

namespace {

std::string lastMessage() { return RTAPIGetLastErrorMessage(); }

class RTAPIArguments : public ::testing::Test {
protected:
  void SetUp() override {
    RTAPISetErrorMode(RT_ERRORS_RETURN);
    ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS); }

  float a_[64] = {}, b_[64] = {}, c_[64] = {};
};

TEST_F(RTAPIArguments, NegativeSizes) {
  EXPECT_EQ(RTdSMM(c_, a_, b_, -1, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSMM: error: argument m is negative (-1)");
  EXPECT_EQ(RTAPIGetLastError(), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(RTdSMV(c_, a_, b_, 2, -3), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSMV: error: argument n is negative (-3)");
  EXPECT_EQ(RTdSMT(c_, a_, 2, -1), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(RTdSVV(c_, a_, -2, b_, 2), RT_ERROR_INVALID_ARGUMENT);
  float r = 0;
  EXPECT_EQ(RTdSDOT(a_, b_, -5, &r), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSDOT: error: argument n is negative (-5)");
  RTspSArray s;
  EXPECT_EQ(RTspSArrayCreate(a_, &s, 4, -4), RT_ERROR_INVALID_ARGUMENT);
}

TEST_F(RTAPIArguments, SuccessClearsTheLastError) {
  EXPECT_EQ(RTdSMM(c_, a_, b_, -1, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(RTdSMM(c_, a_, b_, 2, 2, 2), RT_SUCCESS);
  EXPECT_EQ(RTAPIGetLastError(), RT_SUCCESS);
  EXPECT_EQ(lastMessage(), "");
}

TEST_F(RTAPIArguments, NullPointers) {
  EXPECT_EQ(RTdDMM(nullptr, nullptr, nullptr, 2, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdDMM: error: argument C is a null pointer");
  EXPECT_EQ(RTdSMM(c_, nullptr, b_, 2, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSMM: error: argument A is a null pointer");
  EXPECT_EQ(RTdSDOT(a_, b_, 3, nullptr), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSDOT: error: argument r is a null pointer");
  EXPECT_EQ(RTspSMV(c_, nullptr, b_, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: argument A is a null pointer");
  EXPECT_EQ(RTspSArrayDestroy(nullptr), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(RTspSArrayCreate(a_, nullptr, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSArrayCreate: error: argument array is a null pointer");
  // Null is fine where nothing is read: a zero-sized operand.
  EXPECT_EQ(RTdSMM(c_, nullptr, nullptr, 2, 2, 0), RT_SUCCESS);
}

TEST_F(RTAPIArguments, OutputOverlappingAnInput) {
  EXPECT_EQ(RTdSMM(a_, a_, b_, 4, 4, 4), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSMM: error: output C overlaps input A");
  EXPECT_EQ(RTdSMV(b_ + 2, a_, b_, 4, 4), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSMV: error: output C overlaps input B");
  EXPECT_EQ(RTdSMT(a_ + 1, a_, 3, 3), RT_ERROR_INVALID_ARGUMENT);
  // Adjacent, not overlapping.
  EXPECT_EQ(RTdSMV(a_ + 16, a_, b_, 4, 4), RT_SUCCESS);
}

TEST_F(RTAPIArguments, SparseShapeMismatch) {
  RTspSArray s;
  ASSERT_EQ(RTspSArrayCreate(a_, &s, 4, 6), RT_SUCCESS);
  EXPECT_EQ(RTspSMV(c_, &s, b_, 4, 5), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: A is 4 x 6, but m = 4 and n = 5 were given");
  EXPECT_EQ(RTspdSMM(c_, &s, b_, 4, 2, 5, RTCSR), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspdSMM: error: A is 4 x 6, but m = 4 and k = 5 were given");
  RTspSArray c;
  EXPECT_EQ(RTspSMM(&c, &s, &s, 4, 6, 6), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMM: error: B is 4 x 6, but k = 6 and n = 6 were given");
  RTspSArrayDestroy(&s);
}

TEST_F(RTAPIArguments, Formats) {
  RTspSArray s;
  ASSERT_EQ(RTspSArrayCreate(a_, &s, 4, 4), RT_SUCCESS);
  EXPECT_EQ(RTspSMV(c_, &s, b_, 4, 4, 0), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: format 0 is not RTCSR, RTBSR or RTHYB");
  EXPECT_EQ(RTspdSMM(c_, &s, b_, 4, 4, 4, 42), RT_ERROR_INVALID_ARGUMENT);
  RTspSArray c;
  EXPECT_EQ(RTspSMM(&c, &s, &s, 4, 4, 4, RTBSR), RT_ERROR_UNSUPPORTED);
  EXPECT_EQ(lastMessage(),
            "RTspSMM: error: format RTBSR is not supported by RTspSMM (sparse x sparse runs on "
            "CSR only)");
  EXPECT_EQ(RTspSMM(&c, &s, &s, 4, 4, 4, RTHYB), RT_SUCCESS);
  RTspSArrayDestroy(&c);
  RTspSArrayDestroy(&s);
}

TEST_F(RTAPIArguments, BrokenHandMadeArrays) {
  int rowPtr[3] = {0, 1, 2};
  int colInd[2] = {0, 7};
  float val[2] = {1, 2};
  RTspSArray s = {2, 3, 2, rowPtr, colInd, val, 0};
  EXPECT_EQ(RTspSMV(c_, &s, b_, 2, 3), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: A.colInd[1] = 7 is out of range 0..2");
  colInd[1] = 2;
  EXPECT_EQ(RTspSMV(c_, &s, b_, 2, 3), RT_SUCCESS); // a valid hand-made array works
  rowPtr[2] = 1;
  EXPECT_EQ(RTspSMV(c_, &s, b_, 2, 3), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: A.rowPtr[2] = 1 differs from nnz 2");
  rowPtr[1] = 2;
  rowPtr[2] = 2;
  colInd[1] = 0;
  EXPECT_EQ(RTspSMV(c_, &s, b_, 2, 3), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(),
            "RTspSMV: error: A: the column indices of row 0 are not strictly increasing");
  s.nnz = -1;
  EXPECT_EQ(RTspSMV(c_, &s, b_, 2, 3), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: A has a negative nonzero count (-1)");
  s.nnz = 2;
  s.val = nullptr;
  EXPECT_EQ(RTspSMV(c_, &s, b_, 2, 3), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTspSMV: error: A.val is a null pointer");
  // Destroy leaves arrays the library did not allocate alone.
  s.val = val;
  EXPECT_EQ(RTspSArrayDestroy(&s), RT_SUCCESS);
  EXPECT_EQ(s.rowPtr, rowPtr);
}

TEST_F(RTAPIArguments, DestroyTwiceIsHarmless) {
  RTspSArray s;
  ASSERT_EQ(RTspSArrayCreate(a_, &s, 4, 4), RT_SUCCESS);
  EXPECT_EQ(RTspSArrayDestroy(&s), RT_SUCCESS);
  EXPECT_EQ(RTspSArrayDestroy(&s), RT_SUCCESS);
}

TEST(RTAPIContext, CallsNeedInit) {
  RTAPISetErrorMode(RT_ERRORS_RETURN);
  float a[4] = {}, c[4] = {};
  EXPECT_EQ(RTdSMM(c, a, a, 2, 2, 1), RT_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(lastMessage(), "RTdSMM: error: RTAPIInit has not been called");
  EXPECT_EQ(RTAPIFinalize(), RT_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(lastMessage(), "RTAPIFinalize: error: RTAPIFinalize without RTAPIInit");
  // Nested Init/Finalize pairs are counted.
  ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS);
  EXPECT_EQ(RTdSMM(c, a, a, 2, 2, 1), RT_SUCCESS);
  EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS);
  EXPECT_EQ(RTdSMM(c, a, a, 2, 2, 1), RT_ERROR_NOT_INITIALIZED);
  // Arrays can be made and loaded without a context.
  RTspSArray s;
  EXPECT_EQ(RTspSArrayCreate(a, &s, 2, 2), RT_SUCCESS);
  EXPECT_EQ(RTspSArrayDestroy(&s), RT_SUCCESS);
}

TEST(RTAPIErrorPolicy, ModesAndNames) {
  const int before = RTAPISetErrorMode(RT_ERRORS_ABORT);
  EXPECT_EQ(RTAPIGetErrorMode(), RT_ERRORS_ABORT);
  EXPECT_EQ(RTAPISetErrorMode(7), -1);
  EXPECT_EQ(RTAPIGetErrorMode(), RT_ERRORS_ABORT);
  EXPECT_EQ(RTAPISetErrorMode(RT_ERRORS_RETURN), RT_ERRORS_ABORT);
  RTAPISetErrorMode(before);
  EXPECT_STREQ(RTAPIGetStatusName(RT_ERROR_PARSE), "RT_ERROR_PARSE");
  EXPECT_STREQ(RTAPIGetStatusName(RT_ERROR_CUSPARSE), "RT_ERROR_CUSPARSE");
  EXPECT_STREQ(RTAPIGetStatusName(12345), "RT_ERROR_UNKNOWN");
}

TEST(RTAPIArrayPlacement, SettingAndItsChecks) {
  const int before = RTAPISetArrayPlacement(RT_ARRAYS_ON_DEVICE);
  EXPECT_EQ(before, RT_ARRAYS_ANYWHERE); // the default
  EXPECT_EQ(RTAPIGetArrayPlacement(), RT_ARRAYS_ON_DEVICE);
  EXPECT_EQ(RTAPISetArrayPlacement(2), -1);
  EXPECT_EQ(RTAPIGetArrayPlacement(), RT_ARRAYS_ON_DEVICE);
  // The promise skips the pointer queries, not the argument checks.
  RTAPISetErrorMode(RT_ERRORS_RETURN);
  ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  float a[4] = {}, c[4] = {};
  EXPECT_EQ(RTdSMM(c, a, a, -1, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(RTdSMV(c, nullptr, a, 2, 2), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastMessage(), "RTdSMV: error: argument A is a null pointer");
  EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS);
  EXPECT_EQ(RTAPISetArrayPlacement(before), RT_ARRAYS_ON_DEVICE);
}

void negativeSizeInAbortMode() {
  RTAPISetErrorMode(RT_ERRORS_ABORT);
  RTAPIInit();
  float a[4] = {}, c[4] = {};
  RTdSMM(c, a, a, -1, 2, 2);
}

void malformedFileInAbortMode() {
  RTAPISetErrorMode(RT_ERRORS_ABORT);
  RTspSArray s;
  RTspSArrayLoadFromFile(testData("index_out_of_range.mtx").c_str(), &s);
}

TEST(RTAPIErrorPolicyDeathTest, AbortModePrintsAndExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(negativeSizeInAbortMode(), ::testing::ExitedWithCode(1),
              "RTdSMM: error: argument m is negative \\(-1\\)");
  EXPECT_EXIT(malformedFileInAbortMode(), ::testing::ExitedWithCode(1),
              "RTspSArrayLoadFromFile: .*index_out_of_range.mtx:7: error: column index 12 out of "
              "range 1..10");
}

} // namespace
