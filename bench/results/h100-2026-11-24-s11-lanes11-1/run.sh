#!/usr/bin/env bash
# lanes11's one device call: PolyBench-ACC side by side (6 benchmarks), then the kinds lines.
set -u
mkdir -p "$OUT/acc"
t0=$(date +%s)
timeout 100 python3 bench/polybench/acc.py gpu .carry-lanes11/tr --acc .carry-acc/acc/CUDA \
  --log-dir "$OUT/acc" --runs 3 --run-timeout 20 --deadline 75 --check-grace 10 --ref-wait 5 \
  --check-timeout 40 -j 16 --only gesummv,gramschmidt,atax,bicg,mvt,gemver > "$OUT/acc.txt" 2>&1
echo "acc rc=$? $(( $(date +%s) - t0 )) s"
rm -rf "$OUT/acc/"*work* 2>/dev/null
OUT2=/tmp/k timeout 60 env OUT=/tmp/k bash .carry-lanes11/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
echo "kinds rc=$? $(( $(date +%s) - t0 )) s"
cp /tmp/k/logs/table.txt /tmp/k/logs/bench.txt /tmp/k/logs/sanitizer.txt /tmp/k/logs/device.txt "$OUT/" 2>/dev/null
tail -28 "$OUT/acc.txt"
cat /tmp/k/logs/sanitizer.txt 2>/dev/null | cut -c1-120
cat /tmp/k/logs/table.txt 2>/dev/null
