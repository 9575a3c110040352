#include "Sparse.h"

#include "Error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

namespace rtapi {

template <class T, class V>
Csr<T> csrFromTriplets(int rows, int cols, const std::vector<int> &row, const std::vector<int> &col,
                       const std::vector<V> &val) {
  const std::size_t count = row.size();
  Csr<T> out;
  out.rows = rows;
  out.cols = cols;
  // Counting sort by row, then sort each row by column and sum duplicates.
  std::vector<std::size_t> start(static_cast<std::size_t>(rows) + 1, 0);
  for (std::size_t e = 0; e < count; ++e) ++start[static_cast<std::size_t>(row[e]) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::size_t> order(count);
  {
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < count; ++e) order[next[static_cast<std::size_t>(row[e])]++] = e;
  }
  out.rowPtr.assign(static_cast<std::size_t>(rows) + 1, 0);
  out.colInd.reserve(count);
  out.val.reserve(count);
  for (int r = 0; r < rows; ++r) {
    auto first = order.begin() + static_cast<std::ptrdiff_t>(start[static_cast<std::size_t>(r)]);
    auto last = order.begin() + static_cast<std::ptrdiff_t>(start[static_cast<std::size_t>(r) + 1]);
    std::stable_sort(first, last, [&](std::size_t a, std::size_t b) { return col[a] < col[b]; });
    for (auto it = first; it != last; ++it) {
      const int c = col[*it];
      const T v = static_cast<T>(val[*it]);
      if (it != first && out.colInd.back() == c)
        out.val.back() += v;
      else {
        out.colInd.push_back(c);
        out.val.push_back(v);
      }
    }
    if (out.colInd.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      fail(RT_ERROR_UNSUPPORTED, "more than 2^31-1 nonzeros");
    out.rowPtr[static_cast<std::size_t>(r) + 1] = static_cast<int>(out.colInd.size());
  }
  return out;
}

template <class T> Csr<T> csrFromDense(const T *dense, int rows, int cols) {
  Csr<T> out;
  out.rows = rows;
  out.cols = cols;
  out.rowPtr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (int i = 0; i < rows; ++i) {
    const T *line = dense + static_cast<std::size_t>(i) * static_cast<std::size_t>(cols);
    for (int j = 0; j < cols; ++j) {
      if (line[j] != T(0)) {
        out.colInd.push_back(j);
        out.val.push_back(line[j]);
      }
    }
    if (out.colInd.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      fail(RT_ERROR_UNSUPPORTED, "more than 2^31-1 nonzeros");
    out.rowPtr[static_cast<std::size_t>(i) + 1] = static_cast<int>(out.colInd.size());
  }
  return out;
}

template <class T> void csrToDense(const CsrView<T> &a, T *dense) {
  const std::size_t cols = static_cast<std::size_t>(a.cols);
  std::fill(dense, dense + static_cast<std::size_t>(a.rows) * cols, T(0));
  for (int i = 0; i < a.rows; ++i)
    for (int e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e)
      dense[static_cast<std::size_t>(i) * cols + static_cast<std::size_t>(a.colInd[e])] += a.val[e];
}

namespace {

// Number of nonzero blockDim x blockDim blocks of a CSR pattern.
long long countBlocks(const CsrView<float> &a, int blockDim) {
  const int blockRows = (a.rows + blockDim - 1) / blockDim;
  const int blockCols = (a.cols + blockDim - 1) / blockDim;
  std::vector<int> seen(static_cast<std::size_t>(blockCols), -1);
  long long blocks = 0;
  for (int br = 0; br < blockRows; ++br) {
    const int rowEnd = std::min(a.rows, (br + 1) * blockDim);
    for (int i = br * blockDim; i < rowEnd; ++i)
      for (int e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) {
        int &mark = seen[static_cast<std::size_t>(a.colInd[e] / blockDim)];
        if (mark != br) {
          mark = br;
          ++blocks;
        }
      }
  }
  return blocks;
}

} // namespace

int blockDimForCount(long long blocks4, long long nnz) {
  if (nnz == 0) return 2;
  return 16.0 * static_cast<double>(blocks4) <= 1.5 * static_cast<double>(nnz) ? 4 : 2;
}

int largestBlockDim(int rows, int cols) {
  const int smaller = std::min(rows, cols);
  return smaller >= 4 ? 4 : smaller >= 2 ? 2 : 0;
}

int chooseBlockDim(const CsrView<float> &pattern) {
  const int largest = largestBlockDim(pattern.rows, pattern.cols);
  if (largest < 4) return largest;
  return blockDimForCount(countBlocks(pattern, 4), pattern.nnz);
}

template <class T> Bsr<T> csrToBsr(const CsrView<T> &a, int blockDim) {
  Bsr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.blockDim = blockDim;
  out.blockRows = (a.rows + blockDim - 1) / blockDim;
  out.blockCols = (a.cols + blockDim - 1) / blockDim;
  out.rowPtr.assign(static_cast<std::size_t>(out.blockRows) + 1, 0);
  const std::size_t blockSize = static_cast<std::size_t>(blockDim) * blockDim;
  std::vector<int> slot(static_cast<std::size_t>(out.blockCols), -1); // block column -> index
  std::vector<int> present;
  for (int br = 0; br < out.blockRows; ++br) {
    const int rowBegin = br * blockDim;
    const int rowEnd = std::min(a.rows, rowBegin + blockDim);
    present.clear();
    for (int i = rowBegin; i < rowEnd; ++i)
      for (int e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) {
        const int bc = a.colInd[e] / blockDim;
        if (slot[static_cast<std::size_t>(bc)] < 0) {
          slot[static_cast<std::size_t>(bc)] = 0;
          present.push_back(bc);
        }
      }
    std::sort(present.begin(), present.end());
    const std::size_t base = out.colInd.size();
    for (std::size_t p = 0; p < present.size(); ++p) {
      slot[static_cast<std::size_t>(present[p])] = static_cast<int>(base + p);
      out.colInd.push_back(present[p]);
    }
    out.val.resize(out.colInd.size() * blockSize, T(0));
    for (int i = rowBegin; i < rowEnd; ++i)
      for (int e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) {
        const int j = a.colInd[e];
        const std::size_t s =
            static_cast<std::size_t>(slot[static_cast<std::size_t>(j / blockDim)]);
        out.val[s * blockSize + static_cast<std::size_t>(i - rowBegin) * blockDim +
                static_cast<std::size_t>(j % blockDim)] += a.val[e];
      }
    for (int bc : present) slot[static_cast<std::size_t>(bc)] = -1;
    out.rowPtr[static_cast<std::size_t>(br) + 1] = static_cast<int>(out.colInd.size());
  }
  return out;
}

// ---- the public structs --------------------------------------------------------------------

template <class S> void releaseArray(S *a, const ArrayMemory &memory) {
  if (a->owner_ != memory.owner) return;
  memory.release(a->rowPtr);
  memory.release(a->colInd);
  memory.release(a->val);
  std::memset(static_cast<void *>(a), 0, sizeof(S));
}

template <class S> S newArray(int rows, int cols, int nnz, const ArrayMemory &memory) {
  using T = ValueOf<S>;
  S out;
  std::memset(static_cast<void *>(&out), 0, sizeof(S));
  out.rows = rows;
  out.cols = cols;
  out.nnz = nnz;
  const std::size_t entries = nnz > 0 ? static_cast<std::size_t>(nnz) : 1;
  try {
    out.rowPtr =
        static_cast<int *>(memory.allocate((static_cast<std::size_t>(rows) + 1) * sizeof(int)));
    out.colInd = static_cast<int *>(memory.allocate(entries * sizeof(int)));
    out.val = static_cast<T *>(memory.allocate(entries * sizeof(T)));
  } catch (...) {
    if (out.rowPtr) memory.release(out.rowPtr);
    if (out.colInd) memory.release(out.colInd);
    throw;
  }
  out.owner_ = memory.owner;
  return out;
}

template <class S> S arrayFromCsr(const Csr<ValueOf<S>> &csr, const ArrayMemory &memory) {
  S out = newArray<S>(csr.rows, csr.cols, csr.nnz(), memory);
  std::memcpy(out.rowPtr, csr.rowPtr.data(), csr.rowPtr.size() * sizeof(int));
  if (csr.nnz() > 0) {
    std::memcpy(out.colInd, csr.colInd.data(), csr.colInd.size() * sizeof(int));
    std::memcpy(out.val, csr.val.data(), csr.val.size() * sizeof(ValueOf<S>));
  }
  return out;
}

#define RTAPI_INSTANTIATE(T)                                                                       \
  template Csr<T> csrFromTriplets<T, double>(                                                      \
      int, int, const std::vector<int> &, const std::vector<int> &, const std::vector<double> &);  \
  template Csr<T> csrFromDense<T>(const T *, int, int);                                            \
  template void csrToDense<T>(const CsrView<T> &, T *);                                            \
  template Bsr<T> csrToBsr<T>(const CsrView<T> &, int);                                            \
  template void releaseArray<SpArray<T>>(SpArray<T> *, const ArrayMemory &);                       \
  template SpArray<T> newArray<SpArray<T>>(int, int, int, const ArrayMemory &);                    \
  template SpArray<T> arrayFromCsr<SpArray<T>>(const Csr<T> &, const ArrayMemory &);
RTAPI_INSTANTIATE(float)
RTAPI_INSTANTIATE(double)
#undef RTAPI_INSTANTIATE

} // namespace rtapi
