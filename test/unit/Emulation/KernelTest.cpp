// Kernels run under the emulation shim: indexing, barriers, shuffled order, divergence, launch
// configuration, atomics, sanitizers. Built with -fsanitize=address,undefined.
#include "rtcuda_emu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace {

// ---- kernels, written as generated code writes them -----------------------------------------

__global__ void vecAdd(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Reverses each block's chunk through shared memory.
template <bool kSync> __global__ void reverseTile(const int *in, int *out) {
  __shared__ int tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  if (kSync) __syncthreads();
  out[i] = tile[blockDim.x - 1 - t];
}

// Reads the left neighbour's element: right in increasing thread order even without a barrier.
template <bool kSync> __global__ void shiftRight(const int *in, int *out) {
  __shared__ int tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  if (kSync) __syncthreads();
  out[i] = t > 0 ? tile[t - 1] : -1;
}

// Records the position of each thread in the execution order of its block.
__global__ void recordOrder(int *position, int *counter) {
  position[threadIdx.x] = atomicAdd(counter, 1);
}

// Tree reduction: log2(blockDim) barriers in a loop.
__global__ void blockSum(const int *in, int *out) {
  __shared__ int partial[1024];
  unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void earlyReturn(int *out, int keep) {
  if ((int)threadIdx.x >= keep) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void unevenBarriers(int *out) {
  int rounds = threadIdx.x == 0 ? 2 : 1;
  for (int r = 0; r < rounds; ++r) __syncthreads();
  out[threadIdx.x] = rounds;
}

__global__ void guardedTail(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return; // a barrier after an early return: wrong in the last, partial block
  __syncthreads();
  out[i] = i;
}

__global__ void setFlag(int *flag) { *flag = 1; }

__global__ void histogram(const int *values, int n, unsigned *bins, int nbins) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&local[values[i] % nbins], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

__global__ void floatSums(const float *values, int n, float *fsum, double *dsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(fsum, values[i]);
    atomicAdd(dsum, (double)values[i]);
  }
}

__global__ void writeIndices(int4 *out) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned width = gridDim.x * blockDim.x, height = gridDim.y * blockDim.y;
  int4 &cell = out[(z * height + y) * width + x];
  cell.x += 1; // counts writes: each cell exactly once
  cell.y = (int)(threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z);
  cell.z = (int)(blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z);
  cell.w = (int)(blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z);
}

__global__ void storeUnguarded(float *c, float v) { c[blockIdx.x * blockDim.x + threadIdx.x] = v; }

__global__ void sharedOverrun(int *out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x + 1]; // thread 31 reads past the tile
}

__global__ void countBarriers(const int *pred, int *count, int *all, int *any) {
  int t = threadIdx.x;
  count[t] = __syncthreads_count(pred[t]);
  all[t] = __syncthreads_and(pred[t]);
  any[t] = __syncthreads_or(pred[t]);
}

// Parameters are per-thread copies: changing one in a thread leaves the others' alone.
__global__ void ownParams(int *out, int n) {
  n -= (int)threadIdx.x;
  out[threadIdx.x] = n;
}

__global__ void nestedLaunch(int *status) {
  rtcuda::emu::launch(setFlag, dim3(1), dim3(1), status + 1);
  status[0] = cudaGetLastError();
}

// ---- helpers ---------------------------------------------------------------------------------

