#!/usr/bin/env bash
# Configures and builds rtcuda into ./build (after installing the dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
# RTCUDA_BUILD_FUZZERS: the libFuzzer targets (clang-19 sub-build in build/fuzz) run under ctest.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DRTCUDA_BUILD_FUZZERS=ON >/dev/null
cmake --build build -j "$(nproc)"
