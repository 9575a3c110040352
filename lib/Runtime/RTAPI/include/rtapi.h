/*
 * rtapi.h -- the RT-API: dense and sparse linear algebra calls for plain C programs.
 *
 * One header, two implementations with the same symbols; a program links exactly one:
 *   librtapi      cuBLAS + cuSPARSE on the GPU (needs the CUDA toolkit)
 *   librtapi_cpu  plain loops on the CPU (the emulation shim, CI, machines without a GPU)
 *
 * Conventions (docs/rtapi.md has the full reference):
 *   - Every matrix is row-major, as a C programmer writes the loops: element (i, j) of an
 *     r x c matrix M is M[i * c + j]. Shapes need not be square.
 *   - Arrays may be host memory (malloc), device memory (cudaMalloc) or managed memory
 *     (cudaMallocManaged); the GPU implementation stages host memory to the device and back.
 *   - Every function returns an int status, RT_SUCCESS (0) or one of RTAPIStatus. By default an
 *     error prints "<function>: error: <what>" on stderr and exits the program with status 1;
 *     RTAPISetErrorMode(RT_ERRORS_RETURN) (or RTAPI_ERROR_MODE=return in the environment)
 *     makes errors return their status instead.
 *   - The sparse calls take an optional trailing format argument:
 *       RTspSMV(y, &A, x, m, n);            default format (RTHYB, which runs the CSR path)
 *       RTspSMV(y, &A, x, m, n, RTBSR);     explicit format
 *     This works in C99 and C++ through the function-like macros at the end of this file.
 */
#ifndef RTAPI_H
#define RTAPI_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- statuses, error policy ---------------------------------------------------------------- */

typedef enum RTAPIStatus {
  RT_SUCCESS = 0,
  RT_ERROR_INVALID_ARGUMENT = 1, /* negative size, null pointer, mismatched shape, bad format */
  RT_ERROR_NOT_INITIALIZED = 2,  /* a computing call before RTAPIInit, or after RTAPIFinalize */
  RT_ERROR_FILE = 3,             /* a file cannot be opened or read */
  RT_ERROR_PARSE = 4,            /* a malformed Matrix Market file */
  RT_ERROR_OUT_OF_MEMORY = 5,    /* host or device allocation failed */
  RT_ERROR_UNSUPPORTED = 6,      /* a valid request this implementation cannot do */
  RT_ERROR_CUDA = 7,             /* a CUDA runtime call failed */
  RT_ERROR_CUBLAS = 8,           /* a cuBLAS call failed */
  RT_ERROR_CUSPARSE = 9,         /* a cuSPARSE call failed */
  RT_ERROR_INTERNAL = 10
} RTAPIStatus;

typedef enum RTAPIErrorMode {
  RT_ERRORS_ABORT = 0,  /* default: print the message on stderr, then exit(1) */
  RT_ERRORS_RETURN = 1  /* return the status; read the message with RTAPIGetLastErrorMessage */
} RTAPIErrorMode;

/* Sets the error mode for the whole program; returns the previous mode, or -1 (and changes
 * nothing) for a value that is not an RTAPIErrorMode. */
int RTAPISetErrorMode(int mode);
int RTAPIGetErrorMode(void);
/* Status and message of the calling thread's most recent RT-API call (RT_SUCCESS and "" after
 * a call that succeeded). */
int RTAPIGetLastError(void);
const char *RTAPIGetLastErrorMessage(void);
/* "RT_ERROR_PARSE" etc. for a status value. */
const char *RTAPIGetStatusName(int status);
/* "cuda" (cuBLAS/cuSPARSE) or "cpu": which implementation this program linked. */
const char *RTAPIGetImplementation(void);

/* ---- context -------------------------------------------------------------------------------- */

/* Creates the library context: one cuBLAS and one cuSPARSE handle on the current device, used
 * by every later call. Nested Init/Finalize pairs are counted; the last Finalize releases. */
int RTAPIInit(void);
int RTAPIFinalize(void);

/* ---- where the dense calls' arrays live ---------------------------------------------------- */

