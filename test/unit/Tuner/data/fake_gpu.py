#!/usr/bin/env python3
# Stands in for the measurement harness in rtcuda-tune's end-to-end tests (no GPU here): it
# answers --device-info as an H100 would, and each variant of a job with the time and status
# <output>/fake_times.json gives it ({"BLOCKSIZE=32": {"median": 10, "spread": 0.02,
# "noise": 0.01, "status": "ok", "sleep": 0.2}}; a missing variant takes what "*" gives, else 100 us; "sleep" holds
# its answer back that many seconds). "noise" moves each
# measurement's median by a seeded random share up to that much, as repeated runs do. Every
# variant it is asked for goes into <output>/fake_log.txt with the job's round settings, the
# array sizes of the checked and the timed run and the host loop values of a kernel in host
# loops, so a test can see what was asked.
import json
import random
import sys
import time


def emit(event):
    print("@rtcuda " + json.dumps(event), flush=True)


if len(sys.argv) < 2 or sys.argv[1] == "--device-info":
    emit({"event": "device", "name": "Fake H100", "cc": "9.0", "sm_count": 132,
          "max_threads_per_sm": 2048, "max_blocks_per_sm": 32, "regs_per_sm": 65536,
          "regs_per_block": 65536, "smem_per_sm": 233472, "smem_per_block": 49152,
          "smem_per_block_optin": 232448, "reserved_smem_per_block": 1024,
          "l2_bytes": 52428800, "driver": "13.0", "nvrtc": "13.0"})
    sys.exit(0)

job = {"arrays": [], "variants": [], "samples": []}
for line in open(sys.argv[1]):
    words = line.split()
    if not words:
        continue
    if words[0] in ("include", "reps", "crosscheck", "reference", "cutoff", "warmup"):
        job[words[0]] = " ".join(words[1:])
    elif words[0] == "array":
        job["arrays"].append((words[2], words[3], words[4]))
    elif words[0] == "variant":
        job["variants"].append(words[1])
        # after n defines: "kernel NAME" when it is not the job's (an alternative)
        rest = words[10 + int(words[9]):]
        job.setdefault("kernels", {})[words[1]] = (rest[rest.index("kernel") + 1]
                                                   if "kernel" in rest else "-")
    elif words[0] == "kernel":
        job["kernel"] = words[1]
    elif words[0] == "baseline":
        job["baseline"] = words[1]
    elif words[0] == "sample":   # a kernel in host loops: "sample check t=3"
        job["samples"].append(words[1] + ":" + ",".join(words[2:]))
try:
    times = json.load(open(job["include"] + "/fake_times.json"))
except OSError:
    times = {}
log = open(job["include"] + "/fake_log.txt", "a")
emit({"event": "ready"})
for vid in job["variants"]:
    emit({"event": "start", "variant": vid})
    t = times.get(vid, times.get("*", {}))
    checked = ",".join(a[1] for a in job["arrays"])
    timed = ",".join(a[2] for a in job["arrays"])
    log.write("variant %s reps %s crosscheck %s reference %s baseline %s checked %s timed %s%s "
              "job %s kernel %s\n" % (
        vid, job.get("reps"), job.get("crosscheck"), job.get("reference"), job.get("baseline", "-"),
        checked, timed, " samples " + " ".join(job["samples"]) if job["samples"] else "",
        job.get("kernel", "-"), job.get("kernels", {}).get(vid, "-")))
    log.flush()
    time.sleep(t.get("sleep", 0))   # a slow variant, for the --kernel-seconds limit
    status = t.get("status", "ok")
    if status != "ok":
        emit({"event": "result", "variant": vid, "status": status,
              "reason": "planted: %s" % status})
        continue
    rng = random.Random(vid + job.get("reps", ""))
    median = t.get("median", 100.0) * (1 + rng.uniform(-1, 1) * t.get("noise", 0.0))
    half = median * t.get("spread", 0.02) / 2
    emit({"event": "result", "variant": vid, "status": "ok", "reason": "", "regs": 16,
          "median_us": median, "min_us": median - 2 * half, "max_us": median + 2 * half,
          "q1_us": median - half, "q3_us": median + half, "times_us": [median],
          "verified": True})
