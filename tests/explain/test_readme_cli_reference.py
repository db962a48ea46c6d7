"""README.md's "Command-line reference" and ``gradcli --help`` say the same: every command the help lists
is in the reference's command list (and no other), every option any command's ``--help`` shows is named in
the reference, and every option the reference names exists.  (The README's examples themselves are run by
tests/cli/test_cli_readme.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gradcli.cli import app

README = Path(__file__).resolve().parents[2] / "README.md"


def reference() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Command-line reference")
    return text[start:text.index("\n## ", start + 1)]


def help_of(*args: str) -> str:
    r = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    return r.stdout


def commands() -> list[str]:
    out = help_of()
    body = out[out.index("Commands:"):]
    return re.findall(r"^\s+([a-z]+)\s{2,}", body, flags=re.M)


COMMANDS = commands()


def options_of(command: str) -> set[str]:
    return set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", help_of(command), flags=re.M)) - {"--help"}


def test_the_help_lists_the_explainers():
    assert {"run", "graph", "check", "ops", "compare", "why", "lint", "modes"} <= set(COMMANDS)


def test_the_reference_lists_exactly_the_commands_of_the_help():
    listed = re.findall(r"^    gradcli ([a-z]+) ", reference(), flags=re.M)
    assert sorted(listed) == sorted(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_of_the_help_is_in_the_reference(command):
    ref = reference()
    missing = sorted(o for o in options_of(command) if f"`{o}" not in ref)
    assert missing == [], f"gradcli {command} --help has options the README reference does not name: {missing}"


def test_every_option_of_the_reference_exists():
    known = set().union(*(options_of(c) for c in COMMANDS))
    named = set(re.findall(r"`(--[a-z][a-z-]*)", reference()))
    assert sorted(named - known) == []
