#!/usr/bin/env bash
# slide9 device call 3: the 3-D kinds (sums of a linear body, clamped copies, ITEMS up to 4),
# ncu of box3d's default, ACC 3DConvolution.
set -u
export PATH=/usr/local/cuda/bin:$PATH
c=.carry-slide9
O=$OUT
OUT=/tmp/k bash $c/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/table.txt /tmp/k/bench.txt /tmp/k/sanitizer.txt /tmp/k/device.txt $O/ 2>/dev/null
grep -E "BUILD FAILED" /tmp/k.txt | head
{ for f in box3d conv3d star3d boxw3d; do echo "== $f (default point)"; nvcc -O3 -arch=sm_90 -Xptxas -v -I$c/out-kinds/k -I$c/out-kinds/k/runtime -DRTCUDA_BENCH_POINT='"default"' -c $c/out-kinds/k/small_$f.cu -o /dev/null 2>&1 | grep -A1 "_Z[0-9]*${f}iii" | grep -E "registers|spill"; done; } > $O/ptxas.txt 2>&1
timeout 60 ncu -k regex:"^box3d" -c 1 --section SpeedOfLight --section Occupancy --section InstructionStats --section WarpStateStats $c/out-kinds/k/bench_02_box3d 2>&1 | grep -v "^==PROF==" | head -100 > $O/ncu.txt
python3 bench/polybench/acc.py gpu $c/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 100 --check-grace 5 -j 12 --only 3DConvolution > /tmp/acc.txt 2>&1
tar czf $O/acc.tgz -C /tmp acc acc.txt 2>/dev/null
cat $O/ptxas.txt
grep -E "Compute \(SM\) Throughput|DRAM Throughput|Executed Instructions  |Achieved Occupancy|Duration|Registers Per" $O/ncu.txt
awk '{print $2,$3,$4,$5,$6,$7}' /tmp/k/sanitizer.txt
tail -9 /tmp/acc.txt | head -4
cat /tmp/k/table.txt
