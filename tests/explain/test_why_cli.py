"""Why-notes in the command line: ``gradcli why FILE NAME`` (panel and --json) and in ``gradcli run``
(the "why no gradient" table, and ``"why"`` per tensor in --json, valid against the shipped schema)."""

from __future__ import annotations

import json

from conftest import src

FILE = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with torch.no_grad():
        n = x * 3
    z = y.sum()
    z.backward()
    """)


def test_why_panel(cli):
    code, out, _ = cli(FILE, "why", "{file}", "n")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("╭─ why is n.grad None?  (no_grad)")
    assert "--> case.py:4:5" in out and "4 |     n = x * 3" in out
    assert "grad off case.py:3:6" in out and "3 | with torch.no_grad():" in out
    assert "hint: Compute it outside the block" in out


def test_why_json(cli):
    code, out, _ = cli(FILE, "why", "{file}", "y", "--json")
    doc = json.loads(out)
    assert doc["schema"] == "gradcli.why/1" and doc["name"] == "y" and doc["grad"] is None
    assert doc["why"]["kind"] == "non_leaf" and doc["why"]["line"] == 2 and doc["why"]["grad"] == "None"


def test_why_for_a_set_gradient(cli):
    code, out, _ = cli(FILE, "why", "{file}", "x")
    assert code == 0 and "x.grad is set (not None, not all zeros): [2., 2.]" in out
    code, out, _ = cli(FILE, "why", "{file}", "x", "--json")
    assert json.loads(out)["why"] is None and json.loads(out)["grad"] == [2.0, 2.0]


def test_why_unknown_name(cli):
    code, _, err = cli(FILE, "why", "{file}", "nope")
    assert code == 2 and "nope is not a tensor the file binds" in err and "x, y, n, z" in err


def test_why_passes_run_options(cli):
    code, out, _ = cli("a = torch.tensor([1.0, 2.0])\nb = a * 2\n", "why", "{file}", "b", "--requires-grad", "a",
                       "--backward", "b", "--gradient", "ones", "--json")
    assert json.loads(out)["why"]["kind"] == "non_leaf"


def test_run_json_has_why_per_tensor(cli, run_schema):
    code, out, _ = cli(FILE, "run", "{file}", "--json")
    doc = json.loads(out)
    run_schema.validate(doc)
    why = {t["name"]: t["why"] for t in doc["tensors"]}
    assert why["x"] is None
    assert (why["y"]["kind"], why["y"]["line"]) == ("non_leaf", 2)
    assert (why["n"]["kind"], why["n"]["line"]) == ("no_grad", 4)
    assert [(r["role"], r["line"]) for r in why["n"]["related"]] == [("computed", 4), ("grad off", 3)]


def test_run_table(cli):
    code, out, _ = cli(FILE, "run", "{file}")
    table = out[out.index("why no gradient"):]
    rows = [line.split()[:4] for line in table.splitlines()[3:] if line[:1].strip() and line != "ok"]
    # one row per reason (issue 19): y and z share non_leaf, in the order each reason first appears
    assert rows == [["y,", "z", "None", "non_leaf"], ["n", "None", "no_grad", "4"]]
    assert "2, 5" in table


def test_why_on_a_file_that_cannot_run(cli):
    code, out, err = cli("x = (\n", "why", "{file}", "x")
    assert code == 1 and out.startswith("╭─ error: syntax")  # the file's own failure first (issue 19)


def test_the_schema_lists_every_why_kind(run_schema):
    from gradcli.app.why import KINDS

    enums = []
    stack = [run_schema.schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("enum"), list) and "non_leaf_copy" in node["enum"]:
                enums.append(node["enum"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    assert enums and all(sorted(e) == sorted(KINDS) for e in enums), enums


def test_every_why_kind_of_a_sample_validates(cli, run_schema):
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "samples" / "why_zero_grad.py").read_text(encoding="utf-8")
    code, out, _ = cli(source, "run", "{file}", "--json")
    assert code == 0
    doc = json.loads(out)
    run_schema.validate(doc)
    assert {t["why"]["kind"] for t in doc["tensors"] if t["why"]} == {
        "excluded_by_inputs", "zero_gradient", "inference_mode", "data", "non_leaf", "grad_result"}
