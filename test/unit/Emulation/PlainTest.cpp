// The shim without sanitizers (rtcuda_emu): results, and the message for a fiber stack overflow.
#include <cuda_runtime.h> // from include/compat: sources that include it get the shim

#include <gtest/gtest.h>

#include <vector>

namespace {

__global__ void reverseTile(const int *in, int *out) {
  __shared__ int tile[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  __syncthreads();
  out[i] = tile[blockDim.x - 1 - t];
}

__global__ void bigFrame(int *out, int n) {
  volatile int local[64 * 1024]; // 256 KB: more than the fiber stack
  for (int i = 0; i < n; ++i) local[i] = i;
  out[threadIdx.x] = local[n - 1];
}

} // namespace

TEST(EmulationPlain, BarrierKernelInBothModes) {
  const int n = 128 * 33;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i * 3;
  int *din = nullptr, *dout = nullptr;
  ASSERT_EQ(cudaMalloc(&din, n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dout, n * sizeof(int)), cudaSuccess);
  cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  for (bool threads : {false, true}) {
    rtcuda::emu::set_threads_mode(threads, 3);
    rtcuda::emu::launch(reverseTile, dim3(33), dim3(128), din, dout);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i / 128 * 128 + 127 - i % 128]);
  }
  rtcuda::emu::set_threads_mode(false);
  cudaFree(din);
  cudaFree(dout);
}

TEST(EmulationPlain, StackOverflowIsExplained) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        int *out = nullptr;
        cudaMalloc(&out, 4 * sizeof(int));
        rtcuda::emu::launch(bigFrame, dim3(1), dim3(4), out, 64 * 1024);
      },
      "overflowed its fiber stack; raise RTCUDA_EMU_STACK_KB");
}