template <class T> struct DeviceArray {
  T *ptr = nullptr;
  size_t n;
  explicit DeviceArray(size_t count, const std::vector<T> *init = nullptr) : n(count) {
    EXPECT_EQ(cudaMalloc(&ptr, n * sizeof(T)), cudaSuccess);
    if (init)
      EXPECT_EQ(cudaMemcpy(ptr, init->data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    else
      EXPECT_EQ(cudaMemset(ptr, 0, n * sizeof(T)), cudaSuccess);
  }
  explicit DeviceArray(const std::vector<T> &init) : DeviceArray(init.size(), &init) {}
  ~DeviceArray() { cudaFree(ptr); }
  std::vector<T> get() const {
    std::vector<T> out(n);
    EXPECT_EQ(cudaMemcpy(out.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return out;
  }
};

class EmulationKernel : public ::testing::Test {
protected:
  void SetUp() override {
    cudaDeviceReset();
    rtcuda::emu::set_seed(0x5eed);
    rtcuda::emu::set_threads_mode(false);
  }
  void TearDown() override {
    rtcuda::emu::set_seed(0x5eed);
    rtcuda::emu::set_threads_mode(false);
    cudaDeviceReset();
  }
};

std::vector<int> iota_vector(int n, int start = 0) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

} // namespace

// ---- basic execution -------------------------------------------------------------------------

TEST_F(EmulationKernel, VectorAddWithGuard) {
  const int n = 1000; // not a multiple of the block
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 2.0f * i + 1;
  DeviceArray<float> da(a), db(b), dc(n);
  rtcuda::emu::launch(vecAdd, dim3((n + 127) / 128), dim3(128), da.ptr, db.ptr, dc.ptr, n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<float> c = dc.get();
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_F(EmulationKernel, IndexesTwoAndThreeDimensionalGridsAndBlocks) {
  const dim3 grids[] = {dim3(3, 2, 2), dim3(5, 3), dim3(1, 1, 4)};
  const dim3 blocks[] = {dim3(4, 2, 3), dim3(8, 4), dim3(2, 3, 5)};
  for (int k = 0; k < 3; ++k) {
    const dim3 g = grids[k], bl = blocks[k];
    const size_t cells = size_t(g.x) * g.y * g.z * bl.x * bl.y * bl.z;
    DeviceArray<int4> out(cells);
    rtcuda::emu::launch(writeIndices, g, bl, out.ptr);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int4> host = out.get();
    const unsigned width = g.x * bl.x, height = g.y * bl.y;
    for (size_t c = 0; c < cells; ++c) {
      const unsigned x = unsigned(c % width), y = unsigned(c / width % height),
                     z = unsigned(c / width / height);
      const int4 v = host[c];
      ASSERT_EQ(v.x, 1) << "cell " << c << " written " << v.x << " times";
      EXPECT_EQ(v.y, int(x % bl.x + 10 * (y % bl.y) + 100 * (z % bl.z)));
      EXPECT_EQ(v.z, int(x / bl.x + 10 * (y / bl.y) + 100 * (z / bl.z)));
      EXPECT_EQ(v.w, int(cells));
    }
  }
}

TEST_F(EmulationKernel, ParametersAreCopiedPerThread) {
  DeviceArray<int> out(8);
  rtcuda::emu::launch(ownParams, dim3(1), dim3(8), out.ptr, 100);
  std::vector<int> host = out.get();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(host[t], 100 - t);
}

// ---- barriers and shuffled order -------------------------------------------------------------

TEST_F(EmulationKernel, SharedTileReverseWithBarrier) {
  const int block = 256, blocks = 7, n = block * blocks;
  std::vector<int> in = iota_vector(n, 1000);
  DeviceArray<int> din(in), dout(n);
  for (unsigned long long seed : {1ULL, 2ULL, 3ULL, 0xdeadbeefULL}) {
    rtcuda::emu::set_seed(seed);
    rtcuda::emu::launch(reverseTile<true>, dim3(blocks), dim3(block), din.ptr, dout.ptr);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> out = dout.get();
    for (int i = 0; i < n; ++i) {
      const int b = i / block, t = i % block;
      ASSERT_EQ(out[i], in[b * block + block - 1 - t]) << "seed " << seed << " i " << i;
    }
  }
}

TEST_F(EmulationKernel, MissingBarrierGivesWrongResult) {
  const int block = 256, blocks = 4, n = block * blocks;
  std::vector<int> in = iota_vector(n, 1);
  DeviceArray<int> din(in), dout(n);
  rtcuda::emu::launch(reverseTile<false>, dim3(blocks), dim3(block), din.ptr, dout.ptr);
  std::vector<int> out = dout.get();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != in[i / block * block + block - 1 - i % block];
  EXPECT_GT(wrong, 0);
}

// The neighbour read is right whenever threads run in increasing order: only a shuffled order
// exposes the missing barrier, and it does for every seed tried.
TEST_F(EmulationKernel, ShuffledOrderExposesMissingBarrierThatIncreasingOrderHides) {
  const int block = 64, blocks = 2, n = block * blocks;
  std::vector<int> in = iota_vector(n, 1);
  DeviceArray<int> din(in), dout(n);
  for (unsigned long long seed = 1; seed <= 8; ++seed) {
    rtcuda::emu::set_seed(seed);
    rtcuda::emu::launch(shiftRight<false>, dim3(blocks), dim3(block), din.ptr, dout.ptr);
    std::vector<int> wrong_run = dout.get();
    rtcuda::emu::launch(shiftRight<true>, dim3(blocks), dim3(block), din.ptr, dout.ptr);
    std::vector<int> right_run = dout.get();
    for (int i = 0; i < n; ++i) ASSERT_EQ(right_run[i], i % block ? in[i - 1] : -1);
    EXPECT_NE(wrong_run, right_run) << "seed " << seed;
  }
}

TEST_F(EmulationKernel, OrderIsASeededPermutation) {
  const int block = 128;
  DeviceArray<int> position(block), counter(1);
  auto order_for = [&](unsigned long long seed) {
    rtcuda::emu::set_seed(seed);
    EXPECT_EQ(cudaMemset(counter.ptr, 0, sizeof(int)), cudaSuccess);
    rtcuda::emu::launch(recordOrder, dim3(1), dim3(block), position.ptr, counter.ptr);
    return position.get();
  };
  // Launches are numbered: the same seed gives the same orders from the same launch on.
  const unsigned long long first = rtcuda::emu::launch_count();
  std::vector<int> a = order_for(11), b = order_for(12);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, iota_vector(block));
  EXPECT_NE(a, iota_vector(block));
  EXPECT_NE(a, b);
  EXPECT_EQ(rtcuda::emu::launch_count(), first + 2);
}

TEST_F(EmulationKernel, ReductionWithBarriersInALoop) {
  for (int block : {1, 2, 64, 1024}) {
    const int blocks = 5;
    std::vector<int> in = iota_vector(block * blocks);
    DeviceArray<int> din(in), dout(blocks);
    rtcuda::emu::launch(blockSum, dim3(blocks), dim3(block), din.ptr, dout.ptr);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> out = dout.get();
    for (int b = 0; b < blocks; ++b) {
      long long expect = 0;
      for (int t = 0; t < block; ++t) expect += in[b * block + t];
      EXPECT_EQ(out[b], expect) << "block size " << block;
    }
  }
}

TEST_F(EmulationKernel, SyncthreadsCountAndOr) {
  const int block = 40;
  std::vector<int> pred(block, 0);
  for (int t = 0; t < block; t += 3) pred[t] = 7;
  const int ones = (block + 2) / 3;
  DeviceArray<int> dpred(pred), count(block), all(block), any(block);
  rtcuda::emu::launch(countBarriers, dim3(1), dim3(block), dpred.ptr, count.ptr, all.ptr, any.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  for (int v : count.get()) EXPECT_EQ(v, ones);
  for (int v : all.get()) EXPECT_EQ(v, 0);
  for (int v : any.get()) EXPECT_EQ(v, 1);
}

// ---- barrier divergence ----------------------------------------------------------------------

TEST_F(EmulationKernel, BarrierAfterEarlyReturnIsReported) {
  DeviceArray<int> out(8);
  ::testing::internal::CaptureStderr();
  rtcuda::emu::launch(earlyReturn, dim3(1), dim3(8), out.ptr, 3);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("rtcuda-emu: error: barrier divergence in block (0,0,0): 3 of 8 threads "
                     "reached __syncthreads()"),
            std::string::npos)
      << err;
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  // Sticky: later calls fail too, until a reset.
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  void *p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&p, 16), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaSuccess);
}

TEST_F(EmulationKernel, DifferentBarrierCountsAreReported) {
  DeviceArray<int> out(4);
  ::testing::internal::CaptureStderr();
  rtcuda::emu::launch(unevenBarriers, dim3(1), dim3(4), out.ptr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("1 of 4 threads reached __syncthreads()"), std::string::npos) << err;
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
}

TEST_F(EmulationKernel, DivergenceInLastPartialBlockIsReported) {
  const int n = 10;
  DeviceArray<int> out(n);
  ::testing::internal::CaptureStderr();
  rtcuda::emu::launch(guardedTail, dim3(3), dim3(4), out.ptr, n);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("barrier divergence in block (2,0,0): 2 of 4 threads"), std::string::npos)
      << err;
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
}

TEST_F(EmulationKernel, FibersOfADivergentLaunchDoNotLeakIntoTheNext) {
  DeviceArray<int> out(256);
  for (int k = 0; k < 3; ++k) {
    ::testing::internal::CaptureStderr();
    rtcuda::emu::launch(earlyReturn, dim3(4), dim3(256), out.ptr, 100);
    ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    cudaDeviceReset();
  }
  DeviceArray<int> in(iota_vector(256)), sum(1);
  rtcuda::emu::launch(blockSum, dim3(1), dim3(256), in.ptr, sum.ptr);
  EXPECT_EQ(sum.get()[0], 255 * 256 / 2);
}

// ---- launch configuration --------------------------------------------------------------------

TEST_F(EmulationKernel, InvalidConfigurationsDoNotRun) {
  DeviceArray<int> flag(1);
  const dim3 bad_blocks[] = {dim3(1025), dim3(32, 32, 2), dim3(1, 1, 65), dim3(0), dim3(4, 0)};
  for (dim3 bl : bad_blocks) {
    rtcuda::emu::launch(setFlag, dim3(1), bl, flag.ptr);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess); // not sticky
  }
  const dim3 bad_grids[] = {dim3(0), dim3(1, 65536), dim3(1, 1, 65536), dim3(2147483648u)};
  for (dim3 g : bad_grids) {
    rtcuda::emu::launch(setFlag, g, dim3(32), flag.ptr);
    EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  }
  EXPECT_EQ(flag.get()[0], 0);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (dim3 bl : {dim3(1024), dim3(4, 4, 64), dim3(1, 1024)}) {
    rtcuda::emu::launch(setFlag, dim3(1), bl, flag.ptr);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  }
  EXPECT_EQ(flag.get()[0], 1);
}

