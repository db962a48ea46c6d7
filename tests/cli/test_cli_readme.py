"""README.md shows only real output: every `$ gradcli ...` example in it is run here
(NO_COLOR, 80 columns -- what a terminal and a pipe get by default -- from the repository root) and must
print what the README says, trailing spaces aside.  Examples piped into jq run only when jq is installed.
``python tests/cli/paste_readme.py`` pastes the current output."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import paste_readme
from cli_helpers import gradcli_command

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def examples() -> list[tuple[str, str]]:
    """(command, expected output) for each indented `$ gradcli` block of the README."""
    out = []
    lines = README.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^    \$ (gradcli .*)$", lines[i])
        i += 1
        if not m:
            continue
        body = []
        while i < len(lines) and paste_readme.in_block(lines, i):
            body.append(lines[i][4:])
            i += 1
        out.append((m.group(1), "\n".join(body)))
    return out


EXAMPLES = examples()


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("command, want", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example_is_real_output(command, want):
    if "| jq" in command and shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    exe = " ".join(gradcli_command())
    shell_cmd = exe + command[len("gradcli"):]
    env = dict(os.environ, NO_COLOR="1", COLUMNS=str(paste_readme.COLUMNS))
    env.pop("FORCE_COLOR", None)
    r = subprocess.run(["bash", "-c", shell_cmd], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)

    def norm(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.rstrip().splitlines())

    assert norm(r.stdout) == norm(want), r.stderr


def test_the_readme_says_the_width_it_is_pasted_at():
    text = README.read_text(encoding="utf-8")
    assert f"{paste_readme.COLUMNS} columns" in text and "100 columns" not in text
    # and the pasted output for people fits it (JSON and jq's lines are as long as their data)
    for command, want in EXAMPLES:
        if "--json" in command or "--format json" in command:
            continue
        for line in want.splitlines():
            assert len(line) <= paste_readme.COLUMNS, (command, line)
