#!/usr/bin/env bash
# Session 20, on the GPU machine from the repository root, out-k20/ carried (prep.sh here): the
# kinds benchmark over its lines; compute-sanitizer memcheck and racecheck of the small sizes of
# the kernels in SAN; a planted bug (PLANT: softmax's sum combined into lane 0 only) benchmarked
# at the block-a-row shape, whose checksum must then differ from the right kernel's.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rm -rf out-kinds && cp -r out-k20 out-kinds
mkdir -p "$OUT/k"
timeout ${KINDS_LIMIT:-400} env OUT="$OUT/k" bash bench/kinds_on_gpu.sh > "$OUT/k/run.log" 2>&1
echo "kinds rc=$?"
src=out-k20/k
for k in ${SAN:-}; do
  f=$src/small_$k.cu
  nvcc -O3 -arch=sm_90 -I$src -I$src/runtime -DRTCUDA_BENCH_POINT='"default"' -o "${f%.cu}" "$f" || echo "BUILD FAILED $f"
  for tool in memcheck racecheck; do
    log=$(mktemp)
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 "${f%.cu}" > "$log" 2>&1
    echo "SAN $k $tool status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log") $(grep -m1 '^RESULT' "$log" | grep -o 'check=[^ ]*')"
  done
done | tee "$OUT/sanitizer.txt"
if [ -n "${PLANT:-}" ]; then
  rm -rf /tmp/plant && cp -r $src /tmp/plant
  sed -i '0,/s = rtcuda_lane_sum(s, lanes, s_lanes, 1);/s//s = rtcuda_lane_sum(s, lanes, s_lanes, 0);/' /tmp/plant/kernel.cu
  b=$(grep -l "rows = (int)1031;" /tmp/plant/bench_*_softmax.cu | head -1)
  for dir in $src /tmp/plant; do
    nvcc -O3 -arch=sm_90 -I$dir -I$dir/runtime -DRTCUDA_BENCH_POINT='"default"' -o /tmp/plant_bin "$dir/$(basename $b)" &&
      echo "PLANT $dir $(/tmp/plant_bin | grep -o 'check=[^ ]*')"
  done | tee "$OUT/plant.txt"
fi
tail -60 "$OUT/k/logs/table.txt" 2>/dev/null || tail -60 "$OUT/k/table.txt"
