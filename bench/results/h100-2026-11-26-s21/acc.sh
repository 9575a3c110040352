#!/usr/bin/env bash
# Session 21, on the GPU machine from the repository root, .carry-acc carried (acc.py translate
# ... --lu-init transposed, all 21, on this session's main): PolyBench-ACC side by side at the
# default points (no rtcuda-tune), the benchmarks in ONLY (comma-separated; unset: all), into
# $OUT/acc$PART.
set -u
export PATH=/usr/local/cuda/bin:$PATH
dir="$OUT/acc${PART:-}"
mkdir -p "$dir"
timeout "${LIMIT:-280}" python3 bench/polybench/acc.py gpu .carry-acc/out --acc .carry-acc/polybench-acc/CUDA \
  --log-dir "$dir" --runs 3 --deadline "${DEADLINE:-200}" --check-grace 30 ${ONLY:+--only "$ONLY"} > "$dir/acc.txt" 2>&1
echo "acc rc=$?"
grep -E "geomean|slowest|Not translated|no rtcuda" "$dir/acc.txt"
