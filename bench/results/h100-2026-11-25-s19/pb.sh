#!/usr/bin/env bash
# Session 19, on the GPU machine from the repository root: the PolyBench programs whose kernels
# ParallelReduction's block loop changes (durbin, ludcmp; gramschmidt's gcc reference is too slow
# at LARGE), as this session's translator (out-pb: LARGE against gcc, memcheck at SMALL) and the
# one before (out-pb-old: LARGE) translate them, and PolyBench-ACC's gramschmidt beside both
# translations (.carry-acc/out, .carry-acc/out-old; acc.py translate --only gramschmidt
# [--rtcuda OLD]); then the kinds benchmark over out-k19 (KINDS=1). Carry out-pb, out-pb-old,
# .carry-acc (and out-k19).
set -u
mkdir -p "$OUT/pb" "$OUT/pb-old" "$OUT/acc" "$OUT/acc-old"
timeout 120 python3 bench/polybench/run.py gpu out-pb --datasets LARGE --memcheck SMALL > "$OUT/pb/pb.txt" 2>&1
echo "pb rc=$?"; tail -6 "$OUT/pb/pb.txt"
timeout 90 python3 bench/polybench/run.py gpu out-pb-old --datasets LARGE --memcheck '' > "$OUT/pb-old/pb.txt" 2>&1
echo "pb-old rc=$?"; tail -6 "$OUT/pb-old/pb.txt"
for v in "" -old; do
  timeout 120 python3 bench/polybench/acc.py gpu .carry-acc/out$v --acc .carry-acc/polybench-acc/CUDA \
    --log-dir "$OUT/acc$v" --runs 3 --deadline 110 --only gramschmidt > "$OUT/acc$v/acc.txt" 2>&1
  echo "acc$v rc=$?"; tail -4 "$OUT/acc$v/acc.txt"
done
if [ -n "${KINDS:-}" ]; then
  rm -rf out-kinds && cp -r out-k19 out-kinds && mkdir -p "$OUT/k"
  timeout 200 env OUT="$OUT/k" bash bench/kinds_on_gpu.sh > "$OUT/k/run.log" 2>&1
  echo "kinds rc=$?"; tail -10 "$OUT/k/logs/table.txt" 2>/dev/null || tail -10 "$OUT/k/table.txt"
fi
