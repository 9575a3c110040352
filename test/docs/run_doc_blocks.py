#!/usr/bin/env python3
"""Runs the command blocks of the docs and compares the output they show (docs/doctest.md).

Every ```sh block of README.md, docs/**/*.md and examples/README.md runs, one command per line,
in a scratch copy of the repository (one per Markdown file, blocks in document order) with the
built tools first on PATH. A block preceded by an HTML comment `<!-- doctest: ... -->` is
handled as that comment says (skip it, give it a file name, compare it with a command's output).
Commands that are not run are still checked: the program exists, rtcuda's subcommands and
options are ones its --help lists, and repository paths exist. Separately, every path in
backticks and every relative link in every page must exist (links' #anchors included).

Failures are reported as file:line of the block (or of the command in it) with what differed.
"""
import argparse
import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

TOP_DIRS = {".ci", "bench", "cmake", "configs", "docs", "examples", "include", "lib", "scripts",
            "test", "tools"}
# Shell words that are not programs.
SHELL_WORDS = {"cd", "export", "set", "echo", "true", "false", "test", "[", "for", "do", "done",
               "if", "then", "fi", "env"}
# File names in backticks that name files outside the repository (CUDA, system headers).
EXTERNAL_NAMES = {"cuda_occupancy.h", "cublas_v2.h", "cusparse.h", "cuda_runtime.h", "nvrtc.h",
                  "cuda.h", "stdio.h", "stdlib.h", "string.h", "math.h", "time.h",
                  "compile_commands.json"}
# Bare file names checked against the repository's file names, by extension (kernel.c,
# main.cu and the like are names of user inputs and generated outputs, not repository files).
SOURCE_EXTS = (".cpp", ".hpp", ".py", ".sh", ".cmake", ".in")
# ... and names of that kind that rtcuda writes (verify --keep's harness).
GENERATED_NAMES = {"harness.cpp"}
# Options in backticks that are not rtcuda's: lit's (`--filter`), and one the docs say does not
# exist (`--force`).
OTHER_OPTIONS = {"--filter", "--force"}
FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*doctest:\s*(.*?)\s*-->\s*$")
RUN_LANGS = {"sh", "bash", "shell"}


class Failure(Exception):
    pass


class Block:
    def __init__(self, path, line, lang, lines, marker, marker_line):
        self.path, self.line, self.lang, self.lines = path, line, lang, lines
        self.marker, self.marker_line = marker, marker_line
        self.clauses = parse_marker(marker, path, marker_line) if marker is not None else {}

    def where(self, offset=0):
        return f"{self.path}:{self.line + offset}"


def parse_marker(text, path, line):
    """`skip (why)`, `needs <program>`, `not-run <command prefix> (why)`, `file <name>`,
    `write <name> <text>`, `run <command>`, `output [head] [stdout|stderr|both] [status N]
    [of <command>]`, separated by ';' (docs/doctest.md)."""
    clauses, parts, depth, cur = {}, [], 0, ""
    for ch in text:                     # ';' inside a parenthesized reason does not split
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for clause in [c.strip() for c in parts if c.strip()]:
        word, _, rest = clause.partition(" ")
        rest = rest.strip()
        if word == "skip":
            clauses["skip"] = rest or "marked skip"
        elif word == "needs":
            clauses.setdefault("needs", []).extend(rest.split())
        elif word == "not-run":
            prefix = re.sub(r"\s*\(.*\)\s*$", "", rest)
            if not prefix:
                raise Failure(f"{path}:{line}: 'not-run' needs a command prefix")
            clauses.setdefault("not-run", []).append(prefix)
        elif word == "run":
            if not rest:
                raise Failure(f"{path}:{line}: 'run' needs a command")
            clauses.setdefault("run", []).append(rest)
        elif word == "write":
            name, _, body = rest.partition(" ")
            if not name or not body:
                raise Failure(f"{path}:{line}: 'write' needs a file name and one line of text")
            clauses.setdefault("write", []).append((name, body))
        elif word == "file":
            if not rest or "/" in rest.strip("./") and ".." in rest:
                raise Failure(f"{path}:{line}: 'file' needs a relative file name")
            clauses["file"] = rest
        elif word == "output":
            m = re.match(r"^(head\s+)?(stdout|stderr|both)?\s*(?:status\s+(\d+))?\s*(?:of\s+(.+))?$",
                         rest)
            if not m:
                raise Failure(f"{path}:{line}: cannot read the output marker '{clause}'")
            clauses["output"] = (m.group(2) or "stdout", int(m.group(3) or 0), m.group(4))
            clauses["head"] = bool(m.group(1))
        else:
            raise Failure(f"{path}:{line}: unknown doctest clause '{word}' (known: skip, needs, "
                          "not-run, file, write, run, output; see docs/doctest.md)")
    return clauses


