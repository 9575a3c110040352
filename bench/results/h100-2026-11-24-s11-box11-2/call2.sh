#!/usr/bin/env bash
# box11 call 2: the kinds lines of .carry-box11/bench/kinds.txt (defaults with WIDTH by the sector
# rule, and WIDTH=32), then PolyBench-ACC's 3DConvolution against rtcuda's translation.
cd "$(dirname "$0")/.."
O=$OUT
OUT=/tmp/k bash .carry-box11/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
ls /tmp/k/logs | head -3
cp /tmp/k/logs/table.txt /tmp/k/logs/bench.txt /tmp/k/logs/sanitizer.txt "$O"/ || echo "cp failed"
PYTHONUNBUFFERED=1 timeout 200 python3 bench/polybench/acc.py gpu .carry-box11/tr --acc .carry-acc/acc/CUDA \
  --log-dir /tmp/acclog --runs 3 --run-timeout 20 --deadline 120 --check-grace 30 -j 12 \
  --only 3DConvolution > "$O/acc.txt" 2>&1
tail -15 "$O/acc.txt"
grep -A40 "== table" /tmp/k.txt
