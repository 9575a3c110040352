#!/usr/bin/env bash
# The 64-bit instantiation (rowsum_wide_index, IndexWidth.cpp) where the launch takes it: with a
# fake GPU (data/fake_gpu.py), rtcuda-tune must time each point as the program's launch runs it
# at the target size, i.e. by the name rowsum_wide_index, compiled at the point's own macros by the
# harness (no cubin: the variants' own compiles leave the alternatives out), and its own 32-bit
# kernel where the counts fit.
# - rows=2100000001 (the grid's counts pass 2^31 - 1 at every point, ROWSUM_WIDE_INDEX 1): every
#   timed point's line names kernel rowsum_wide_index;
# - rows=4099: none does;
# - rows=4099 with ROWSUM_WIDE_INDEX 2 in the header (always 64-bit): every one does.
# Timing the 32-bit kernel there (as before) fails the first and the last.
# Usage: wide_index_fake.sh RTCUDA RTCUDA_TUNE SRC WORK
set -uo pipefail
rtcuda=$1 tune=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }
for case in large small forced; do
  out="$work/$case"
  "$rtcuda" translate "$src/test/unit/Tuner/data/wide/config.yaml" -o "$out" > "$work/$case.log" 2>&1 ||
    { fail "$case: translate"; cat "$work/$case.log"; continue; }
  rows=4099
  [ "$case" = large ] && rows=2100000001
  [ "$case" = forced ] && sed -i 's/^#define ROWSUM_WIDE_INDEX 1$/#define ROWSUM_WIDE_INDEX 2/' "$out/rowsum_params.h"
  "$tune" "$out" --harness "$src/test/unit/Tuner/data/fake_gpu.py" --size rows=$rows --size cols=3 \
    --check-size rows=37 --check-size cols=3 --max-variants 16 --no-write > "$work/$case.tune" 2>&1 ||
    { fail "$case: rtcuda-tune"; cat "$work/$case.tune"; continue; }
  log="$out/fake_log.txt"
  # The rounds' lines (the alternatives' own check runs rowsum_wide_index once, at its point).
  wide=$(grep -c "^variant BLOCKSIZE.* kernel rowsum_wide_index$" "$log" || true)
  total=$(grep -c "^variant BLOCKSIZE" "$log" || true)
  [ "$total" -gt 0 ] || { fail "$case: no point timed"; continue; }
  case $case in
    large|forced) [ "$wide" -eq "$total" ] || fail "$case: $wide of $total timed runs ran rowsum_wide_index (want all)" ;;
    small) [ "$wide" -eq 0 ] || fail "small: $wide of $total timed runs ran rowsum_wide_index (want none)" ;;
  esac
done
[ "$failures" -eq 0 ] && echo "the 64-bit kernel timed where the launch takes it: ok"
exit $((failures > 0))
