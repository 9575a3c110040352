#!/usr/bin/env python3
"""Checks that generated kernel.cu files are laid out for a reader (issue 14).

Usage: check_kernel_layout.py OUTPUT_FOLDER...   (each an rtcuda translate output)

Two rules, per kernel.cu; a violation is printed as file:line: message, exit status 1:

1. No line is longer than 100 columns.
2. No derived-size expression is written more than once in one kernel function.
   A derived-size expression is a sub-expression of the parsed C (pycparser: binary, unary,
   ternary operators and casts) that has at least one operator, whose leaves are all integer
   literals, tuning macros (the names #defined in the folder's *_params.h) or integer scalar
   parameters of the function, and which has at least one tuning macro. Two are the same when
   their text, printed back by pycparser, is the same. Every sub-expression is counted, not only
   the largest: `BS / TC` inside `BS / TC * ML` and on its own elsewhere is written twice.
"""
import glob
import os
import re
import sys

from pycparser import c_ast, c_generator, c_parser

LIMIT = 100


def tuning_macros(folder):
    names = set()
    for header in glob.glob(os.path.join(folder, "*_params.h")):
        with open(header) as f:
            names.update(re.findall(r"^#define\s+([A-Za-z_]\w*)", f.read(), re.M))
    return names


def as_plain_c(text):
    """kernel.cu as C that pycparser reads: preprocessor lines, CUDA qualifiers and the atomic
    helpers (between `// clang-format off` and `on`) dropped, shared arrays as plain arrays.
    Line numbers are kept."""
    lines, verbatim = [], False
    for line in text.split("\n"):
        stripped = line.strip()
        verbatim = (verbatim or stripped == "// clang-format off") and \
            stripped != "// clang-format on"
        lines.append("" if verbatim or stripped.startswith("#") else line)
    code = re.sub(r"//[^\n]*", "", "\n".join(lines))
    code = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", code)
    for word in ("__global__", "__device__", "__shared__", "__restrict__", "__align__(16)",
                 "static", "inline"):
        code = code.replace(word, "")
    code = re.sub(r"RTCUDA_SHARED_ARRAY\(\s*([\w ]+?)\s*,\s*(\w+)\s*,", r"\1 \2[(", code)
    code = re.sub(r"(\w+ \w+\[\(.*?)\);", r"\1)];", code)  # close the size of those arrays
    return "typedef int dim3;\n" + code


class Counter(c_ast.NodeVisitor):
    OPERATORS = (c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.Cast)

    def __init__(self, macros, scalars):
        self.macros, self.scalars = macros, scalars
        self.seen = {}  # text -> [line, count]
        self.gen = c_generator.CGenerator()

    def leaves_ok(self, node):
        """(pure, has_macro, has_operator) for the sub-tree."""
        if isinstance(node, c_ast.Constant):
            return node.type == "int", False, False
        if isinstance(node, c_ast.ID):
            return node.name in self.macros or node.name in self.scalars, \
                node.name in self.macros, False
        if isinstance(node, c_ast.Typename):
            return True, False, False
        if isinstance(node, self.OPERATORS):
            if isinstance(node, c_ast.UnaryOp) and node.op in ("&", "*", "sizeof", "p++", "p--",
                                                               "++", "--"):
                return False, False, False
            pure, macro, op = True, False, not isinstance(node, c_ast.Cast)
            for _, child in node.children():
                p, m, o = self.leaves_ok(child)
                pure, macro, op = pure and p, macro or m, op or o
            return pure, macro, op
        return False, False, False

    def generic_visit(self, node):
        if isinstance(node, self.OPERATORS):
            pure, macro, op = self.leaves_ok(node)
            if pure and macro and op:
                text = self.gen.visit(node)
                entry = self.seen.setdefault(text, [node.coord.line if node.coord else 0, 0])
                entry[1] += 1
        for _, child in node.children():
            self.visit(child)


def scalar_params(func):
    names = set()
    params = func.decl.type.args.params if func.decl.type.args else []
    for p in params:
        if isinstance(p, c_ast.Decl) and isinstance(p.type, c_ast.TypeDecl) and \
                isinstance(p.type.type, c_ast.IdentifierType):
            names.add(p.name)
    return names


def check(folder):
    path = os.path.join(folder, "kernel.cu")
    with open(path) as f:
        text = f.read()
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > LIMIT:
            problems.append(f"{path}:{number}: line of {len(line)} columns (limit {LIMIT})")
    macros = tuning_macros(folder)
    try:
        unit = c_parser.CParser().parse(as_plain_c(text), path)
    except Exception as e:  # a file the check cannot read is a failure, not a pass
        return problems + [f"{path}: cannot parse: {e}"]
    functions = [n for n in unit.ext if isinstance(n, c_ast.FuncDef)]
    if not functions:
        problems.append(f"{path}: no kernel function found")
    for func in functions:
        counter = Counter(macros, scalar_params(func))
        counter.visit(func.body)
        for expr, (line, count) in counter.seen.items():
            if count > 1:
                problems.append(f"{path}:{line - 1}: in {func.decl.name}: derived size "
                                f"'{expr}' written {count} times")
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    problems = []
    for folder in sys.argv[1:]:
        problems += check(folder)
    for p in problems:
        print(p)
    print(f"checked {len(sys.argv) - 1} kernel.cu file(s): {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
