#!/usr/bin/env bash
# Session 14, second final call: PolyBench-ACC for the six benchmarks the first call's deadline
# left without an rtcuda time (same .carry-acc/ carried).
set -u
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT/acc"
timeout 290 python3 bench/polybench/acc.py gpu .carry-acc/out --acc .carry-acc/polybench-acc/CUDA \
  --log-dir "$OUT/acc" --runs 3 --deadline 220 --check-grace 30 \
  --only fdtd2d,2mm,correlation,covariance,gramschmidt,lu > "$OUT/acc/acc.txt" 2>&1; echo "acc rc=$?"
grep -E "geomean|slowest|Not translated|no rtcuda" "$OUT/acc/acc.txt"
