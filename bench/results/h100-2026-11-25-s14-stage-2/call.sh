#!/usr/bin/env bash
# Session 14, call 5, on the GPU machine from the repository root, with out-kinds/ (prepared from
# kinds-trimmed.txt) carried: the 2-D filters with staged stores synced per warp (the default)
# and with each thread storing its own neighbours (STAGE_STORES=0), in one job.
set -u
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT/kinds"
timeout 300 env OUT="$OUT/kinds" bash bench/kinds_on_gpu.sh > "$OUT/kinds/run.log" 2>&1; echo "kinds rc=$?"
sed -n '/== table/,$p' "$OUT/kinds/run.log" | grep -v "^SAN" | head -40
grep -c "status=0" "$OUT/kinds/sanitizer.txt"; grep -vc "status=0" "$OUT/kinds/sanitizer.txt"