typedef enum RTAPIArrayPlacement {
  /* Default: each array may be host, device or managed memory. The GPU implementation asks the
   * driver where each array lives (a fraction of a microsecond a call), stages host arrays and
   * waits where the host could see unfinished work. */
  RT_ARRAYS_ANYWHERE = 0,
  /* The caller promises that every array argument of the dense calls (RTdSMM ... RTdDDOT's C
   * and A) is device or managed memory of the RTAPIInit GPU. They are used as they are, as a
   * direct cuBLAS call uses them: no pointer queries, no staging, no wait, so read a result on
   * the host only after cudaDeviceSynchronize. A host array breaks the promise: the GPU faults
   * and a later call or CUDA check reports it. The dot product's r is still asked about (host,
   * device or managed), and the sparse calls are not affected. */
  RT_ARRAYS_ON_DEVICE = 1
} RTAPIArrayPlacement;

/* Sets the placement for the whole program; returns the previous one, or -1 (and changes
 * nothing) for a value that is not an RTAPIArrayPlacement. */
int RTAPISetArrayPlacement(int placement);
int RTAPIGetArrayPlacement(void);

/* ---- sparse matrices ----------------------------------------------------------------------- */

/* Sparse formats for the optional trailing argument of the sparse calls. RTHYB (hybrid ELL/COO)
 * no longer exists in cuSPARSE; it selects the CSR path, the modern replacement. */
typedef enum RTspFormat { RTCSR = 1, RTBSR = 2, RTHYB = 3 } RTspFormat;

/* A rows x cols sparse matrix in CSR form, 0-based, column indices strictly increasing within
 * each row: row i holds entries rowPtr[i] .. rowPtr[i+1]-1, entry e is (i, colInd[e]) = val[e].
 * Arrays made by the library (Create, LoadFromFile, RTspSMM) are released by Destroy. A struct
 * may also be filled by hand with host, device or managed arrays; Destroy leaves those alone. */
typedef struct RTspSArray {
  int rows;
  int cols;
  int nnz;
  int *rowPtr;          /* rows + 1 row offsets */
  int *colInd;          /* nnz column indices */
  float *val;           /* nnz values */
  unsigned int owner_;  /* internal: marks arrays the library allocated */
} RTspSArray;

typedef struct RTspDArray {
  int rows;
  int cols;
  int nnz;
  int *rowPtr;
  int *colInd;
  double *val;
  unsigned int owner_;
} RTspDArray;

/* array = the nonzeros of the dense m x n matrix A. */
int RTspSArrayCreate(const float *A, RTspSArray *array, int m, int n);
int RTspDArrayCreate(const double *A, RTspDArray *array, int m, int n);
/* Reads a Matrix Market coordinate file (real, integer or pattern; general, symmetric or
 * skew-symmetric). A malformed file is refused with its name and line number. */
int RTspSArrayLoadFromFile(const char *filename, RTspSArray *array);
int RTspDArrayLoadFromFile(const char *filename, RTspDArray *array);
/* Releases the arrays the library allocated and zeroes the struct. */
int RTspSArrayDestroy(RTspSArray *array);
int RTspDArrayDestroy(RTspDArray *array);

/* ---- dense calls (cuBLAS) ------------------------------------------------------------------- */

/* C[m x n] = A[m x k] * B[k x n] */
int RTdSMM(float *C, const float *A, const float *B, int m, int n, int k);
int RTdDMM(double *C, const double *A, const double *B, int m, int n, int k);
/* C[m] = A[m x n] * B[n] */
int RTdSMV(float *C, const float *A, const float *B, int m, int n);
int RTdDMV(double *C, const double *A, const double *B, int m, int n);
/* C[m x n] = transpose of A[n x m]: C[i][j] = A[j][i] */
int RTdSMT(float *C, const float *A, int m, int n);
int RTdDMT(double *C, const double *A, int m, int n);
/* Outer product C[m x n] = A[m] * B[n]^T: C[i][j] = A[i] * B[j]. Also callable as
 * RTdSVV(C, A, B, n), the original examples' square form (m = n; n is evaluated twice). */
int RTdSVV(float *C, const float *A, int m, const float *B, int n);
int RTdDVV(double *C, const double *A, int m, const double *B, int n);
/* *r = sum over i < n of C[i] * A[i] */
int RTdSDOT(const float *C, const float *A, int n, float *r);
int RTdDDOT(const double *C, const double *A, int n, double *r);

/* ---- sparse calls (cuSPARSE) ---------------------------------------------------------------- */

