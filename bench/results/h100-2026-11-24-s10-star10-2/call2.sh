#!/usr/bin/env bash
# star10, device call 2: kinds lines (new mapping, several points, the old mapping through
# config-merge), the old generated kernels (explore, gen32 rows), ACC jacobi2D/fdtd2d side by side,
# ncu metrics of three new kernels. Tables last.
cd "$(dirname "$0")/.."
C=.carry-star10
export PATH=/usr/local/cuda/bin:$PATH
OUT=/tmp/k bash $C/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1; echo "kinds rc=$?"
cp /tmp/k/table.txt /tmp/k/bench.txt /tmp/k/sanitizer.txt $OUT/ 2>/dev/null
grep -E "FAILED|error" /tmp/k.txt | head
(cd $C/gen && nvcc -O3 -arch=sm_90 -std=c++20 -I. -Iruntime explore.cu -o explore && \
  ONLY="stencil2d:gen32,stencil2d:gen64,stencil3d:gen32,add3d:gen32" ./explore > $OUT/old.txt 2>&1); echo "old rc=$?"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for b in 00_stencil2d 02_stencil3d 06_add3d; do
  f=$(ls $C/out-kinds/k/bench_${b}); f=${f%.cu}
  echo "== $b"; timeout 60 ncu --metrics $M --launch-skip 3 --launch-count 1 -k regex:"^${b#*_}$" $f 2>&1 | grep -E "^\s+(gpu__|dram__|lts__|l1tex__|sm__|launch__)"
done > $OUT/ncu.txt 2>&1
python3 bench/polybench/acc.py gpu $C/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 \
  --deadline 300 --check-grace 60 -j 12 --only jacobi2D,fdtd2d > /tmp/acc.txt 2>&1; echo "acc rc=$?"
tail -15 /tmp/acc.txt; tar czf $OUT/acc.tgz -C /tmp acc acc.txt 2>/dev/null
cat $OUT/ncu.txt | awk '{print $1, $(NF-1), $NF}' | paste -sd' ' | sed 's/== /\n== /g'
echo; grep ROW $OUT/old.txt
cat /tmp/k/table.txt
