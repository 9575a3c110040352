#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time on a copy of its seed corpus.
#   run_fuzzer.sh <target> <seed corpus> <work folder> <seconds>
# Exit status: 0 when no crash, leak, timeout or sanitizer report was found; otherwise the
# target's status, with the input that caused it in <work folder>/ (crash-*, timeout-*, ...).
set -u
target=$1 seeds=$2 work=$3 seconds=$4
rm -rf "$work" && mkdir -p "$work/corpus"
cp "$seeds"/* "$work/corpus/" 2>/dev/null
# -close_fd_mask=3: the target's own messages (diagnostics of bad inputs) are not printed;
# libFuzzer still reports.
nice -n 10 "$target" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=4096 \
  -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" > "$work/log" 2>&1
status=$?
grep -E "^#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs|stat::number_of_executed_units|cov:" "$work/log" | tail -3
if [ $status -ne 0 ]; then
  tail -60 "$work/log"
  echo "FAIL: $(basename "$target") found a problem (input saved in $work)"
fi
exit $status
