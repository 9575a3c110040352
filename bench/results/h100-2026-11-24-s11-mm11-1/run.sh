#!/bin/bash
# mm11 device call 1: what bounds PolyBench LARGE and the ACC sizes; candidate tile shapes of
# the third small-grid instantiation (MM_SG3_* overridden), forced split counts; ncu.
export PATH=/usr/local/cuda/bin:$PATH
C=.carry-mm11
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader > $OUT/device.txt
F="-O3 -arch=sm_90 -DSGEMM_SWEEP -lcublas --resource-usage"
b() { name=$1; dir=$2; shift 2; nvcc $F -I $C/$dir -I $C/$dir/runtime "$@" $C/sgemm_generated.cu -o /tmp/$name > /tmp/build-$name.txt 2>&1; }
b b0 mm &
b b1 mm -DMM_SG3_BLOCKSIZE=64 -DMM_SG3_SKEW_LEVEL=8 -DMM_SG3_THREAD_COLS=8 -DMM_SG3_TILE_K=16 &
b b2 mm -DMM_SG3_BLOCKSIZE=128 -DMM_SG3_SKEW_LEVEL=4 -DMM_SG3_THREAD_COLS=8 -DMM_SG3_TILE_K=32 &
b b3 mm -DMM_SG3_BLOCKSIZE=128 -DMM_SG3_SKEW_LEVEL=8 -DMM_SG3_THREAD_COLS=8 -DMM_SG3_TILE_K=16 &
b b4 mm -DMM_SG3_BLOCKSIZE=128 -DMM_SG3_SKEW_LEVEL=8 -DMM_SG3_THREAD_COLS=16 -DMM_SG3_TILE_K=16 &
b b5 mm -DMM_THREAD_COLS=8 -DMM_SG3_BLOCKSIZE=256 -DMM_SG3_SKEW_LEVEL=4 -DMM_SG3_THREAD_COLS=8 -DMM_SG3_TILE_K=16 &
b b6 mmlb &
b b7 mm -DMM_SG3_BLOCKSIZE=64 -DMM_SG3_SKEW_LEVEL=8 -DMM_SG3_THREAD_COLS=8 -DMM_SG3_TILE_K=8 &
wait
for n in b0 b1 b2 b3 b4 b5 b6 b7; do echo "== $n"; grep -A2 "Compiling entry" /tmp/build-$n.txt | grep -E "entry|registers|spill" | sed 's/ptxas info    : //'; grep -i error /tmp/build-$n.txt | head -3; done > $OUT/build.txt 2>&1
S3="1000,1200,1100;997,1013,1009;1024,1024,1024;2048,2048,2048"
run() { name=$1; ch=$2; sz=$3; SGEMM_CHOICES=$ch SGEMM_SIZES=$sz /tmp/$name $name sweep 2>&1 | sed "s/^/$name /"; }
{
run b0 "1:1,1:0,2:0,3:0,3:2,4:0,4:2,0:0" "$S3"
for n in b1 b2 b3 b4 b7; do run $n "4:0,4:2,4:3,4:4" "$S3"; done
run b6 "4:0,4:2,4:3" "$S3"
run b5 "0:0,4:0,4:2" "4096,4096,4096;1000,1200,1100;1024,1024,1024"
run b0 "0:0" "4096,4096,4096"
} > $OUT/sweep.txt
( SGEMM_CHOICES=4:0 SGEMM_SIZES=1000,1200,1100 timeout 60 ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio -k regex:mm_small_grid3 -c 1 /tmp/b0 x sweep > /tmp/ncu0.txt 2>&1
  SGEMM_CHOICES=4:0 SGEMM_SIZES=1000,1200,1100 timeout 60 ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio -k regex:mm_small_grid3 -c 1 /tmp/b1 x sweep > /tmp/ncu1.txt 2>&1
  SGEMM_CHOICES=0:0 SGEMM_SIZES=4096,4096,4096 timeout 60 ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio -k regex:"^mm$" -c 1 /tmp/b0 x sweep > /tmp/ncu2.txt 2>&1
  tar czf $OUT/ncu.tgz -C /tmp ncu0.txt ncu1.txt ncu2.txt )
cat $OUT/build.txt | grep -E "==|registers" | paste - - - - - - - - - | cut -c1-400
grep -c WRONG $OUT/sweep.txt
grep TIME $OUT/sweep.txt | awk '{print $1, $3, $4, $6, $7, $9, $10, $12}' | sed 's/cublas_ms=//; s/rtcuda_ms=//; s/ratio=//'
for f in /tmp/ncu0.txt /tmp/ncu1.txt /tmp/ncu2.txt; do echo "== $f"; grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Compute \(SM\) Throughput|Waves Per SM|Stall|L1/TEX Hit|Memory Throughput|Theoretical Occ" $f | head -20; grep stalled $f | sort -k3 -g -r | head -8; done
