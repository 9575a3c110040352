#!/usr/bin/env bash
# The main job on a bundled example: build rtcuda, translate examples/matmul into out/matmul,
# verify every kernel against its sequential C on the CPU emulator, tune the parameters
# (by the model alone when there is no GPU), and build the generated CUDA program with nvcc
# through its own CMakeLists.txt (run it when there is a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
example=${1:-matmul}
bash scripts/build.sh >/dev/null
export PATH="/usr/local/cuda/bin:$PATH"
echo "== rtcuda translate examples/$example/config.txt -o out/$example"
./build/bin/rtcuda translate "examples/$example/config.txt" -o "out/$example"
echo "== rtcuda verify out/$example"
./build/bin/rtcuda verify "out/$example"
if nvidia-smi >/dev/null 2>&1; then
  echo "== rtcuda-tune out/$example (measured on the GPU)"
  ./build/bin/rtcuda-tune "out/$example"
else
  echo "== rtcuda-tune out/$example --model-only (no GPU here: picked by the model)"
  ./build/bin/rtcuda-tune "out/$example" --model-only
fi
echo "== building out/$example with nvcc (CMake, sm_90 by default)"
cmake -S "out/$example" -B "out/$example/build" -DRTCUDA_WERROR=ON >/dev/null
cmake --build "out/$example/build" -j "$(nproc)" >/dev/null
echo "built out/$example/build/$example"
echo "== files"
ls "out/$example"
echo "== kernel.cu"
sed -n '/__global__/,$p' "out/$example/kernel.cu"
if nvidia-smi >/dev/null 2>&1; then
  echo "== running on the GPU"
  "out/$example/build/$example"
else
  echo "(no GPU here: the program was built, not run)"
fi
