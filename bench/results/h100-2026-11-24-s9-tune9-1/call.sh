#!/usr/bin/env bash
# tune9's device call: rtcuda-tune (main at 186275c: points timed as the launch runs them) over
# gemm, 3mm, 2mm, jacobi2D at ACC's LARGE sizes, then the ACC table with the tuned points.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
C=.carry-tune9; R=$OUT; W=/tmp/w; mkdir -p $W $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$SECONDS
cp -r $C/tr $W/tr
BUDGET=140 bash bench/polybench/tune_acc.sh $W/tr $W/tune --only gemm,3mm,2mm,jacobi2D > $W/tune.log 2>&1
echo "== tune: $((SECONDS-T0)) s"; grep -E "built in|tune_acc.sh:|exit" $W/tune.log
grep -h "rtcuda-tune: .*kernel_" $W/tune/work/logs/*/rtcuda-tune.log 2>/dev/null | grep -E "launch runs|default point|fastest" | cut -c1-260
mkdir -p $W/t && tar xzf $W/tune/tuned-params.tgz -C $W/t
python3 bench/polybench/acc.py gpu $W/tr --acc .carry-acc/acc/CUDA --tuned $W/t/tuned --log-dir $W/acc --runs 3 --run-timeout 20 --deadline 90 --check-grace 30 -j 12 --only gemm,3mm,2mm,jacobi2D > $W/acc.log 2>&1
echo "== acc: $((SECONDS-T0)) s"
cp $W/tune/table.md $R/tune-table.md; cp $W/tune/summary.json $R/tune-summary.json; cp $W/acc/table.md $R/acc-table.md; cp $W/acc/results.json $R/acc-results.json
tar czf $R/logs.tgz -C $W tune.log acc.log tune acc 2>/dev/null
cut -c1-330 $W/tune/table.md
tail -8 $W/acc/table.md | cut -c1-330
