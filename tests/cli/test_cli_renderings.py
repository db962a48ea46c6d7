"""Issue 19, must-have 3: readable at 50, 80 and 120 columns, nothing cut.

Each rendering is gradcli's real output for a console of that width (rich's, ``COLUMNS``, plain text)
and is compared with the rendering stored in tests/cli/data/renderings/ -- reviewed by eye, in a terminal
of that width, when it was stored (``GRADCLI_RECORD_RENDERINGS=1`` stores the current ones).  On top of
the stored text, what must hold at any width: no line wider than the console, no trailing spaces, no
ellipsis cutting a name, every tensor's name and grad_fn whole on one line, graph depth kept.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gradcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "renderings"
WIDTHS = (50, 80, 120)
VIEWS = {
    "retain_grad": ["run", "samples/retain_grad.py"],
    "second_backward": ["run", "samples/second_backward.py"],
    "expr_flags": ["run", "samples/expr.txt", "--requires-grad", "x", "--retain-grad", "y"],
    "why_no_grad": ["run", "samples/why_no_grad.py"],
    "thirty_tensors": ["run", "tests/cli/data/renderings/thirty_tensors.py"],
    "trace": ["run", "samples/retain_grad.py", "--trace"],
    "show_grad": ["run", "samples/why_no_grad.py", "--show", "grad"],
    "graph_chain60": ["graph", "tests/cli/data/renderings/chain60.py"],
    "graph_sample": ["graph", "samples/grad_fn_graph.py"],
}


def render(view: str, width: int, capsys, monkeypatch) -> str:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", str(width))
    for k in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(k, raising=False)
    main(list(VIEWS[view]))
    cap = capsys.readouterr()
    return cap.out + cap.err


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_rendering(view, width, capsys, monkeypatch):
    text = render(view, width, capsys, monkeypatch)
    stored = DATA / f"{view}.{width}.txt"
    if os.environ.get("GRADCLI_RECORD_RENDERINGS"):
        stored.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    # the file's own print output is PyTorch's (80 columns): the rest is gradcli's, for the console
    printed = len(render_stdout(view))
    for line in lines[printed:]:
        assert len(line) <= width, (view, width, line)
    assert not [line for line in lines if line != line.rstrip()], "trailing spaces"
    assert "…" not in text or view.startswith("graph"), "an ellipsis cut something"
    assert text == stored.read_text(encoding="utf-8"), f"{stored.name} differs (review it, then record)"


def render_stdout(view: str) -> list[str]:
    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import run_file

    args = VIEWS[view]
    if args[0] != "run":
        return []
    return run_file((ROOT / args[1]).read_bytes(), args[1], RunOptions()).stdout.splitlines() \
        if "--requires-grad" not in args else []


@pytest.mark.parametrize("width", WIDTHS)
def test_every_name_and_grad_fn_is_whole(width, capsys, monkeypatch):
    import json

    for view in ("retain_grad", "thirty_tensors", "why_no_grad", "expr_flags"):
        text = render(view, width, capsys, monkeypatch)
        monkeypatch.setenv("COLUMNS", "200")
        main([*VIEWS[view], "--json"])
        doc = json.loads(capsys.readouterr().out)
        words = set(re.findall(r"[\w.]+", text))
        for t in doc["tensors"]:
            assert t["name"] in words, (view, width, t["name"])
            if t["grad_fn"]:
                assert t["grad_fn"] in words, (view, width, t["grad_fn"])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_chain_keeps_its_depth(width, capsys, monkeypatch):
    text = render("graph_chain60", width, capsys, monkeypatch)
    # 60 MulBackward0 nodes: the root, then 59 folded into one row with their count
    assert "MulBackward0 ×59" in text and text.count("MulBackward0") == 2
    assert text.splitlines()[-1].strip().startswith("└── AccumulateGrad  x")


def test_the_why_table_groups_reasons(capsys, monkeypatch):
    text = render("thirty_tensors", 80, capsys, monkeypatch)
    assert text.count("non_leaf") == 1 and "2-31" in text
    assert len(text.splitlines()) < 100  # was 249 lines, 150 of them one paragraph again and again


def test_show_hides_the_why_table(capsys, monkeypatch):
    assert "why no gradient" in render("why_no_grad", 80, capsys, monkeypatch)
    assert "why no gradient" not in render("show_grad", 80, capsys, monkeypatch)
