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
# kernel@NAME lines use bench/kernels/config-NAME.yaml, translated into $dest/NAME.
for cfg in bench/kernels/config*.yaml; do
  name=$(basename "$cfg" .yaml); name=${name#config}; name=${name#-}
  "$rtcuda" translate "$cfg" -o "$dest/${name:-k}" > /dev/null
  rm -rf "$dest/${name:-k}/reference" "$dest/${name:-k}/src"
done
i=0
declare -A small_done
while IFS='|' read -r kernel sizes _ _ points; do
  [[ -z "$kernel" || "$kernel" == \#* ]] && continue
  kernel=$(echo $kernel); sizes=$(echo $sizes); points=$(echo ${points:-})
  dir=$dest/k
  [[ "$kernel" == *@* ]] && { dir=$dest/${kernel#*@}; kernel=${kernel%@*}; }
  args=()
  IFS=, read -ra parts <<< "$sizes"
  for p in "${parts[@]}"; do args+=(--size "$p"); done
  python3 bench/make_bench.py "$dir" "$kernel" "${args[@]}" > "$dir/bench_$(printf %02d $i)_$kernel.cu"
  # nvcc flags of the tuning point: none for the default point.
  echo "${points:+-D${points//,/ -D}}" > "$dir/bench_$(printf %02d $i)_$kernel.flags"
  if [ -z "${small_done[$kernel]:-}" ] && [ "$dir" = "$dest/k" ]; then
    small_done[$kernel]=1
    # Small odd sizes: 37, 41, 43 for the first, second, third size parameter.
    sargs=(); s=37
    for p in "${parts[@]}"; do sargs+=(--size "${p%%=*}=$s"); s=$((s == 37 ? 41 : 43)); done
    python3 bench/make_bench.py "$dest/k" "$kernel" "${sargs[@]}" --reps 1 > "$dest/k/small_$kernel.cu"
  fi
  i=$((i + 1))
done < bench/kinds.txt
cp bench/kinds.txt "$dest/kinds.txt"
echo "prepared $i benchmarks in $dest"