TEST_F(EmulationKernel, LaunchFromAKernelIsNotSupported) {
  DeviceArray<int> status(2);
  rtcuda::emu::launch(nestedLaunch, dim3(1), dim3(1), status.ptr);
  std::vector<int> s = status.get();
  EXPECT_EQ(s[0], cudaErrorNotSupported);
  EXPECT_EQ(s[1], 0);
}

// ---- atomics ---------------------------------------------------------------------------------

TEST_F(EmulationKernel, AtomicHistogram) {
  const int n = 5000, nbins = 37;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = (i * 7919) % 1000;
  std::vector<unsigned> expect(nbins, 0);
  for (int v : values) ++expect[v % nbins];
  DeviceArray<int> dv(values);
  DeviceArray<unsigned> bins(nbins);
  rtcuda::emu::launch(histogram, dim3((n + 255) / 256), dim3(256), dv.ptr, n, bins.ptr, nbins);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(bins.get(), expect);
}

TEST_F(EmulationKernel, FloatingPointAtomicAdd) {
  const int n = 1000;
  std::vector<float> values(n, 0.25f);
  DeviceArray<float> dv(values), fsum(1);
  DeviceArray<double> dsum(1);
  rtcuda::emu::launch(floatSums, dim3(4), dim3(256), dv.ptr, n, fsum.ptr, dsum.ptr);
  EXPECT_EQ(fsum.get()[0], 250.0f);
  EXPECT_EQ(dsum.get()[0], 250.0);
}

