#!/usr/bin/env bash
# halo10 call 1: build the variants (conv2d_var.cu, flags in variants.txt), SASS counts, time
# each at 8191 x 8193 (some at 4099 x 16411 and 37 x 41 too), ncu on a few; table last.
cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
mkdir -p bin; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
build() { n=${1%%|*}; f=${1#*|}; nvcc -O3 -arch=sm_90 $f -Xptxas -v -o bin/$n conv2d_var.cu > bin/$n.log 2>&1 || echo "BUILD FAILED $n";
  cuobjdump -sass bin/$n | awk '/Function : .*conv/{on=1} /Function : .*(naive|fill)/{on=0} on' > bin/$n.sass;
  echo "SASS $n regs=$(grep -A3 'entry.*_Z4conv' bin/$n.log | grep -o 'Used [0-9]*' | grep -o '[0-9]*') insts=$(grep -cE '^\s+/\*[0-9a-f]{4}\*/' bin/$n.sass) ffma=$(grep -c FFMA bin/$n.sass) lds=$(grep -c 'LDS' bin/$n.sass) ldg=$(grep -c 'LDG' bin/$n.sass) sts=$(grep -c 'STS' bin/$n.sass) stg=$(grep -c STG bin/$n.sass) ldl=$(grep -c 'LDL\|STL' bin/$n.sass) bra=$(grep -c BRA bin/$n.sass)" > bin/$n.sum; }
export -f build
xargs -P 16 -I{} bash -c 'build "{}"' < variants.txt
cat bin/*.sum > $OUT/sass.txt
: > $OUT/var.txt
for n in $(cut -d'|' -f1 variants.txt); do ./bin/$n 37 41 3 | sed "s/^VAR /VAR $n small /" >> $OUT/var.txt; ./bin/$n 8191 8193 | sed "s/^VAR /VAR $n /" >> $OUT/var.txt; done
for n in a01 a02 a06 b11 b12 b16; do ./bin/$n 4099 16411 | sed "s/^VAR /VAR $n /" >> $OUT/var.txt; done
for n in a01 a02 b11; do timeout 60 ncu -k conv -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --metrics smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active ./bin/$n 8191 8193 2 2>&1 | grep -vE '^==PROF==|^ +-+$|^\s*$' | sed "s/^/NCU $n /" >> $OUT/ncu.txt; done
tar czf $OUT/sass.tgz bin/*.sass bin/*.log
grep VAR $OUT/var.txt | sed -E 's/ (AHEAD|LOAD|GUARD)=0//g; s/ VEC=1//; s/ (min|gbs|copy)=[^ ]*//g'
cat $OUT/sass.txt
grep -E 'Duration|DRAM Throughput|Compute \(SM\) Th|Registers Per|Achieved Occ|issue_active|inst_executed.sum|wavefronts_mem_shared|stalled_(barrier|long|short|mio)' $OUT/ncu.txt
