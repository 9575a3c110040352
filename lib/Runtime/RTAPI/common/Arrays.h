// The bodies of RTsp{S,D}Array{Create,LoadFromFile,Destroy}, shared by both implementations;
// each implementation passes the ArrayMemory its arrays live in.
#pragma once

#include "Checks.h"
#include "Error.h"
#include "MatrixMarket.h"
#include "Sparse.h"

namespace rtapi {

// `dense` is a host pointer (the GPU implementation copies a device matrix to the host first).
template <class T>
void createArray(const T *dense, SpArray<T> *out, int m, int n, const ArrayMemory &memory) {
  *out = arrayFromCsr<SpArray<T>>(csrFromDense(dense, m, n), memory);
}

template <class T>
void loadArray(const char *filename, SpArray<T> *out, const ArrayMemory &memory) {
  check::pointer("filename", filename, 1);
  check::pointer("array", out, 1);
  const MatrixMarket file = readMatrixMarket(filename);
  *out = arrayFromCsr<SpArray<T>>(
      csrFromTriplets<T>(file.rows, file.cols, file.row, file.col, file.val), memory);
}

template <class T> void destroyArray(SpArray<T> *array, const ArrayMemory &memory) {
  check::pointer("array", array, 1);
  releaseArray(array, memory);
}

// The result of a sparse x sparse product goes to C. C's old arrays are released only when C is
// also an input (then it is certainly initialized); otherwise C may be uninitialized.
template <class T>
void storeProduct(SpArray<T> *C, const SpArray<T> *A, const SpArray<T> *B,
                  const SpArray<T> &product, const ArrayMemory &memory) {
  if (C == A || C == B) releaseArray(C, memory);
  *C = product;
}

} // namespace rtapi