/* Sparse x sparse: C[m x n] = A[m x k] * B[k x n]; format RTCSR (default) or RTHYB. C's previous
 * library-made arrays are released; C may be A or B. */
int RTspSMM(RTspSArray *C, const RTspSArray *A, const RTspSArray *B, int m, int n, int k,
            int format);
int RTspDMM(RTspDArray *C, const RTspDArray *A, const RTspDArray *B, int m, int n, int k,
            int format);
/* Sparse x dense: C[m x n] = A[m x k] * B[k x n] with dense row-major B and C;
 * format RTCSR (default), RTBSR or RTHYB. */
int RTspdSMM(float *C, const RTspSArray *A, const float *B, int m, int n, int k, int format);
int RTspdDMM(double *C, const RTspDArray *A, const double *B, int m, int n, int k, int format);
/* Sparse matrix x vector: C[m] = A[m x n] * B[n]; format RTHYB (default), RTCSR or RTBSR. */
int RTspSMV(float *C, const RTspSArray *A, const float *B, int m, int n, int format);
int RTspDMV(double *C, const RTspDArray *A, const double *B, int m, int n, int format);

#ifdef __cplusplus
}
#endif

/* ---- optional trailing arguments -------------------------------------------------------------
 * Each macro counts its arguments and appends the default where it was left out. A name does not
 * expand inside its own expansion, so the call the macro produces reaches the function. Write
 * (RTspSMV)(...) or &RTspSMV to name the function itself. Define RTAPI_NO_DEFAULT_ARGUMENTS to
 * turn the macros off. */
#ifndef RTAPI_NO_DEFAULT_ARGUMENTS
#define RTAPI_CAT_(a, b) a##b
#define RTAPI_CAT(a, b) RTAPI_CAT_(a, b)
#define RTAPI_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, count, ...) count
#define RTAPI_COUNT(...) RTAPI_COUNT_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)

/* f(c, a, b, m, n[, format]) */
#define RTAPI_MV_5(f, d, c, a, b, m, n) f(c, a, b, m, n, d)
#define RTAPI_MV_6(f, d, c, a, b, m, n, format) f(c, a, b, m, n, format)
/* f(c, a, b, m, n, k[, format]) */
#define RTAPI_MM_6(f, d, c, a, b, m, n, k) f(c, a, b, m, n, k, d)
#define RTAPI_MM_7(f, d, c, a, b, m, n, k, format) f(c, a, b, m, n, k, format)
/* f(c, a, m, b, n) or the square form f(c, a, b, n) */
#define RTAPI_VV_4(f, c, a, b, n) f(c, a, n, b, n)
#define RTAPI_VV_5(f, c, a, m, b, n) f(c, a, m, b, n)

#define RTspSMV(...) RTAPI_CAT(RTAPI_MV_, RTAPI_COUNT(__VA_ARGS__))(RTspSMV, RTHYB, __VA_ARGS__)
#define RTspDMV(...) RTAPI_CAT(RTAPI_MV_, RTAPI_COUNT(__VA_ARGS__))(RTspDMV, RTHYB, __VA_ARGS__)
#define RTspSMM(...) RTAPI_CAT(RTAPI_MM_, RTAPI_COUNT(__VA_ARGS__))(RTspSMM, RTCSR, __VA_ARGS__)
#define RTspDMM(...) RTAPI_CAT(RTAPI_MM_, RTAPI_COUNT(__VA_ARGS__))(RTspDMM, RTCSR, __VA_ARGS__)
#define RTspdSMM(...) RTAPI_CAT(RTAPI_MM_, RTAPI_COUNT(__VA_ARGS__))(RTspdSMM, RTCSR, __VA_ARGS__)
#define RTspdDMM(...) RTAPI_CAT(RTAPI_MM_, RTAPI_COUNT(__VA_ARGS__))(RTspdDMM, RTCSR, __VA_ARGS__)
#define RTdSVV(...) RTAPI_CAT(RTAPI_VV_, RTAPI_COUNT(__VA_ARGS__))(RTdSVV, __VA_ARGS__)
#define RTdDVV(...) RTAPI_CAT(RTAPI_VV_, RTAPI_COUNT(__VA_ARGS__))(RTdDVV, __VA_ARGS__)
#endif

#endif /* RTAPI_H */