def read_blocks(root, rel):
    """The fenced blocks of a Markdown file, each with the marker comment just before it."""
    lines = open(os.path.join(root, rel), encoding="utf-8").read().split("\n")
    blocks, i, marker, marker_line = [], 0, None, 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            if marker is not None:
                raise Failure(f"{rel}:{marker_line}: doctest marker not followed by a block")
            marker, marker_line = m.group(1), i + 1
            i += 1
            continue
        f = FENCE.match(lines[i])
        if f:
            indent, ticks, lang = f.group(1), f.group(2), f.group(3)
            body, j = [], i + 1
            while j < len(lines) and lines[j].strip() != ticks:
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
                j += 1
            if j == len(lines):
                raise Failure(f"{rel}:{i + 1}: code block is not closed")
            blocks.append(Block(rel, i + 1, lang, body, marker, marker_line))
            marker = None
            i = j + 1
            continue
        if marker is not None and lines[i].strip():
            raise Failure(f"{rel}:{marker_line}: doctest marker not followed by a block "
                          f"(line {i + 1} comes first)")
        i += 1
    if marker is not None:
        raise Failure(f"{rel}:{marker_line}: doctest marker not followed by a block")
    return blocks


def commands(block):
    """(offset in the block, command text) per logical line; comments and blank lines dropped,
    backslash continuations joined."""
    out, pending, start = [], "", 0
    for k, raw in enumerate(block.lines, start=1):
        if not pending:
            start = k
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text = (pending + line).strip()
        pending = ""
        if not text or text.startswith("#"):
            continue
        out.append((start, text))
    return out


def expected_regex(text):
    """The documented output as a regex: a line `...` (or `... a note ...`) stands for any lines
    (none included), and `...` inside a line for any text on that line."""
    parts = []
    for line in text.split("\n"):
        t = line.strip()
        # `...` alone, or a note between two `...` (`... the same for A and B ...`): any lines.
        if t == "..." or (len(t) > 6 and t.startswith("... ") and t.endswith(" ...")):
            parts.append(None)
        else:
            parts.append(".*?".join(re.escape(p) for p in line.rstrip().split("...")))
    rx = ""
    for k, p in enumerate(parts):
        if p is None:
            rx += r"(?:[^\n]*\n)*?" if k + 1 < len(parts) else r"(?:[^\n]*\n?)*"
        else:
            rx += p + (r"\n" if k + 1 < len(parts) else "")
    return re.compile(rx, re.S)


def normalize(text):
    return "\n".join(l.rstrip() for l in text.replace("\r\n", "\n").split("\n")).strip("\n")


class Page:
    """One Markdown file's run: its scratch folder and the commands run so far."""

    def __init__(self, tester, rel):
        self.t, self.rel = tester, rel
        self.dir = tempfile.mkdtemp(prefix="rtcuda-docs-", dir=tester.work)
        for f in tester.files:
            dest = os.path.join(self.dir, f)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy2(os.path.join(tester.root, f), dest, follow_symlinks=True)
        self.results = {}     # command text -> CompletedProcess

    def run(self, where, cmd):
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join(self.t.bins + [env.get("PATH", "")])
        start = time.time()
        try:
            r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=self.dir, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=self.t.timeout)
        except subprocess.TimeoutExpired:
            raise Failure(f"{where}: command ran over {self.t.timeout} s: {cmd}")
        self.results.pop(cmd, None)     # the latest run is the last one
        self.results[cmd] = r
        self.t.ran += 1
        if self.t.verbose:
            print(f"{where}: {time.time() - start:.1f} s, status {r.returncode}: {cmd}", flush=True)
        return r


