"""``gradcli modes`` on real snippets written by others (issue 23, must-have 8): the tutorial and forum files
that call an nn.Module get the ``model.eval()`` variant beside the grad switches, and every variant's
rewritten text runs in gradcli exactly as PyTorch 2.13 runs the same text."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import torch_doc

from gradcli.app.compare import diff_documents
from gradcli.app.modes import MODES, run_modes
from gradcli.app.records import run_document
from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

SNIPPETS = Path(__file__).resolve().parents[1] / "conformance" / "real_snippets"
# file -> (default target, the eval() calls put in front of the target's line)
CASES = {
    "nn_optim__polynomial_nn.py": ("y_pred", "model.eval(); y_pred = model(xx)"),
    "tutorial__jihunjeong_xor_mlp_cross_entropy.py": ("output", "model.eval(); output = model(X)"),
    "qa_semantics__codegenes_frozen_weight_grad_none.py": ("output",
                                                          "linear_layer.eval(); output = linear_layer(input_tensor)"),
    # batch norm: eval() changes the values (running statistics), not the graph
    "gh_issues__issue_2264_batchnorm_double_backward.py": ("output", "net.eval(); output = net(inputs)"),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    name = request.param
    text = (SNIPPETS / name).read_text()
    return name, text, run_modes(text, name, RunOptions())


def test_every_switch_runs_including_model_eval(case):
    name, _, report = case
    target, line = CASES[name]
    assert report.target == target
    assert [r.mode for r in report.runs] == list(MODES)
    ev = next(r for r in report.runs if r.mode == "model.eval()")
    assert ev.source.splitlines()[report.lines[0] - 1].strip() == line
    # eval() is no grad switch: the target keeps its grad_fn where no_grad makes it a leaf
    assert ev.tensors[target].grad_fn == report.runs[0].tensors[target].grad_fn is not None
    assert next(r for r in report.runs if r.mode == "no_grad").tensors[target].grad_fn is None


@pytest.mark.torch
def test_each_variant_runs_as_in_pytorch(case):
    name, _, report = case
    for run in report.runs:
        mine = run_document(run_file(run.source, name, RunOptions()))
        assert diff_documents(mine, torch_doc(run.source)) == [], run.mode
