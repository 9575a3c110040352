#!/usr/bin/env bash
# Session 14, final call, on the GPU machine from the repository root with out-kinds/ (the whole
# bench/kinds.txt) and .carry-acc/ (acc.py translate --lu-init transposed, all 21) carried: every
# kind at this main's default points, then PolyBench-ACC side by side at default points.
set -u
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT/kinds" "$OUT/acc"
timeout 330 env OUT="$OUT/kinds" bash bench/kinds_on_gpu.sh > "$OUT/kinds/run.log" 2>&1; echo "kinds rc=$?"
timeout 250 python3 bench/polybench/acc.py gpu .carry-acc/out --acc .carry-acc/polybench-acc/CUDA \
  --log-dir "$OUT/acc" --runs 3 --deadline 180 --check-grace 30 > "$OUT/acc/acc.txt" 2>&1; echo "acc rc=$?"
grep -c "status=0" "$OUT/kinds/sanitizer.txt"; grep -vc "status=0" "$OUT/kinds/sanitizer.txt"
grep -E "MISSED|BUILD" "$OUT/kinds/table.txt" | cut -c1-140
grep -E "geomean|slowest|Not translated" "$OUT/acc/acc.txt"
