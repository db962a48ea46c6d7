"""``gradcli graph --values`` (issue 23 item 1): every node's value and the gradient that flowed into it,
checked against live PyTorch 2.13 on real snippets (tests/app/data/graph_real: copies of
shared/conformance/real_code files) -- node for node, in the same order (tests/app/graph_torch.py): the
value a TorchFunctionMode saw when the node's result was made, the gradient ``grad_fn.register_prehook``
saw in the last backward pass that ran the node, how many passes ran it, and a leaf's ``.grad``."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
from graph_torch import REAL, matches, run_torch, walk  # noqa: E402

from gradcli.cli import app  # noqa: E402

SNIPPETS = [
    "tutorial__blog_ones_mean",
    "tutorial__basics_autogradqs",
    "custom_function__dbl_exp_saved_output",
    "nn_optim__polynomial_module",
    "gh_issues__issue_8874_retain_grad_view",
    "tutorial__pinn_grad_fn_walk",
    "qa_errors__forum_inplace_exp_output_169583",
]


@pytest.fixture(scope="module")
def graph_validator():
    import jsonschema
    from importlib import resources

    schema = json.loads(resources.files("gradcli").joinpath("schemas/graph.schema.json").read_text("utf-8"))
    return jsonschema.Draft202012Validator(schema)


def header(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    m = re.match(r"#\s*gradcli:(.*)$", first)
    return shlex.split(m.group(1)) if m else []


def graph(path: Path, *args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(app, ["graph", str(path), *header(path), *args])
    return r.exit_code, r.stdout, r.stderr


def graph_json(path: Path, *args: str) -> dict:
    code, out, err = graph(path, "--format", "json", *args)
    assert code in (0, 1), err
    return json.loads(out)


@pytest.mark.parametrize("stem", SNIPPETS)
def test_values_and_grads_are_pytorchs(stem, graph_validator):
    path = REAL / f"{stem}.py"
    doc = graph_json(path, "--values")
    graph_validator.validate(doc)
    assert doc["schema"] == "gradcli.graph/3"
    ns, cap, _ = run_torch(path)
    roots = [ns[doc["nodes"][r]["tensor"]].grad_fn for r in doc["roots"]]
    order = walk(roots)
    assert [n["name"] for n in doc["nodes"]] == [type(fn).__name__ for fn in order]
    compared = 0
    for n, fn in zip(doc["nodes"], order):
        if n["name"] == "AccumulateGrad":
            assert matches(n["value"], fn.variable.detach()), n
            assert matches(n["grad"], fn.variable.grad), n
            continue
        nr = n.get("output", 0)
        value = cap.values.get(fn, {}).get(nr)
        if value is not None:  # made by an op PyTorch runs in C++ (inside a composite): no Python result
            assert matches(n["value"], value), (n, value)
            compared += 1
        grads = cap.grads.get(fn)
        assert n["passes"] == cap.runs.get(fn, 0), n
        assert matches(n["grad"], None if grads is None else grads[nr]), (n, grads)
    ops = sum(1 for n in doc["nodes"] if n["name"] != "AccumulateGrad")
    assert compared >= ops / 2  # most op nodes' values were seen on both sides


def test_without_values_the_fields_are_absent(graph_validator):
    doc = graph_json(REAL / "tutorial__blog_ones_mean.py")
    graph_validator.validate(doc)
    assert all("value" not in n and "grad" not in n for n in doc["nodes"])


def test_tree_labels(tmp_path):
    # x = ones(2, 2); y = x + 2; z = y * y * 3; out = z.mean(); out.backward(): dout/dy = 6y/4 = 4.5
    code, out, _ = graph(REAL / "tutorial__blog_ones_mean.py", "--values")
    assert code == 0
    lines = [ln.strip("│├└─ ") for ln in out.splitlines()]
    assert lines[:3] == ["MeanBackward0  out, line 5", "value float32 [] = 27", "grad 1"]
    i = lines.index("AddBackward0  y, line 3")
    assert lines[i + 1:i + 3] == ["value float32 [2, 2] = [3, 3, 3, 3]", "grad [4.5, 4.5, 4.5, 4.5]"]
    i = lines.index("AccumulateGrad  x [2, 2]")
    assert lines[i + 2] == ".grad [4.5, 4.5, 4.5, 4.5]"


def test_big_tensors_get_min_max_mean_and_passes_are_counted():
    # the last of 2000 iterations of y_pred = model(x) over x = linspace(-pi, pi, 2000); each iteration's
    # loss.backward() runs that iteration's own graph once, and reaches the parameters' AccumulateGrad nodes
    doc = graph_json(REAL / "nn_optim__polynomial_module.py", "--values")
    add = next(n for n in doc["nodes"] if n["tensor"] == "y_pred")
    assert set(add["value"]) == {"dtype", "shape", "min", "max", "mean"} and add["value"]["shape"] == [2000]
    assert add["passes"] == 1
    leaf = next(n for n in doc["nodes"] if n["tensor"] == "model.a")
    assert leaf["passes"] == 2000
    code, out, _ = graph(REAL / "nn_optim__polynomial_module.py", "--values")
    assert "(after 2000 passes)" in out


@pytest.mark.parametrize("fmt", ["dot", "mermaid"])
def test_dot_and_mermaid_carry_the_lines(fmt):
    code, out, _ = graph(REAL / "tutorial__blog_ones_mean.py", "--values", "--format", fmt)
    assert code == 0
    assert "value float32 [2, 2] = [3, 3, 3, 3]" in out and "grad [4.5, 4.5, 4.5, 4.5]" in out
    assert ".grad [4.5, 4.5, 4.5, 4.5]" in out


def test_no_backward_shows_values_and_says_so(tmp_path):
    f = tmp_path / "f.py"
    f.write_text("x = torch.ones(2, requires_grad=True)\ny = (x * 3).sum()\n")
    code, out, _ = graph(f, "--values", "--repeat", "0")
    assert code == 0
    assert "value float32 [] = 6" in out
    assert "grad - (no backward ran this node)" in out
    assert "--values: no backward ran" in out


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is not installed")
def test_svg(tmp_path):
    out = tmp_path / "g.svg"
    code, _, err = graph(REAL / "tutorial__blog_ones_mean.py", "--values", "-o", str(out))
    assert code == 0, err
    text = out.read_text()
    assert "grad [4.5, 4.5, 4.5, 4.5]" in text
