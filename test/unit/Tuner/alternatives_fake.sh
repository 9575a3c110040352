#!/usr/bin/env bash
# rtcuda-tune checks every alternative instantiation of a kernel (examples/matmul/std: mm's
# mm_small_grid and mm_small_grid2, which the launch takes for small grids by MM_SMALL_GRID):
# each is run by its own name, against the same reference, once per tuning run; one that fails
# its check (planted through data/fake_gpu.py, which answers for the GPU) is reported by name
# and turned off in mm_params.h (MM_SMALL_GRID 0), the other left alone.
# Usage: alternatives_fake.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }
for planted in none mm_small_grid mm_small_grid2; do
  out="$work/$planted"
  if ! "$rtcuda" translate "$src/examples/matmul/std/config.yaml" -o "$out" > "$work/$planted.log" 2>&1; then
    fail "$planted: translate"; cat "$work/$planted.log"; continue
  fi
  [ "$planted" = none ] || echo "{\"$planted\": {\"status\": \"wrong\"}}" > "$out/fake_times.json"
  "$tune" "$out" --harness "$src/test/unit/Tuner/data/fake_gpu.py" --size n=1000 --size m=1200 \
    --size p=1100 --max-variants 4 > "$work/$planted.tune" 2>&1 || { fail "$planted: rtcuda-tune"; cat "$work/$planted.tune"; continue; }
  log="$out/fake_log.txt"
  for alt in mm_small_grid mm_small_grid2; do
    grep -q "^variant $alt .* job mm kernel $alt\$" "$log" || fail "$planted: $alt not run by its own name"
  done
  n=$(grep -c "kernel mm_small_grid" "$log")
  [ "$n" -eq 2 ] || fail "$planted: $n runs of alternatives (want 2: once each)"
  header="$out/mm_params.h"
  if [ "$planted" = none ]; then
    grep -q "^#define MM_SMALL_GRID 1$" "$header" || fail "none: MM_SMALL_GRID changed"
    grep -q "alternative mm_small_grid (MM_SMALL_GRID=2): checked at" "$work/$planted.tune" || fail "none: no line for mm_small_grid"
  else
    grep -q "^#define MM_SMALL_GRID 0 " "$header" || fail "$planted: MM_SMALL_GRID not set to 0"
    grep -q "alternative $planted (MM_SMALL_GRID=[23]): wrong" "$work/$planted.tune" || fail "$planted: failure not reported by name"
  fi
done
echo "alternative instantiations with a fake GPU: $failures failure(s)"
[ "$failures" -eq 0 ]
