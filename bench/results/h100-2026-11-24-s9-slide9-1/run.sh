#!/usr/bin/env bash
# slide9 device call 1: the 3-D kinds (sums of a linear body), ncu + SASS of box3d, ACC 3DConvolution.
# (Its kinds log landed in /tmp/k, not /tmp/k/logs: a second call printed it, kinds-log.txt.)
set -u
export PATH=/usr/local/cuda/bin:$PATH
c=.carry-slide9
O=$OUT
OUT=/tmp/k bash $c/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/logs/table.txt /tmp/k/logs/bench.txt /tmp/k/logs/sanitizer.txt $O/ 2>/dev/null
grep -E "BUILD FAILED" /tmp/k.txt | head
{ cat /tmp/k/logs/device.txt
  for f in box3d conv3d star3d boxw3d stencil3d; do echo "== $f"; nvcc -O3 -arch=sm_90 -Xptxas -v -I$c/out-kinds/k -I$c/out-kinds/k/runtime -DRTCUDA_BENCH_POINT='"default"' -c $c/out-kinds/k/small_$f.cu -o /dev/null 2>&1 | grep -A1 "_Z[0-9]*$f" | grep -E "registers|spill"; done
  echo "== exp stencil3d"; nvcc -O3 -arch=sm_90 -Xptxas -v -I$c/out-kinds/exp -I$c/out-kinds/exp/runtime -c $c/out-kinds/exp/bench_01_stencil3d.cu -o /dev/null 2>&1 | grep -E "registers|spill"
} > $O/ptxas.txt 2>&1
cuobjdump -sass -fun '_Z5box3diiiPKfPf' $c/out-kinds/k/bench_04_box3d > /tmp/box.sass 2>&1; gzip -c /tmp/box.sass > $O/box3d.sass.gz
timeout 90 ncu -k regex:"^box3d" -c 1 --section SpeedOfLight --section Occupancy --section InstructionStats --section WarpStateStats $c/out-kinds/k/bench_04_box3d 2>&1 | grep -v "^==PROF==" | head -120 > $O/ncu.txt
python3 bench/polybench/acc.py gpu $c/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 150 --check-grace 60 -j 12 --only 3DConvolution > /tmp/acc.txt 2>&1
tar czf $O/acc.tgz -C /tmp acc acc.txt 2>/dev/null
