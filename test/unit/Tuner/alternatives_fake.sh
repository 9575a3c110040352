#!/usr/bin/env bash
# Alternative instantiations chosen at launch (examples/matmul/std: mm's mm_small_grid,
# mm_small_grid2 and mm_small_grid3, which the launch takes for small grids by MM_SMALL_GRID),
# with a fake GPU (data/fake_gpu.py answers for it; H100: 132 SMs) at n=1000, m=1200, p=1100,
# where the default point's grid (72 blocks) is small and the launch runs mm_small_grid3 for it
# (the most blocks within 132 of the three):
# - every alternative is checked by its own name, against the same reference, once per run
#   (besides the rounds); one that fails its check (planted) is reported by name and turned off
#   in mm_params.h (MM_SMALL_GRID 0), the others left alone;
# - the rounds time what the launch runs for each point: the default point is timed as
#   mm_small_grid3. `program`: mm_small_grid3 50 us, every other point's own kernel 80 us, the
#   default's own kernel 100 us: the default must stay (it is the fastest as the program runs
#   it; timing its own kernel would write an 80 us point). `own`: mm_small_grid3 120 us: a point
#   whose launch runs its own kernel must replace the default.
# Usage: alternatives_fake.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }
default="BLOCKSIZE=256,MERGE_LEVEL=8,SKEW_LEVEL=8,SKEW_STRIPED=0,THREAD_COLS=16,TILE_K=8"
for planted in none mm_small_grid mm_small_grid2 mm_small_grid3 program own; do
  out="$work/$planted"
  if ! "$rtcuda" translate "$src/examples/matmul/std/config.yaml" -o "$out" > "$work/$planted.log" 2>&1; then
    fail "$planted: translate"; cat "$work/$planted.log"; continue
  fi
  grep -q "^#define MM_BLOCKSIZE 256$" "$out/mm_params.h" || fail "$planted: the default point changed (update \$default)"
  case $planted in
    none) ;;
    program) echo "{\"*\": {\"median\": 80}, \"mm_small_grid3\": {\"median\": 50},
                    \"$default\": {\"median\": 100}}" > "$out/fake_times.json" ;;
    own) echo "{\"*\": {\"median\": 80}, \"mm_small_grid3\": {\"median\": 120}}" > "$out/fake_times.json" ;;
    *) echo "{\"$planted\": {\"status\": \"wrong\"}}" > "$out/fake_times.json" ;;
  esac
  "$tune" "$out" --harness "$src/test/unit/Tuner/data/fake_gpu.py" --size n=1000 --size m=1200 \
    --size p=1100 --max-variants 8 > "$work/$planted.tune" 2>&1 || { fail "$planted: rtcuda-tune"; cat "$work/$planted.tune"; continue; }
  log="$out/fake_log.txt"
  header="$out/mm_params.h"
  # The alternatives' own check: no baseline (mm has a C reference), once each.
  for alt in mm_small_grid mm_small_grid2 mm_small_grid3; do
    n=$(grep -c "^variant $alt .* baseline - .* job mm kernel $alt\$" "$log")
    [ "$n" -eq 1 ] || fail "$planted: $alt checked $n times by its own name (want 1)"
  done
  # Their code comes from the one compile that has them (no NVRTC compile in the harness).
  for alt in mm_small_grid mm_small_grid2 mm_small_grid3; do
    grep -q "^variant $alt .*\.cubin [_A-Za-z0-9]*$alt" "$out/tuning/work/mm.alternatives.job" ||
      fail "$planted: $alt checked without rtcuda-tune's compiled code"
  done
  # The rounds: the default point is timed as the program runs it, by mm_small_grid3's name.
  grep -q "^variant $default " "$log" && fail "$planted: the default point's own kernel was timed"
  grep -q "^variant mm_small_grid3 .* baseline $default .* kernel mm_small_grid3\$" "$log" ||
    fail "$planted: the default point not timed as mm_small_grid3 in the rounds"
  case $planted in
    none)
      grep -q "^#define MM_SMALL_GRID 1$" "$header" || fail "none: MM_SMALL_GRID changed"
      grep -q "alternative mm_small_grid (MM_SMALL_GRID=2): checked at" "$work/$planted.tune" || fail "none: no line for mm_small_grid" ;;
    program)
      grep -q "^#define MM_BLOCKSIZE 256$" "$header" || fail "program: the default point was replaced: $(grep 'picked' "$header")"
      grep -q "^| mm | .*TILE_K=8 (runs mm_small_grid3) | 50\.00 | .*TILE_K=8 (runs mm_small_grid3) | 50\.00 |" \
        "$out/tuning/default-vs-tuned.md" || fail "program: default-vs-tuned.md: $(tail -n 1 "$out/tuning/default-vs-tuned.md")" ;;
    own)
      grep -q "^#define MM_BLOCKSIZE 256$" "$header" && fail "own: the default point (120 us as the program runs it) was kept"
      python3 - "$out" <<'PY' || fail "own: the tuned point"
import json, sys
r = json.load(open(sys.argv[1] + "/tuning/report.json"))
row = r["default_vs_tuned"][0]
k = r["kernels"][0]
chosen = [v for v in k["variants"] if v["variant"] == k["chosen"]][0]
assert row["default_launch"] == "mm_small_grid3" and abs(row["default_us"] - 120) < 1e-6, row
assert chosen["launch"] == "" and abs(row["tuned_us"] - 80) < 1e-6, (chosen["launch"], row)
PY
      ;;
    *)
      grep -q "^#define MM_SMALL_GRID 0 " "$header" || fail "$planted: MM_SMALL_GRID not set to 0"
      grep -q "alternative $planted (MM_SMALL_GRID=[234]): wrong" "$work/$planted.tune" || fail "$planted: failure not reported by name" ;;
  esac
done
echo "alternative instantiations with a fake GPU: $failures failure(s)"
[ "$failures" -eq 0 ]
