#!/usr/bin/env bash
# slide10 call 1: sweep of existing knobs + launch-bounds minimum blocks, ncu of defaults.
cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/o}; mkdir -p bin $O
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
nvcc -O3 -arch=sm_90 -I. kinds_baselines.cu -lcublas -o bin/base &
pts() { case $1 in
 box3d|star3d|boxw3d) echo "default DEPTH=3 DEPTH=4 RT_MINB=5 RT_MINB=6 DEPTH=3,RT_MINB=5 ITEMS=1 ITEMS=1,DEPTH=3 ITEMS=1,BLOCKSIZE=512 BLOCKSIZE=128 PLANES=64 ITEMS=4,RT_MINB=3 ITEMS=1,RT_MINB=8";;
 conv3d) echo "default BLOCKSIZE=256 ITEMS=1 DEPTH=3 RT_MINB=8 ITEMS=1,BLOCKSIZE=256 ITEMS=1,RT_MINB=10 DEPTH=3,RT_MINB=8";; esac; }
jobs=()
for k in box3d star3d boxw3d conv3d; do U=$(echo $k | tr a-z A-Z)
 for p in $(pts $k); do f=""; if [ $p != default ]; then for x in ${p//,/ }; do [[ $x == RT_* ]] && f="$f -D$x" || f="$f -D${U}_$x"; done; fi
  echo "$k $p $f" >> bin/list
  nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT="\"$p\"" $f b_$k.cu -o bin/${k}_$p > bin/${k}_$p.log 2>&1 &
  while [ $(jobs -r | wc -l) -ge 16 ]; do sleep 0.2; done
 done; done; wait
nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT='"x"' -Xptxas -v -c b_box3d.cu -o /dev/null 2>&1 | grep -E "registers" > $O/ptxas.txt
bin/base copy 536870912 | tee $O/bench.txt
while read k p f; do bin/${k}_$p | tee -a $O/bench.txt || echo "FAIL $k $p" | tee -a $O/bench.txt; done < bin/list
bin/base copy 536870912 | tee -a $O/bench.txt
for k in box3d star3d conv3d; do
 timeout 60 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section SchedulerStats -k regex:"^$k\$" -c 1 bin/${k}_default > $O/ncu_$k.txt 2>&1
 grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Achieved Occupancy|Registers Per|Block Limit|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|L2 Hit|L1/TEX Hit|Warp Cycles Per Issued" $O/ncu_$k.txt | sed "s/^/$k /" | sed 's/  */ /g'
 grep -iE "stall|estimated speedup" $O/ncu_$k.txt | head -8 | cut -c1-300 | sed "s/^/$k /"
done
python3 - $O/bench.txt <<'PY'
import re,sys
c=max(float(m) for m in re.findall(r"BASELINE.*gbs=(\S+)",open(sys.argv[1]).read()))
print("copy GB/s", c)
for l in open(sys.argv[1]):
  f=dict(re.findall(r"(\w+)=(\S+)",l))
  if l.startswith("RESULT"): print(f"{f['kernel']:8s} {f['point']:24s} {f['ms']:>9s} {float(f['gbs']):7.0f} {float(f['gbs'])/c:6.3f} {f['check']}")
PY
