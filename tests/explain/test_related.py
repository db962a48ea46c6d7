"""Error cards with both ends of the story (issue 7, must-have 2): for each error kind with a story, the
related lines (role, line, key facts), in the panel, in ``--json`` (``error.related``) and in ``--trace``;
and PyTorch confirms each end: it fails the same way, and changing the line a related entry names (adding
retain_graph=True where the graph was freed, removing the in-place line, leaving the no_grad block out,
passing the suggested gradient=) makes it succeed."""

from __future__ import annotations

import json
import re

import pytest
from conftest import gradcli_run, src, torch_doc, torch_tensor


def entries(result) -> list[tuple]:
    return [(r["role"], r["line"]) for r in result.error.related]


def text_of(result, role: str, line=None) -> str:
    return next(r["text"] for r in result.error.related if r["role"] == role and (line is None or r["line"] == line))


def replace_line(source: str, line: int, new: str) -> str:
    lines = source.splitlines()
    lines[line - 1] = new
    return "\n".join(lines) + "\n"


SECOND = src("""
    x = torch.tensor(2.0, requires_grad=True)
    y = x.exp()
    z = y * x
    z.backward()
    z.backward()
    """)

INPLACE = src("""
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    s = torch.sigmoid(x)
    s.mul_(2)
    s.add_(1)
    s.sum().backward()
    """)

INPLACE_LEAF = src("""
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    x = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (w * x).sum()
    with torch.no_grad():
        w.add_(1)
    y.backward()
    """)

NO_GRAD_FN = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([1.0, 2.0])
    with torch.no_grad():
        h = x * w
    loss = (h * 3).sum()
    loss.backward()
    """)

NO_GRAD_FN_DETACH = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = (x * 2).detach()
    loss = (h * 3).sum()
    loss.backward()
    """)

NO_GRAD_FN_NEVER = src("""
    w = torch.ones(2)
    loss = (w * 3).sum()
    loss.backward()
    """)

NON_SCALAR = src("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.backward()
    """)


# --- second_backward -------------------------------------------------------------------------------
def test_second_backward_story():
    r = gradcli_run(SECOND)
    assert (r.error.kind, r.error.line) == ("second_backward", 5)
    assert entries(r) == [("built", 3), ("freed", 4), ("needed", None)]
    assert "MulBackward0" in text_of(r, "built") and "input `x`" in text_of(r, "built")
    assert "freed MulBackward0's saved tensors" in text_of(r, "freed")
    assert "input `x`" in text_of(r, "needed")


def test_second_backward_freed_by_the_backward_after_the_file():
    r = gradcli_run(src("""
        x = torch.tensor(2.0, requires_grad=True)
        y = x * x
        """), repeat=2)
    assert (r.error.kind, r.error.line) == ("second_backward", None)
    assert entries(r) == [("built", 2), ("freed", None), ("needed", None)]
    assert "--repeat" in text_of(r, "freed")


@pytest.mark.torch
def test_pytorch_confirms_the_second_backward_story():
    doc = torch_doc(SECOND)
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("second_backward", 5)
    assert torch_tensor(doc, "z")["grad_fn"] == "MulBackward0"  # the node built at line 3
    fixed = torch_doc(replace_line(SECOND, 4, "z.backward(retain_graph=True)"))  # the line that freed it
    assert fixed["ok"] and fixed["error"] is None


# --- inplace_modified ------------------------------------------------------------------------------
def test_inplace_modified_story_with_versions():
    r = gradcli_run(INPLACE)
    assert (r.error.kind, r.error.line) == ("inplace_modified", 5)
    assert entries(r) == [("saved", 2), ("modified", 3), ("modified", 4)]
    assert "SigmoidBackward0 saved its result `s`" in text_of(r, "saved") and "version 0" in text_of(r, "saved")
    assert "version 0 -> 1" in text_of(r, "modified", 3)
    assert "version 1 -> 2" in text_of(r, "modified", 4)


def test_inplace_modified_under_no_grad_on_a_saved_leaf():
    r = gradcli_run(INPLACE_LEAF)
    assert (r.error.kind, r.error.line) == ("inplace_modified", 6)
    assert entries(r) == [("saved", 3), ("modified", 5)]
    assert "input `w`" in text_of(r, "saved")
    assert "version 0 -> 1" in text_of(r, "modified")


@pytest.mark.torch
@pytest.mark.parametrize("source, lines, versions", [(INPLACE, (3, 4), (2, 0)), (INPLACE_LEAF, (5,), (1, 0))],
                         ids=["sigmoid-result", "leaf-under-no_grad"])
def test_pytorch_confirms_the_inplace_story(source, lines, versions):
    doc = torch_doc(source)
    assert doc["error"]["kind"] == "inplace_modified"
    m = re.search(r"is at version (\d+); expected version (\d+)", doc["error"]["message"])
    assert m and (int(m.group(1)), int(m.group(2))) == versions
    r = gradcli_run(source)
    saved = text_of(r, "saved")
    assert f"version {versions[1]}" in saved
    assert text_of(r, "modified", lines[-1]).endswith(f"-> {versions[0]}")
    for line in lines:  # without the in-place lines the backward succeeds
        source = replace_line(source, line, " " * (len(source.splitlines()[line - 1]) -
                                                    len(source.splitlines()[line - 1].lstrip())) + "pass")
    assert torch_doc(source)["ok"]


# --- no_grad_fn ----------------------------------------------------------------------------------
def test_no_grad_fn_story_under_no_grad():
    r = gradcli_run(NO_GRAD_FN)
    assert (r.error.kind, r.error.line) == ("no_grad_fn", 6)
    assert entries(r) == [("tracking lost", 4), ("computed from", 5), ("grad off", 3)]
    assert "`h`: computed under torch.no_grad()" in text_of(r, "tracking lost")


def test_no_grad_fn_story_detach():
    r = gradcli_run(NO_GRAD_FN_DETACH)
    assert (r.error.kind, r.error.line) == ("no_grad_fn", 4)
    assert entries(r)[0] == ("tracking lost", 2)
    assert "detach() cut it" in text_of(r, "tracking lost")


def test_no_grad_fn_story_never_tracked():
    r = gradcli_run(NO_GRAD_FN_NEVER)
    assert entries(r)[0] == ("tracking lost", 1)
    assert "created without requires_grad=True" in text_of(r, "tracking lost")


NO_GRAD_FN_DATA = src("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x.data * 2
    loss = h.sum()
    loss.backward()
    """)