TEST(EmulationAtomics, Semantics) {
  int i = 5;
  EXPECT_EQ(atomicAdd(&i, 3), 5);
  EXPECT_EQ(atomicSub(&i, 2), 8);
  EXPECT_EQ(atomicMin(&i, 4), 6);
  EXPECT_EQ(atomicMax(&i, 9), 4);
  EXPECT_EQ(atomicExch(&i, 1), 9);
  EXPECT_EQ(atomicCAS(&i, 2, 7), 1); // no swap
  EXPECT_EQ(atomicCAS(&i, 1, 7), 1);
  EXPECT_EQ(i, 7);
  EXPECT_EQ(atomicAnd(&i, 6), 7);
  EXPECT_EQ(atomicOr(&i, 8), 6);
  EXPECT_EQ(atomicXor(&i, 15), 14);
  EXPECT_EQ(i, 1);
  unsigned u = 2;
  EXPECT_EQ(atomicInc(&u, 2), 2u);
  EXPECT_EQ(u, 0u); // wraps at the limit
  EXPECT_EQ(atomicDec(&u, 5), 0u);
  EXPECT_EQ(u, 5u);
  unsigned long long ull = 1ULL << 40;
  EXPECT_EQ(atomicAdd(&ull, 1ULL), 1ULL << 40);
  EXPECT_EQ(atomicMax(&ull, 3ULL), (1ULL << 40) + 1);
  float f = 1.5f;
  EXPECT_EQ(atomicExch(&f, 2.5f), 1.5f);
  EXPECT_EQ(atomicAdd(&f, 1.0f), 2.5f);
  EXPECT_EQ(f, 3.5f);
  long long ll = -3;
  EXPECT_EQ(atomicMin(&ll, -10LL), -3);
  EXPECT_EQ(ll, -10);
}

