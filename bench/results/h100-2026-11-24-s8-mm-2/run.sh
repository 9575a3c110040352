#!/bin/bash
# Session 8, helper mm, device call 2: (1) PolyBench-ACC side by side for gemm, 2mm, 3mm, syrk,
# syr2k (translated by branch mm8 at ACC's LARGE sizes, float) at their default points;
# (2) three more tiles for the second alternative of the matmul example, forced with -D
# (a1: 128 x 64 of 8 x 8 per thread, 128 threads, TILE_K 16; a2: the same, TILE_K 8;
# a3: 64 x 128 of 8 x 8, 128 threads, TILE_K 16), with the rule build as the same-run baseline.
C=.carry-mm
mkdir -p /tmp/b /tmp/acclog
build() { nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime "${@:2}" $C/sgemm_generated.cu -lcublas -o /tmp/b/$1 -Xptxas -v > /tmp/b/$1.log 2>&1 || echo "BUILD FAILED $1"; }
build rule &
build a1 -DMM_SMALL_GRID=3 -DMM_SG2_BLOCKSIZE=128 -DMM_SG2_THREAD_COLS=8 -DMM_SG2_SKEW_LEVEL=8 -DMM_SG2_TILE_K=16 &
build a2 -DMM_SMALL_GRID=3 -DMM_SG2_BLOCKSIZE=128 -DMM_SG2_THREAD_COLS=8 -DMM_SG2_SKEW_LEVEL=8 -DMM_SG2_TILE_K=8 &
build a3 -DMM_SMALL_GRID=3 -DMM_SG2_BLOCKSIZE=128 -DMM_SG2_THREAD_COLS=16 -DMM_SG2_SKEW_LEVEL=8 -DMM_SG2_TILE_K=16 &
wait
for b in rule a1 a2 a3; do echo "== $b"; grep -E "entry function|Used" /tmp/b/$b.log | sed -E "s/ptxas info *: //"; done > $OUT/builds.txt
for b in rule a1 a2 a3 rule; do /tmp/b/$b $b all; done > $OUT/bench.txt 2>&1
PYTHONUNBUFFERED=1 python3 bench/polybench/acc.py gpu $C/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acclog \
  --runs 3 --run-timeout 20 --deadline 200 --check-grace 60 -j 12 --only gemm,2mm,3mm,syrk,syr2k > $OUT/acc.txt 2>&1
echo "acc rc=$?" >> $OUT/acc.txt
tar czf $OUT/acclog.tgz -C /tmp acclog
grep -c WRONG $OUT/bench.txt
grep -E "^(TIME)" $OUT/bench.txt | awk '{print $2, $3, $4, $5, $8, $10, $NF}'
tail -25 $OUT/acc.txt
