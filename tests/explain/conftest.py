"""Shared helpers of the explainer tests (issue 7): run a source through gradcli (language layer, or the
CLI in-process), and through PyTorch 2.13 (the conformance oracle, in a process of its own) for the facts
an explanation claims."""

from __future__ import annotations

import json
import textwrap
from importlib import resources
from typing import Any, Optional

import jsonschema
import pytest
from typer.testing import CliRunner

from gradcli.lang.result import RunOptions


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def gradcli_run(source: str, **options: Any) -> Any:
    """run_file + the error story (what ``gradcli run`` computes), with its RunOptions."""
    from gradcli.app.related import enrich
    from gradcli.lang.run import run_file

    opts = RunOptions(**options)
    result = run_file(source, "case.py", opts)
    enrich(result, opts)
    result.options = opts
    return result


def torch_doc(source: str, **options: Any) -> dict:
    """PyTorch's gradcli.run/1 document for the source (skips the test when PyTorch is not installed)."""
    pytest.importorskip("torch")
    from gradcli.app.oracle import run_isolated

    return run_isolated(source, "case.py", RunOptions(**options))


def torch_tensor(doc: dict, name: str) -> dict:
    return next(t for t in doc["tensors"] if t["name"] == name)


def all_zero(values: Any) -> bool:
    stack = [values]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif v != 0:
            return False
    return True


@pytest.fixture
def cli(monkeypatch, tmp_path):
    """``cli(source, *args)`` -> (exit code, stdout, stderr) of ``gradcli ARGS`` on the source, in-process,
    plain text, 120 columns; ``{file}`` in args is the file's path."""
    for k in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.chdir(tmp_path)
    from gradcli.cli import app

    def call(source: Optional[str], *args: str) -> tuple[int, str, str]:
        path = tmp_path / "case.py"
        if source is not None:
            path.write_text(source, encoding="utf-8")
        argv = [a.replace("{file}", "case.py") for a in args]
        r = CliRunner().invoke(app, argv)
        if r.exception is not None and not isinstance(r.exception, SystemExit):
            raise r.exception
        return r.exit_code, r.stdout, r.stderr if r.stderr_bytes is not None else ""

    return call


@pytest.fixture(scope="session")
def run_schema() -> jsonschema.Draft202012Validator:
    schema = json.loads(resources.files("gradcli").joinpath("schemas/run.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)
