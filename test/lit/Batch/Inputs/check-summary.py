# check-summary.py SUMMARY FAILED_NAME OK_COUNT: the batch summary names exactly one failed
# program, FAILED_NAME, with a first error, and OK_COUNT programs that succeeded.
import json
import sys

summary = json.load(open(sys.argv[1]))
failed = [p for p in summary["programs"] if p["status"] == "failed"]
ok = [p for p in summary["programs"] if p["status"] == "ok"]
assert [p["name"] for p in failed] == [sys.argv[2]], failed
assert failed[0]["first_error"] and "error" in failed[0]["first_error"], failed[0]
assert failed[0]["exit_status"] == 1, failed[0]
assert len(ok) == int(sys.argv[3]), ok
for p in ok:
    assert p["first_error"] is None and p["time_s"] >= 0, p
    if summary["command"] == "translate":
        assert [k["name"] for k in p["kernels"]] == ["scale"] and p["kernels"][0]["passes"], p
assert summary["failed"] == 1 and summary["ok"] == int(sys.argv[3]), summary