class Tester:
    def __init__(self, args):
        self.root = os.path.abspath(args.source)
        self.bins = [os.path.abspath(b) for b in args.bin]
        self.work = args.work
        self.timeout = args.timeout
        self.files = tracked_files(self.root)
        self.names = {os.path.basename(f) for f in self.files}
        self.errors, self.ran, self.checked = [], 0, 0
        self.helps = {}
        self.options = None     # every --option written in the repository's code and scripts

    # ----- static checks of commands that are not run -----------------------------------------
    def help_options(self, tool, sub):
        key = (tool, sub)
        if key not in self.helps:
            exe = shutil.which(tool, path=os.pathsep.join(self.bins)) or tool
            argv = [exe] + ([sub] if sub else []) + ["--help"]
            try:
                r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
                text = r.stdout + r.stderr if r.returncode == 0 else None
            except OSError:
                text = None
            self.helps[key] = text
        return self.helps[key]

    def rtcuda_subcommands(self):
        text = self.help_options("rtcuda", "") or ""
        return set(re.findall(r"^\s{2,}([a-z][a-z-]+)\s", text, re.M))

    def check_command(self, where, cmd, page_dir):
        try:
            words = shlex.split(cmd, comments=True)
        except ValueError as e:
            self.errors.append(f"{where}: cannot split the command ({e}): {cmd}")
            return
        # Each simple command of a list or pipeline.
        simple, cur = [], []
        for w in words:
            if w in ("&&", "||", ";", "|"):
                simple.append(cur)
                cur = []
            else:
                cur.append(w)
        simple.append(cur)
        for argv in [a for a in simple if a]:
            while argv and re.match(r"^[A-Z_][A-Z0-9_]*=", argv[0]):
                argv = argv[1:]          # VAR=value command
            if not argv:
                continue
            self.check_argv(where, argv, page_dir)

    def check_argv(self, where, argv, page_dir):
        prog = argv[0]
        self.checked += 1
        if prog in SHELL_WORDS:
            return
        if "/" in prog:
            if not os.path.exists(os.path.join(page_dir, prog)) and \
                    not self.made_elsewhere(prog, page_dir):
                self.errors.append(f"{where}: '{prog}' does not exist")
        elif prog in ("rtcuda", "rtcuda-tune"):
            self.check_tool(where, argv)
        elif not shutil.which(prog, path=os.pathsep.join(self.bins + [os.environ["PATH"]])):
            self.errors.append(f"{where}: program '{prog}' is not found on this machine")
        if prog in ("bash", "sh", "python3", "python") and len(argv) > 1 and \
                not argv[1].startswith("-"):
            if not os.path.exists(os.path.join(page_dir, argv[1])):
                self.errors.append(f"{where}: script '{argv[1]}' does not exist")
        for a in argv[1:]:
            self.check_repo_path(where, a, page_dir)

    def made_elsewhere(self, prog, page_dir):
        # A program in a folder that no command run here made (a build that needs nvcc or a
        # GPU): nothing to check it against. Where the folder was made, the program must be in
        # it (the build's program name is checked).
        first = prog.split("/")[0]
        return first not in TOP_DIRS and not os.path.isdir(os.path.join(page_dir, os.path.dirname(prog)))

    def check_tool(self, where, argv):
        tool = argv[0]
        sub = ""
        if tool == "rtcuda":
            subs = self.rtcuda_subcommands()
            if len(argv) < 2 or argv[1] not in subs:
                self.errors.append(f"{where}: '{' '.join(argv[:2])}': not an rtcuda command "
                                   f"(rtcuda --help lists {', '.join(sorted(subs))})")
                return
            sub = argv[1]
        text = self.help_options(tool, sub)
        if text is None:
            self.errors.append(f"{where}: '{tool} {sub} --help' failed")
            return
        for a in argv[1:]:
            if a == "--":
                break
            if not a.startswith("-") or a == "-":
                continue
            name = a.split("=", 1)[0]
            if name.startswith("--"):
                ok = re.search(re.escape(name) + r"(?![\w-])", text)
            else:
                ok = re.search(r"(?<![\w-])" + re.escape(name[:2]) + r"(?![a-zA-Z-])", text) or \
                    re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text)
            if not ok:
                self.errors.append(f"{where}: option '{name}' is not in '{tool} {sub} --help'")

    def check_repo_path(self, where, word, page_dir):
        """A word naming a file of the repository (its first folder is one of the repository's
        top folders) must exist."""
        if "/" not in word or word.startswith("-") or "=" in word:
            return
        first = word.split("/")[0]
        if first not in TOP_DIRS:
            return
        if not glob.glob(os.path.join(page_dir, word)):
            self.errors.append(f"{where}: '{word}' does not exist in the repository")

    # ----- running a page ------------------------------------------------------------------------
    def run_page(self, rel):
        blocks = read_blocks(self.root, rel)
        page = None
        for b in blocks:
            c = b.clauses
            for name, body in c.get("write", []):
                page = page or Page(self, rel)
                with open(os.path.join(page.dir, name), "w", encoding="utf-8") as f:
                    f.write(body + "\n")
            for cmd in c.get("run", []):
                page = page or Page(self, rel)
                r = page.run(b.where(), cmd)
                if r.returncode != 0:
                    self.errors.append(f"{b.where()}: setup command failed with exit status "
                                       f"{r.returncode}: {cmd}\n" + indent_tail(r.stdout + r.stderr))
            if "file" in c:
                page = page or Page(self, rel)
                dest = os.path.join(page.dir, c["file"])
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "w", encoding="utf-8") as f:
                    f.write("\n".join(b.lines) + "\n")
                continue
            if "output" in c:
                page = page or Page(self, rel)
                self.compare_output(page, b)
                continue
            if b.lang not in RUN_LANGS:
                continue
            page = page or Page(self, rel)
            missing = [p for p in c.get("needs", []) if not shutil.which(p)]
            for off, cmd in commands(b):
                where = b.where(off)
                skip = c.get("skip") or (f"needs {', '.join(missing)}" if missing else None)
                if not skip and any(cmd.startswith(p) for p in c.get("not-run", [])):
                    skip = "not run here"
                if skip:
                    self.check_command(where, cmd, page.dir)
                    continue
                r = page.run(where, cmd)
                if r.returncode != 0:
                    self.errors.append(
                        f"{where}: command failed with exit status {r.returncode}: {cmd}\n"
                        + indent_tail(r.stdout + r.stderr))
        if page and not self.keep:
            shutil.rmtree(page.dir, ignore_errors=True)

    def compare_output(self, page, b):
        stream, status, of = b.clauses["output"]
        where = b.where()
        if of is None:
            if not page.results:
                self.errors.append(f"{where}: output block with no command before it on the page "
                                   "(say whose output it is: 'output of <command>')")
                return
            of = list(page.results)[-1]
        r = page.results.get(of) or page.run(where, of)
        if r.returncode != status:
            self.errors.append(f"{where}: '{of}' exited with status {r.returncode}, the docs "
                               f"expect {status}\n" + indent_tail(r.stdout + r.stderr))
            return
        actual = {"stdout": r.stdout, "stderr": r.stderr, "both": r.stdout + r.stderr}[stream]
        expected = normalize("\n".join(b.lines))
        actual = normalize(actual)
        rx = expected_regex(expected)
        if b.clauses.get("head"):  # the block shows how the output begins, whole lines
            ok = re.compile(rx.pattern + r"(?:\n|\Z)", re.S).match(actual)
            shown = actual.split("\n")[:len(expected.split("\n")) + 3]
        else:
            ok = rx.fullmatch(actual)
            shown = actual.split("\n")
        if not ok:
            diff = "\n".join(difflib.unified_diff(expected.split("\n"), shown,
                                                  "documented", "actual", lineterm="", n=2))
            self.errors.append(f"{where}: the {stream} of '{of}' is not what the docs show "
                               "('...' marks text that may differ)\n" + indent(diff))

    # ----- paths and links in the prose ----------------------------------------------------------
    def check_references(self, rel):
        text = open(os.path.join(self.root, rel), encoding="utf-8").read()
        in_block = False
        for n, line in enumerate(text.split("\n"), start=1):
            if FENCE.match(line):
                in_block = not in_block
                continue
            if in_block:
                continue
            for span in re.findall(r"`([^`]+)`", line):
                self.check_span(f"{rel}:{n}", span)
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                self.check_link(f"{rel}:{n}", rel, target)

    # ----- config keys ---------------------------------------------------------------------------
    def check_config_keys(self, rel):
        """Every key of docs/config.md's key tables is one rtcuda's config readers know: set to a
        bad value in a small config, it must not be reported as an unknown key."""
        exe = shutil.which("rtcuda", path=os.pathsep.join(self.bins))
        if not exe:
            self.errors.append(f"{rel}: no rtcuda in {self.bins} to check the config keys with")
            return
        d = tempfile.mkdtemp(prefix="rtcuda-docs-keys-", dir=self.work)
        for name in ("k.c", "kernel.c"):
            with open(os.path.join(d, name), "w") as f:
                f.write("void k(int n, float a[n]) { for (int i = 0; i < n; i++) a[i] = 1; }\n")
        base = "kernel_files: k.c\nkernels:\n  - name: k\n"
        forms = {"top": ("c.yaml", "kernel_files: k.c\nkernels: [k]\n{key}: zz_bad\n"),
                 "kernel": ("c.yaml", base + "    {key}: zz_bad\n"),
                 "tuning": ("c.yaml", base + "    tuning:\n      {key}: zz_bad\n"),
                 "legacy": ("config.txt", "KERNEL_NAMES=k\n{key}=zz_bad\n")}
        known_by_base = {"kernel_files", "kernels", "KERNEL_NAMES"}
        section = None
        for n, line in enumerate(open(os.path.join(self.root, rel), encoding="utf-8"), start=1):
            if line.startswith("#"):
                t = line.strip("# \n").lower()
                section = ("top" if t.startswith("top-level keys") else
                           "kernel" if t.startswith("per-kernel keys") else
                           "tuning" if t == "`tuning`" else
                           "legacy" if t.startswith("legacy config.txt") else None)
                continue
            m = re.match(r"^\|\s*(`[^|]*`)\s*\|", line)
            if not section or not m or m.group(1) == "`key`":
                continue
            for key in re.findall(r"`([^`]+)`", m.group(1)):
                if key in known_by_base:
                    continue
                name, text = forms[section]
                with open(os.path.join(d, name), "w") as f:
                    f.write(text.format(key=key))
                r = subprocess.run([exe, "translate", name, "-o", "out"], cwd=d,
                                   capture_output=True, text=True, timeout=120)
                self.checked += 1
                if f"unknown key '{key}'" in r.stdout + r.stderr:
                    self.errors.append(f"{rel}:{n}: config key '{key}' is documented, but rtcuda "
                                       "does not know it:\n" + indent_tail(r.stderr, 3))
        shutil.rmtree(d, ignore_errors=True)

    def known_options(self):
        if self.options is None:
            self.options = set()
            for f in self.files:
                if f.endswith(".md"):
                    continue
                try:
                    text = open(os.path.join(self.root, f), encoding="utf-8", errors="ignore").read()
                except OSError:
                    continue
                self.options |= set(re.findall(r"--[a-z][a-z0-9-]*", text))
        return self.options

    def check_span(self, where, span):
        words = span.split()
        # An option (or an rtcuda command line) in backticks: each --option must be one that the
        # code or scripts of the repository spell somewhere (a removed or misspelt one is not).
        if words and (words[0].startswith("--") or words[0] in ("rtcuda", "rtcuda-tune")):
            for o in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", span):
                if o not in self.known_options() and o not in OTHER_OPTIONS:
                    self.errors.append(f"{where}: option `{o}` is not in rtcuda's code or scripts")
        span = span.strip().rstrip(":,.")
        if " " in span or "<" in span or "$" in span:
            return
        if "/" in span and span.split("/")[0] in TOP_DIRS:
            for path in expand_braces(span):
                path = path.split("#")[0].split(":")[0]
                if not glob.glob(os.path.join(self.root, path)):
                    self.errors.append(f"{where}: `{span}` does not exist in the repository")
                    break
        elif "/" not in span and not span.startswith(".") and span.endswith(SOURCE_EXTS) and \
                span not in EXTERNAL_NAMES | GENERATED_NAMES:
            if span not in self.names:
                self.errors.append(f"{where}: no file of the repository is named `{span}`")

    def check_link(self, where, rel, target):
        if re.match(r"^[a-z]+:", target):
            return
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
        full = os.path.join(self.root, dest)
        if not os.path.exists(full):
            self.errors.append(f"{where}: link target '{target}' does not exist")
            return
        if anchor and dest.endswith(".md"):
            if anchor not in heading_anchors(full):
                self.errors.append(f"{where}: link '{target}': {dest} has no heading #{anchor}")


