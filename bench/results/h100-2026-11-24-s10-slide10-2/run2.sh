#!/usr/bin/env bash
# slide10 call 2: GROUP planes per barrier (hand edit of the generated kernels), L1 carve-out.
cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/o}; mkdir -p bin $O; : > bin/list
nvcc -O3 -arch=sm_90 -I. kinds_baselines.cu -lcublas -o bin/base &
pts() { case $1 in
 box3d|star3d|boxw3d) echo "default GROUP=2 GROUP=2+DEPTH=3 GROUP=2+DEPTH=4 GROUP=3+DEPTH=3 GROUP=4+DEPTH=4 GROUP=2+DEPTH=3+ITEMS=1 GROUP=2+DEPTH=3+PLANES=64 GROUP=2+DEPTH=3+BLOCKSIZE=128 RT_CARVE=0 RT_CARVE=100 DEPTH=3+RT_CARVE=0 GROUP=2+DEPTH=3+RT_CARVE=0 GROUP=2+DEPTH=3+RT_MINB=5";;
 conv3d) echo "default GROUP=2 GROUP=2+DEPTH=3 GROUP=3+DEPTH=3 GROUP=2+DEPTH=4 GROUP=4+DEPTH=4 RT_CARVE=0";; esac; }
for k in box3d star3d boxw3d conv3d; do U=$(echo $k | tr a-z A-Z)
 for p in $(pts $k); do f=""; if [ $p != default ]; then for x in ${p//+/ }; do [[ $x == RT_* ]] && f="$f -D$x" || f="$f -D${U}_$x"; done; fi
  echo "$k $p" >> bin/list
  nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT="\"$p\"" $f b_$k.cu -o "bin/${k}_$p" > "bin/${k}_$p.log" 2>&1 || echo "BUILD FAILED $k $p" &
  while [ $(jobs -r | wc -l) -ge 16 ]; do sleep 0.2; done
 done; done
for k in box3d star3d; do nvcc -O3 -arch=sm_90 -Iout -Iout/runtime -I. -DRTCUDA_BENCH_POINT='"small"' -D${k^^}_GROUP=2 -D${k^^}_DEPTH=3 s_$k.cu -o bin/s_$k & done
wait
for k in box3d star3d; do for t in memcheck racecheck; do compute-sanitizer --tool $t --error-exitcode 99 bin/s_$k > $O/san_${k}_$t.txt 2>&1; echo "SAN $k G2D3 $t status=$? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' $O/san_${k}_$t.txt)"; done; done | tee $O/san.txt
bin/base copy 536870912 | tee $O/bench.txt
while read k p; do "bin/${k}_$p" | tee -a $O/bench.txt || echo "FAIL $k $p" | tee -a $O/bench.txt; done < bin/list
bin/base copy 536870912 | tee -a $O/bench.txt
python3 - $O/bench.txt <<'PY'
import re,sys
c=max(float(m) for m in re.findall(r"BASELINE.*gbs=(\S+)",open(sys.argv[1]).read()))
print("copy GB/s", c)
for l in open(sys.argv[1]):
  f=dict(re.findall(r"(\w+)=(\S+)",l))
  if l.startswith("RESULT"): print(f"{f['kernel']:8s} {f['point']:34s} {f['ms']:>9s} {float(f['gbs']):7.0f} {float(f['gbs'])/c:6.3f} {f['check']}")
PY
