#!/usr/bin/env bash
# Session 17's final measurement, on the GPU machine from the repository root. PART=A or B: the
# default-point lines of bench/kinds.txt, halved (kinds-A.txt, kinds-B.txt beside this file;
# out-kA/ or out-kB/ prepared from them by bench/prepare_kinds.sh and carried). PART=acc:
# PolyBench-ACC side by side for the benchmarks whose translation changed since session 14's
# run (.carry-acc/ carried: acc.py translate of all 21, and ACC's CUDA folder). PART=C: the
# triangular interchange's trmvc with trmv and trmvu beside it (kinds-C.txt, out-kC/).
set -u
case "$PART" in
A|B|C|D|E)
  rm -rf out-kinds && cp -r "out-k$PART" out-kinds
  mkdir -p "$OUT/kinds-$PART"
  timeout 570 env OUT="$OUT/kinds-$PART" bash bench/kinds_on_gpu.sh > "$OUT/kinds-$PART/run.log" 2>&1
  echo "kinds rc=$?"
  grep -E "MISSED|FAILED" "$OUT/kinds-$PART/table.txt" | cut -c1-160
  echo "sanitizer: $(grep -c 'status=0' "$OUT/kinds-$PART/sanitizer.txt") runs status 0, $(grep -vc 'status=0' "$OUT/kinds-$PART/sanitizer.txt") other"
  ;;
acc)
  mkdir -p "$OUT/acc"
  timeout 560 python3 bench/polybench/acc.py gpu .carry-acc/out --acc .carry-acc/polybench-acc/CUDA \
    --log-dir "$OUT/acc" --runs 3 --deadline 480 --only "$ONLY" > "$OUT/acc/acc.txt" 2>&1
  echo "acc rc=$?"
  tail -16 "$OUT/acc/acc.txt"
  ;;
esac
