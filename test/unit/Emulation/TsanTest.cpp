// Races that only ThreadSanitizer can see, built with -fsanitize=thread: each emulated GPU thread
// is a TSan thread, and threads mode runs blocks on several OS threads.
#include "rtcuda_emu.h"

#include <gtest/gtest.h>

#include <vector>

// The first report ends the process with status 66, so a race fails whatever test it happens in.
extern "C" const char *__tsan_default_options() { return "halt_on_error=1:exitcode=66"; }

namespace {

__global__ void sharedHistogramRacy(const int *values, unsigned *out) {
  __shared__ unsigned bins[4];
  int t = threadIdx.x;
  if (t < 4) bins[t] = 0;
  __syncthreads();
  bins[values[blockIdx.x * blockDim.x + t] % 4]++; // read-modify-write by several threads
  __syncthreads();
  if (t < 4) atomicAdd(&out[t], bins[t]);
}

__global__ void sharedHistogramAtomic(const int *values, unsigned *out) {
  __shared__ unsigned bins[4];
  int t = threadIdx.x;
  if (t < 4) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[values[blockIdx.x * blockDim.x + t] % 4], 1u);
  __syncthreads();
  if (t < 4) atomicAdd(&out[t], bins[t]);
}

__global__ void globalHistogramRacy(const int *values, unsigned *out) {
  out[values[blockIdx.x * blockDim.x + threadIdx.x] % 4] += 1;
}

// Correct within a block, racy across blocks: thread 0 of every block updates out[0].
__global__ void blockTotalsRacy(const int *values, int *out) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, values[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[0] += sum;
}

__global__ void blockTotalsAtomic(const int *values, int *out) {
  __shared__ int sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, values[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&out[0], sum);
}

__global__ void reverseTile(const int *in, int *out) {
  __shared__ int tile[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  __syncthreads();
  out[i] = tile[blockDim.x - 1 - t]; // the next block on this worker overwrites the tile
}

__global__ void blockSum(const int *in, int *out) {
  __shared__ int partial[64];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

struct Buffers {
  int *values = nullptr;
  unsigned *bins = nullptr;
  int *ints = nullptr;
  int n;
  explicit Buffers(int count) : n(count) {
    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = i * 7 % 13;
    cudaMalloc(&values, n * sizeof(int));
    cudaMemcpy(values, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMalloc(&bins, 4 * sizeof(unsigned));
    cudaMemset(bins, 0, 4 * sizeof(unsigned));
    cudaMalloc(&ints, n * sizeof(int));
    cudaMemset(ints, 0, n * sizeof(int));
  }
  ~Buffers() {
    cudaFree(values);
    cudaFree(bins);
    cudaFree(ints);
  }
};

class EmulationTsan : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    rtcuda::emu::set_threads_mode(false);
  }
  void TearDown() override { rtcuda::emu::set_threads_mode(false); }
};

} // namespace

TEST_F(EmulationTsan, RacySharedHistogramIsReported) {
  EXPECT_EXIT(
      {
        Buffers b(64);
        rtcuda::emu::launch(sharedHistogramRacy, dim3(2), dim3(32), b.values, b.bins);
      },
      ::testing::ExitedWithCode(66), "ThreadSanitizer: data race");
}

TEST_F(EmulationTsan, RacyGlobalHistogramIsReported) {
  EXPECT_EXIT(
      {
        Buffers b(32);
        rtcuda::emu::launch(globalHistogramRacy, dim3(1), dim3(32), b.values, b.bins);
      },
      ::testing::ExitedWithCode(66), "ThreadSanitizer: data race");
}

TEST_F(EmulationTsan, CrossBlockRaceIsReportedInThreadsMode) {
  EXPECT_EXIT(
      {
        rtcuda::emu::set_threads_mode(true, 4);
        Buffers b(64 * 32);
        for (int k = 0; k < 20; ++k)
          rtcuda::emu::launch(blockTotalsRacy, dim3(64), dim3(32), b.values, b.ints);
      },
      ::testing::ExitedWithCode(66), "ThreadSanitizer: data race");
}

TEST_F(EmulationTsan, CorrectKernelsAreNotReported) {
  for (bool threads : {false, true}) {
    rtcuda::emu::set_threads_mode(threads, 4);
    Buffers b(16 * 64);
    rtcuda::emu::launch(sharedHistogramAtomic, dim3(16), dim3(64), b.values, b.bins);
    rtcuda::emu::launch(blockTotalsAtomic, dim3(16), dim3(64), b.values, b.ints);
    rtcuda::emu::launch(reverseTile, dim3(15), dim3(64), b.values, b.ints + 1); // in bounds
    rtcuda::emu::launch(blockSum, dim3(16), dim3(64), b.values, b.ints); // rewrites ints
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<unsigned> bins(4);
    cudaMemcpy(bins.data(), b.bins, sizeof(unsigned) * 4, cudaMemcpyDeviceToHost);
    std::vector<int> host(b.n);
    cudaMemcpy(host.data(), b.values, sizeof(int) * b.n, cudaMemcpyDeviceToHost);
    std::vector<unsigned> expect(4, 0);
    for (int v : host) ++expect[v % 4];
    EXPECT_EQ(bins, expect);
  }
}
