// Host-side sparse matrices shared by both implementations: CSR and BSR containers, building CSR
// from triplets or a dense matrix, CSR -> BSR, and the bridge to the public RTsp*Array structs.
#pragma once

#include "rtapi.h"

#include <cstddef>
#include <type_traits>
#include <vector>

namespace rtapi {

// A non-owning CSR matrix (the public structs' fields, or a Csr's vectors).
template <class T> struct CsrView {
  int rows = 0;
  int cols = 0;
  int nnz = 0;
  const int *rowPtr = nullptr;
  const int *colInd = nullptr;
  const T *val = nullptr;
};

// An owning CSR matrix on the host.
template <class T> struct Csr {
  int rows = 0;
  int cols = 0;
  std::vector<int> rowPtr; // rows + 1
  std::vector<int> colInd;
  std::vector<T> val;

  int nnz() const { return static_cast<int>(colInd.size()); }
  CsrView<T> view() const {
    return CsrView<T>{rows, cols, nnz(), rowPtr.data(), colInd.data(), val.data()};
  }
};

// Block sparse row: square blocks of blockDim x blockDim, values row-major inside a block, the
// matrix padded with zeros to blockRows * blockDim rows and blockCols * blockDim columns.
template <class T> struct Bsr {
  int rows = 0;
  int cols = 0;
  int blockDim = 0;
  int blockRows = 0;
  int blockCols = 0;
  std::vector<int> rowPtr; // blockRows + 1
  std::vector<int> colInd; // nnzb block columns
  std::vector<T> val;      // nnzb * blockDim * blockDim

  int nnzb() const { return static_cast<int>(colInd.size()); }
};

// Triplets (0-based) -> CSR: sorted by row then column, duplicates summed. Indices must be in
// range (the caller checked them).
template <class T, class V>
Csr<T> csrFromTriplets(int rows, int cols, const std::vector<int> &row, const std::vector<int> &col,
                       const std::vector<V> &val);

// The nonzeros of a dense row-major rows x cols matrix.
template <class T> Csr<T> csrFromDense(const T *dense, int rows, int cols);

// Writes the dense row-major form of a CSR matrix (rows * cols elements).
template <class T> void csrToDense(const CsrView<T> &a, T *dense);

// The block size the BSR path uses: 4 when 4x4 blocks store at most 1.5 values per nonzero,
// else 2, never more than the smaller dimension; 0 (run the CSR path) for a matrix with a single
// row or column, which has no 2x2 block. blockDimForCount applies the fill rule to a count of
// nonzero 4x4 blocks (the GPU implementation counts them on the device).
int largestBlockDim(int rows, int cols);
int blockDimForCount(long long blocks4, long long nnz);
int chooseBlockDim(const CsrView<float> &pattern);
template <class T> int chooseBsrBlockDim(const CsrView<T> &a) {
  CsrView<float> pattern{a.rows, a.cols, a.nnz, a.rowPtr, a.colInd, nullptr};
  return chooseBlockDim(pattern);
}

template <class T> Bsr<T> csrToBsr(const CsrView<T> &a, int blockDim);

// ---- the public structs --------------------------------------------------------------------

template <class T> struct SpArrayOf;
template <> struct SpArrayOf<float> { using type = RTspSArray; };
template <> struct SpArrayOf<double> { using type = RTspDArray; };
template <class T> using SpArray = typename SpArrayOf<T>::type;

template <class S> using ValueOf = std::remove_pointer_t<decltype(S::val)>;

template <class S> CsrView<ValueOf<S>> viewOf(const S &a) {
  return CsrView<ValueOf<S>>{a.rows, a.cols, a.nnz, a.rowPtr, a.colInd, a.val};
}

// How an implementation allocates the arrays it hands out in the structs (malloc on the CPU,
// managed memory on the GPU) and the mark it leaves in owner_.
struct ArrayMemory {
  void *(*allocate)(std::size_t bytes); // throws rtapi::Error on failure
  void (*release)(void *pointer);
  unsigned int owner;
};

// Releases `a`'s arrays if this implementation allocated them (owner_ matches), then zeroes the
// struct. Arrays a user put there by hand are left alone, and so is the struct.
template <class S> void releaseArray(S *a, const ArrayMemory &memory);

// A struct with freshly allocated, uninitialized arrays: rowPtr (rows + 1), colInd and val (nnz
// each, at least one element), owner_ set. Outputs are written with such a struct and never
// released first: an output struct may be uninitialized.
template <class S> S newArray(int rows, int cols, int nnz, const ArrayMemory &memory);

// newArray + a copy of a host CSR matrix.
template <class S> S arrayFromCsr(const Csr<ValueOf<S>> &csr, const ArrayMemory &memory);

} // namespace rtapi
