#!/usr/bin/env bash
# conv11 call 3: the 2-D filters of the kinds at the new defaults and at ITEMS 8 (the old
# default) in the same job, compute-sanitizer at 37 x 41, PolyBench-ACC 2DConvolution, jacobi2D.
set -u; cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
OUT=/tmp/k bash bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/table.txt /tmp/k/bench.txt /tmp/k/sanitizer.txt /tmp/k/device.txt $OUT/
cd ..
python3 bench/polybench/acc.py gpu .carry-conv11/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acclog --runs 3 --run-timeout 20 --deadline 200 --check-grace 60 -j 12 --only 2DConvolution,jacobi2D > $OUT/acc.txt 2>&1
tar czf $OUT/acc.tgz -C /tmp acclog
tail -12 $OUT/acc.txt
grep -c "status=0" $OUT/sanitizer.txt; grep -v "status=0" $OUT/sanitizer.txt
grep -v "^$" $OUT/table.txt | sed 's/  */ /g'
