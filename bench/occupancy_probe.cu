// Occupancy probe: what cudaOccupancyMaxActiveBlocksPerMultiprocessor answers on this GPU for
// many combinations of block size, registers per thread, static and dynamic shared memory.
// Its CSV is what test/unit/Tuner/data/h100_occupancy.csv holds, which the unit test compares
// with rtcuda-tune's own occupancy calculation (lib/Tuner/Occupancy.cpp) without a GPU.
//
// Build and run (one line; sm_90 for the H100):
//   nvcc -O2 -std=c++17 -arch=sm_90 bench/occupancy_probe.cu -o occupancy_probe && ./occupancy_probe > h100_occupancy.csv
//
// Registers are forced by kernels that keep K values live across a loop (K = 4 ... 224); the
// count the compiler chose is read back with cudaFuncGetAttributes, so the table records real
// register counts. Lines starting with '#' describe the device.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                   cudaGetErrorString(e_));                                           \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

// K accumulators that all stay live until the end: the compiler needs about K registers.
template <int K, int StaticBytes>
__global__ void pressure(float *out, const float *in, int n) {
  extern __shared__ float dynamicSmem[];
  float acc[K];
#pragma unroll
  for (int i = 0; i < K; ++i) acc[i] = in[(threadIdx.x + i * 7) % n];
  for (int it = 0; it < n; ++it) {
#pragma unroll
    for (int i = 0; i < K; ++i) acc[i] = acc[i] * acc[(i + 1) % K] + in[(it + i) % n];
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < K; ++i) sum += acc[i];
  if constexpr (StaticBytes > 0) {
    __shared__ float staticSmem[StaticBytes / 4];
    staticSmem[threadIdx.x % (StaticBytes / 4)] = sum;
    __syncthreads();
    sum += staticSmem[(threadIdx.x + 1) % (StaticBytes / 4)];
  }
  if (n < 0) dynamicSmem[threadIdx.x] = sum;  // referenced, never run
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

struct Probe {
  const char *name;
  const void *fn;
};

#define PROBE(K, S) Probe{"regs" #K "_smem" #S, reinterpret_cast<const void *>(&pressure<K, S>)}

int main() {
  int dev = 0;
  CHECK(cudaSetDevice(dev));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, dev));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("# device: %s, cc %d.%d, %d SMs, driver %d, runtime %d\n", p.name, p.major, p.minor,
              p.multiProcessorCount, driver, runtime);
  std::printf("# maxThreadsPerBlock %d maxThreadsPerMultiProcessor %d maxBlocksPerMultiProcessor %d\n",
              p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
  std::printf("# regsPerBlock %d regsPerMultiprocessor %d warpSize %d\n", p.regsPerBlock,
              p.regsPerMultiprocessor, p.warpSize);
  std::printf("# sharedMemPerBlock %zu sharedMemPerBlockOptin %zu sharedMemPerMultiprocessor %zu "
              "reservedSharedMemPerBlock %zu l2CacheSize %d\n",
              p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor,
              p.reservedSharedMemPerBlock, p.l2CacheSize);
  std::printf("kernel,block_size,num_regs,static_smem,max_dynamic_smem,dynamic_smem,"
              "func_max_threads,blocks_per_sm\n");

  const std::vector<Probe> probes = {
      PROBE(4, 0),   PROBE(16, 0),   PROBE(32, 0),     PROBE(48, 0),   PROBE(64, 0),
      PROBE(96, 0),  PROBE(128, 0),  PROBE(224, 0),    PROBE(8, 4096), PROBE(40, 4096),
      PROBE(24, 20000), PROBE(72, 20000), PROBE(16, 40000)};
  const int blockSizes[] = {32, 64, 96, 128, 160, 192, 256, 288, 320, 384, 512, 640, 768, 1024};
  const size_t dynamicSizes[] = {0, 1000, 4096, 12288, 30000, 48000, 100000, 180000};
  int rows = 0;
  for (const Probe &probe : probes) {
    // Twice per kernel: with the default dynamic limit, then opted in to the largest one.
    for (int optIn = 0; optIn < 2; ++optIn) {
      cudaFuncAttributes a;
      CHECK(cudaFuncGetAttributes(&a, probe.fn));
      if (optIn) {
        int most = int(p.sharedMemPerBlockOptin - a.sharedSizeBytes);
        CHECK(cudaFuncSetAttribute(probe.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
        CHECK(cudaFuncGetAttributes(&a, probe.fn));
      }
      for (int bs : blockSizes)
        for (size_t dyn : dynamicSizes) {
          if (!optIn && dyn > 48000) continue;
          int blocks = -1;
          cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, probe.fn, bs, dyn);
          if (e != cudaSuccess) {
            blocks = -1;  // recorded: the API refused the query
            cudaGetLastError();
          }
          std::printf("%s,%d,%d,%zu,%d,%zu,%d,%d\n", probe.name, bs, a.numRegs, a.sharedSizeBytes,
                      a.maxDynamicSharedSizeBytes, dyn, a.maxThreadsPerBlock, blocks);
          ++rows;
        }
    }
  }
  std::printf("# %d rows\n", rows);
  return 0;
}
