// Matrix Market reading through the public API (RTsp{S,D}ArrayLoadFromFile) and the reader
// itself: every supported field and symmetry, and each malformed case with its exact message.
#include "RTAPITestSupport.h"

#include "Error.h"
#include "MatrixMarket.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace rtapitest;

namespace {

std::string data(const std::string &file) { return testData(file); }

class RTAPIMatrixMarket : public ::testing::Test {
protected:
  void SetUp() override { RTAPISetErrorMode(RT_ERRORS_RETURN); }

  template <class T> std::vector<T> loadDense(const std::string &file, int rows, int cols) {
    typename Api<T>::Array a;
    EXPECT_EQ(Api<T>::load(data(file).c_str(), &a), RT_SUCCESS) << RTAPIGetLastErrorMessage();
    EXPECT_EQ(a.rows, rows);
    EXPECT_EQ(a.cols, cols);
    std::vector<T> dense = densify(a);
    Api<T>::destroy(&a);
    return dense;
  }

  // Loading `file` fails with RT_ERROR_PARSE and exactly this message.
  void expectRefused(const std::string &file, const std::string &message) {
    RTspDArray a;
    EXPECT_EQ(RTspDArrayLoadFromFile(data(file).c_str(), &a), RT_ERROR_PARSE) << file;
    EXPECT_EQ(RTAPIGetLastError(), RT_ERROR_PARSE);
    EXPECT_EQ(std::string(RTAPIGetLastErrorMessage()),
              "RTspDArrayLoadFromFile: " + data(file) + ":" + message);
  }
};

TEST_F(RTAPIMatrixMarket, RealGeneralNonSquareKeepsRowsAndColumns) {
  const std::vector<double> expect = {1.5, 0, 0, 0, -2, 0, /**/ 0,   0, 3, 0, 0, 0,
                                      0,   0, 0, 0, 0,  0, /**/ 0.4, 0, 0, 0, 0, 6.25};
  EXPECT_EQ(loadDense<double>("general_real.mtx", 4, 6), expect);
  std::vector<float> single(expect.begin(), expect.end());
  EXPECT_EQ(loadDense<float>("general_real.mtx", 4, 6), single);
}

TEST_F(RTAPIMatrixMarket, DoublesAreReadAsDoubles) {
  RTspDArray a;
  ASSERT_EQ(RTspDArrayLoadFromFile(data("general_real.mtx").c_str(), &a), RT_SUCCESS);
  // Row 4 (index 3) holds 4e-1 in column 1: exactly the double 0.4, not a float widened.
  ASSERT_EQ(a.rowPtr[4] - a.rowPtr[3], 2);
  EXPECT_EQ(a.colInd[a.rowPtr[3]], 0);
  EXPECT_EQ(a.val[a.rowPtr[3]], 0.4);
  EXPECT_NE(a.val[a.rowPtr[3]], double(0.4f));
  RTspDArrayDestroy(&a);
}

TEST_F(RTAPIMatrixMarket, CsrIsSortedWithinRows) {
  RTspSArray a;
  ASSERT_EQ(RTspSArrayLoadFromFile(data("general_real.mtx").c_str(), &a), RT_SUCCESS);
  EXPECT_EQ(a.nnz, 5);
  EXPECT_EQ(std::vector<int>(a.rowPtr, a.rowPtr + 5), (std::vector<int>{0, 2, 3, 3, 5}));
  EXPECT_EQ(std::vector<int>(a.colInd, a.colInd + 5), (std::vector<int>{0, 4, 2, 0, 5}));
  RTspSArrayDestroy(&a);
}

TEST_F(RTAPIMatrixMarket, IntegerGeneralSumsDuplicates) {
  const std::vector<double> expect = {0, 10, 0, 0, 0, /**/ 0, 0, 0, 5, 0, /**/ 8, 0, 0, 0, -3};
  EXPECT_EQ(loadDense<double>("general_integer.mtx", 3, 5), expect);
}

TEST_F(RTAPIMatrixMarket, PatternEntriesAreOne) {
  const std::vector<float> expect = {0, 0,      1, /**/ 1, 0,      0, /**/ 0, 0,
                                     0, /**/ 0, 0, 1,      /**/ 0, 1, 0};
  EXPECT_EQ(loadDense<float>("pattern_general.mtx", 5, 3), expect);
}

TEST_F(RTAPIMatrixMarket, SymmetricLowerTriangleIsMirrored) {
  const std::vector<double> expect = {4,  -1, 0,      0, 1,  /**/ -1, 4,  -1, 0, 0, 0,  -1, 4,
                                      -1, 0,  /**/ 0, 0, -1, 4,       -1, 1,  0, 0, -1, 4};
  EXPECT_EQ(loadDense<double>("spd_lower.mtx", 5, 5), expect);
  RTspDArray a;
  ASSERT_EQ(RTspDArrayLoadFromFile(data("spd_lower.mtx").c_str(), &a), RT_SUCCESS);
  EXPECT_EQ(a.nnz, 15); // 5 diagonal + 2 x 5 off-diagonal
  RTspDArrayDestroy(&a);
}

TEST_F(RTAPIMatrixMarket, SkewSymmetricMirrorIsNegated) {
  const std::vector<double> expect = {0, -2, 1, /**/ 2, 0, -5, /**/ -1, 5, 0};
  EXPECT_EQ(loadDense<double>("skew_symmetric.mtx", 3, 3), expect);
}

TEST_F(RTAPIMatrixMarket, LoadedMatrixMultipliesCorrectly) {
  ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  RTspDArray a;
  ASSERT_EQ(RTspDArrayLoadFromFile(data("spd_lower.mtx").c_str(), &a), RT_SUCCESS);
  const double x[5] = {1, 2, 3, 4, 5};
  double y[5];
  ASSERT_EQ(RTspDMV(y, &a, x, 5, 5), RT_SUCCESS);
  const double expect[5] = {4 - 2 + 5, -1 + 8 - 3, -2 + 12 - 4, -3 + 16 - 5, 1 - 4 + 20};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y[i], expect[i]) << i;
  RTspDArrayDestroy(&a);
  EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS);
}

