"""README.md shows only real output: every `$ gradcli ...` example in it is run here
(NO_COLOR, 100 columns, from the repository root) and must print what the README says,
trailing spaces aside.  Examples piped into jq run only when jq is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
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
        while i < len(lines) and lines[i].startswith("    ") and not lines[i].startswith("    $ "):
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
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    env.pop("FORCE_COLOR", None)
    r = subprocess.run(["bash", "-c", shell_cmd], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)

    def norm(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.rstrip().splitlines())

    assert norm(r.stdout) == norm(want), r.stderr
