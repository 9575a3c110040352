#!/usr/bin/env bash
# Prepares out-kinds/ for call.sh PART=k3: the 3-D filter lines of bench/kinds.txt that run at
# their default point, each at the default point of this rtcuda (build/bin/rtcuda), at the
# default point of OLD_RTCUDA (an rtcuda built from the commit before; lines kernel@old), and at
# the points given as arguments (X_ stands for the kernel's macro prefix).
# KERNELS (space-separated) names other kernels than the five sliding ones of session 18.
#   Usage: OLD_RTCUDA=path/to/old/rtcuda bash prep_k3.sh "X_DEPTH=3" "X_BLOCKSIZE=128,X_WIDTH=128"
set -euo pipefail
cd "$(dirname "$0")/../../.."
old=${OLD_RTCUDA:?the rtcuda of the commit before}
kernels=${KERNELS:-box3d conv3d star3d boxw3d boxz5}
full=$(mktemp)
cp bench/kinds.txt "$full"
trap 'cp "$full" bench/kinds.txt; rm -f "$full" bench/kernels/config-old.yaml' EXIT
{ grep "^#" "$full" | head -5
  grep -E "^(${kernels// /|}) " "$full" | awk -F'|' '$5 ~ /^ *$/' | while IFS='|' read -r k s b t p; do
    k=$(echo $k); s=$(echo $s); K=$(echo $k | tr a-z A-Z)
    echo "$k | $s | copy | 0.85 |"
    echo "$k@old | $s | copy | 0.85 |"
    for v in "$@"; do echo "$k | $s | copy | 0.85 | $(echo "$v" | sed "s/X_/${K}_/g")"; done
  done; } > bench/kinds.txt
printf 'kernel_files: [kernels.c]\nkernels: [%s]\n' "${kernels// /, }" > bench/kernels/config-old.yaml
bash bench/prepare_kinds.sh > /dev/null
# The @old folder again, translated by the old rtcuda, and its benchmarks written anew.
rm -rf out-kinds/old && "$old" translate bench/kernels/config-old.yaml -o out-kinds/old > /dev/null
rm -rf out-kinds/old/reference out-kinds/old/src
i=0
while IFS='|' read -r kernel sizes _ _ _; do
  [[ -z "$kernel" || "$kernel" == \#* ]] && continue
  kernel=$(echo $kernel); sizes=$(echo $sizes)
  if [[ "$kernel" == *@old ]]; then
    args=(); IFS=, read -ra parts <<< "$sizes"; for p in "${parts[@]}"; do args+=(--size "$p"); done
    python3 bench/make_bench.py out-kinds/old "${kernel%@*}" "${args[@]}" > "out-kinds/old/bench_$(printf %02d $i)_${kernel%@*}.cu"
    echo "" > "out-kinds/old/bench_$(printf %02d $i)_${kernel%@*}.flags"
  fi
  i=$((i + 1))
done < bench/kinds.txt
cp bench/kinds.txt out-kinds/kinds.txt
echo "prepared $i lines in out-kinds"
