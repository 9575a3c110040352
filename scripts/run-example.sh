#!/usr/bin/env bash
# The main job on a bundled example: build rtcuda, translate examples/matmul into out/matmul,
# and build the generated CUDA program with nvcc through its own CMakeLists.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
example=${1:-matmul}
bash scripts/build.sh >/dev/null
export PATH="/usr/local/cuda/bin:$PATH"
echo "== rtcuda translate examples/$example/config.txt -o out/$example"
./build/bin/rtcuda translate "examples/$example/config.txt" -o "out/$example"
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
