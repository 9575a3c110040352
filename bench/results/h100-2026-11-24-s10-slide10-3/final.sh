#!/usr/bin/env bash
# slide10's one final call: the 3-D kinds lines (bench/kinds.txt, trimmed), ACC's 3DConvolution,
# and the 16-byte copy experiment (exp3). Short tables last.
cd "$(dirname "$0")/.."; export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-/tmp/o}
OUT=/tmp/v16 bash .carry-slide10/exp3/run3.sh > /tmp/v16.txt 2>&1; tar czf $O/v16.tgz -C /tmp v16 v16.txt
OUT=/tmp/k bash .carry-slide10/bench/kinds_on_gpu.sh > /tmp/k.txt 2>&1; cp /tmp/k/logs/table.txt /tmp/k/logs/bench.txt /tmp/k/logs/sanitizer.txt $O/; cp /tmp/k.txt $O/kinds-run.txt
python3 bench/polybench/acc.py gpu .carry-slide10/tr --acc .carry-acc/acc/CUDA --log-dir /tmp/acc --runs 3 --run-timeout 20 --deadline 200 --check-grace 60 -j 12 --only 3DConvolution > /tmp/acc.txt 2>&1; tar czf $O/acc.tgz -C /tmp acc acc.txt
echo "== v16"; tail -22 /tmp/v16.txt
echo "== acc"; tail -8 /tmp/acc.txt
echo "== kinds"; grep -c "status=0" /tmp/k/logs/sanitizer.txt; grep -v "status=0" /tmp/k/logs/sanitizer.txt | grep SAN; cat /tmp/k/logs/table.txt
