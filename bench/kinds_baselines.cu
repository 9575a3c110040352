// Baselines for the kinds of issue 13 (bench/kinds_on_gpu.sh), one shape per call, measured in
// the same job as the translated kernels of bench/kernels/:
//   kinds_baselines rowsum R C      cublasSgemv (transposed) of the R x C row-major matrix with a ones vector
//   kinds_baselines colsum R C      cublasSgemv (not transposed) with a ones vector
//   kinds_baselines mv R C          cublasSgemv (transposed) with a random vector
//   kinds_baselines bmv B R C       cublasDgemvStridedBatched, B products of R x C
//   kinds_baselines bcolsum B R C   cublasSgemvStridedBatched (not transposed) with a ones vector:
//                                   the column sums of B row-major R x C matrices
//   kinds_baselines dcolsum R C     cublasDgemv (not transposed) with a ones vector
//   kinds_baselines transpose R C   cublasSgeam: the C x R transpose of an R x C matrix
//   kinds_baselines addt R C        cublasSgeam: C = A + B^T, A and C row-major R x C, B C x R
//   kinds_baselines sympart N       cublasSgeam: S = A / 2 + A^T / 2, N x N
//   kinds_baselines btranspose B R C  cublasSgeam once per matrix (cuBLAS has no batched geam):
//                                   B transposes of R x C matrices stored one after another
//   kinds_baselines gesummv R C     two cublasSgemv (transposed): y = alpha A x, then y += beta B x
//   kinds_baselines gsupdate R C    cublasSgemv (not transposed) r = A^T q, then cublasSger
//                                   A -= q r^T (gramschmidt's column step)
//   kinds_baselines syrk N K        cublasSsyrk: one triangle of A A^T, A row-major N x K
//   kinds_baselines syrkt N K       cublasSsyrk: one triangle of D^T D, D row-major K x N
//   kinds_baselines trmv N          cublasStrmv: y = L x, L a row-major lower triangle (column-major
//                                   upper, transposed); trmvu: U x, U upper; trmvt: L^T x
//   kinds_baselines dot N           cublasSdot of an N-element vector with a second one, result
//                                   in device memory (CUBLAS_POINTER_MODE_DEVICE); dotself N:
//                                   of the vector with itself (one array's bytes, as a sum)
//   kinds_baselines sgemm M N K     cublasSgemm: C = A B, A row-major M x K, B K x N; sgemm_tn,
//                                   sgemm_nt, sgemm_tt: C = A^T B (A stored K x M), A B^T (B
//                                   stored N x K), A^T B^T
//   kinds_baselines bgemm B M N K   cublasSgemmStridedBatched: B products C = A B as sgemm's;
//                                   bgemm_tn, bgemm_nt: A^T B, A B^T as sgemm_tn, sgemm_nt
//   kinds_baselines spmv R NNZ      cusparseSpMV (CSR, float): y = A x, A R x R with NNZ entries,
//                                   rows of about NNZ / R entries at random columns (make_bench.py's
//                                   index arrays)
//   kinds_baselines copy BYTES      cudaMemcpy device to device (bytes read + written)
// FP32/FP64 with the default math mode. Prints one BASELINE line (bench_common.cuh's report).
#include "bench_common.cuh"

#include <cusparse.h>
#include <string>

#define CHECK_SPARSE(x) do { cusparseStatus_t s = (x); if (s != CUSPARSE_STATUS_SUCCESS) { fprintf(stderr, "%s:%d: cuSPARSE status %d\n", __FILE__, __LINE__, (int)s); exit(1); } } while (0)