def heading_anchors(path):
    anchors, seen, in_block = set(), {}, False
    for line in open(path, encoding="utf-8").read().split("\n"):
        if FENCE.match(line):
            in_block = not in_block
        if in_block or not line.startswith("#"):
            continue
        title = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", title.replace("`", "")).replace(" ", "-")
        k = seen.get(slug, 0)
        seen[slug] = k + 1
        anchors.add(slug if k == 0 else f"{slug}-{k}")
    return anchors


def expand_braces(s):
    m = re.search(r"\{([^{}]*)\}", s)
    if not m:
        return [s]
    return [x for alt in m.group(1).split(",") for x in expand_braces(s[:m.start()] + alt + s[m.end():])]


def indent(text):
    return "\n".join("    " + l for l in text.split("\n"))


def indent_tail(text, lines=15):
    return indent("\n".join(text.rstrip().split("\n")[-lines:]))


def tracked_files(root):
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            raise OSError("not the root of a git checkout")
        # Tracked files and new ones not ignored (a page and its files before the commit).
        r = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], capture_output=True, text=True, check=True)
        files = [f for f in r.stdout.split("\0") if f]
        if files:
            return [f for f in files if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for top in sorted(TOP_DIRS) + ["CMakeLists.txt", "README.md", ".gitignore"]:
        p = os.path.join(root, top)
        if os.path.isfile(p):
            files.append(top)
        for d, _, names in os.walk(p):
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def doc_files(root):
    docs = ["README.md", "examples/README.md"]
    docs += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "**", "*.md"),
                                                               recursive=True))
    return [d for d in docs if os.path.isfile(os.path.join(root, d))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True, help="the repository's root")
    ap.add_argument("--bin", action="append", default=[], help="folder of built tools (repeatable)")
    ap.add_argument("--work", default=None, help="scratch folder (default: a temporary one)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per command")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copies")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each command's time")
    ap.add_argument("--no-run", action="store_true", help="only the static checks")
    ap.add_argument("pages", nargs="*", help="Markdown files, relative to --source (default: all)")
    args = ap.parse_args()
    made = args.work is None
    if made:
        args.work = tempfile.mkdtemp(prefix="rtcuda-docs-test-")
    os.makedirs(args.work, exist_ok=True)
    t = Tester(args)
    t.keep, t.verbose = args.keep, args.verbose
    pages = args.pages or doc_files(t.root)
    for rel in pages:
        try:
            t.check_references(rel)
            if rel == "docs/config.md":
                t.check_config_keys(rel)
            if args.no_run:
                for b in read_blocks(t.root, rel):
                    if b.lang in RUN_LANGS and "file" not in b.clauses and "output" not in b.clauses:
                        for off, cmd in commands(b):
                            t.check_command(b.where(off), cmd, t.root)
            else:
                t.run_page(rel)
        except Failure as e:
            t.errors.append(str(e))
    if made and not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)
    for e in t.errors:
        print(e, file=sys.stderr)
    print(f"docs test: {len(pages)} page(s), {t.ran} command(s) run, {t.checked} checked without "
          f"running, {len(t.errors)} problem(s)")
    return 1 if t.errors else 0


if __name__ == "__main__":
    sys.exit(main())
