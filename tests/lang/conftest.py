"""Shared helpers of the language tests (tests/lang needs nothing outside the project)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

_SRC = Path(__file__).resolve().parents[2] / "src"
if str(_SRC) not in sys.path:
    sys.path.insert(0, str(_SRC))

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def _engine_available() -> bool:
    try:
        import gradcli.api  # noqa: F401
        import gradcli.autograd.tensor  # noqa: F401
    except ImportError:
        return False
    return True


ENGINE = _engine_available()
needs_engine = pytest.mark.skipif(not ENGINE, reason="the engine (gradcli.api) is not available")


@pytest.fixture
def run():
    """run(source, **RunOptions fields) -> RunResult (source is dedented)."""
    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import run_file

    def _run(source, filename="test.py", **options):
        if isinstance(source, str):
            source = textwrap.dedent(source)
        return run_file(source, filename, RunOptions(**options))

    return _run
