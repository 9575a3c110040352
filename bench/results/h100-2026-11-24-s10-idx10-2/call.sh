#!/usr/bin/env bash
# idx10 call 2: the kinds of row reductions / mv with LaneReduction's shuffles (default points and
# the three 64-bit lines), compute-sanitizer on the shuffle kernels, and rtcuda-tune (this
# branch's, built here) timing rowsum_wide_index where the header forces it.
cd "$(dirname "$0")/.."
R=$PWD; C=$R/.carry-idx10
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/src /tmp/tb && tar xf $C/src.tar -C /tmp/src && cp -r $R/.carry /tmp/src/.carry
( cd /tmp/src && source bench/build_tuner_gpu.sh /tmp/tb > /tmp/tb/log 2>&1; echo "tuner build: $?" >> /tmp/tb/log ) &
tb=$!
OUT=/tmp/k NO_SAN=1 bash $C/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
k=$C/out-kinds/k
for b in rowsum mvrect bmv; do for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 99 $k/small_$b > /tmp/san_${b}_${tool}.txt 2>&1
  echo "SAN small_$b $tool status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san_${b}_${tool}.txt)"
done; done > $OUT/sanitizer.txt
wait $tb
cat /tmp/tb/log | tail -3
export LD_LIBRARY_PATH="/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
cp -r $C/wide/out /tmp/wide
/tmp/src/build-gpu/bin/rtcuda-tune /tmp/wide --size rows=8191 --size cols=8193 --max-variants 8 --no-write > $OUT/tune-wide.txt 2>&1
echo "rtcuda-tune exit $?" >> $OUT/tune-wide.txt
grep -E "wide_index|runs |default|picked" /tmp/wide/tuning/report.md | head -20 >> $OUT/tune-wide.txt
grep -c "kernel rowsum_wide_index" /tmp/wide/tuning/work/*.job 2>/dev/null >> $OUT/tune-wide.txt
cp /tmp/k/table.txt /tmp/k/bench.txt $OUT/
tail -25 $OUT/tune-wide.txt
cat $OUT/sanitizer.txt
cat /tmp/k/table.txt