TEST_F(RTAPIMatrixMarket, MalformedFilesNameTheLine) {
  expectRefused("empty.mtx", "1: error: empty file; expected a '%%MatrixMarket' header");
  expectRefused("bad_banner.mtx",
                "1: error: bad header: the first line must start with '%%MatrixMarket'");
  expectRefused("bad_header.mtx",
                "1: error: bad header: expected '%%MatrixMarket matrix coordinate <field> "
                "<symmetry>'");
  expectRefused("complex_field.mtx", "1: error: complex matrices are not supported");
  expectRefused("bad_size_line.mtx",
                "3: error: the size line needs 3 integers 'rows columns entries', found 2 fields");
  expectRefused("non_numeric_value.mtx", "4: error: value 'abc' is not a number");
  expectRefused("non_numeric_index.mtx", "4: error: row index 'x' is not an integer");
  expectRefused("index_out_of_range.mtx", "7: error: column index 12 out of range 1..10");
  expectRefused("row_out_of_range.mtx", "4: error: row index 0 out of range 1..2");
  expectRefused("too_few_entries.mtx",
                "5: error: file ends after 3 of the 5 entries the size line declares");
  expectRefused("too_many_entries.mtx", "5: error: more entries than the 2 the size line declares");
  expectRefused("missing_value.mtx", "4: error: expected 3 fields 'row column value', found 2");
  expectRefused("integer_fraction.mtx", "4: error: value '2.5' is not an integer");
  expectRefused("symmetric_upper.mtx",
                "4: error: entry (1, 3) is above the diagonal; a symmetric file stores the "
                "lower triangle");
  expectRefused("symmetric_nonsquare.mtx",
                "2: error: a symmetric matrix must be square, not 3 x 4");
}

TEST_F(RTAPIMatrixMarket, MissingFileIsAFileError) {
  RTspSArray a;
  EXPECT_EQ(RTspSArrayLoadFromFile(data("no_such_file.mtx").c_str(), &a), RT_ERROR_FILE);
  EXPECT_EQ(std::string(RTAPIGetLastErrorMessage()),
            "RTspSArrayLoadFromFile: " + data("no_such_file.mtx") +
                ": error: cannot open: No such file or directory");
  EXPECT_EQ(RTspSArrayLoadFromFile(nullptr, &a), RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(RTspSArrayLoadFromFile(data("spd_lower.mtx").c_str(), nullptr),
            RT_ERROR_INVALID_ARGUMENT);
}

// ---- the reader on in-memory text ----------------------------------------------------------

rtapi::MatrixMarket parse(const std::string &text) {
  std::istringstream in(text);
  return rtapi::parseMatrixMarket(in, "text.mtx");
}

std::string parseError(const std::string &text) {
  try {
    parse(text);
  } catch (const rtapi::Error &e) {
    return e.location() + ": " + e.what();
  }
  return "no error";
}

TEST(RTAPIMatrixMarketReader, CrLfBlankLinesAndCaseInsensitiveHeader) {
  const auto m = parse("%%MatrixMarket MATRIX Coordinate Real General\r\n%c\r\n\r\n2 3 2\r\n"
                       "\r\n1 3 2.5\r\n2 1 -1\r\n");
  EXPECT_EQ(m.rows, 2);
  EXPECT_EQ(m.cols, 3);
  EXPECT_EQ(m.row, (std::vector<int>{0, 1}));
  EXPECT_EQ(m.col, (std::vector<int>{2, 0}));
  EXPECT_EQ(m.val, (std::vector<double>{2.5, -1}));
}

TEST(RTAPIMatrixMarketReader, EmptyMatrix) {
  const auto m = parse("%%MatrixMarket matrix coordinate real general\n0 0 0\n");
  EXPECT_EQ(m.rows, 0);
  EXPECT_TRUE(m.row.empty());
}

TEST(RTAPIMatrixMarketReader, MoreRefusals) {
  EXPECT_EQ(parseError("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"),
            "text.mtx:1: dense 'array' files are not supported; use 'coordinate'");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real hermitian\n"),
            "text.mtx:1: hermitian matrices are not supported");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real general\n% only comments\n"),
            "text.mtx:2: file ends before the size line 'rows columns entries'");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real general\n2 -2 1\n"),
            "text.mtx:2: column count -2 is negative");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1 7\n"),
            "text.mtx:3: expected 3 fields 'row column value', found 4");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1.0 1\n"),
            "text.mtx:3: column index '1.0' is not an integer");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1e999\n"),
            "text.mtx:3: value '1e999' is not a number");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 2 1\n"),
            "text.mtx:3: entry (2, 2) is on the diagonal of a skew-symmetric matrix");
  EXPECT_EQ(parseError("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n"),
            "text.mtx:3: expected 2 fields 'row column', found 3");
}

} // namespace