TEST(EmulationIntrinsics, MinMaxAndBits) {
  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3u, 4u), 4u);
  EXPECT_EQ(max(-1, 1u), 4294967295u); // mixed signedness compares as unsigned, as in CUDA
  EXPECT_EQ(min(2.5f, 1.5f), 1.5f);
  EXPECT_EQ(max(2.5, 3.5f), 3.5);
  EXPECT_EQ(min(7LL, 9LL), 7LL);
  EXPECT_FLOAT_EQ(rsqrtf(4.0f), 0.5f);
  EXPECT_FLOAT_EQ(__fdividef(1.0f, 4.0f), 0.25f);
  EXPECT_FLOAT_EQ(__expf(0.0f), 1.0f);
  EXPECT_EQ(__popc(0xF0F0u), 8);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__ffs(8), 4);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__mul24(-2, 3), -6);
  EXPECT_EQ(__umulhi(0x80000000u, 4u), 2u);
  EXPECT_EQ(__float_as_int(1.0f), 0x3f800000);
  EXPECT_EQ(__int_as_float(0x40000000), 2.0f);
  EXPECT_EQ(__float2int_rn(2.5f), 2);
  EXPECT_EQ(__float2int_rz(-2.7f), -2);
  int x = 42;
  EXPECT_EQ(__ldg(&x), 42);
  const dim3 d(4, 5);
  const uint3 u = d;
  EXPECT_EQ(u.y, 5u);
  EXPECT_EQ(dim3(u).z, 1u);
  EXPECT_EQ(warpSize, 32);
}

// ---- sanitizers ------------------------------------------------------------------------------

