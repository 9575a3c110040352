#!/usr/bin/env bash
# Prepares out-kinds/ for bench/kinds_on_gpu.sh (the GPU machine has no LLVM): translates
# bench/kernels/ with its default config and writes one benchmark source per line of
# bench/kinds.txt (bench/make_bench.py, the default tuning point unless the line names one), plus one at small odd sizes per
# kernel for compute-sanitizer.   Usage: bash bench/prepare_kinds.sh [rtcuda]
set -euo pipefail
cd "$(dirname "$0")/.."
rtcuda=${1:-build/bin/rtcuda}
dest=out-kinds
rm -rf "$dest" && mkdir -p "$dest"
"$rtcuda" translate bench/kernels/config.yaml -o "$dest/k"
rm -rf "$dest/k/reference" "$dest/k/src"
i=0
declare -A small_done
while IFS='|' read -r kernel sizes _ _ points; do
  [[ -z "$kernel" || "$kernel" == \#* ]] && continue
  kernel=$(echo $kernel); sizes=$(echo $sizes); points=$(echo ${points:-})
  args=()
  IFS=, read -ra parts <<< "$sizes"
  for p in "${parts[@]}"; do args+=(--size "$p"); done
  python3 bench/make_bench.py "$dest/k" "$kernel" "${args[@]}" > "$dest/k/bench_$(printf %02d $i)_$kernel.cu"
  # nvcc flags of the tuning point: none for the default point.
  echo "${points:+-D${points//,/ -D}}" > "$dest/k/bench_$(printf %02d $i)_$kernel.flags"
  if [ -z "${small_done[$kernel]:-}" ]; then
    small_done[$kernel]=1
    # Small odd sizes: 37, 41, 43 for the first, second, third size parameter.
    sargs=(); s=37
    for p in "${parts[@]}"; do sargs+=(--size "${p%%=*}=$s"); s=$((s == 37 ? 41 : 43)); done
    python3 bench/make_bench.py "$dest/k" "$kernel" "${sargs[@]}" --reps 1 > "$dest/k/small_$kernel.cu"
  fi
  i=$((i + 1))
done < bench/kinds.txt
cp bench/kinds.txt "$dest/kinds.txt"
echo "prepared $i benchmarks in $dest/k"
