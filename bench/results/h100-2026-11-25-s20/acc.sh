#!/usr/bin/env bash
# Session 20, on the GPU machine from the repository root, .carry-acc carried: PolyBench-ACC's
# atax, bicg, gesummv, mvt, gemver (the benchmarks whose kernels use the lane helper, now with
# butterfly shuffles) beside this session's translation (.carry-acc/out) and 76dc1e3's (out-old):
# acc.py translate ... --only atax,bicg,gesummv,mvt,gemver [--rtcuda <rtcuda of 76dc1e3>].
set -u
for v in "" -old; do
  mkdir -p "$OUT/acc$v"
  timeout 170 python3 bench/polybench/acc.py gpu .carry-acc/out$v --acc .carry-acc/polybench-acc/CUDA \
    --log-dir "$OUT/acc$v" --runs 3 --deadline 160 --only atax,bicg,gesummv,mvt,gemver > "$OUT/acc$v/acc.txt" 2>&1
  echo "acc$v rc=$?"; tail -12 "$OUT/acc$v/acc.txt"
done