TEST_F(EmulationKernel, OutOfBoundsStoreIsCaughtByAddressSanitizer) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        float *c = nullptr;
        cudaMalloc(&c, 100 * sizeof(float));
        // 128 threads, no guard: threads 100..127 store past the allocation.
        rtcuda::emu::launch(storeUnguarded, dim3(1), dim3(128), c, 1.0f);
      },
      "heap-buffer-overflow");
}

TEST_F(EmulationKernel, SharedMemoryOverrunIsCaughtByBoundsCheck) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        int *out = nullptr;
        cudaMalloc(&out, 32 * sizeof(int));
        rtcuda::emu::launch(sharedOverrun, dim3(1), dim3(32), out);
      },
      "out of bounds");
}

// ---- threads mode (without ThreadSanitizer here: results must still be right) ----------------

TEST_F(EmulationKernel, ThreadsModeRunsBlocksConcurrentlyWithPrivateSharedMemory) {
  rtcuda::emu::set_threads_mode(true, 4);
  const int block = 256, blocks = 16, n = block * blocks;
  std::vector<int> in = iota_vector(n, 3);
  DeviceArray<int> din(in), dout(n), sums(blocks);
  rtcuda::emu::launch(reverseTile<true>, dim3(blocks), dim3(block), din.ptr, dout.ptr);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<int> out = dout.get();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i / block * block + block - 1 - i % block]);
  rtcuda::emu::launch(blockSum, dim3(blocks), dim3(block), din.ptr, sums.ptr);
  std::vector<int> s = sums.get();
  for (int b = 0; b < blocks; ++b) {
    long long expect = 0;
    for (int t = 0; t < block; ++t) expect += in[b * block + t];
    EXPECT_EQ(s[b], expect);
  }
  ::testing::internal::CaptureStderr();
  rtcuda::emu::launch(guardedTail, dim3(8), dim3(64), dout.ptr, 8 * 64 - 5);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("59 of 64 threads"), std::string::npos) << err;
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
}

TEST_F(EmulationKernel, LargeStacksAndManyLaunches) {
  rtcuda::emu::set_stack_kb(256);
  DeviceArray<int> in(iota_vector(512)), out(2);
  for (int k = 0; k < 50; ++k) rtcuda::emu::launch(blockSum, dim3(2), dim3(256), in.ptr, out.ptr);
  rtcuda::emu::set_stack_kb(64);
  rtcuda::emu::launch(blockSum, dim3(2), dim3(256), in.ptr, out.ptr);
  std::vector<int> s = out.get();
  EXPECT_EQ(s[0], 255 * 256 / 2);
  EXPECT_EQ(s[1], (256 + 511) * 256 / 2);
}

// ---- environment -----------------------------------------------------------------------------

// A threadsafe death test runs in a fresh process, which reads the environment set here.
TEST(EmulationEnvironment, SettingsComeFromTheEnvironment) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("RTCUDA_EMU_SEED", "42", 1);
  setenv("RTCUDA_EMU_VERBOSE", "1", 1);
  setenv("RTCUDA_EMU_STACK_KB", "128", 1);
  setenv("RTCUDA_EMU_THREADS", "1", 1);
  EXPECT_EXIT(
      {
        int *flag = nullptr;
        cudaMalloc(&flag, sizeof(int));
        rtcuda::emu::launch(setFlag, dim3(3), dim3(2), flag);
        exit(cudaGetLastError() == cudaSuccess && rtcuda::emu::seed() == 42 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0),
      "rtcuda-emu: seed 0x2a, threads mode, 128 KB fiber stacks\n"
      "rtcuda-emu: launch #0 grid \\(3,1,1\\) block \\(2,1,1\\)");
  unsetenv("RTCUDA_EMU_SEED");
  unsetenv("RTCUDA_EMU_VERBOSE");
  unsetenv("RTCUDA_EMU_STACK_KB");
  unsetenv("RTCUDA_EMU_THREADS");
}
