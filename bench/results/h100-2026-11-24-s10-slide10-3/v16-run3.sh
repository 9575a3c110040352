#!/usr/bin/env bash
# slide10 call 3: 16-byte cp.async (.cg / .ca) copies of the box3d tile (hand variant, nx % 4 == 0).
cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/o}; mkdir -p bin $O; : > bin/list
nvcc -O3 -arch=sm_90 -I. kinds_baselines.cu -lcublas -o bin/base &
add() { n=$1; src=$2; shift 2; echo "$n" >> bin/list; nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT="\"$n\"" "$@" $src -o bin/$n > bin/$n.log 2>&1 || echo "BUILD FAILED $n" & }
add d513 b_box3d.cu
add d516 b_box3d_a.cu
add v16 b_box3d_a.cu -DV16
add v16_D3 b_box3d_a.cu -DV16 -DBOX3D_DEPTH=3
add v16_I4 b_box3d_a.cu -DV16 -DBOX3D_ITEMS=4
add v16ca b_box3d_a.cu -DV16 -DV16CA
add v16ca_D3 b_box3d_a.cu -DV16 -DV16CA -DBOX3D_DEPTH=3
nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT='"small"' -DV16 s_box3d_a.cu -o bin/s_v16 &
nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT='"small"' s_box3d_a.cu -o bin/s_d &
wait
for b in s_v16 s_d; do bin/$b; done
for t in memcheck racecheck; do compute-sanitizer --tool $t --error-exitcode 99 bin/s_v16 > $O/san_$t.txt 2>&1; echo "SAN v16 $t status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_$t.txt)"; done
bin/base copy 536870912 | tee $O/bench.txt
while read n; do bin/$n | tee -a $O/bench.txt || echo "FAIL $n"; done < bin/list
bin/base copy 536870912 | tee -a $O/bench.txt
for n in v16; do timeout 60 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis --section SchedulerStats -k regex:'^box3d$' -c 1 bin/$n > $O/ncu_$n.txt 2>&1
 grep -E "Duration|DRAM Throughput|Compute \(SM\)|Achieved Occupancy|Registers Per|Issued Warp|Warp Cycles Per Issued|L2 Hit|L1/TEX Hit|Mem Busy|Mem Pipes" $O/ncu_$n.txt | sed "s/^/$n /" | sed 's/  */ /g'
 grep -E "^ +On average, each warp" -A0 $O/ncu_$n.txt | cut -c1-160 | sed "s/^/$n /"; done
python3 - $O/bench.txt <<'PY'
import re,sys
c=max(float(m) for m in re.findall(r"BASELINE.*gbs=(\S+)",open(sys.argv[1]).read()))
print("copy GB/s", c)
for l in open(sys.argv[1]):
  f=dict(re.findall(r"(\w+)=(\S+)",l))
  if l.startswith("RESULT"): print(f"{f['kernel']:8s} {f['point']:14s} {f['ms']:>9s} {float(f['gbs']):7.0f} {float(f['gbs'])/c:6.3f} {f['check']}")
PY
