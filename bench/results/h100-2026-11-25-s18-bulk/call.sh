#!/usr/bin/env bash
# Session 18, on the GPU machine from the repository root. PART=k3: the 3-D filter lines of
# bench/kinds.txt (box3d, conv3d, star3d, boxw3d, boxz5 at their 13 shapes), each at the new
# default point (the bulk copies), at the default point of the code before this change (kernel@old,
# translated by main before it), and at three other points (out-k3/ carried: prep_k3.sh here).
# PART=more: PolyBench-ACC's 2DConvolution and 3DConvolution side
# by side (.carry-acc/), and PolyBench/C heat-3d (double, the sliding tile with bulk copies) at
# LARGE against gcc's output, with compute-sanitizer memcheck at SMALL (out-pb/).
set -u
case "$PART" in
k3)
  rm -rf out-kinds && cp -r out-k3 out-kinds
  mkdir -p "$OUT/k3"
  timeout 400 env OUT="$OUT/k3" bash bench/kinds_on_gpu.sh > "$OUT/k3/run.log" 2>&1
  echo "kinds rc=$?"
  ;;
more)
  mkdir -p "$OUT/acc" "$OUT/pb"
  timeout 240 python3 bench/polybench/acc.py gpu .carry-acc/out --acc .carry-acc/polybench-acc/CUDA \
    --log-dir "$OUT/acc" --runs 3 --deadline 200 --only 2DConvolution,3DConvolution > "$OUT/acc/acc.txt" 2>&1
  echo "acc rc=$?"; tail -8 "$OUT/acc/acc.txt"
  timeout 200 python3 bench/polybench/run.py gpu out-pb --datasets LARGE --memcheck SMALL > "$OUT/pb/pb.txt" 2>&1
  echo "pb rc=$?"; tail -8 "$OUT/pb/pb.txt"
  ;;
esac
