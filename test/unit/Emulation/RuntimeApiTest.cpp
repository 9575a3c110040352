// The CUDA runtime API of the emulation shim, and rtcuda_runtime.h on top of it.
#ifndef RTCUDA_EMULATE
#define RTCUDA_EMULATE
#endif
#include "rtcuda_runtime.h"

#include <gtest/gtest.h>

#include <string.h>

#include <string>
#include <vector>

namespace {

__constant__ float coefficients[4];
__device__ int device_counter;

__global__ void scaleByConstant(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= coefficients[i % 4];
}

__global__ void bumpCounter() { atomicAdd(&device_counter, 1); }

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void spin(volatile float *sink, int iterations) {
  float v = 0;
  for (int k = 0; k < iterations; ++k) v += sqrtf((float)k);
  if (threadIdx.x == 0) *sink = v;
}

class EmulationRuntime : public ::testing::Test {
protected:
  void SetUp() override { cudaDeviceReset(); }
  void TearDown() override { cudaDeviceReset(); }
};

} // namespace

TEST_F(EmulationRuntime, MemcpyAllKinds) {
  const size_t n = 64, bytes = n * sizeof(int);
  std::vector<int> a(n), b(n, 0), c(n, 0);
  for (size_t i = 0; i < n; ++i) a[i] = int(i * 3);
  int *d1 = nullptr, *d2 = nullptr;
  ASSERT_EQ(cudaMalloc(&d1, bytes), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d2, bytes), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d1, a.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d2, d1, bytes, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(b.data(), d2, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(b, a);
  EXPECT_EQ(cudaMemcpy(c.data(), b.data(), bytes, cudaMemcpyHostToHost), cudaSuccess);
  EXPECT_EQ(c, a);
  std::fill(b.begin(), b.end(), 0);
  EXPECT_EQ(cudaMemcpy(d2 + 8, a.data(), 8 * sizeof(int), cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(b.data(), d2 + 8, 8 * sizeof(int), cudaMemcpyDefault), cudaSuccess);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(b[i], a[i]);
  EXPECT_EQ(cudaMemcpy(d1, a.data(), 0, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaFree(d1), cudaSuccess);
  EXPECT_EQ(cudaFree(d2), cudaSuccess);
}

TEST_F(EmulationRuntime, MemcpyRejectsWrongDirectionsAndRanges) {
  const size_t bytes = 16 * sizeof(float);
  std::vector<float> host(16, 1.0f), big(32, 0.0f);
  float *d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, bytes), cudaSuccess);
  // Directions that contradict the pointers.
  EXPECT_EQ(cudaMemcpy(host.data(), d, bytes, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d, host.data(), bytes, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, host.data(), bytes, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(host.data(), d, bytes, cudaMemcpyHostToHost), cudaErrorInvalidValue);
  // Past the end of the allocation.
  EXPECT_EQ(cudaMemcpy(d, big.data(), 2 * bytes, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(big.data(), d + 4, bytes, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(big.data(), d, bytes, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaMemcpy(nullptr, d, bytes, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  cudaFree(d);
}

TEST_F(EmulationRuntime, MallocAndFree) {
  void *d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 1000), cudaSuccess);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(d) % 256, 0u);
  int local = 0;
  EXPECT_EQ(cudaFree(&local), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(static_cast<char *>(d) + 4), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFreeHost(d), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaErrorInvalidValue); // twice
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&d, size_t(1) << 62), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaMalloc(static_cast<void **>(nullptr), 4), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMalloc(&d, 0), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  size_t free_bytes = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  EXPECT_GT(total, 0u);
  EXPECT_LE(free_bytes, total);
}

TEST_F(EmulationRuntime, HostAndManagedMemory) {
  float *pinned = nullptr, *managed = nullptr, *d = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, 32 * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMallocManaged(&managed, 32 * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d, 32 * sizeof(float)), cudaSuccess);
  for (int i = 0; i < 32; ++i) pinned[i] = float(i), managed[i] = 1.0f;
  EXPECT_EQ(cudaMemcpy(d, pinned, 32 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(pinned, d, 32 * sizeof(float), cudaMemcpyHostToDevice),
            cudaErrorInvalidValue); // pinned host memory is not a device destination
  rtcuda::emu::launch(saxpy, dim3(1), dim3(32), 32, 2.0f, d, managed);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(managed[i], 2.0f * i + 1.0f);
  EXPECT_EQ(cudaMemcpy(managed, d, 32 * sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(cudaFree(pinned), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
  EXPECT_EQ(cudaFree(managed), cudaSuccess);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST_F(EmulationRuntime, Memset) {
  unsigned char *d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64), cudaSuccess);
  EXPECT_EQ(cudaMemset(d, 0xab, 64), cudaSuccess);
  EXPECT_EQ(d[63], 0xab);
  EXPECT_EQ(cudaMemset(d + 32, 0, 33), cudaErrorInvalidValue);
  unsigned char host[4];
  EXPECT_EQ(cudaMemset(host, 0, 4), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemsetAsync(d, 1, 64, 0), cudaSuccess);
  EXPECT_EQ(d[0], 1);
  cudaFree(d);
}

TEST_F(EmulationRuntime, ConstantAndDeviceSymbols) {
  const float coef[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  ASSERT_EQ(cudaMemcpyToSymbol(coefficients, coef, sizeof coef), cudaSuccess);
  const int n = 10;
  std::vector<float> data(n, 1.0f);
  float *d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, n * sizeof(float)), cudaSuccess);
  cudaMemcpy(d, data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  rtcuda::emu::launch(scaleByConstant, dim3(1), dim3(16), d, n);
  cudaMemcpy(data.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) EXPECT_EQ(data[i], coef[i % 4]);
  EXPECT_EQ(cudaMemcpyToSymbol(coefficients, coef, sizeof coef, 4), cudaErrorInvalidValue);
  float back[2] = {0, 0};
  EXPECT_EQ(cudaMemcpyFromSymbol(back, coefficients, sizeof back, 2 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(back[0], 3.0f);
  EXPECT_EQ(back[1], 4.0f);

  const int zero = 0;
  ASSERT_EQ(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero), cudaSuccess);
  rtcuda::emu::launch(bumpCounter, dim3(3), dim3(50));
  int count = 0;
  EXPECT_EQ(cudaMemcpyFromSymbol(&count, device_counter, sizeof count), cudaSuccess);
  EXPECT_EQ(count, 150);
  void *address = nullptr;
  EXPECT_EQ(cudaGetSymbolAddress(&address, device_counter), cudaSuccess);
  EXPECT_EQ(address, static_cast<void *>(&device_counter));
  cudaFree(d);
}

TEST_F(EmulationRuntime, DeviceQueries) {
  int count = 0, device = -1;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(device, 0);
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_STREQ(prop.name, "rtcuda CPU emulator");
  EXPECT_EQ(prop.maxThreadsPerBlock, 1024);
  EXPECT_EQ(prop.sharedMemPerBlock, 48u * 1024);
  EXPECT_EQ(prop.warpSize, 32);
  EXPECT_EQ(prop.major, 9);
  EXPECT_EQ(prop.minor, 0);
  EXPECT_GT(prop.multiProcessorCount, 0);
  EXPECT_GT(prop.regsPerBlock, 0);
  EXPECT_EQ(prop.maxThreadsPerMultiProcessor, 2048);
  int value = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  EXPECT_EQ(value, prop.multiProcessorCount);
  EXPECT_EQ(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  EXPECT_EQ(value, 9);
  EXPECT_EQ(cudaGetDeviceProperties(&prop, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaThreadSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaThreadExit(), cudaSuccess);
}

TEST_F(EmulationRuntime, ErrorNamesAndStrings) {
  EXPECT_STREQ(cudaGetErrorString(cudaSuccess), "no error");
  EXPECT_STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorLaunchFailure), "cudaErrorLaunchFailure");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
  EXPECT_EQ(int(cudaErrorLaunchFailure), 719);
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(12345)), "unrecognized error code");
}

TEST_F(EmulationRuntime, EventsMeasureHostTime) {
  cudaEvent_t start, stop;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  float ms = -1;
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle);
  float *sink = nullptr;
  ASSERT_EQ(cudaMalloc(&sink, sizeof(float)), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(start), cudaSuccess);
  rtcuda::emu::launch(spin, dim3(4), dim3(64), sink, 2000);
  EXPECT_EQ(cudaEventRecord(stop, 0), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(stop), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(start), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventDestroy(stop), cudaSuccess);
  cudaFree(sink);
}

TEST_F(EmulationRuntime, StreamsAreSynchronousHandles) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  int *d = nullptr;
  int host[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
  ASSERT_EQ(cudaMalloc(&d, sizeof host), cudaSuccess);
  EXPECT_EQ(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, s), cudaSuccess);
  EXPECT_EQ(cudaMemcpyAsync(back, d, sizeof back, cudaMemcpyDeviceToHost, s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(back[3], 4);
  EXPECT_EQ(cudaStreamQuery(s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(0), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
  cudaFree(d);
}

// ---- rtcuda_runtime.h under RTCUDA_EMULATE ---------------------------------------------------

// What a generated main.cu does for y = a*x + y in explicit memory mode.
static int generated_saxpy(int n) {
  float *x = static_cast<float *>(malloc(n * sizeof(float)));
  float *y = static_cast<float *>(malloc(n * sizeof(float)));
  for (int i = 0; i < n; ++i) x[i] = float(i), y[i] = 1.0f;
  float *d_x = static_cast<float *>(rtcuda_copy_in(x, n * sizeof(float), RTCUDA_HERE));
  float *d_y = static_cast<float *>(rtcuda_copy_in(y, n * sizeof(float), RTCUDA_HERE));
  rtcuda_check_index_range(n, "saxpy", RTCUDA_HERE);
  RTCUDA_LAUNCH(saxpy, dim3(rtcuda_ceil_div(n, 128)), dim3(128), n, 3.0f, d_x, d_y);
  rtcuda_check_launch("saxpy", RTCUDA_HERE);
  rtcuda_copy_out(y, n * sizeof(float), RTCUDA_HERE);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += y[i] != 3.0f * i + 1.0f;
  rtcuda_host_free(x);
  rtcuda_host_free(y);
  return wrong;
}

TEST_F(EmulationRuntime, RuntimeHeaderLaunchAndCheck) {
  EXPECT_EQ(generated_saxpy(1000), 0);
  EXPECT_EQ(generated_saxpy(1), 0);
  RTCUDA_CHECK(cudaDeviceSynchronize());
}

TEST_F(EmulationRuntime, RuntimeHeaderChecksFailLoudly) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  int local = 0;
  EXPECT_EXIT(RTCUDA_CHECK(cudaFree(&local)), ::testing::ExitedWithCode(1),
              "cudaFree\\(&local\\) failed: invalid argument \\(cudaErrorInvalidValue\\)");
  EXPECT_EXIT(
      {
        float *d = nullptr;
        RTCUDA_CHECK(cudaMalloc(&d, 4 * sizeof(float)));
        RTCUDA_LAUNCH(saxpy, dim3(1), dim3(2048), 4, 1.0f, d, d);
        rtcuda_check_launch("saxpy", RTCUDA_HERE);
      },
      ::testing::ExitedWithCode(1),
      "kernel 'saxpy' failed: invalid configuration argument \\(cudaErrorInvalidConfiguration\\)");
}

// GeneratedProgram.cu, compiled as C++.
int generated_matmul_main(int M, int N, int K);

TEST_F(EmulationRuntime, GeneratedCuFileCompilesAndRuns) {
  EXPECT_EQ(generated_matmul_main(37, 29, 41), 0); // primes: partial tiles everywhere
  EXPECT_EQ(generated_matmul_main(64, 64, 64), 0);
  EXPECT_EQ(generated_matmul_main(1, 1, 1), 0);
}
