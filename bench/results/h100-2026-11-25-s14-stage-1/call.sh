#!/usr/bin/env bash
# Session 14, call 2, on the GPU machine from the repository root, with out-kinds/ (prepared from
# kinds-trimmed.txt) carried: the 2-D filters with staged stores (the default) and without, the
# hand-written 2-D and 3-D filter explorations of this session.
set -u
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT/kinds" "$OUT/explore"
timeout 300 env OUT="$OUT/kinds" bash bench/kinds_on_gpu.sh > "$OUT/kinds/run.log" 2>&1; echo "kinds rc=$?"
timeout 120 bash bench/results/h100-2026-11-25-s14-filters2d-1/explore2d.sh > "$OUT/explore/explore2d.txt" 2>&1; echo "explore2d rc=$?"
timeout 90 bash bench/results/h100-2026-11-25-s14-filters-1/explore3d.sh > "$OUT/explore/explore3d.txt" 2>&1; echo "explore3d rc=$?"
sed -n '/== table/,$p' "$OUT/kinds/run.log" | grep -v "^SAN" | head -40
grep -c "status=0" "$OUT/kinds/logs/sanitizer.txt"; grep -vc "status=0" "$OUT/kinds/logs/sanitizer.txt"
