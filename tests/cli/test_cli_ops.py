"""`gradcli ops`: generated from the engine's registry, never a hand-written list."""

from __future__ import annotations

import json

from gradcli.cli import app


def _registry():
    import gradcli.api  # noqa: F401  (importing the API registers every op family)
    from gradcli.ops.registry import REGISTRY

    return REGISTRY


def test_json_lists_every_registered_op(runner, ops_schema):
    r = runner.invoke(app, ["ops", "--json"])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    ops_schema.validate(doc)
    reg = _registry()
    assert len(reg) > 0
    assert sorted(o["name"] for o in doc["ops"]) == sorted(op.name for op in reg.values())
    by_name = {o["name"]: o for o in doc["ops"]}
    for op in reg.values():
        row = by_name[op.name]
        assert row["grad_fn"] == list(op.nodes) and row["formula"] == op.formula and row["group"] == op.group


def test_pytorch_node_names(runner):
    """grad_fn names as PyTorch 2.13 gives them: (x*2).grad_fn is MulBackward0, x.exp() ExpBackward0,
    x.sum() SumBackward0."""
    doc = json.loads(runner.invoke(app, ["ops", "--json"]).stdout)
    by_name = {o["name"]: o for o in doc["ops"]}
    assert "MulBackward0" in by_name["mul"]["grad_fn"]
    assert "ExpBackward0" in by_name["exp"]["grad_fn"]
    assert "SumBackward0" in by_name["sum"]["grad_fn"]
    assert "torch.mul" in by_name["mul"]["spellings"] and "__mul__" in by_name["mul"]["spellings"]


def test_table_output(runner):
    r = runner.invoke(app, ["ops"], env={"COLUMNS": "160"})
    assert r.exit_code == 0
    assert "MulBackward0" in r.stdout and "derivative" in r.stdout
    assert r.stdout.rstrip().endswith(f"{len(_registry())} operations")


def test_group_and_name_filters(runner):
    doc = json.loads(runner.invoke(app, ["ops", "--json", "--group", "reduction"]).stdout)
    assert doc["ops"] and all(o["group"] == "reduction" for o in doc["ops"])
    doc = json.loads(runner.invoke(app, ["ops", "exp", "--json"]).stdout)
    assert "exp" in [o["name"] for o in doc["ops"]]
    assert all("exp" in (o["name"] + " ".join(o["spellings"] + o["grad_fn"])).lower() for o in doc["ops"])


def test_unknown_group_or_name_is_2(runner):
    r = runner.invoke(app, ["ops", "--group", "nope"])
    assert r.exit_code == 2 and "no such family" in r.stderr
    r = runner.invoke(app, ["ops", "no_such_op_anywhere"])
    assert r.exit_code == 2 and "no operation matches" in r.stderr
