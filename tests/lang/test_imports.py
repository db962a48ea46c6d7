"""Importing the language layer stays light: no rich, no typer, no engine until a file runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_import_lang_does_not_import_rich_typer_or_numpy():
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "import gradcli.lang, gradcli.lang.run, gradcli.lang.interpreter, gradcli.lang.validate\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('rich', 'typer', 'numpy', 'torch')]\n"
        "print(','.join(bad))\n" % SRC
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_lang_never_imports_torch():
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from gradcli.lang.run import run_file\n"
        "from gradcli.lang.result import RunOptions\n"
        "r = run_file('x = torch.ones(2)\\nprint(x)\\n', 'f.py', RunOptions())\n"
        "print(r.ok, 'torch' in sys.modules)\n" % SRC
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if "ModuleNotFoundError" in out.stderr and "gradcli.api" in out.stderr:
        return  # engine not there: nothing to check
    assert out.stdout.strip() == "True False", out.stderr
