"""`gradcli check` (SPEC §3, §5 gradcli.check/1): exit statuses, the table, --per-node, --json; and the
issue-6 samples seen through the CLI: the wrong custom backward, checkpoint's dropped saved tensors
(`graph --show-saved`), and hook calls in `run --trace`."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from cli_helpers import run_installed

from gradcli.cli import app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

OK = "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\nz = (x ** 3).sum()\n"
WRONG = """class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = Square.apply(x.sin())
loss = y.sum()
"""


@pytest.fixture(scope="module")
def check_schema() -> jsonschema.Draft202012Validator:
    doc = json.loads(resources.files("gradcli").joinpath("schemas/check.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator(doc)


def invoke(runner, *args, source=None):
    return runner.invoke(app, ["check", *args], input=source)


# --- exit statuses ----------------------------------------------------------------------------------------
def test_correct_gradients_exit_0_with_a_table(runner):
    r = invoke(runner, "-", source=OK)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "gradient check of z" in out and "eps 1e-06" in out
    row = next(line for line in out.splitlines() if line.startswith("x "))
    assert row.split()[1] == "[3]" and row.split()[-1] == "ok"
    assert "ok: analytic gradients match finite differences" in out


def test_wrong_backward_exits_1_and_names_the_node(runner):
    r = invoke(runner, "-", "--per-node", source=WRONG)
    assert r.exit_code == 1
    out = r.stdout
    assert "mismatch" in out
    assert "first wrong rule: SquareBackward at line 13" in " ".join(out.split())
    assert "13 | y = Square.apply(x.sin())" in out  # the source line is shown
    wrong_rows = [line for line in out.splitlines()
                  if line.split() and line.split()[-1] == "wrong" and not line.startswith("mismatch")]
    assert len(wrong_rows) == 1 and wrong_rows[0].startswith("SquareBackward")


def test_without_per_node_no_node_table(runner):
    r = invoke(runner, "-", source=WRONG)
    assert r.exit_code == 1 and "SquareBackward" not in r.stdout and "nodes (" not in r.stdout


def test_the_files_error_exits_1_with_the_panel(runner):
    r = invoke(runner, "-", source="x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n")
    assert r.exit_code == 1
    assert "non_scalar_backward" in r.stdout and "nothing was checked" in r.stdout


@pytest.mark.parametrize("args, source", [
    ((), "x = torch.tensor([1.0, 2.0])\ny = x * 2\n"),                           # nothing requires grad
    (("--dtype", "float32"), OK),                                                # check is float64 only
    (("--set", "1x=2"), OK),                                                     # bad --set
    (("--expect-error", "no_such_kind"), OK),                                    # unknown kind
    (("--eps", "0"), OK),
])
def test_invocation_problems_exit_2(runner, args, source):
    r = invoke(runner, "-", *args, source=source)
    assert r.exit_code == 2, r.output


def test_missing_file_exits_2(runner, tmp_path):
    assert invoke(runner, str(tmp_path / "nope.py")).exit_code == 2


def test_tolerances_on_the_command_line(runner):
    assert invoke(runner, "-", "--atol", "10", source=WRONG).exit_code == 0
    assert invoke(runner, "-", "--atol", "0", "--rtol", "1e-12", source=OK).exit_code == 1  # too strict


def test_expect_error(runner):
    failing = "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n"
    assert invoke(runner, "-", "--expect-error", "non_scalar_backward", source=failing).exit_code == 0
    assert invoke(runner, "-", "--expect-error", "non_scalar_backward", source=OK).exit_code == 1


def test_shared_run_options(runner, check_schema):
    r = invoke(runner, "-", "--set", "a=[1.0, 2.0]", "--requires-grad", "a", "--backward", "y",
               "--gradient", "ones", "--json", source="y = a * a\nk = 0\n")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    check_schema.validate(doc)
    assert doc["target"] == "y" and [i["name"] for i in doc["inputs"]] == ["a"]


# --- JSON -------------------------------------------------------------------------------------------------
def test_json_is_the_only_stdout_and_validates(runner, check_schema):
    r = invoke(runner, "-", "--json", source=OK)
    assert r.exit_code == 0
    doc = json.loads(r.stdout)  # nothing else on stdout
    check_schema.validate(doc)
    assert doc["schema"] == "gradcli.check/1" and doc["ok"] is True and doc["target"] == "z"
    (x,) = doc["inputs"]
    assert x["name"] == "x" and x["ok"] is True and x["max_abs_error"] < 1e-6


def test_json_mismatch_and_per_node(runner, check_schema):
    r = invoke(runner, "-", "--json", "--per-node", source=WRONG)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    check_schema.validate(doc)
    assert doc["ok"] is False and doc["inputs"][0]["ok"] is False
    assert abs(doc["inputs"][0]["max_rel_error"] - 0.5) < 1e-6  # x vs 2x
    assert doc["first_wrong_node"] == {"name": "SquareBackward", "line": 13}


def test_json_when_the_file_fails(runner, check_schema):
    r = invoke(runner, "-", "--json", source="x = torch.tensor(1.0, requires_grad=True)\nassert x.item() == 2.0\n")
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    check_schema.validate(doc)
    assert doc["ok"] is False and doc["target"] is None and doc["error"]["kind"] == "assertion"


# --- the samples, through the installed program -----------------------------------------------------------
def test_wrong_backward_sample_installed():
    p = run_installed(["check", str(SAMPLES / "wrong_backward.py"), "--per-node"], env={"NO_COLOR": "1",
                                                                                       "COLUMNS": "120"})
    assert p.returncode == 1, p.stderr
    assert p.stdout.startswith("<torch.autograd.function.SquareBackward object>\n")  # its print output first
    assert "first wrong rule: SquareBackward at line 18" in p.stdout
    assert "\x1b[" not in p.stdout


def test_checkpoint_sample_checks_ok():
    p = run_installed(["check", str(SAMPLES / "checkpoint.py"), "--json"])
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["ok"] is True


def test_checkpoint_sample_show_saved_shows_what_is_dropped(runner):
    r = runner.invoke(app, ["graph", str(SAMPLES / "checkpoint.py"), "--show-saved"],
                      env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    split = next(i for i, line in enumerate(lines) if "ckpt, line" in line)
    plain, ckpt = "\n".join(lines[:split]), "\n".join(lines[split:])
    assert "plain, line" in plain and "dropped" not in plain  # without checkpoint: every tensor is kept
    assert "_saved_self [3] = output 0 of ExpBackward0, _saved_other [3] = x" in plain
    # with checkpoint: the same three nodes keep none of their four tensors
    assert ckpt.count("dropped (recomputed in backward)") == 4
    assert "(freed)" not in r.stdout  # the file's backward used retain_graph=True


def test_trace_shows_hook_calls(runner):
    r = runner.invoke(app, ["run", str(SAMPLES / "hooks.py"), "--trace"], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("step"))
    assert lines[head].rstrip().endswith("hooks run")
    rows = [line.split() for line in lines[head + 2:] if line[:1].isdigit()]
    hooks = {(row[0], row[1]): row[-1] for row in rows}
    # first backward: y's hook runs before MulBackward0 (y's grad_fn), x's hook before accumulating
    assert hooks[("3", "MulBackward0")] == "1"
    assert hooks[("4", "AccumulateGrad")] == "1"
    # second backward, after h.remove(): no hook runs
    assert hooks[("7", "AccumulateGrad")] == "x.grad"
