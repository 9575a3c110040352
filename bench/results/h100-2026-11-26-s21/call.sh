#!/usr/bin/env bash
# Session 21, on the GPU machine from the repository root, out-k21/ carried (prep.sh here):
# session 20's call.sh over it (the kinds benchmark; compute-sanitizer memcheck and racecheck of
# the small sizes of the kernels in SAN), then a planted bug (PLANT: bmm's C left at the first
# slice, `C += 0 * ...`) benchmarked at bmm's first shape, whose checksum must then differ from
# the right kernel's.
set -u
export PATH=/usr/local/cuda/bin:$PATH
rm -rf out-k20 && cp -r out-k21 out-k20
PLANT= bash bench/results/h100-2026-11-25-s20/call.sh
if [ -n "${PLANT:-}" ]; then
  src=out-k21/k
  rm -rf /tmp/plant && cp -r $src /tmp/plant
  sed -i 's/^  C += (long long)b \*/  C += 0 * (long long)b */' /tmp/plant/kernel.cu
  echo "planted lines: $(grep -c '^  C += 0 \* (long long)b' /tmp/plant/kernel.cu)"
  b=$(ls /tmp/plant/bench_*_bmm.cu | head -1)
  for dir in $src /tmp/plant; do
    nvcc -O3 -arch=sm_90 -I$dir -I$dir/runtime -DRTCUDA_BENCH_POINT='"default"' -o /tmp/plant_bin "$dir/$(basename $b)" &&
      echo "PLANT $dir $(/tmp/plant_bin | grep -o 'check=[^ ]*')"
  done | tee "$OUT/plant.txt"
fi
