#!/usr/bin/env bash
# Prepares out-k19/ for call.sh: the first shape of each kernel in KERNELS (bench/kinds.txt, its
# default-point line; SHAPES=all: every one), at the default point and at the points given as
# arguments (X_ stands for the kernel's macro prefix), and every default-point line of the kernels
# in ALL, translated by build/bin/rtcuda. OLD (kernel names) with OLD_RTCUDA (an rtcuda built
# from the commit before): each default-point line of those kernels also as kernel@old, the
# kernel as OLD_RTCUDA translates it, timed in the same job.
#   Usage: KERNELS="box3d conv3d" bash prep.sh "X_ITEMS=8" "X_BLOCKSIZE=128,X_WIDTH=128"
set -euo pipefail
cd "$(dirname "$0")/../../.."
kernels=${KERNELS:-box3d conv3d star3d boxw3d boxz5 kdiff3d}
shapes=${SHAPES:-first}
full=$(mktemp)
cp bench/kinds.txt "$full"
trap 'cp "$full" bench/kinds.txt; rm -f "$full" bench/kernels/config-old.yaml' EXIT
{ grep "^#" "$full" | head -5
  for k in $kernels; do
    grep -E "^$k " "$full" | awk -F'|' '$5 ~ /^ *$/' | { [ "$shapes" = first ] && head -1 || cat; } |
    while IFS='|' read -r kk s b t p; do
      s=$(echo $s); b=$(echo $b); t=$(echo $t); K=$(echo $k | tr a-z A-Z)
      echo "$k | $s | $b | $t |"
      for v in "$@"; do echo "$k | $s | $b | $t | $(echo "$v" | sed "s/X_/${K}_/g")"; done
    done
  done
  # ALL: kernels whose every default-point line is added as it is (no other points).
  for k in ${ALL:-}; do grep -E "^$k " "$full" | awk -F'|' '$5 ~ /^ *$/'; done
  for k in ${OLD:-}; do grep -E "^$k " "$full" | awk -F'|' '$5 ~ /^ *$/' | sed "s/^$k /$k@old/"; done
  } > bench/kinds.txt
old=${OLD:+$(echo $OLD | sed 's/ /, /g')}
[ -n "$old" ] && printf 'kernel_files: [kernels.c]\nkernels: [%s]\n' "$old" > bench/kernels/config-old.yaml
bash bench/prepare_kinds.sh > /dev/null
if [ -n "$old" ]; then
  # The @old folder again, translated by the old rtcuda, and its benchmarks written anew.
  rm -rf out-kinds/old && "${OLD_RTCUDA:?the rtcuda of the commit before}" translate bench/kernels/config-old.yaml -o out-kinds/old > /dev/null
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
fi
rm -rf out-k19 && mv out-kinds out-k19
echo "prepared $(grep -vc '^#' out-k19/kinds.txt) lines in out-k19"
