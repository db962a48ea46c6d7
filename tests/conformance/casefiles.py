"""The conformance cases of tests/conformance: discovery, options, and ways to run them.

A case is ``CATEGORY/NAME.py`` beside ``CATEGORY/NAME.expected.json`` (the
``gradcli.run/1`` JSON recorded from PyTorch 2.13 by the oracle); an optional
first line ``# gradcli: OPTIONS`` holds its command-line options (README.md).
Cases are compared with :func:`gradcli.app.compare.diff_documents`, which
implements the README's rules ("What is compared").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

from gradcli.app.oracle import (
    INSTALL_HINT,
    header_options,
    options_from_args,
    torch_available,
)

HERE = Path(__file__).resolve().parent
SKIP_DIRS = {"__pycache__", "tools"}
#: how to refresh an expectation (said by the tests that find a stale one)
CASES_ROOT_NOTE = "re-record it with: python tests/conformance/record.py CATEGORY/NAME"

#: live tests need PyTorch; without it they skip with this reason (never silently)
needs_torch = pytest.mark.skipif(
    not torch_available(),
    reason=f"PyTorch is not installed, so the live oracle cannot run: {INSTALL_HINT}",
)


@dataclass(frozen=True)
class Case:
    path: Path

    @property
    def name(self) -> str:  # "errors/second_backward"
        return self.path.relative_to(HERE).with_suffix("").as_posix()

    @property
    def category(self) -> str:
        return self.path.relative_to(HERE).parts[0]

    @property
    def expected_path(self) -> Path:
        return self.path.with_name(self.path.stem + ".expected.json")

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def args(self) -> list[str]:
        return header_options(self.source)

    def options(self) -> Any:
        return options_from_args(self.args)

    def expected(self) -> dict:
        return json.loads(self.expected_path.read_text(encoding="utf-8"))


def discover(root: Path = HERE) -> list[Case]:
    """Every case under the category folders of ``root`` (files beside the test modules are not cases)."""
    cases = []
    for d in sorted(p for p in root.iterdir() if p.is_dir() and p.name not in SKIP_DIRS and not p.name.startswith(".")):
        for py in sorted(d.rglob("*.py")):
            if "__pycache__" not in py.parts:
                cases.append(Case(py))
    return cases


def run_in_process(case: Case) -> dict:
    """The case through ``run_file`` (what ``gradcli run`` calls) -> its gradcli.run/1 document."""
    from gradcli.app.records import run_document
    from gradcli.lang.run import run_file

    result = run_file(case.source, case.path.name, case.options())
    return run_document(result)


def gradcli_command() -> list[str]:
    """The installed ``gradcli`` script (next to this Python first), else ``python -m gradcli``."""
    beside = Path(sys.executable).with_name("gradcli")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("gradcli")
    return [found] if found else [sys.executable, "-m", "gradcli"]


def run_cli(case: Case, timeout: float = 60.0) -> tuple[Optional[dict], int, str]:
    """``gradcli run NAME.py OPTIONS --json`` in the case's folder -> (document or None, exit status, stderr)."""
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.run(gradcli_command() + ["run", case.path.name, *case.args, "--json"], cwd=case.path.parent,
                          capture_output=True, text=True, timeout=timeout, env=env)
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = None
    return doc, proc.returncode, proc.stderr


def format_differences(diffs: list) -> str:
    return "\n".join(f"  {d.tensor or '-'} | {d.field} | gradcli {d.gradcli} | PyTorch {d.pytorch}"
                     + (f" ({d.detail})" if d.detail else "") for d in diffs)
