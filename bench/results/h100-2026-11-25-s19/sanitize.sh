#!/usr/bin/env bash
# Session 19, on the GPU machine from the repository root, out-k19/ carried (prep.sh with
# OLD="msum dotp" KERNELS=" " ALL="sumsq msum dotp"): compute-sanitizer memcheck and racecheck of
# the reduction kinds at 37 (37 x 41), and of dotp at n = 1,000,003 (3907 blocks of iterations,
# so each of the 1024 blocks walks several). One file back: $OUT/sanitizer.txt.
set -u
export PATH=/usr/local/cuda/bin:$PATH
src=out-k19/k
big=$(ls $src/bench_*_dotp.cu | tail -1)
for f in $src/small_sumsq.cu $src/small_msum.cu $src/small_dotp.cu $big; do
  nvcc -O3 -arch=sm_90 -I$src -I$src/runtime -DRTCUDA_BENCH_POINT='"default"' -o "${f%.cu}" "$f" || echo "BUILD FAILED $f"
done
for f in $src/small_sumsq $src/small_msum $src/small_dotp ${big%.cu}; do
  for tool in memcheck racecheck; do
    log=$(mktemp)
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 "$f" > "$log" 2>&1
    echo "SAN $(basename $f) $tool status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log") $(grep -m1 '^RESULT' "$log" | grep -o 'check=[^ ]*')"
  done
done | tee "$OUT/sanitizer.txt"
