#!/usr/bin/env bash
# Stands in for the measurement harness in unit tests (no GPU): reads the job file and answers
# per variant by its id: BLOCKSIZE=64 dies without a result (a crash), BLOCKSIZE=96 never
# answers (a hang), BLOCKSIZE=128 computes a wrong result, BLOCKSIZE=160 reports a crash and
# exits as the real harness does when the CUDA context is lost; the others take 100/BLOCKSIZE us.
job=$1
echo '@rtcuda {"event":"ready"}'
while read -r _ id _; do
  echo "@rtcuda {\"event\":\"start\",\"variant\":\"$id\"}"
  case "$id" in
    BLOCKSIZE=64) echo "some log text"; kill -SEGV $$ ;;
    BLOCKSIZE=96) sleep 100 ;;
    BLOCKSIZE=128) echo "@rtcuda {\"event\":\"result\",\"variant\":\"$id\",\"status\":\"wrong\",\"reason\":\"1 element(s) differ\"}" ;;
    BLOCKSIZE=160) echo "@rtcuda {\"event\":\"result\",\"variant\":\"$id\",\"status\":\"crash\",\"reason\":\"CUDA_ERROR_LAUNCH_FAILED\"}"; exit 3 ;;
    *) bs=${id#BLOCKSIZE=}
       t=$(awk "BEGIN{print 100/$bs}")
       echo "@rtcuda {\"event\":\"result\",\"variant\":\"$id\",\"status\":\"ok\",\"reason\":\"\",\"regs\":16,\"median_us\":$t,\"times_us\":[$t,$t],\"verified\":true}" ;;
  esac
done < <(grep '^variant ' "$job")
