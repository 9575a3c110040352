#!/usr/bin/env bash
# Session 19, on the GPU machine from the repository root, out-k19/ carried (prep.sh here):
# the kinds benchmark over its lines, then ncu on the kernels named in NCU (bench line numbers).
set -u
rm -rf out-kinds && cp -r out-k19 out-kinds
mkdir -p "$OUT/k"
timeout ${KINDS_LIMIT:-400} env OUT="$OUT/k" bash bench/kinds_on_gpu.sh > "$OUT/k/run.log" 2>&1
echo "kinds rc=$?"
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__grid_size,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,lts__t_sector_hit_rate.pct
for n in ${NCU:-}; do
  b=$(ls out-kinds/*/bench_$(printf %02d $n)_*.cu | head -1); b=${b%.cu}
  timeout 90 /usr/local/cuda/bin/ncu -k regex:"^$(basename $b | sed "s/bench_[0-9]*_//")" -c 1 --metrics $M "$b" 2>&1 |
    grep -E '^\s+(gpu__|dram__|lts__|smsp__|sm__|launch__|l1tex__)' | awk -v n="$n" '{print "NCU", n, $1, $NF}' >> "$OUT/ncu.txt"
done
tail -40 "$OUT/k/logs/table.txt" 2>/dev/null || tail -40 "$OUT/k/table.txt"
[ -f "$OUT/ncu.txt" ] && awk '{a[$3]=a[$3]" "$4} END{for(k in a) print k, a[k]}' "$OUT/ncu.txt" | sort
