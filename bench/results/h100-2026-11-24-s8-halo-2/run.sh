#!/usr/bin/env bash
# halo helper, device call 2: the kinds of my area with the asynchronous-copy slide, ncu of
# box3d/stencil3d, then PolyBench-ACC 2DConvolution, 3DConvolution, jacobi2D, fdtd2d.
set -u
export PATH=/usr/local/cuda/bin:$PATH
c=.carry-halo
O=$OUT
OUT=/tmp/k bash $c/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/table.txt /tmp/k/bench.txt /tmp/k/sanitizer.txt $O/ 2>/dev/null
{ cat /tmp/k/device.txt; nvcc -O3 -arch=sm_90 -Xptxas -v -I$c/out-kinds/k -c $c/out-kinds/k/kernel.cu -o /dev/null 2>&1 | grep -E "Compiling|registers|spill"; } > $O/ptxas.txt
{ for b in bench_10_box3d:box3d bench_05_stencil3d:stencil3d; do
    echo "=== ${b%%:*}"; timeout 60 ncu -k regex:"^${b##*:}" -c 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis $c/out-kinds/k/${b%%:*} 2>&1 | grep -v "^==PROF==" | head -150
  done; } > $O/ncu.txt 2>&1
python3 bench/polybench/acc.py gpu $c/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 240 --check-grace 60 -j 12 --only 2DConvolution,3DConvolution,jacobi2D,fdtd2d > /tmp/acc.txt 2>&1
tar czf $O/acc.tgz -C /tmp acc acc.txt 2>/dev/null
grep -E "BUILD FAILED|error" /tmp/k.txt | head
awk '{print $2,$3,$4,$NF}' /tmp/k/sanitizer.txt | sort | uniq -c | awk '$5!="errors)"' | head -40
tail -25 /tmp/acc.txt
cat /tmp/k/table.txt
