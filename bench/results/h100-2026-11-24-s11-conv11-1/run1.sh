#!/usr/bin/env bash
# conv11 call 1: kinds (2-D filters, default and other points), SASS opcode counts of the
# generated 2-D kernels, the session-10 hand harness (3x5 row sums) and ncu on both.
set -u; cd "$(dirname "$0")"; export PATH=/usr/local/cuda/bin:$PATH
mkdir -p hb
( nvcc -O3 -arch=sm_90 -DKH=3 -DKW=5 -DMODE=1 -DX=1 -DBS=256 -o hb/b15 hand_var.cu > hb/b15.log 2>&1;
  nvcc -O3 -arch=sm_90 -DKH=3 -DKW=5 -DMODE=1 -DX=2 -DVEC=2 -DBS=256 -o hb/b16 hand_var.cu > hb/b16.log 2>&1 ) &
OUT=/tmp/k bash bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
wait
cp /tmp/k/table.txt /tmp/k/bench.txt $OUT/
b=out-kinds/k
for n in b15 b16; do ./hb/$n 8191 8193 | sed "s/^VAR /VAR $n /"; done | tee $OUT/hand.txt
cuobjdump -sass $b/bench_06_conv2d35 > /tmp/all.sass
python3 - /tmp/all.sass <<'PY' | tee $OUT/sass.txt
import re,sys,collections
cur=None; c={}
for l in open(sys.argv[1]):
    m=re.search(r'Function : (\S+)',l)
    if m: cur=m.group(1); c[cur]=collections.Counter(); continue
    m=re.match(r'\s+/\*[0-9a-f]{4}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)',l)
    if m and cur: c[cur][m.group(2)]+=1
for f,k in c.items():
    if 'conv' in f or 'blur' in f: print(f, sum(k.values()), ' '.join(f'{o}:{n}' for o,n in k.most_common(22)))
PY
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
for s in barrier long_scoreboard mio_throttle short_scoreboard wait not_selected math_pipe_throttle lg_throttle; do M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio; done
prof() { timeout 60 ncu -k regex:"$2" -c 1 --metrics $M "${@:3}" 2>&1 | grep -E '^\s+(gpu__|dram__|lts__|smsp__|sm__|launch__|l1tex__)' | awk -v n="$1" '{print "NCU", n, $1, $NF}'; }
{ prof c35 conv2d35 $b/bench_06_conv2d35; prof c35x1 conv2d35 $b/bench_12_conv2d35; prof b15 conv ./hb/b15 8191 8193 2
  prof c5 conv2d5 $b/bench_01_conv2d5; prof c7 conv2d7 $b/bench_04_conv2d7; prof blur5 blur5 $b/bench_11_blur5; prof c3 'conv2d$' $b/bench_00_conv2d; } > $OUT/ncu.txt
python3 - $OUT/ncu.txt <<'PY'
import sys,collections
d=collections.OrderedDict()
for l in open(sys.argv[1]):
    _,n,m,v=l.split(); d.setdefault(m,{})[n]=v
names=[]; [names.append(n) for m in d for n in d[m] if n not in names]
short=lambda m: m.replace('smsp__average_warps_issue_stalled_','st_').replace('_per_issue_active.ratio','').replace('.avg.pct_of_peak_sustained','%').replace('l1tex__data_','')[:44]
print(f"{'metric':44s}"+''.join(f"{n:>12s}" for n in names))
for m in d: print(f"{short(m):44s}"+''.join(f"{d[m].get(n,'-'):>12s}" for n in names))
PY
grep -v "^$" $OUT/table.txt
