#!/usr/bin/env python3
"""The hottest loop of each function in `cuobjdump -sass` output (the backward branch whose body
holds the most FFMAs): its length, FFMAs, shared loads (LDS) and how many of those sit between
FFMAs (interleaved by ptxas with the multiply-adds of another k) rather than in runs before the
FFMAs that wait for them, and the commonest other instructions.
    cuobjdump -sass BINARY > x.sass && python3 bench/sass_loop.py x.sass
"""
import collections
import re
import sys

text = open(sys.argv[1]).read()
for fn in re.split(r'\n\s+Function : ', text)[1:]:
    name = fn.split('\n', 1)[0].strip()
    ins, branches = [], []
    for line in fn.split('\n'):
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)(.*);', line)
        if not m:
            continue
        addr, op = int(m.group(1), 16), m.group(3).split('.')[0]
        ins.append((addr, op))
        t = re.match(r'\s*(0x[0-9a-f]+)', m.group(4))
        if op == 'BRA' and t:
            branches.append((addr, int(t.group(1), 16)))
    index = {a: n for n, (a, _) in enumerate(ins)}
    best = None
    for at, to in branches:
        if to <= at and to in index:
            i, j = index[to], index[at]
            n = sum(o == 'FFMA' for _, o in ins[i:j + 1])
            if best is None or n > best[2]:
                best = (i, j, n)
    if not best:
        print(f'{name[:60]:60s} no loop')
        continue
    i, j, n = best
    ops = [o for _, o in ins[i:j + 1]]
    lds = [k for k, o in enumerate(ops) if o == 'LDS']
    inter = sum(1 for k in lds if 'FFMA' in ops[max(0, k - 2):k] and 'FFMA' in ops[k + 1:k + 3])
    other = collections.Counter(o for o in ops if o not in ('FFMA', 'LDS'))
    print(f'{name[:60]:60s} loop={len(ops)} FFMA={n} LDS={len(lds)} interleaved={inter} other: ' +
          ' '.join(f'{k}:{v}' for k, v in other.most_common(8)))
