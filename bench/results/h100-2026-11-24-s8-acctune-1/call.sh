#!/usr/bin/env bash
# acctune8's device call: rtcuda-tune over the three programs whose kernels read a host loop's
# variable (fdtd2d t, lu c0, gramschmidt k), the planted host-loop variants, the ACC rows of
# those three (lu at ACC's LARGE with --lu-init transposed) and gesummv with the tuned points,
# and gesummv's init swap.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
C=.carry-acctune8; R=$OUT; W=/tmp/w; mkdir -p $W $R
cp -r bench/polybench/extra $C/bench/ 2>/dev/null
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$SECONDS
cp -r $C/tr $W/tr
BUDGET=170 bash bench/polybench/tune_acc.sh $W/tr $W/tune --only fdtd2d,lu,gramschmidt --max-variants 16 --kernel-seconds 15 --timeout 20 > $W/tune.log 2>&1
echo "== tune: $((SECONDS-T0)) s"; grep -E "built in|tune_acc.sh:" $W/tune.log
mkdir -p $W/t && tar xzf $W/tune/tuned-params.tgz -C $W/t && cp -r $C/tuned-s7/gesummv $W/t/tuned/
echo "== planted host-loop variants"
cp -r test/unit/Tuner/data/hostloop $W/hostloop
export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
build-gpu/bin/rtcuda-tune $W/hostloop --size n=1000000 --size steps=64 --strategy exhaustive --no-write > $W/planted.log 2>&1; echo "status $?"
grep -E "excluded|prog_2" $W/planted.log | cut -c1-300
echo "== acc: $((SECONDS-T0)) s"
python3 $C/bench/acc.py gpu $W/tr --acc .carry-acc/acc/CUDA --tuned $W/t/tuned --log-dir $W/acc --runs 3 --run-timeout 60 --deadline 150 --check-grace 20 -j 12 --only fdtd2d,gesummv,lu,gramschmidt > $W/acc.log 2>&1
echo "== swap: $((SECONDS-T0)) s"
python3 $C/bench/acc_init_swap.py $C/tr .carry-acc/acc/CUDA $W/swap --runs 5 > $W/swap.log 2>&1; echo "status $?"
echo "== end: $((SECONDS-T0)) s"
cp $W/tune/table.md $R/tune-table.md; cp $W/acc/table.md $R/acc-table.md; cp $W/acc/results.json $R/acc-results.json
tar czf $R/logs.tgz -C $W tune.log planted.log acc.log swap.log tune acc hostloop/tuning/default-vs-tuned.md hostloop/tuning/report.md 2>/dev/null
cat $W/tune/table.md | cut -c1-400
tail -12 $W/swap.log
tail -8 $W/acc/table.md | cut -c1-600
