// The shared host-side sparse code: triplets -> CSR, dense -> CSR, CSR -> BSR and the block
// size choice. The GPU BSR path uses this same conversion.
#include "Reference.h"
#include "Sparse.h"

#include "RTAPITestSupport.h"

#include <gtest/gtest.h>

using namespace rtapi;

namespace {

TEST(RTAPISparse, TripletsAreSortedAndDuplicatesSummed) {
  const Csr<double> a =
      csrFromTriplets<double>(3, 4, std::vector<int>{2, 0, 2, 0, 2},
                              std::vector<int>{3, 1, 0, 1, 3}, std::vector<double>{1, 2, 3, 4, 5});
  EXPECT_EQ(a.rowPtr, (std::vector<int>{0, 1, 1, 3}));
  EXPECT_EQ(a.colInd, (std::vector<int>{1, 0, 3}));
  EXPECT_EQ(a.val, (std::vector<double>{6, 3, 6}));
}

template <class T> std::vector<T> bsrDense(const Bsr<T> &b) {
  // Dense form through the BSR product with the identity.
  std::vector<T> eye(static_cast<std::size_t>(b.cols) * b.cols, T(0));
  for (int i = 0; i < b.cols; ++i) eye[rtapitest::at(i, i, b.cols)] = T(1);
  std::vector<T> out(static_cast<std::size_t>(b.rows) * b.cols);
  ref::bsrmm(b, eye.data(), b.cols, out.data());
  return out;
}

TEST(RTAPISparse, BsrRoundTripAtAwkwardSizes) {
  for (int bd : {2, 3, 4}) {
    for (auto shape : {std::pair<int, int>{7, 5}, {1, 9}, {8, 8}, {13, 2}}) {
      const auto D = rtapitest::randomSparse<float>(shape.first, shape.second, 0.3, 21);
      const Csr<float> csr = csrFromDense(D.data(), shape.first, shape.second);
      const Bsr<float> bsr = csrToBsr(csr.view(), bd);
      EXPECT_EQ(bsr.blockRows, (shape.first + bd - 1) / bd);
      EXPECT_EQ(bsr.blockCols, (shape.second + bd - 1) / bd);
      EXPECT_EQ(bsr.val.size(), bsr.colInd.size() * bd * bd);
      EXPECT_EQ(bsrDense(bsr), D) << "block " << bd << " " << shape.first << "x" << shape.second;
      for (int br = 0; br < bsr.blockRows; ++br)
        for (int s = bsr.rowPtr[br] + 1; s < bsr.rowPtr[br + 1]; ++s)
          EXPECT_LT(bsr.colInd[s - 1], bsr.colInd[s]);
    }
  }
}

TEST(RTAPISparse, BlockSizeFollowsTheFill) {
  // Full 4x4 blocks: block size 4. A diagonal: 4x4 blocks would store 4 values per nonzero.
  std::vector<double> blocks(16 * 16, 0.0), diagonal(16 * 16, 0.0);
  for (int i = 0; i < 16; ++i) {
    diagonal[rtapitest::at(i, i, 16)] = 1;
    for (int j = 0; j < 16; ++j)
      if (i / 4 == j / 4) blocks[rtapitest::at(i, j, 16)] = 1;
  }
  EXPECT_EQ(chooseBsrBlockDim(csrFromDense(blocks.data(), 16, 16).view()), 4);
  EXPECT_EQ(chooseBsrBlockDim(csrFromDense(diagonal.data(), 16, 16).view()), 2);
  // Never larger than the smaller dimension; no block at all for a single row or column.
  EXPECT_EQ(chooseBsrBlockDim(csrFromDense(blocks.data(), 3, 16).view()), 2);
  EXPECT_EQ(chooseBsrBlockDim(csrFromDense(blocks.data(), 16, 1).view()), 0);
  EXPECT_EQ(largestBlockDim(0, 0), 0);
}

TEST(RTAPISparse, DenseRoundTrip) {
  const auto D = rtapitest::randomSparse<double>(6, 11, 0.4, 22);
  const Csr<double> csr = csrFromDense(D.data(), 6, 11);
  std::vector<double> back(D.size());
  csrToDense(csr.view(), back.data());
  EXPECT_EQ(back, D);
}

} // namespace
