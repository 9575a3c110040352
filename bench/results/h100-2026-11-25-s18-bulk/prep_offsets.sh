#!/usr/bin/env bash
# Prepares out-off/ for offsets.sh: the five sliding 3-D kernels of bench/kernels/kernels.c,
# translated by build/bin/rtcuda, one benchmark per kernel, size, tuning point and array offset
# (make_bench.py --offset: arrays passed 0, 1 or 2 floats past a 256-byte aligned allocation).
set -euo pipefail
cd "$(dirname "$0")/../../.."
rm -rf out-off && mkdir -p out-off
printf 'kernel_files: [kernels.c]\nkernels: [box3d, conv3d, star3d, boxw3d, boxz5]\n' > bench/kernels/config-off.yaml
trap 'rm -f bench/kernels/config-off.yaml' EXIT
build/bin/rtcuda translate bench/kernels/config-off.yaml -o out-off/k > /dev/null
rm -rf out-off/k/reference out-off/k/src
for k in box3d conv3d star3d boxw3d boxz5; do
  K=$(echo $k | tr a-z A-Z)
  for size in "37 41 43" "67 131 259"; do
    read -r z y x <<< "$size"
    for point in "" "${K}_WIDTH=64 ${K}_ITEMS=2" "${K}_WIDTH=32 ${K}_ITEMS=1 ${K}_DEPTH=3"; do
      for off in 0 1 2; do
        name="$k-${z}x${y}x${x}-$(echo "${point:-default}" | tr ' =' '_-')-off$off"
        python3 bench/make_bench.py out-off/k $k --size nz=$z --size ny=$y --size nx=$x --reps 1 --offset $off > "out-off/k/$name.cu"
        echo "$point" > "out-off/k/$name.flags"
      done
    done
  done
done
# A planted bug for offsets.sh to catch: the shift taken from the element's index, as if the
# array started at 16 bytes (right at offset 0, wrong at 1 and 2).
mkdir -p out-off/bug && cp -r out-off/k/runtime out-off/k/*.h out-off/k/launch.cuh out-off/bug/
sed 's|const int shift = (int)(((unsigned long long)r.from \& 15ull) / sizeof(T));|const int shift = (int)((r.from - r.first) \& (16 / sizeof(T) - 1));|' \
  out-off/k/kernel.cu > out-off/bug/kernel.cu
grep -q 'r.from - r.first' out-off/bug/kernel.cu
for off in 0 1; do cp out-off/k/box3d-37x41x43-default-off$off.cu out-off/k/box3d-37x41x43-default-off$off.flags out-off/bug/; done
ls out-off/k/*.cu | wc -l
