#!/usr/bin/env bash
# Session 14, call 1, on the GPU machine from the repository root, with out-kinds/ (prepared from
# kinds-trimmed.txt) and .carry-acc/ (acc.py translate --only gemver,covariance,gramschmidt) carried.
set -u
mkdir -p "$OUT/kinds" "$OUT/explore" "$OUT/acc"
timeout 300 env OUT="$OUT/kinds" bash bench/kinds_on_gpu.sh > "$OUT/kinds/run.log" 2>&1; echo "kinds rc=$?"
timeout 90 bash bench/results/h100-2026-11-25-s13-elementwise-1/explore.sh > "$OUT/explore/explore.txt" 2>&1; echo "explore rc=$?"
timeout 150 python3 bench/polybench/acc.py gpu .carry-acc/out --acc .carry-acc/polybench-acc/CUDA \
  --log-dir "$OUT/acc" --runs 3 --deadline 100 --only gemver,covariance,gramschmidt > "$OUT/acc/acc.txt" 2>&1; echo "acc rc=$?"
grep -E "^generated|^4 a block|^copy" "$OUT/explore/explore.txt" | head -12
tail -40 "$OUT/kinds/run.log" | grep -vE "^SAN" | tail -32
grep -c "status=0" "$OUT/kinds/logs/sanitizer.txt"; grep -vc "status=0" "$OUT/kinds/logs/sanitizer.txt"
tail -12 "$OUT/acc/acc.txt"
