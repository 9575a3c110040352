#!/usr/bin/env bash
# One GPU session over out/gpu (bench/prepare_gpu_run.sh) and .carry (gpu-deps.sh): the example
# programs, compute-sanitizer and the kernel benchmarks (bench/run_gpu.sh), then the RT-API GPU
# tests, call-overhead benchmark and probe through CMake. Logs under $OUT, packed into logs.tgz.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/rtcuda-gpu}
export OUT
mkdir -p "$OUT/logs"
if [ "${PART:-all}" != rtapi ]; then
  OUT="$OUT/logs" bash bench/run_gpu.sh > "$OUT/logs/run_gpu.txt" 2>&1
  grep -E "^RUN|^SAN" "$OUT/logs/run_gpu.txt" | grep -v "status=0 .*identical\|status=0 .*ERROR SUMMARY: 0\|status=0 .*RACECHECK SUMMARY: 0" | head -40
  echo "sanitizer runs with status 0: $(grep -c "^SAN .*status=0" "$OUT/logs/run_gpu.txt") of $(grep -c "^SAN" "$OUT/logs/run_gpu.txt")"
  sed -n '/== summary/,$p' "$OUT/logs/run_gpu.txt"
  grep ^BASELINE "$OUT/logs/baselines.txt"
fi
if [ "${PART:-all}" != kernels ]; then
echo "== RT-API"
bash .carry/gpu-deps.sh install > "$OUT/logs/deps.txt" 2>&1
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
{ cmake -S . -B build-gpu -DRTCUDA_BUILD_TRANSLATOR=OFF -DCMAKE_BUILD_TYPE=Release $(bash .carry/gpu-deps.sh flags) &&
  cmake --build build-gpu -j "$(nproc)" --target rtapi_bench rtapi_probe RTAPIGpuTests; } > "$OUT/logs/rtapi_build.txt" 2>&1 ||
  { echo "RT-API build failed"; tail -20 "$OUT/logs/rtapi_build.txt"; }
build-gpu/bin/RTAPIGpuTests > "$OUT/logs/rtapi_gpu_tests.txt" 2>&1; echo "RTAPIGpuTests status=$?"
tail -3 "$OUT/logs/rtapi_gpu_tests.txt"
build-gpu/bin/rtapi_bench > "$OUT/logs/rtapi_bench.txt" 2>&1; echo "rtapi_bench status=$?"
tail -40 "$OUT/logs/rtapi_bench.txt"
build-gpu/bin/rtapi_probe > "$OUT/logs/rtapi_probe.txt" 2>&1; echo "rtapi_probe status=$?"
cat "$OUT/logs/rtapi_probe.txt"
fi
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
