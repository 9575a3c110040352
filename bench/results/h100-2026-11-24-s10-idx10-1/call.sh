#!/usr/bin/env bash
# idx10 call 1: kinds exploration (row reductions / mv), SASS + ncu of mvrect, tuner at 1024 points.
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
C=.carry-idx10
mkdir -p /tmp/tune /tmp/tb
# rtcuda-tune builds on the CPU while the kinds build and run (tune_acc.sh then finds it built)
( source bench/build_tuner_gpu.sh /tmp/tb ) > /tmp/tb/log 2>&1 &
tbpid=$!
OUT=/tmp/k NO_SAN=1 bash $C/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/table.txt /tmp/k/bench.txt $OUT/ 2>/dev/null
k=$C/out-kinds/k
{ for b in $k/bench_01_mvrect $k/bench_05_mvrect $k/bench_02_bmv $k/bench_00_colsum; do
    echo "== $b"; cuobjdump -sass $b | awk '/Function : /{p=0} /Function : .*(mvrect|bmv|colsum)/{p=1} p' | grep -E "Function|LDG|BAR|SHFL|BRA" | head -40; done; } > $OUT/sass.txt 2>&1
wait $tbpid
BUDGET=300 bash bench/polybench/tune_acc.sh $C/tr /tmp/tune --only gemm --max-variants 1024 --kernel-seconds 150 --timeout 20 > /tmp/tune/call.log 2>&1
{ for b in $k/bench_01_mvrect $k/bench_05_mvrect $C/out-kinds/shfl/bench_14_mvrect; do
    echo "== $b"; ncu -k regex:'^(mvrect|bmv|colsum)' --launch-skip 3 --launch-count 1 --metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__waves_per_multiprocessor,launch__grid_size $b 2>&1 | grep -E "dram__|warps_active|duration|waves|grid_size|==PROF==|Error" | head -12; done; } > $OUT/ncu.txt 2>&1
cp /tmp/tune/call.log /tmp/tune/ 2>/dev/null
tar czf $OUT/tune.tgz -C /tmp tune
grep -E "ETA|per kernel|s in all|tuned|default" /tmp/tune/call.log | tail -15
cat $OUT/ncu.txt | grep -vE "^==PROF" | head -60
cat /tmp/k/table.txt
