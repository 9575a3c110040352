#!/bin/bash
# fdtd2d's rtcuda output at other mapping points (MERGE/SKEW of kernels 2-4), built with -D
# overrides of the params headers; kernel time = the patched main's call 1 (acc.py's), 5 runs each.
set -u
log=$1; src=.carry-expand/tr/fdtd2d/acc/out
declare -A flags
for v in def m1s1 m2s1 m1s2; do
  m=${v:1:1}; s=${v:3:1}; f=""
  [ $v = def ] || for k in 2 3 4; do f="$f -DKERNEL_FDTD_2D_${k}_MERGE_LEVEL=$m -DKERNEL_FDTD_2D_${k}_SKEW_LEVEL=$s"; done
  flags[$v]=$f
  (cmake -S $src -B /tmp/var-$v -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
     "-DCMAKE_CUDA_FLAGS=$f" > $log/var-$v-build.txt 2>&1 && cmake --build /tmp/var-$v -j 4 >> $log/var-$v-build.txt 2>&1) &
done
wait
for r in 1 2 3 4 5; do
  for v in def m1s1 m2s1 m1s2; do
    t=$(RTCUDA_ACC_REPEATS=1 CUDA_MODULE_LOADING=EAGER timeout 30 /tmp/var-$v/out 2>>$log/var-$v-run.txt | grep "rtcuda-acc call 1:" | awk '{print $4}')
    echo "$v run$r kernel_s=$t" | tee -a $log/variants.txt
  done
done
