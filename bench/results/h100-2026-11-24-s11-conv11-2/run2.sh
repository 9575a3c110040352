#!/usr/bin/env bash
# conv11 call 2: ITEMS x COLS sweep of the generated 2-D row sums (kinds), and hand-written
# variants (hand_var.cu, flags in hvars.txt): the next tile's copies in flight (ASYNC, TILES),
# fewer blocks per SM (PAD).
set -u; cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
mkdir -p hb
hbuild() { n=${1%%|*}; f=${1#*|}; nvcc -O3 -arch=sm_90 $f -Xptxas -v -o hb/$n hand_var.cu > hb/$n.log 2>&1 || echo "BUILD FAILED $n"; }
export -f hbuild
( xargs -P 4 -I{} bash -c 'hbuild "{}"' < hvars.txt ) &
OUT=/tmp/k bash bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
wait
cp /tmp/k/table.txt /tmp/k/bench.txt $OUT/
for n in $(cut -d'|' -f1 hvars.txt); do r=$(grep -A2 _Z4conv hb/$n.log | grep -o 'Used [0-9]* reg'); ./hb/$n 8191 8193 | sed "s/^VAR /VAR $n ($r) /"; done > $OUT/hand.txt
sed -E 's/ (AHEAD|LOAD|GUARD)=0//g; s/ VEC=1//; s/ (min|gbs|copy)=[^ ]*//g; s/rows=8191 cols=8193 //' $OUT/hand.txt
grep -v "^$" $OUT/table.txt | sed 's/  */ /g' | cut -d' ' -f1-4,7-9
for n in 42_conv2d35 43_conv2d5; do for cc in none base; do echo "NCU $n clock=$cc $(timeout 60 ncu --clock-control $cc --cache-control none -k regex:conv2d -s 6 -c 1 --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed out-kinds/k/bench_$n 2>&1 | grep -E '^\s+(gpu__|sm__|dram__)' | awk '{printf "%s=%s ", $1, $NF}')"; done; done | tee $OUT/ncu2.txt