def test_no_grad_fn_story_data_inside_an_expression():
    r = gradcli_run(NO_GRAD_FN_DATA)
    assert (r.error.kind, r.error.line) == ("no_grad_fn", 4)
    assert entries(r) == [("tracking lost", 2), ("computed from", 3)]
    assert text_of(r, "tracking lost") == "`h`: .data cut it from the graph"


@pytest.mark.torch
@pytest.mark.parametrize("source, line, fix", [
    (NO_GRAD_FN, 3, "if True:"),
    (NO_GRAD_FN_DETACH, 2, "h = (x * 2)"),
    (NO_GRAD_FN_NEVER, 1, "w = torch.ones(2, requires_grad=True)"),
    (NO_GRAD_FN_DATA, 2, "h = x * 2"),
], ids=["no_grad", "detach", "never-tracked", "data"])
def test_pytorch_confirms_where_tracking_was_lost(source, line, fix):
    doc = torch_doc(source)
    assert doc["error"]["kind"] == "no_grad_fn"
    assert torch_doc(replace_line(source, line, fix))["ok"]


# --- non_scalar_backward -------------------------------------------------------------------------
def test_non_scalar_story_in_the_file():
    r = gradcli_run(NON_SCALAR)
    assert (r.error.kind, r.error.line) == ("non_scalar_backward", 3)
    assert entries(r) == [("root", 2), ("fix", None)]
    assert "shape [3] (3 elements)" in text_of(r, "root")
    assert "y.backward(gradient=torch.ones_like(y))" in text_of(r, "fix")


def test_non_scalar_story_after_the_file():
    r = gradcli_run(src("""
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        """))
    assert (r.error.kind, r.error.line) == ("non_scalar_backward", None)
    assert entries(r) == [("root", 2), ("fix", None)]
    assert "--gradient ones" in text_of(r, "fix")


@pytest.mark.torch
def test_pytorch_confirms_the_suggested_gradient():
    doc = torch_doc(NON_SCALAR)
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("non_scalar_backward", 3)
    fixed = torch_doc(replace_line(NON_SCALAR, 3, "y.backward(gradient=torch.ones_like(y))"))
    assert fixed["ok"] and torch_tensor(fixed, "x")["grad"] == [2.0, 2.0, 2.0]  # = d(y.sum())/dx
    after = torch_doc("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n", gradient="ones")
    assert after["ok"] and torch_tensor(after, "x")["grad"] == [2.0, 2.0]


