// Plain-loop kernels of every RT-API operation, row-major. They are the CPU implementation and
// the reference the GPU tests compare against. Arguments are assumed checked.
#pragma once

#include "Error.h"
#include "Sparse.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rtapi {
namespace ref {

using std::size_t;

// C[m x n] = A[m x k] * B[k x n]
template <class T> void gemm(T *C, const T *A, const T *B, int m, int n, int k) {
  const size_t N = static_cast<size_t>(n), K = static_cast<size_t>(k);
  for (size_t i = 0; i < static_cast<size_t>(m); ++i) {
    T *c = C + i * N;
    std::fill(c, c + N, T(0));
    for (size_t p = 0; p < K; ++p) {
      const T a = A[i * K + p];
      const T *b = B + p * N;
      for (size_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

// C[m] = A[m x n] * B[n]
template <class T> void gemv(T *C, const T *A, const T *B, int m, int n) {
  const size_t N = static_cast<size_t>(n);
  for (size_t i = 0; i < static_cast<size_t>(m); ++i) {
    T sum = T(0);
    for (size_t j = 0; j < N; ++j) sum += A[i * N + j] * B[j];
    C[i] = sum;
  }
}

// C[m x n] = transpose of A[n x m]
template <class T> void transpose(T *C, const T *A, int m, int n) {
  const size_t M = static_cast<size_t>(m), N = static_cast<size_t>(n);
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < N; ++j) C[i * N + j] = A[j * M + i];
}

// C[m x n] = A[m] * B[n]^T
template <class T> void outer(T *C, const T *A, int m, const T *B, int n) {
  const size_t N = static_cast<size_t>(n);
  for (size_t i = 0; i < static_cast<size_t>(m); ++i)
    for (size_t j = 0; j < N; ++j) C[i * N + j] = A[i] * B[j];
}

template <class T> T dot(const T *C, const T *A, int n) {
  T sum = T(0);
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) sum += C[i] * A[i];
  return sum;
}

// y[rows] = A * x
template <class T> void csrmv(const CsrView<T> &A, const T *x, T *y) {
  for (int i = 0; i < A.rows; ++i) {
    T sum = T(0);
    for (int e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) sum += A.val[e] * x[A.colInd[e]];
    y[i] = sum;
  }
}

// C[rows x n] = A * B[cols x n]
template <class T> void csrmm(const CsrView<T> &A, const T *B, int n, T *C) {
  const size_t N = static_cast<size_t>(n);
  for (int i = 0; i < A.rows; ++i) {
    T *c = C + static_cast<size_t>(i) * N;
    std::fill(c, c + N, T(0));
    for (int e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const T a = A.val[e];
      const T *b = B + static_cast<size_t>(A.colInd[e]) * N;
      for (size_t j = 0; j < N; ++j) c[j] += a * b[j];
    }
  }
}

// The same two products on the BSR form (the padding rows and columns are skipped).
template <class T> void bsrmv(const Bsr<T> &A, const T *x, T *y) {
  const int bd = A.blockDim;
  for (int br = 0; br < A.blockRows; ++br)
    for (int r = 0; r < bd && br * bd + r < A.rows; ++r) {
      T sum = T(0);
      for (int s = A.rowPtr[br]; s < A.rowPtr[br + 1]; ++s) {
        const T *block = A.val.data() + (static_cast<size_t>(s) * bd + r) * bd;
        for (int c = 0; c < bd; ++c) {
          const int j = A.colInd[s] * bd + c;
          if (j < A.cols) sum += block[c] * x[j];
        }
      }
      y[br * bd + r] = sum;
    }
}

template <class T> void bsrmm(const Bsr<T> &A, const T *B, int n, T *C) {
  const int bd = A.blockDim;
  const size_t N = static_cast<size_t>(n);
  for (int br = 0; br < A.blockRows; ++br)
    for (int r = 0; r < bd && br * bd + r < A.rows; ++r) {
      T *c = C + static_cast<size_t>(br * bd + r) * N;
      std::fill(c, c + N, T(0));
      for (int s = A.rowPtr[br]; s < A.rowPtr[br + 1]; ++s) {
        const T *block = A.val.data() + (static_cast<size_t>(s) * bd + r) * bd;
        for (int q = 0; q < bd; ++q) {
          const int p = A.colInd[s] * bd + q;
          if (p >= A.cols) break;
          const T *b = B + static_cast<size_t>(p) * N;
          for (size_t j = 0; j < N; ++j) c[j] += block[q] * b[j];
        }
      }
    }
}

// Sparse x sparse (Gustavson): every product that occurs is stored, zeros from cancellation
// included, columns sorted within each row.
template <class T> Csr<T> csrgemm(const CsrView<T> &A, const CsrView<T> &B) {
  Csr<T> C;
  C.rows = A.rows;
  C.cols = B.cols;
  C.rowPtr.assign(static_cast<size_t>(A.rows) + 1, 0);
  std::vector<T> acc(static_cast<size_t>(B.cols), T(0));
  std::vector<int> seen(static_cast<size_t>(B.cols), -1);
  std::vector<int> cols;
  for (int i = 0; i < A.rows; ++i) {
    cols.clear();
    for (int e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const int p = A.colInd[e];
      for (int f = B.rowPtr[p]; f < B.rowPtr[p + 1]; ++f) {
        const int j = B.colInd[f];
        if (seen[static_cast<size_t>(j)] != i) {
          seen[static_cast<size_t>(j)] = i;
          acc[static_cast<size_t>(j)] = T(0);
          cols.push_back(j);
        }
        acc[static_cast<size_t>(j)] += A.val[e] * B.val[f];
      }
    }
    std::sort(cols.begin(), cols.end());
    if (C.colInd.size() + cols.size() > 2147483647u)
      fail(RT_ERROR_UNSUPPORTED, "the product has more than 2^31-1 nonzeros");
    for (int j : cols) {
      C.colInd.push_back(j);
      C.val.push_back(acc[static_cast<size_t>(j)]);
    }
    C.rowPtr[static_cast<size_t>(i) + 1] = static_cast<int>(C.colInd.size());
  }
  return C;
}

} // namespace ref
} // namespace rtapi
