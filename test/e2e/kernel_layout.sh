#!/usr/bin/env bash
# Issue 14: every example's kernel.cu has no line over 100 columns and no derived-size
# expression written twice (test/e2e/check_kernel_layout.py says exactly what is checked).
# The checker is first shown to catch a planted long line and a planted repeated size.
# Usage: kernel_layout.sh RTCUDA SRC WORK
set -uo pipefail
rtcuda=$1 src=$2 work=$3
check="$src/test/e2e/check_kernel_layout.py"
rm -rf "$work" && mkdir -p "$work"
python3 -c 'import pycparser' 2>/dev/null || { echo "no pycparser: skipping"; exit 77; }
failures=0
outputs=()
for cfg in $(cd "$src/examples" && find . -name 'config.txt' -o -name 'config.yaml' | sort); do
  name=$(dirname "$cfg" | sed 's|^\./||; s|/|_|g')
  if "$rtcuda" translate "$src/examples/$cfg" -o "$work/$name" > "$work/$name.log" 2>&1; then
    outputs+=("$work/$name")
  else
    echo "FAIL translate $cfg"; cat "$work/$name.log"; failures=$((failures + 1))
  fi
done
# Planted: a copy of matmul's output with one long line, and one with a size written twice.
for plant in long repeat; do
  cp -r "$work/matmul" "$work/planted-$plant"
  if [ $plant = long ]; then
    wide="planted_wide_name_$(printf 'x%.0s' $(seq 90))"
    sed -i "0,/^  const int /s//  const int $wide = 1;\n&/" "$work/planted-$plant/kernel.cu"
  else
    sed -i '0,/^  const int /s//  int planted = MM_THREAD_COLS * MM_SKEW_LEVEL;\n&/' \
      "$work/planted-$plant/kernel.cu"
  fi
  if python3 "$check" "$work/planted-$plant" > "$work/planted-$plant.log"; then
    echo "FAIL the checker missed the planted $plant case"; failures=$((failures + 1))
  else
    echo "ok    planted $plant case caught: $(head -1 "$work/planted-$plant.log")"
  fi
done
python3 "$check" "${outputs[@]}" || failures=$((failures + 1))
echo "kernel layout: ${#outputs[@]} outputs; failures: $failures"
[ "$failures" -eq 0 ]
