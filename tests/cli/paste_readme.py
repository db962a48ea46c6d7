"""Paste real output into README.md: every indented ``$ gradcli ...`` example gets what the command prints.

    python tests/cli/paste_readme.py           # rewrite the examples' output in README.md
    python tests/cli/paste_readme.py --check   # exit 1 when an example's output differs (the tests do this)

Each command runs from the repository root as tests/cli/test_cli_readme.py runs it: ``NO_COLOR=1`` and
``COLUMNS`` = :data:`COLUMNS` (what a terminal, and a pipe, gets by default), trailing spaces dropped.
Examples piped into ``jq`` are kept as they are when jq is not installed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: the width the README's output is pasted at, and checked at
COLUMNS = 80


def run_example(command: str, exe: list[str]) -> str:
    """What ``command`` (``gradcli ...``) prints, as the README shows it."""
    shell_cmd = " ".join(exe) + command[len("gradcli"):]
    env = dict(os.environ, NO_COLOR="1", COLUMNS=str(COLUMNS))
    env.pop("FORCE_COLOR", None)
    r = subprocess.run(["bash", "-c", shell_cmd], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    return "\n".join(line.rstrip() for line in r.stdout.rstrip().splitlines())


def _exe() -> list[str]:
    beside = Path(sys.executable).with_name("gradcli")
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "gradcli"]


def in_block(lines: list[str], i: int) -> bool:
    """Is ``lines[i]`` still output of the example above it: indented, not the next ``$`` command, or an
    empty line inside the output (followed by more indented output)?"""
    line = lines[i]
    if line.startswith("    $ "):
        return False
    if line.startswith("    "):
        return True
    if line.strip():
        return False
    j = i
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j < len(lines) and lines[j].startswith("    ") and not lines[j].startswith("    $ ") and j == i + 1


def paste(text: str, exe: list[str]) -> str:
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        m = re.match(r"^    \$ (gradcli .*)$", line)
        if not m:
            continue
        body = []
        while i < len(lines) and in_block(lines, i):
            body.append(lines[i])
            i += 1
        if "| jq" in m.group(1) and shutil.which("jq") is None:
            out.extend(body)
            continue
        got = run_example(m.group(1), exe)
        out.extend(("    " + g).rstrip() for g in got.splitlines())
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    old = README.read_text(encoding="utf-8")
    new = paste(old, _exe())
    if args.check:
        print("README up to date" if new == old else "README output differs")
        return 0 if new == old else 1
    README.write_text(new, encoding="utf-8")
    print("README pasted" if new != old else "README unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
