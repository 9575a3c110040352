#!/usr/bin/env python3
"""Differential testing of rtcuda against gcc on random affine loop nests.

Each program is a kernel function k (1-3 nested loops, 1-3 arrays, affine subscripts, scalar
accumulations, conditionals, triangular bounds) and a main.c that fills the arrays, calls k and
prints every element. gcc builds and runs it as plain C; `rtcuda translate` + `rtcuda run` (the
CPU emulator) must print the same, or refuse with an error. Values are small integers (also in
the double arrays), so every order of evaluation gives the same exact result.

For every refused program the generator also runs the nest with its outermost loop reversed
and shuffled under gcc: when both print the same as the original, the refusal may have been
needless ("refused although parallel"; a hint, not a proof).

    differential.py --rtcuda build/bin/rtcuda --programs 300 --seed 1 --work /tmp/diff

Exit status 1 when any program gave a wrong output or a crash (the program is kept in
<work>/failures/), 0 otherwise. See docs/reliability.md.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys

TYPES = ["int", "double"]
VARS = ["i", "j", "l"]


class Gen:
    def __init__(self, rng):
        self.r = rng

    def program(self):
        r = self.r
        self.depth = r.randint(1, 3)
        self.narrays = r.randint(1, 3)
        self.arrays = []
        for a in range(self.narrays):
            dims = r.randint(1, min(2, self.depth) if self.depth > 1 else 1)
            self.arrays.append({"name": "ABC"[a], "type": r.choice(TYPES), "dims": dims,
                                "written": a == 0 or r.random() < 0.2})
        # Each loop: variable, lower bound, upper bound (exclusive), over n (or the outer var).
        self.loops = []
        for d in range(self.depth):
            v = VARS[d]
            lo, hi = "0", "n"
            if d > 0 and r.random() < 0.25:
                hi = VARS[r.randint(0, d - 1)] + " + 1"     # triangular
            elif r.random() < 0.2:
                lo = "1"
            self.loops.append((v, lo, hi))
        body = self.nest(0)
        params = ["int n"]
        for a in self.arrays:
            restrict = "restrict " if r.random() < 0.7 else ""
            dims = "".join("[%sn + 4]" % (restrict if k == 0 else "") for k in range(a["dims"]))
            params.append("%s %s%s" % (a["type"], a["name"], dims))
        kernel = "void k(%s)\n{\n%s}\n" % (", ".join(params), body)
        return kernel

    def subscript(self, live):
        # An affine subscript of the live loop variables, kept inside [0, n + 4).
        r = self.r
        if not live or r.random() < 0.1:
            return str(r.randint(0, 3))
        v = r.choice(live)
        off = r.randint(-2, 2)
        return "%s + %d" % (v, off + 2) if off + 2 else v

    def home(self, a, live):
        # The element an iteration owns: the outermost live variables, in order.
        return a["name"] + "".join("[%s]" % (live[k] if k < len(live) else "0")
                                   for k in range(a["dims"]))

    def access(self, a, live):
        # Written arrays are read mostly at the element the iteration owns (parallel nests);
        # sometimes anywhere (dependences the analysis must find).
        if a["written"] and self.r.random() < 0.8:
            return self.home(a, live)
        return a["name"] + "".join("[%s]" % self.subscript(live) for _ in range(a["dims"]))

    def value(self, live, scalars, depth=0):
        r = self.r
        choice = r.random()
        if depth > 1 or choice < 0.25:
            opts = [str(r.randint(-3, 3))] + live + scalars
            return r.choice(opts)
        if choice < 0.6:
            a = r.choice(self.arrays)
            text = self.access(a, live)
            return "(int)" + text if a["type"] == "double" and r.random() < 0.2 else text
        op = r.choice(["+", "-", "*"])
        left = self.value(live, scalars, depth + 1)
        right = str(r.randint(-2, 2)) if op == "*" else self.value(live, scalars, depth + 1)
        return "(%s %s %s)" % (left, op, right)

    def condition(self, live, scalars):
        r = self.r
        if live and r.random() < 0.5:
            a = r.choice(live)
            b = r.choice(live + [str(r.randint(0, 5))])
            return "%s %s %s" % (a, r.choice(["<", ">", "<=", "!="]), b)
        return "%s > %d" % (self.value(live, scalars, 1), r.randint(-2, 2))

    def statement(self, live, scalars, indent):
        r = self.r
        pad = "  " * indent
        a = r.choice([x for x in self.arrays if x["written"]])
        # Writes go mostly to the element the iteration owns, so that most nests are parallel
        # in some loop; sometimes elsewhere (a dependence on purpose).
        target = self.home(a, live) if r.random() < 0.85 else \
            a["name"] + "".join("[%s]" % self.subscript(live) for _ in range(a["dims"]))
        op = r.choice(["=", "=", "+="])
        text = "%s%s %s %s;\n" % (pad, target, op, self.value(live, scalars))
        if r.random() < 0.25:
            text = "%sif (%s)\n  %s" % (pad, self.condition(live, scalars), text)
        return text

    def nest(self, d, live=None, scalars=None, indent=1):
        r = self.r
        live = live or []
        scalars = scalars or []
        pad = "  " * indent
        if d == len(self.loops):
            out = ""
            for _ in range(r.randint(1, 2)):
                out += self.statement(live, scalars, indent)
            return out
        v, lo, hi = self.loops[d]
        out = ""
        inner_live = live + [v]
        acc = None
        if d > 0 and r.random() < 0.35:
            # A scalar accumulated over loop v, then stored.
            acc = "s%d" % d
            t = r.choice(TYPES)
            out += "%s%s %s = 0;\n" % (pad, t, acc)
        out += "%sfor (int %s = %s; %s < %s; %s++) {\n" % (pad, v, lo, v, hi, v)
        if acc:
            out += "%s  %s += %s;\n" % (pad, acc, self.value(inner_live, scalars))
        out += self.nest(d + 1, inner_live, scalars, indent + 1)
        out += "%s}\n" % pad
        if acc:
            out += "%s%s = %s;\n" % (pad, self.home(self.arrays[0], live), acc)
        return out

    def main(self, kernel):
        lines = ["#include <stdio.h>", "#include <stdlib.h>", ""]
        proto = kernel.split("\n")[0] + ";"
        lines += [proto, "", "int main(int argc, char *argv[])", "{",
                  "  int n = argc > 1 ? atoi(argv[1]) : 7;"]
        for a in self.arrays:
            t, name = a["type"], a["name"]
            if a["dims"] == 1:
                lines.append("  %s *%s = malloc(sizeof(%s) * (n + 4));" % (t, name, t))
                lines.append("  for (int x = 0; x < n + 4; x++) %s[x] = (%s)((x * 7 + %d) %% 9 - 4);"
                             % (name, t, ord(name)))
            else:
                lines.append("  %s (*%s)[n + 4] = malloc(sizeof(%s[n + 4][n + 4]));" % (t, name, t))
                lines.append("  for (int x = 0; x < n + 4; x++) for (int y = 0; y < n + 4; y++) "
                             "%s[x][y] = (%s)((x * 7 + y * 3 + %d) %% 9 - 4);" % (name, t, ord(name)))
        lines.append("  k(n, %s);" % ", ".join(a["name"] for a in self.arrays))
        for a in self.arrays:
            t, name = a["type"], a["name"]
            fmt = "%d" if t == "int" else "%.17g"
            if a["dims"] == 1:
                lines.append('  for (int x = 0; x < n + 4; x++) printf("%s[%%d] = %s\\n", x, %s[x]);'
                             % (name, fmt, name))
            else:
                lines.append("  for (int x = 0; x < n + 4; x++) for (int y = 0; y < n + 4; y++) "
                             'printf("%s[%%d][%%d] = %s\\n", x, y, %s[x][y]);' % (name, fmt, name))
        for a in self.arrays:
            lines.append("  free(%s);" % a["name"])
        lines += ["  return 0;", "}", ""]
        return "\n".join(lines)


def options(rng):
    return rng.choice(["", "    collapse: true\n", "    skew: true\n", "    merge: true\n",
                       "    collapse: true\n    skew: true\n", "    merge: true\n    skew: true\n"])


def run(cmd, cwd=None, timeout=600):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, text=True)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timeout"


def gcc_output(folder, kernel_text, main_text, tag, n):
    src = os.path.join(folder, "gcc-" + tag)
    os.makedirs(src, exist_ok=True)
    with open(os.path.join(src, "kernel.c"), "w") as f:
        f.write(kernel_text)
    with open(os.path.join(src, "main.c"), "w") as f:
        f.write(main_text)
    exe = os.path.join(src, "prog")
    # Undefined behaviour (a signed overflow, a double converted to an int it does not fit:
    # float-cast-overflow is not part of -fsanitize=undefined) stops the program: it is
    # skipped, not compared.
    status, _, err = run(["gcc", "-std=gnu11", "-O1", "-w",
                          "-fsanitize=undefined,float-cast-overflow",
                          "-fno-sanitize-recover=undefined,float-cast-overflow", "-o", exe,
                          os.path.join(src, "kernel.c"), os.path.join(src, "main.c")])
    if status != 0:
        return None, err
    status, out, err = run([exe, str(n)])
    return (out if status == 0 else None), err


def reorder_outer(kernel_text, mode, rng):
    """The kernel with its outermost loop reversed, or run in a shuffled order."""
    lines = kernel_text.split("\n")
    for idx, line in enumerate(lines):
        s = line.strip()
        if s.startswith("for (int i = "):
            lo = s[len("for (int i = "):s.index(";")]
            hi = s[s.index("i < ") + 4:s.index("; i++")]
            pad = line[:len(line) - len(line.lstrip())]
            if mode == "reverse":
                lines[idx] = "%sfor (int i = (%s) - 1; i >= %s; i--) {" % (pad, hi, lo)
            else:
                # A fixed permutation of [lo, hi): i' = lo + (i_ * p) % len with p coprime.
                p = rng.choice([3, 5, 7, 11, 13])
                lines[idx] = ("%sfor (int i_ = 0; i_ < (%s) - (%s); i_++) { int i = (%s) + "
                              "(int)(((long)i_ * %d) %% ((%s) - (%s))); if ((%s) - (%s) > 0 && "
                              "((%s) - (%s)) %% %d == 0) i = (%s) + i_;"
                              % (pad, hi, lo, lo, p, hi, lo, hi, lo, hi, lo, p, lo))
            return "\n".join(lines)
    return kernel_text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtcuda", required=True)
    ap.add_argument("--programs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sizes", default="5,13", help="values of n each program runs with")
    ap.add_argument("--keep", action="store_true", help="keep every program's folder")
    args = ap.parse_args()
    rtcuda = os.path.abspath(args.rtcuda)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "failures"))
    rng = random.Random(args.seed)
    sizes = [int(s) for s in args.sizes.split(",")]
    counts = {"match": 0, "refused": 0, "refused-parallel": 0, "wrong": 0, "crash": 0, "skipped": 0}
    for p in range(args.programs):
        g = Gen(rng)
        kernel = g.program()
        main_text = g.main(kernel)
        folder = os.path.join(work, "p%04d" % p)
        os.makedirs(folder)
        with open(os.path.join(folder, "kernel.c"), "w") as f:
            f.write(kernel)
        with open(os.path.join(folder, "main.c"), "w") as f:
            f.write(main_text)
        with open(os.path.join(folder, "config.yaml"), "w") as f:
            f.write("kernel_files: [kernel.c]\nmain_file: main.c\nkernels:\n  - name: k\n" + options(rng))
        expected = {}
        for n in sizes:
            expected[n], err = gcc_output(folder, kernel, main_text, "ref", n)
            if expected[n] is None:
                break
        if any(v is None for v in expected.values()):
            counts["skipped"] += 1   # the generator made a program gcc rejects: its own bug
            print("p%04d: skipped (gcc: %s)" % (p, err.strip()[:200]))
            continue
        status, out, err = run([rtcuda, "translate", "config.yaml", "-o", "out"], cwd=folder)
        verdict = None
        if status == 1 and "error:" in err:
            verdict = "refused"
            same = True
            for mode in ("reverse", "shuffle"):
                for n in sizes:
                    got, _ = gcc_output(folder, reorder_outer(kernel, mode, rng), main_text, mode, n)
                    same = same and got == expected[n]
            if same:
                counts["refused-parallel"] += 1
            detail = ("(perhaps parallel) " if same else "") + err.strip().split("\n")[0]
        elif status != 0:
            verdict, detail = "crash", "translate status %d: %s" % (status, err.strip()[-300:])
        else:
            verdict, detail = "match", ""
            for n in sizes:
                status, got, err = run([rtcuda, "run", "out", str(n)], cwd=folder)
                if status != 0:
                    verdict, detail = "crash", "run n=%d status %d: %s" % (n, status, err.strip()[-300:])
                    break
                if got != expected[n]:
                    diff = [(a, b) for a, b in zip(got.split("\n"), expected[n].split("\n")) if a != b]
                    verdict = "wrong"
                    detail = "n=%d: %d line(s) differ, first: rtcuda %r, gcc %r" % (
                        n, len(diff), diff[0][0] if diff else "", diff[0][1] if diff else "")
                    break
        counts[verdict] += 1
        print("p%04d: %s %s" % (p, verdict, detail), flush=True)
        if verdict in ("wrong", "crash"):
            shutil.copytree(folder, os.path.join(work, "failures", "p%04d" % p),
                            ignore=shutil.ignore_patterns("out", "gcc-*"))
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    total = args.programs - counts["skipped"]
    print("differential: %d program(s), seed %d: %d match, %d refused (%d of them perhaps "
          "parallel: the outer loop reversed and shuffled gives the same), %d wrong, %d crash, "
          "%d skipped" % (total, args.seed, counts["match"], counts["refused"],
                          counts["refused-parallel"], counts["wrong"], counts["crash"],
                          counts["skipped"]))
    return 1 if counts["wrong"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
