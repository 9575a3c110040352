#!/bin/sh
# Runs a command and succeeds only if it exits with status 1 (rtcuda's status for bad input).
"$@"
status=$?
if [ "$status" -ne 1 ]; then
  echo "expected exit status 1, got $status" >&2
  exit 1
fi
