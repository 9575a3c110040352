#!/bin/bash
# Session 8, helper mm, device call 1: the generated matmul (examples/matmul/std translated by
# branch mm8) against cuBLAS SGEMM with the launch rule on (header default MM_SMALL_GRID 1) and
# each instantiation forced (-DMM_SMALL_GRID=0/2/3), plus TILE_K 32 variants of the two
# alternatives; compute-sanitizer memcheck and racecheck on each instantiation at small sizes.
C=.carry-mm
mkdir -p /tmp/b
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/device.txt
nvcc --version | tail -2 >> $OUT/device.txt
build() { nvcc -O3 -arch=sm_90 -I $C/mm -I $C/mm/runtime "${@:2}" $C/sgemm_generated.cu -lcublas -o /tmp/b/$1 -Xptxas -v > /tmp/b/$1.log 2>&1 || echo "BUILD FAILED $1"; }
build rule &
build g0 -DMM_SMALL_GRID=0 &
build g2 -DMM_SMALL_GRID=2 &
build g3 -DMM_SMALL_GRID=3 &
build g2k32 -DMM_SMALL_GRID=2 -DMM_SG_TILE_K=32 &
build g3k32 -DMM_SMALL_GRID=3 -DMM_SG2_TILE_K=32 &
wait
for b in rule g0 g2 g3 g2k32 g3k32; do echo "== $b"; grep -E "entry function|Used" /tmp/b/$b.log | sed -E "s/ptxas info *: //"; done > $OUT/builds.txt
for b in rule g0 g2 g3 rule g2k32 g3k32; do /tmp/b/$b $b all; done > $OUT/bench.txt 2>&1
for b in g0 g2 g3 rule; do
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool /tmp/b/$b $b small > /tmp/b/san.log 2>&1; rc=$?
    echo "== $b $tool small: rc=$rc $(grep -cE 'ok$' /tmp/b/san.log) ok, $(grep -c WRONG /tmp/b/san.log) wrong; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' /tmp/b/san.log | head -3 | tr '\n' ' ')"
    cat /tmp/b/san.log
  done
done > $OUT/sanitizer.txt 2>&1
cat $OUT/device.txt
grep -E "^== .* rc=" $OUT/sanitizer.txt
grep -c WRONG $OUT/bench.txt
grep -E "^(CHECK|TIME)" $OUT/bench.txt | awk '{print $1, $2, $3, $4, $5, $8, $10, $NF}' | column -t
