"""compare's walls change no result: every conformance case, under PyTorch with and without them.

Each case of tests/conformance and of the shared suite (``GRADCLI_SHARED_CONFORMANCE``, by default
/work/shared/conformance, when it is on this machine) runs twice in forked children of one warm
parent: as the recorder runs it, and as ``gradcli compare`` runs it (``walls=True``: gradcli's static
check, the language's builtins, the proxies, the gate, the confined process).  The two
``gradcli.run/1`` documents must be equal, key for key -- or the walls must have stopped the file at a
name of PyTorch that gradcli does not implement (recorded in the report), on a case that gradcli itself
does not pass: the walls never stop a file that gradcli runs as PyTorch does.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from casefiles import HERE, SKIP_DIRS, needs_torch

from gradcli.app.compare import diff_documents
from gradcli.app.oracle import header_options, options_from_args

pytestmark = [needs_torch, pytest.mark.torch]

SHARED = Path(os.environ.get("GRADCLI_SHARED_CONFORMANCE", "/work/shared/conformance"))


def _cases(root: Path, label: str) -> list:
    out = []
    if not root.is_dir():
        return out
    for d in sorted(p for p in root.iterdir() if p.is_dir() and p.name not in SKIP_DIRS and not p.name.startswith(".")):
        for py in sorted(d.rglob("*.py")):
            if "__pycache__" not in py.parts and py.with_name(py.stem + ".expected.json").exists():
                out.append(pytest.param(py, id=f"{label}/{py.relative_to(root).with_suffix('').as_posix()}"))
    return out


CASES = _cases(HERE, "project") + _cases(SHARED, "shared")


@pytest.fixture(scope="module")
def warm():
    from gradcli.app.oracle import warm_up

    warm_up()


@pytest.mark.parametrize("path", CASES)
def test_walls_change_no_result(path: Path, warm):
    from differential import gradcli_document

    from gradcli.app.oracle import run_isolated

    source = path.read_text(encoding="utf-8")
    options = options_from_args(header_options(source))
    report: dict = {}
    # both from one line: anomaly mode's warning quotes the Python stack of the forward call, callers included
    plain, walled = (run_isolated(source, path.name, options, timeout=120, **kw)
                     for kw in ({}, {"walls": True, "report": report}))
    assert report["left"] == [] and report["process"]["refused"] == []
    if walled == plain:
        return
    # only a stop at a name gradcli lacks, on a case gradcli does not pass, may change the document
    assert report["refused"], f"the walls changed {path.name}'s document without stopping it"
    assert not walled["ok"] and walled["error"]["line"] == report["refused"][0]["line"]
    assert diff_documents(gradcli_document(source, options, path.name), plain), \
        f"the walls stopped {path.name}, which gradcli runs as PyTorch does: {report['refused'][0]}"


def test_the_shared_suite_is_here():
    if not SHARED.is_dir():
        pytest.skip(f"the shared conformance suite is not on this machine ({SHARED}; set "
                    "GRADCLI_SHARED_CONFORMANCE): only the project's cases were compared")
    assert any(p.id.startswith("shared/") for p in CASES)
