"""``str(e)`` of a caught error is PyTorch 2.13's message, verbatim (SPEC §2b; errors.TORCH_MESSAGES).

The programs are the conformance cases ``tests/conformance/exceptions/torch_message_*.py``: each catches
errors of one SPEC §4 kind and prints what the handler sees.  Their expectations were recorded from
PyTorch 2.13 (tests/conformance/record.py), so without PyTorch these tests still compare gradcli with
PyTorch's recorded text; with it, each program also runs under live PyTorch here.
"""

from __future__ import annotations

import builtins
import json
import re
import sys
from pathlib import Path

import pytest

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"
sys.path.insert(0, str(CONFORMANCE))

from casefiles import Case, needs_torch  # noqa: E402

from gradcli.errors import TORCH_MESSAGES, error_class  # noqa: E402
from gradcli.lang.result import RunOptions  # noqa: E402
from gradcli.lang.run import run_file  # noqa: E402

CASES = sorted((CONFORMANCE / "exceptions").glob("torch_message_*.py"))


def _stdout(path: Path) -> str:
    r = run_file(path.read_text(encoding="utf-8"), path.name, Case(path).options())
    assert r.error is None, f"{path.name}: {r.error}"
    return r.stdout


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_caught_message_is_pytorch_recorded(path):
    recorded = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    assert _stdout(path) == recorded["stdout"]


@needs_torch
@pytest.mark.torch
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_caught_message_is_pytorch_live(path):
    from gradcli.app.oracle import run_isolated

    live = run_isolated(path.read_text(encoding="utf-8"), path.name, Case(path).options())
    assert live["error"] is None
    assert _stdout(path) == live["stdout"]


def test_every_table_entry_is_printed_by_pytorch_in_a_case():
    """Each fixed text of TORCH_MESSAGES appears in what PyTorch printed for a case (recorded)."""
    printed = "".join(json.loads(p.with_name(p.stem + ".expected.json").read_text(encoding="utf-8"))["stdout"]
                      for p in CASES)
    for key, text in TORCH_MESSAGES.items():
        if "{" not in text:
            assert text in printed, f"TORCH_MESSAGES[{key!r}] is in no recorded case"


_PRINTED = re.compile(r"^(RuntimeError|ValueError|TypeError|IndexError|NameError|AssertionError|AttributeError): (.*)$")


def test_every_catchable_kind_has_a_case():
    """Each SPEC §4 kind a file can catch is printed (as "Class: message") by a recorded case; the kind of each
    printed line is the oracle's (class, then PyTorch's message patterns)."""
    from gradcli.app.oracle import error_kind
    from gradcli.errors import ERROR_KINDS

    seen = set()
    for p in CASES:
        for line in json.loads(p.with_name(p.stem + ".expected.json").read_text(encoding="utf-8"))["stdout"].splitlines():
            m = _PRINTED.match(line)
            if m:
                seen.add(error_kind(getattr(builtins, m.group(1))(m.group(2))))
    assert set(ERROR_KINDS) - {"syntax", "unsupported", "limit"} <= seen, sorted(set(ERROR_KINDS) - seen)


def test_torch_message_defaults():
    """A kind's fixed text replaces gradcli's words; other kinds keep the message; uncatchable kinds: None."""
    e = error_class("second_backward")("gradcli's own words")
    assert e.torch_message == TORCH_MESSAGES["second_backward"] and e.torch_type is RuntimeError
    e = error_class("runtime")("some message")
    assert e.torch_message == "some message"
    e.torch_message = "torch words"
    assert e.torch_message == "torch words"
    assert error_class("type")("m").torch_type is TypeError
    assert error_class("index")("m").torch_type is IndexError
    for kind in ("limit", "unsupported", "syntax"):
        assert error_class(kind)("m").torch_message is None


def test_json_carries_torch_message():
    from gradcli.app.records import run_document

    src = "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n"
    doc = run_document(run_file(src, "t.py", RunOptions()))
    assert doc["error"]["kind"] == "second_backward"
    assert doc["error"]["torch_message"] == TORCH_MESSAGES["second_backward"]
    assert doc["error"]["message"] != doc["error"]["torch_message"]  # the explained message stays
    doc = run_document(run_file("import os\n", "t.py", RunOptions()))
    assert doc["error"]["torch_message"] is None
