#!/usr/bin/env bash
# star10 exploration on the GPU: build, run every variant (checked, medians of 20), ncu metrics of
# a few, SASS of the generated stencil2d kernels. Short table last.
cd "$(dirname "$0")/gen"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvcc -O3 -arch=sm_90 -std=c++20 -I. -Iruntime explore.cu -o explore 2>&1 | grep -i error
cuobjdump -sass -fun stencil2d explore > $OUT/sass_stencil2d.txt 2>&1
cuobjdump -sass -fun stencil2d_wide_index explore > $OUT/sass_stencil2d_wide.txt 2>&1
cuobjdump -sass explore > /tmp/all.sass
python3 - /tmp/all.sass <<'PY' > $OUT/sass_counts.txt
import re, sys, collections
t = open(sys.argv[1]).read()
for fn in re.split(r'\n\s+Function : ', t)[1:]:
    name = fn.split('\n', 1)[0].strip()
    ops = re.findall(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', fn)
    c = collections.Counter(o.split('.')[0] for o in ops)
    print(name, len(ops), dict(c.most_common(16)))
PY
./explore > $OUT/explore.txt 2>&1; echo "explore rc=$?"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,launch__grid_size
ONLY="stencil2d:gen32,stencil2d:gen64,stencil2d:stream32,stencil3d:gen32,stencil3d:stream32_256x1,stencil3d:stream64_32x8,stencil3d:streamc32,add3d:gen32,add3d:grid3d,add3d:ilp4" \
  timeout 200 ncu --metrics $M --csv ./explore prof > $OUT/ncu.csv 2>$OUT/ncu.err; echo "ncu rc=$?"
compute-sanitizer --tool memcheck ./explore quick > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? $(grep -c ROW $OUT/memcheck.txt) rows; $(grep 'ERROR SUMMARY' $OUT/memcheck.txt)"
python3 - $OUT/ncu.csv <<'PY'
import csv, sys, collections
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
if not rows: sys.exit()
h = rows[0]; ki = h.index("Kernel Name"); mi = h.index("Metric Name"); vi = h.index("Metric Value"); ii = h.index("ID")
d = collections.OrderedDict()
for r in rows[1:]: d.setdefault((r[ii], r[ki][:28]), {})[r[mi]] = r[vi]
short = {"gpu__time_duration.sum": "ns", "dram__bytes_read.sum": "drd", "dram__bytes_write.sum": "dwr", "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram%", "lts__t_sector_hit_rate.pct": "l2hit", "l1tex__t_sector_hit_rate.pct": "l1hit", "lts__t_sectors_srcunit_tex_op_read.sum": "l2rdsec", "lts__throughput.avg.pct_of_peak_sustained_elapsed": "l2%", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed": "l1%", "sm__inst_executed.sum": "inst", "sm__warps_active.avg.pct_of_peak_sustained_active": "occ", "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct": "lsb", "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct": "lgthr", "launch__grid_size": "grid"}
for (i, k), m in d.items():
    print("NCU", k, " ".join(f"{short.get(a, a)}={v}" for a, v in m.items()))
PY
grep ROW $OUT/explore.txt
