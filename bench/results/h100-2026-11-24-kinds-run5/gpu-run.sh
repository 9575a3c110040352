#!/usr/bin/env bash
# GPU session of helper stencil: issue 13 kinds, then PolyBench-ACC's two convolutions.
set -u
cd "$(dirname "$0")/.."
mkdir -p "$OUT/kinds" "$OUT/acc"
start=$(date +%s)
rm -rf out-kinds && cp -r .carry-stencil/out-kinds out-kinds
OUT="$OUT/kinds" bash bench/kinds_on_gpu.sh > "$OUT/kinds/stdout.txt" 2>&1
echo "kinds done in $(( $(date +%s) - start )) s"
tail -60 "$OUT/kinds/stdout.txt"
python3 .carry-stencil/pb/acc.py gpu .carry-stencil/acc --acc .carry-stencil/acc-cuda --log-dir "$OUT/acc" \
  --only 2DConvolution,3DConvolution --runs 3 --deadline 60 --check-timeout 60 --ref-wait 20 --check-grace 20 \
  > "$OUT/acc/stdout.txt" 2>&1
echo "acc done in $(( $(date +%s) - start )) s"
tail -30 "$OUT/acc/stdout.txt"
