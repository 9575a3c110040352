#!/usr/bin/env python3
"""Writes matrix.mtx for the cg example: the 2-D Laplacian (5-point stencil, zero boundary) of a
K x K grid, symmetric positive definite, in Matrix Market 'coordinate real symmetric' format
(lower triangle, 1-based, sorted by row then column).

    python3 make_matrix.py [K=30] [output=matrix.mtx]
"""
import sys


def main():
    k = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    path = sys.argv[2] if len(sys.argv) > 2 else "matrix.mtx"
    entries = []
    for r in range(k):
        for c in range(k):
            row = r * k + c
            if r > 0:
                entries.append((row, row - k, -1.0))  # neighbour above
            if c > 0:
                entries.append((row, row - 1, -1.0))  # neighbour to the left
            entries.append((row, row, 4.0))
    n = k * k
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write(f"% 2-D Laplacian of a {k} x {k} grid (5-point stencil), lower triangle\n")
        f.write(f"{n} {n} {len(entries)}\n")
        for i, j, v in entries:
            f.write(f"{i + 1} {j + 1} {v:.1f}\n")


if __name__ == "__main__":
    main()
