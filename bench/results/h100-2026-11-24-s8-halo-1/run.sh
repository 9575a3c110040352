#!/usr/bin/env bash
# halo helper, device call: the kinds of my area (trimmed kinds.txt), ptxas, ncu of three kernels.
set -u
export PATH=/usr/local/cuda/bin:$PATH
c=.carry-halo
OUT_FINAL=$OUT
OUT=/tmp/k bash $c/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/table.txt /tmp/k/bench.txt /tmp/k/sanitizer.txt /tmp/k/device.txt $OUT_FINAL/ 2>/dev/null
nvcc -O3 -arch=sm_90 -Xptxas -v -I$c/out-kinds/k -c $c/out-kinds/k/kernel.cu -o /dev/null > $OUT_FINAL/ptxas.txt 2>&1
{ for b in bench_10_box3d bench_05_stencil3d bench_04_conv2d5 bench_13_conv3d; do
    echo "=== $b"; timeout 60 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis -c 1 $c/out-kinds/k/$b 2>&1 | grep -v "^==PROF==" | head -120
  done; } > $OUT_FINAL/ncu.txt 2>&1
grep -E "BUILD FAILED|error" /tmp/k.txt | head
cat /tmp/k/sanitizer.txt | awk '{print $2,$3,$4}' | sort | uniq -c | head -30
cat /tmp/k/table.txt