NON_SCALAR_GRAD = src("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    g, = torch.autograd.grad(y, x)
    """)


def test_non_scalar_story_of_autograd_grad_names_grad_outputs():
    r = gradcli_run(NON_SCALAR_GRAD)
    assert (r.error.kind, r.error.line) == ("non_scalar_backward", 3)
    assert entries(r) == [("root", 2), ("fix", None)]
    assert "torch.autograd.grad can only create" in text_of(r, "root")
    assert "torch.autograd.grad(y, ..., grad_outputs=torch.ones_like(y))" in text_of(r, "fix")


@pytest.mark.torch
def test_pytorch_confirms_the_suggested_grad_outputs():
    assert torch_doc(NON_SCALAR_GRAD)["error"]["kind"] == "non_scalar_backward"
    fixed = torch_doc(NON_SCALAR_GRAD.replace("torch.autograd.grad(y, x)",
                                              "torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))"))
    assert fixed["ok"] and torch_tensor(fixed, "g")["data"] == [2.0, 2.0, 2.0]


# --- the three renderings --------------------------------------------------------------------------
def test_related_in_json(cli, run_schema):
    code, out, _ = cli(SECOND, "run", "{file}", "--json")
    assert code == 1
    doc = json.loads(out)
    run_schema.validate(doc)
    assert [(e["role"], e["line"]) for e in doc["error"]["related"]] == [("built", 3), ("freed", 4), ("needed", None)]
    assert set(doc["error"]["related"][0]) == {"role", "line", "col", "text"}


def test_no_related_field_without_a_story(cli, run_schema):
    code, out, _ = cli("x = torch.tensor(1.0)\nx.item(3)\n", "run", "{file}", "--json")
    doc = json.loads(out)
    run_schema.validate(doc)
    assert "related" not in doc["error"]


def test_related_in_the_panel(cli):
    code, out, _ = cli(INPLACE, "run", "{file}")
    assert code == 1
    assert "saved case.py:2:1" in out and "2 | s = torch.sigmoid(x)" in out
    assert "modified case.py:3:1" in out and "version 0 -> 1" in out
    assert "modified case.py:4:1" in out and "version 1 -> 2" in out


def test_related_in_the_trace(cli):
    code, out, _ = cli(SECOND, "run", "{file}", "--trace")
    assert code == 1
    story = out[out.index("error story: second_backward"):]
    rows = [line.split() for line in story.splitlines()[3:7]]
    assert rows[0][:3] == ["built", "3", "z"]
    assert rows[1][:3] == ["freed", "4", "z.backward()"]
    assert rows[2][0] == "needed"
    assert rows[3][:3] == ["error", "5", "z.backward()"]


SECOND_IN_A_LOOP = src("""
    x = torch.tensor(2.0, requires_grad=True)
    loss = x.exp() * 3
    for step in range(3):
        loss.backward()
    """)


def test_second_backward_in_a_loop_was_freed_by_an_earlier_iteration():
    r = gradcli_run(SECOND_IN_A_LOOP)
    assert (r.error.kind, r.error.line) == ("second_backward", 4)
    assert entries(r) == [("built", 2), ("freed", 4), ("needed", None)]
    assert text_of(r, "freed").endswith("in an earlier iteration")


def test_non_scalar_leaf_root_was_created_not_computed():
    r = gradcli_run("x = torch.ones(2, 2, requires_grad=True)\ng, = torch.autograd.grad(x, x)\n")
    assert (r.error.kind, r.error.line) == ("non_scalar_backward", 2)
    assert entries(r) == [("root", 1), ("fix", None)]
    assert text_of(r, "root").startswith("`x` was created here with shape [2, 2] (4 elements)")


@pytest.mark.torch
def test_pytorch_fails_the_loop_and_the_leaf_root_alike():
    doc = torch_doc(SECOND_IN_A_LOOP)
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("second_backward", 4)
    doc = torch_doc("x = torch.ones(2, 2, requires_grad=True)\ng, = torch.autograd.grad(x, x)\n")
    assert (doc["error"]["kind"], doc["error"]["line"]) == ("non_scalar_backward", 2)
