#!/usr/bin/env bash
# box11 call 1: the kinds lines of .carry-box11/bench/kinds.txt, then ncu on box3d's WIDTH points.
cd "$(dirname "$0")/.."
OUT_SAVE=$OUT
OUT=/tmp/k bash .carry-box11/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1
cp /tmp/k/logs/table.txt /tmp/k/logs/bench.txt /tmp/k/logs/sanitizer.txt /tmp/k/logs/device.txt $OUT_SAVE/
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum
for b in bench_00_box3d bench_01_box3d bench_02_box3d bench_04_box3d bench_18_star3d bench_20_star3d; do
  echo "== ncu $b $(cat .carry-box11/out-kinds/k/$b.flags)"
  timeout 60 ncu --clock-control none -k regex:'box3d|star3d' --launch-skip 3 -c 1 --metrics $m .carry-box11/out-kinds/k/$b 2>&1 | grep -E "^\s+(gpu__|dram__|sm__|lts__|l1tex__|smsp__)" 
done > $OUT_SAVE/ncu.txt 2>&1
cat $OUT_SAVE/ncu.txt | awk '{print $1, $NF}' | head -120
tail -70 /tmp/k.txt