// A CSR structure as make_bench.py draws one: row r starts at r * nnz / rows, columns at random.
__global__ void csrStructure(int *rowptr, int *col, long long rows, long long nnz) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i <= rows || i < nnz;
       i += (long long)gridDim.x * blockDim.x) {
    if (i <= rows) rowptr[i] = (int)(i * nnz / rows);
    unsigned h = (unsigned)i * 2654435761u ^ 7936u; h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    if (i < nnz) col[i] = (int)((long long)h % rows);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s KIND SIZES...\n", argv[0]); return 2; }
  std::string kind = argv[1];
  std::vector<long long> n;
  for (int i = 2; i < argc; ++i) n.push_back(atoll(argv[i]));
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  CHECK_BLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  std::string name = kind;
  for (long long v : n) name += "_" + std::to_string(v);
  const float one = 1, zero = 0;
  if (kind == "rowsum" || kind == "colsum" || kind == "mv") {
    // Row-major R x C is column-major C x R with leading dimension C.
    long long r = n.at(0), c = n.at(1);
    bool rows = kind != "colsum";
    float *a = buffer<float>(r * c, 1), *x = buffer<float>(rows ? c : r, 2), *y = buffer<float>(rows ? r : c, 3);
    if (kind != "mv") {
      std::vector<float> ones(rows ? c : r, 1.0f);
      CHECK(cudaMemcpy(x, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgemv(h, rows ? CUBLAS_OP_T : CUBLAS_OP_N, c, r, &one, a, c, x, 1, &zero, y, 1));
    }, 4.0 * (r * c + r + c), 2.0 * r * c);
  } else if (kind == "bmv") {
    long long b = n.at(0), r = n.at(1), c = n.at(2);
    double *a = buffer<double>(b * r * c, 1), *x = buffer<double>(b * c, 2), *y = buffer<double>(b * r, 3);
    const double done = 1, dzero = 0;
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasDgemvStridedBatched(h, CUBLAS_OP_T, c, r, &done, a, c, r * c, x, 1, c, &dzero, y, 1, r, b));
    }, 8.0 * (b * r * c + b * r + b * c), 2.0 * b * r * c);
  } else if (kind == "bcolsum") {
    long long b = n.at(0), r = n.at(1), c = n.at(2);
    float *a = buffer<float>(b * r * c, 1), *x = buffer<float>(b * r, 2), *y = buffer<float>(b * c, 3);
    std::vector<float> ones(b * r, 1.0f);
    CHECK(cudaMemcpy(x, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice));
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgemvStridedBatched(h, CUBLAS_OP_N, c, r, &one, a, c, r * c, x, 1, r, &zero, y, 1, c, b));
    }, 4.0 * (b * r * c + b * r + b * c), 2.0 * b * r * c);
  } else if (kind == "dcolsum") {
    long long r = n.at(0), c = n.at(1);
    double *a = buffer<double>(r * c, 1), *x = buffer<double>(r, 2), *y = buffer<double>(c, 3);
    std::vector<double> ones(r, 1.0);
    CHECK(cudaMemcpy(x, ones.data(), ones.size() * sizeof(double), cudaMemcpyHostToDevice));
    const double done = 1, dzero = 0;
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasDgemv(h, CUBLAS_OP_N, c, r, &done, a, c, x, 1, &dzero, y, 1));
    }, 8.0 * (r * c + r + c), 2.0 * r * c);
  } else if (kind == "transpose") {
    long long r = n.at(0), c = n.at(1);
    float *a = buffer<float>(r * c, 1), *t = buffer<float>(r * c, 2);
    // t (C x R row-major = R x C column-major, ld R) = transpose of a (C x R column-major, ld C).
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, r, c, &one, a, c, &zero, t, r, t, r));
    }, 8.0 * r * c, 0);
  } else if (kind == "addt" || kind == "sympart") {
    // Row-major R x C is column-major C x R: C^T = A^T + B, so op(A) = N, op(B) = T.
    bool sym = kind == "sympart";
    long long r = n.at(0), c = sym ? r : n.at(1);
    const float half = 0.5f, &w = sym ? half : one;
    float *a = buffer<float>(r * c, 1), *b = sym ? a : buffer<float>(r * c, 2), *out = buffer<float>(r * c, 3);
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_T, c, r, &w, a, c, &w, b, r, out, c));
    }, 4.0 * (sym ? 2 : 3) * r * c, 0);
  } else if (kind == "btranspose") {
    long long b = n.at(0), r = n.at(1), c = n.at(2);
    float *a = buffer<float>(b * r * c, 1), *t = buffer<float>(b * r * c, 2);
    report(name.c_str(), [&] {
      for (long long m = 0; m < b; ++m)
        CHECK_BLAS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, r, c, &one, a + m * r * c, c, &zero,
                               t + m * r * c, r, t + m * r * c, r));
    }, 8.0 * b * r * c, 0);
  } else if (kind == "gesummv") {
    long long r = n.at(0), c = n.at(1);
    float *a = buffer<float>(r * c, 1), *b = buffer<float>(r * c, 4), *x = buffer<float>(c, 2),
          *y = buffer<float>(r, 3);
    const float alpha = 1.25f, beta = 1.25f;
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgemv(h, CUBLAS_OP_T, c, r, &alpha, a, c, x, 1, &zero, y, 1));
      CHECK_BLAS(cublasSgemv(h, CUBLAS_OP_T, c, r, &beta, b, c, x, 1, &one, y, 1));
    }, 4.0 * (2 * r * c + c + r), 4.0 * r * c);
  } else if (kind == "gsupdate") {
    long long r = n.at(0), c = n.at(1);
    float *a = buffer<float>(r * c, 1), *q = buffer<float>(r, 2), *rr = buffer<float>(c, 3);
    const float minus = -1;
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgemv(h, CUBLAS_OP_N, c, r, &one, a, c, q, 1, &zero, rr, 1));
      CHECK_BLAS(cublasSger(h, c, r, &minus, rr, 1, q, 1, a, c));
    }, 4.0 * (3 * r * c + r + c), 4.0 * r * c);
  } else if (kind == "syrk" || kind == "syrkt") {
    // Row-major A (N x K) is column-major K x N: A A^T = op(A)^T op(A) with CUBLAS_OP_T; row-major
    // D (K x N) is column-major N x K: D^T D with CUBLAS_OP_N. Half the flops of the full product.
    long long nn = n.at(0), kk = n.at(1);
    bool t = kind == "syrk";
    float *a = buffer<float>(nn * kk, 1), *c = buffer<float>(nn * nn, 2);
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, t ? CUBLAS_OP_T : CUBLAS_OP_N, nn, kk, &one, a,
                             t ? kk : nn, &zero, c, nn));
    }, 4.0 * (nn * kk + nn * nn), 1.0 * nn * (nn + 1) * kk);
  } else if (kind == "trmv" || kind == "trmvu" || kind == "trmvt") {
    // A row-major triangle is the column-major transpose: lower becomes upper. strmv works in
    // place (x := op(T) x); the vector's values do not change its time.
    long long nn = n.at(0);
    float *a = buffer<float>(nn * nn, 1), *x = buffer<float>(nn, 2);
    cublasFillMode_t fill = kind == "trmvu" ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cublasOperation_t op = kind == "trmvt" ? CUBLAS_OP_N : CUBLAS_OP_T;
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasStrmv(h, fill, op, CUBLAS_DIAG_NON_UNIT, nn, a, nn, x, 1));
    }, 4.0 * (nn * (nn + 1) / 2 + 2 * nn), 1.0 * nn * (nn + 1));
  } else if (kind == "dot" || kind == "dotself") {
    long long nn = n.at(0);
    bool self = kind == "dotself";
    float *x = buffer<float>(nn, 1), *y = self ? x : buffer<float>(nn, 2), *r = buffer<float>(1, 3);
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    report(name.c_str(), [&] { CHECK_BLAS(cublasSdot(h, (int)nn, x, 1, y, 1, r)); },
           4.0 * (self ? 1 : 2) * nn, 2.0 * nn);
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  } else if (kind == "sgemm" || kind == "sgemm_tn" || kind == "sgemm_nt" || kind == "sgemm_tt") {
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: B first. A row-major
    // matrix seen column-major is its transpose, so a stored transposed operand takes OP_T.
    long long mm = n.at(0), nn = n.at(1), kk = n.at(2);
    bool ta = kind == "sgemm_tn" || kind == "sgemm_tt", tb = kind == "sgemm_nt" || kind == "sgemm_tt";
    float *a = buffer<float>(mm * kk, 1), *b = buffer<float>(kk * nn, 2), *c = buffer<float>(mm * nn, 3);
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgemm(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, nn, mm, kk, &one,
                             b, tb ? kk : nn, a, ta ? mm : kk, &zero, c, nn));
    }, 4.0 * (mm * kk + kk * nn + mm * nn), 2.0 * mm * nn * kk);
  } else if (kind == "bgemm" || kind == "bgemm_tn" || kind == "bgemm_nt") {
    // As sgemm's, each product C[b] = op(A[b]) op(B[b]) a slice of the arrays.
    long long bb = n.at(0), mm = n.at(1), nn = n.at(2), kk = n.at(3);
    bool ta = kind == "bgemm_tn", tb = kind == "bgemm_nt";
    float *a = buffer<float>(bb * mm * kk, 1), *b = buffer<float>(bb * kk * nn, 2), *c = buffer<float>(bb * mm * nn, 3);
    report(name.c_str(), [&] {
      CHECK_BLAS(cublasSgemmStridedBatched(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, nn, mm,
                                           kk, &one, b, tb ? kk : nn, kk * nn, a, ta ? mm : kk, mm * kk, &zero, c,
                                           nn, mm * nn, bb));
    }, 4.0 * bb * (mm * kk + kk * nn + mm * nn), 2.0 * bb * mm * nn * kk);
  } else if (kind == "spmv") {
    long long rows = n.at(0), nnz = n.at(1);
    int *rowptr, *col;
    CHECK(cudaMalloc(&rowptr, (rows + 1) * sizeof(int)));
    CHECK(cudaMalloc(&col, nnz * sizeof(int)));
    csrStructure<<<1024, 256>>>(rowptr, col, rows, nnz);
    CHECK(cudaGetLastError());
    float *val = buffer<float>(nnz, 1), *x = buffer<float>(rows, 2), *y = buffer<float>(rows, 3);
    cusparseHandle_t sp;
    CHECK_SPARSE(cusparseCreate(&sp));
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t vx, vy;
    CHECK_SPARSE(cusparseCreateCsr(&a, rows, rows, nnz, rowptr, col, val, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&vx, rows, x, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F));
    size_t work = 0;
    CHECK_SPARSE(cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy,
                                         CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &work));
    void *buf = nullptr;
    CHECK(cudaMalloc(&buf, work > 0 ? work : 1));
    report(name.c_str(), [&] {
      CHECK_SPARSE(cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buf));
    }, 4.0 * (2 * nnz + 3 * rows + 1), 2.0 * nnz);
    CHECK_SPARSE(cusparseDestroySpMat(a));
    CHECK_SPARSE(cusparseDestroy(sp));
  } else if (kind == "copy") {
    long long bytes = n.at(0) / 4 * 4;
    float *a = buffer<float>(bytes / 4, 1), *b = buffer<float>(bytes / 4, 2);
    report(name.c_str(), [&] { CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); }, 2.0 * bytes, 0);
  } else {
    fprintf(stderr, "unknown kind '%s'\n", kind.c_str());
    return 2;
  }
  CHECK_BLAS(cublasDestroy(h));
  return 0;
}
