#!/bin/sh
# Runs a command and succeeds only if it exits with the status given first:
# `expect-status.sh 1 rtcuda translate ...` (rtcuda: 1 for bad input, 2 for a usage error).
want=$1
shift
"$@"
status=$?
if [ "$status" -ne "$want" ]; then
  echo "expected exit status $want, got $status" >&2
  exit 1
fi
