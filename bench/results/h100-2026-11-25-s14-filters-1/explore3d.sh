#!/usr/bin/env bash
# Build explore3d.cu and run it at the shapes of the 3-D filter lines of bench/kinds.txt
# (each run: copy bandwidth, then every variant of box3d, star3d, conv3d, checked and timed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$nvcc" -O3 -arch=sm_90 -o "$bin/explore3d" "$here/explore3d.cu"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true
rc=0
for shape in "257 509 513" "509 257 1031" "131 1021 1031" "263 511 517"; do
  "$bin/explore3d" $shape || rc=1
done
exit $rc
