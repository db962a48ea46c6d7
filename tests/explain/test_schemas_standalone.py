"""Issue 19, must-have 8: every ``--json`` schema ships in the package and validates on its own.

A schema file read from the installed package, given to a plain ``jsonschema.validate`` (no registry, no
network), validates real outputs; none of them refers outside itself; the definitions they share are the
copies of run.schema.json's (tests/explain/bundle_schemas.py keeps them so).
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bundle_schemas  # noqa: E402

NAMES = ("run", "graph", "check", "ops", "why", "lint", "modes", "compare")


def _schema(name: str) -> dict:
    return json.loads(resources.files("gradcli").joinpath(f"schemas/{name}.schema.json").read_text("utf-8"))


def test_every_schema_ships():
    shipped = sorted(p.name for p in resources.files("gradcli").joinpath("schemas").iterdir()
                     if p.name.endswith(".schema.json"))
    assert shipped == sorted(f"{n}.schema.json" for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_schema_refers_only_to_itself(name):
    schema = _schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    refs = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "$ref" in node:
                refs.append(node["$ref"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    assert all(r.startswith("#/") for r in refs), [r for r in refs if not r.startswith("#/")]
    defs = schema.get("$defs", {})
    missing = [r for r in refs if r.split("/")[2] not in defs]
    assert not missing


def test_shared_definitions_are_run_schema_copies():
    assert bundle_schemas.main(["--check"]) == 0


ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = [
    ("run", ["run", "samples/retain_grad.py", "--json"]),
    ("run", ["run", "samples/second_backward.py", "--json"]),
    ("run", ["run", "samples/expr.txt", "--requires-grad", "x", "--json"]),
    ("graph", ["graph", "samples/grad_fn_graph.py", "--format", "json"]),
    ("graph", ["graph", "samples/expr.txt", "--format", "json"]),
    ("why", ["why", "samples/why_no_grad.py", "s", "--json"]),
    ("why", ["why", "samples/expr.txt", "z", "--json"]),
    ("lint", ["lint", "samples/lint_mistakes.py", "--json"]),
    ("modes", ["modes", "samples/modes_demo.py", "--target", "h", "--json"]),
    ("modes", ["modes", "samples/expr.txt", "--json"]),
    ("check", ["check", "samples/wrong_backward.py", "--per-node", "--json"]),
    ("ops", ["ops", "--json"]),
]


def _gradcli(capsys, *args):
    from gradcli.cli import main

    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("name, args", OUTPUTS, ids=[" ".join(a) for _, a in OUTPUTS])
def test_real_outputs_validate_with_plain_jsonschema(name, args, capsys, monkeypatch):
    """The schema as `gradcli schema NAME` prints it, and jsonschema.validate alone: no registry, no network
    (a $ref it could not resolve would raise)."""
    monkeypatch.chdir(ROOT)
    code, text = _gradcli(capsys, "schema", name)
    assert code == 0
    schema = json.loads(text)
    assert schema == _schema(name)
    code, out = _gradcli(capsys, *args)
    jsonschema.validate(json.loads(out), schema)


def test_schema_lists_and_refuses(capsys):
    code, out = _gradcli(capsys, "schema")
    assert code == 0 and [line.split()[0] for line in out.splitlines()] == sorted(NAMES)
    assert "gradcli.run/1" in out
    from gradcli.cli import main

    assert main(["schema", "nope"]) == 2
