// Every function of the CPU implementation against naive loops, at non-square sizes, in float
// and double. Inputs are small integers, so results must match exactly.
#include "RTAPITestSupport.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace rtapitest;

namespace {

template <class T> class RTAPICpu : public ::testing::Test {
protected:
  using A = Api<T>;
  using Array = typename Api<T>::Array;
  void SetUp() override {
    RTAPISetErrorMode(RT_ERRORS_RETURN);
    ASSERT_EQ(RTAPIInit(), RT_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(RTAPIFinalize(), RT_SUCCESS); }

  // A sparse struct made by RTsp*ArrayCreate from a dense matrix.
  Array make(const std::vector<T> &dense, int rows, int cols) {
    Array a;
    EXPECT_EQ(A::create(dense.data(), &a, rows, cols), RT_SUCCESS) << RTAPIGetLastErrorMessage();
    return a;
  }
};

using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RTAPICpu, Precisions);

struct Shape {
  int m, n, k;
};
const Shape kShapes[] = {{37, 23, 51}, {5, 64, 3}, {64, 1, 17}, {1, 29, 40}, {13, 13, 13}};

TYPED_TEST(RTAPICpu, ImplementationIsCpu) { EXPECT_STREQ(RTAPIGetImplementation(), "cpu"); }

TYPED_TEST(RTAPICpu, DenseMatrixMatrix) {
  using T = TypeParam;
  for (const Shape s : kShapes) {
    const auto A = randomInts<T>(static_cast<std::size_t>(s.m) * s.k, 1);
    const auto B = randomInts<T>(static_cast<std::size_t>(s.k) * s.n, 2);
    std::vector<T> C(static_cast<std::size_t>(s.m) * s.n, T(99));
    ASSERT_EQ(Api<T>::mm(C.data(), A.data(), B.data(), s.m, s.n, s.k), RT_SUCCESS);
    EXPECT_EQ(maxDiff(C, naiveMM(A, B, s.m, s.n, s.k)), 0.0) << s.m << "x" << s.n << "x" << s.k;
  }
}

TYPED_TEST(RTAPICpu, DenseMatrixMatrixWithEmptyInnerDimensionIsZero) {
  using T = TypeParam;
  std::vector<T> C(6, T(7));
  ASSERT_EQ(Api<T>::mm(C.data(), nullptr, nullptr, 2, 3, 0), RT_SUCCESS);
  EXPECT_EQ(C, std::vector<T>(6, T(0)));
}

TYPED_TEST(RTAPICpu, DenseMatrixVector) {
  using T = TypeParam;
  for (const Shape s : kShapes) {
    const auto A = randomInts<T>(static_cast<std::size_t>(s.m) * s.n, 3);
    const auto x = randomInts<T>(static_cast<std::size_t>(s.n), 4);
    std::vector<T> y(static_cast<std::size_t>(s.m), T(99));
    ASSERT_EQ(Api<T>::mv(y.data(), A.data(), x.data(), s.m, s.n), RT_SUCCESS);
    EXPECT_EQ(maxDiff(y, naiveMM(A, x, s.m, 1, s.n)), 0.0) << s.m << "x" << s.n;
  }
}

TYPED_TEST(RTAPICpu, DenseTransposeTakesAnNByMMatrix) {
  using T = TypeParam;
  const int m = 7, n = 3; // C is 7 x 3, A is 3 x 7
  const auto A = randomInts<T>(static_cast<std::size_t>(n) * m, 5);
  std::vector<T> C(static_cast<std::size_t>(m) * n);
  ASSERT_EQ(Api<T>::mt(C.data(), A.data(), m, n), RT_SUCCESS);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(C[at(i, j, n)], A[at(j, i, m)]) << i << "," << j;
}

TYPED_TEST(RTAPICpu, OuterProductIsNotTransposed) {
  using T = TypeParam;
  const int m = 5, n = 8;
  const auto a = randomInts<T>(m, 6), b = randomInts<T>(n, 7);
  std::vector<T> C(static_cast<std::size_t>(m) * n);
  ASSERT_EQ(Api<T>::vv(C.data(), a.data(), m, b.data(), n), RT_SUCCESS);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(C[at(i, j, n)], a[i] * b[j]);
  // The original examples' square form RTdSVV(C, A, B, n).
  const auto c = randomInts<T>(n, 8);
  std::vector<T> S(static_cast<std::size_t>(n) * n);
  ASSERT_EQ(Api<T>::vvSquare(S.data(), b.data(), c.data(), n), RT_SUCCESS);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(S[at(i, j, n)], b[i] * c[j]);
}

TYPED_TEST(RTAPICpu, DotProduct) {
  using T = TypeParam;
  const int n = 1001;
  const auto a = randomInts<T>(n, 9), b = randomInts<T>(n, 10);
  double expect = 0;
  for (int i = 0; i < n; ++i) expect += double(a[i]) * double(b[i]);
  T r = T(-1);
  ASSERT_EQ(Api<T>::dot(a.data(), b.data(), n, &r), RT_SUCCESS);
  EXPECT_EQ(double(r), expect);
  ASSERT_EQ(Api<T>::dot(nullptr, nullptr, 0, &r), RT_SUCCESS);
  EXPECT_EQ(r, T(0));
}

TYPED_TEST(RTAPICpu, CreateKeepsRowMajorOrder) {
  using T = TypeParam;
  const int m = 3, n = 4;
  const std::vector<T> D = {0, 2, 0, 0, /**/ 0, 0, 0, 0, /**/ 5, 0, 0, -1};
  auto a = this->make(D, m, n);
  EXPECT_EQ(a.rows, m);
  EXPECT_EQ(a.cols, n);
  ASSERT_EQ(a.nnz, 3);
  EXPECT_EQ(std::vector<int>(a.rowPtr, a.rowPtr + m + 1), (std::vector<int>{0, 1, 1, 3}));
  EXPECT_EQ(std::vector<int>(a.colInd, a.colInd + 3), (std::vector<int>{1, 0, 3}));
  EXPECT_EQ(std::vector<T>(a.val, a.val + 3), (std::vector<T>{2, 5, -1}));
  EXPECT_EQ(densify(a), D);
  ASSERT_EQ(Api<T>::destroy(&a), RT_SUCCESS);
  EXPECT_EQ(a.rowPtr, nullptr);
  EXPECT_EQ(a.nnz, 0);
}

TYPED_TEST(RTAPICpu, SparseMatrixVectorAllFormats) {
  using T = TypeParam;
  for (const Shape s : kShapes) {
    const auto D = randomSparse<T>(s.m, s.n, 0.2, 11);
    const auto x = randomInts<T>(static_cast<std::size_t>(s.n), 12);
    const auto expect = naiveMM(D, x, s.m, 1, s.n);
    auto a = this->make(D, s.m, s.n);
    for (int format : {RTCSR, RTBSR, RTHYB}) {
      std::vector<T> y(static_cast<std::size_t>(s.m), T(99));
      ASSERT_EQ(Api<T>::spmv(y.data(), &a, x.data(), s.m, s.n, format), RT_SUCCESS)
          << RTAPIGetLastErrorMessage();
      EXPECT_EQ(maxDiff(y, expect), 0.0) << "format " << format << " " << s.m << "x" << s.n;
    }
    std::vector<T> y(static_cast<std::size_t>(s.m), T(99));
    ASSERT_EQ(Api<T>::spmvDefault(y.data(), &a, x.data(), s.m, s.n), RT_SUCCESS);
    EXPECT_EQ(maxDiff(y, expect), 0.0);
    Api<T>::destroy(&a);
  }
}

TYPED_TEST(RTAPICpu, SparseDenseMatrixMatrixAllFormats) {
  using T = TypeParam;
  for (const Shape s : kShapes) {
    const auto D = randomSparse<T>(s.m, s.k, 0.25, 13);
    const auto B = randomInts<T>(static_cast<std::size_t>(s.k) * s.n, 14);
    const auto expect = naiveMM(D, B, s.m, s.n, s.k);
    auto a = this->make(D, s.m, s.k);
    for (int format : {RTCSR, RTBSR, RTHYB}) {
      std::vector<T> C(static_cast<std::size_t>(s.m) * s.n, T(99));
      ASSERT_EQ(Api<T>::spdmm(C.data(), &a, B.data(), s.m, s.n, s.k, format), RT_SUCCESS)
          << RTAPIGetLastErrorMessage();
      EXPECT_EQ(maxDiff(C, expect), 0.0) << "format " << format;
    }
    std::vector<T> C(static_cast<std::size_t>(s.m) * s.n, T(99));
    ASSERT_EQ(Api<T>::spdmmDefault(C.data(), &a, B.data(), s.m, s.n, s.k), RT_SUCCESS);
    EXPECT_EQ(maxDiff(C, expect), 0.0);
    Api<T>::destroy(&a);
  }
}

TYPED_TEST(RTAPICpu, BsrPathWithFullBlocks) {
  // Dense 4x4 blocks make the BSR path choose block size 4; 18 x 10 is not a multiple of it.
  using T = TypeParam;
  const int m = 18, n = 10;
  std::vector<T> D(static_cast<std::size_t>(m) * n, T(0));
  const auto values = randomInts<T>(D.size(), 15);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      if (((i / 4) + (j / 4)) % 2 == 0)
        D[at(i, j, n)] = values[at(i, j, n)] == 0 ? T(1) : values[at(i, j, n)];
  const auto x = randomInts<T>(n, 16);
  auto a = this->make(D, m, n);
  std::vector<T> y(m);
  ASSERT_EQ(Api<T>::spmv(y.data(), &a, x.data(), m, n, RTBSR), RT_SUCCESS);
  EXPECT_EQ(maxDiff(y, naiveMM(D, x, m, 1, n)), 0.0);
  Api<T>::destroy(&a);
}

TYPED_TEST(RTAPICpu, SparseSparseMatrixMatrix) {
  using T = TypeParam;
  for (const Shape s : kShapes) {
    const auto DA = randomSparse<T>(s.m, s.k, 0.2, 17);
    const auto DB = randomSparse<T>(s.k, s.n, 0.2, 18);
    auto a = this->make(DA, s.m, s.k);
    auto b = this->make(DB, s.k, s.n);
    typename Api<T>::Array c; // uninitialized on purpose: an output is never read
    std::memset(static_cast<void *>(&c), 0xAB, sizeof c);
    ASSERT_EQ(Api<T>::spmm(&c, &a, &b, s.m, s.n, s.k, RTCSR), RT_SUCCESS)
        << RTAPIGetLastErrorMessage();
    EXPECT_EQ(c.rows, s.m);
    EXPECT_EQ(c.cols, s.n);
    EXPECT_EQ(maxDiff(densify(c), naiveMM(DA, DB, s.m, s.n, s.k)), 0.0);
    Api<T>::destroy(&c);
    ASSERT_EQ(Api<T>::spmmDefault(&c, &a, &b, s.m, s.n, s.k), RT_SUCCESS);
    EXPECT_EQ(maxDiff(densify(c), naiveMM(DA, DB, s.m, s.n, s.k)), 0.0);
    Api<T>::destroy(&c);
    Api<T>::destroy(&a);
    Api<T>::destroy(&b);
  }
}

TYPED_TEST(RTAPICpu, SparseSparseOutputMayBeAnInput) {
  using T = TypeParam;
  const int n = 9;
  const auto D = randomSparse<T>(n, n, 0.3, 19);
  auto a = this->make(D, n, n);
  ASSERT_EQ(Api<T>::spmm(&a, &a, &a, n, n, n, RTHYB), RT_SUCCESS);
  EXPECT_EQ(maxDiff(densify(a), naiveMM(D, D, n, n, n)), 0.0);
  Api<T>::destroy(&a);
}

TYPED_TEST(RTAPICpu, EmptyAndZeroSizedOperands) {
  using T = TypeParam;
  auto zero = this->make(std::vector<T>(12, T(0)), 3, 4);
  EXPECT_EQ(zero.nnz, 0);
  std::vector<T> x(4, T(1)), y(3, T(5));
  ASSERT_EQ(Api<T>::spmv(y.data(), &zero, x.data(), 3, 4, RTBSR), RT_SUCCESS);
  EXPECT_EQ(y, std::vector<T>(3, T(0)));
  typename Api<T>::Array c;
  ASSERT_EQ(Api<T>::spmm(&c, &zero, &zero, 3, 4, 4, RTCSR), RT_ERROR_INVALID_ARGUMENT);
  auto square = this->make(std::vector<T>(16, T(0)), 4, 4);
  ASSERT_EQ(Api<T>::spmm(&c, &zero, &square, 3, 4, 4, RTCSR), RT_SUCCESS);
  EXPECT_EQ(c.nnz, 0);
  EXPECT_EQ(std::vector<int>(c.rowPtr, c.rowPtr + 4), std::vector<int>(4, 0));
  Api<T>::destroy(&c);
  Api<T>::destroy(&square);
  Api<T>::destroy(&zero);
  ASSERT_EQ(Api<T>::mm(nullptr, nullptr, nullptr, 0, 0, 0), RT_SUCCESS);
  ASSERT_EQ(Api<T>::mv(nullptr, nullptr, nullptr, 0, 5), RT_ERROR_INVALID_ARGUMENT);
}

} // namespace
