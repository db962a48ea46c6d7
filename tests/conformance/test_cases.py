"""The conformance cases (tests/conformance/CATEGORY/NAME.py) against their PyTorch-recorded JSON.

Every case runs in process through ``run_file`` (what ``gradcli run`` calls) and
its ``gradcli.run/1`` document is compared with the recorded expectation by the
README's rules (:func:`gradcli.app.compare.diff_documents`).  A sample of cases
per category also runs through the installed command line, ``gradcli run NAME.py
OPTIONS --json`` in the case's folder, which checks the exit status as well.

A case that fails because a capability is missing is listed in XFAIL with the
capability and the issue that brings it (none today).
"""

from __future__ import annotations

import concurrent.futures

import pytest
from casefiles import Case, discover, format_differences, run_cli, run_in_process

from gradcli.app.compare import diff_documents

CASES = discover()
#: case name -> "missing capability (issue N)"; strict, so a fixed case must leave the list
XFAIL: dict[str, str] = {
    # real snippets (tests/conformance/real_snippets, issues 17/18's kept-aside measure); polynomial_optim
    # passes since AddmmBackward0 takes mm_mat2_backward's transposed form for F.linear's weight.t()
    # real29's fresh batch (45 snippets, first pass 31/45): every failure class fixed
    # real30's fresh batch (43 snippets, first pass 40/43): torch.diag added since
    "real_snippets/docs__func_vmap_doc": ("vmap of a function whose output requires grad through a tensor captured from "
                                          "outside (weights, requires_grad=True) is refused: gradcli's vmap runs per "
                                          "sample and stacks, PyTorch's batched kernels give the output its own grad_fn"),
    # fresh40's batch (40 snippets by others, first pass 36/40; non-static Function methods, a file's own
    # `_` names and nn.LazyLinear run since)
    "real_snippets/nn_optim__himanshu_xornet_adam": (
        "float32 drift over 5000 Adam steps of a Linear(2, 8)-ReLU-Linear(8, 1) XOR net: equal at 100 steps, "
        "differs by 300 where a hidden unit sits at the ReLU kink (fc1.bias ~0.02, grad 1.4e-4 against PyTorch's 0.0); "
        "at 5000 fc1.bias[0] is -4.8e-05 against 1.7e-05"),
}
#: cases per category that also run through the installed CLI
CLI_PER_CATEGORY = 2


def _param(c: Case):
    marks = [pytest.mark.xfail(reason=XFAIL[c.name], strict=True)] if c.name in XFAIL else []
    return pytest.param(c, id=c.name, marks=marks)


def test_cases_are_present():
    names = {c.name for c in CASES}
    assert len([n for n in names if not n.startswith("regressions/")]) >= 111
    for c in CASES:
        assert c.expected_path.exists(), f"{c.name}: no {c.expected_path.name}"
    assert set(XFAIL) <= names


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_case(case: Case):
    diffs = diff_documents(run_in_process(case), case.expected())
    assert not diffs, f"{case.name} differs from PyTorch:\n{format_differences(diffs)}"


def _cli_sample() -> list[Case]:
    by_cat: dict[str, list[Case]] = {}
    for c in CASES:
        by_cat.setdefault(c.category, []).append(c)
    sample = []
    for cases in by_cat.values():
        picks = {0, len(cases) - 1, len(cases) // 2}
        sample.extend(cases[i] for i in sorted(picks)[:CLI_PER_CATEGORY])
    return sample


CLI_SAMPLE = _cli_sample()


@pytest.fixture(scope="module")
def cli_runs():
    """All sampled CLI runs, two at a time (each is a fresh interpreter)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        futures = {c.name: ex.submit(run_cli, c) for c in CLI_SAMPLE}
        return {name: f.result() for name, f in futures.items()}


@pytest.mark.parametrize("case", [_param(c) for c in CLI_SAMPLE])
def test_case_through_cli(case: Case, cli_runs):
    doc, status, stderr = cli_runs[case.name]
    assert doc is not None, f"no JSON on stdout (exit status {status}); stderr: {stderr[-500:]}"
    diffs = diff_documents(doc, case.expected(), gradcli_status=status)
    assert not diffs, f"{case.name} differs from PyTorch:\n{format_differences(diffs)}"


def test_summary(capsys):
    """Prints ``conformance: P/N`` for the report; passes when every failure is a listed XFAIL."""
    failed = [c.name for c in CASES if diff_documents(run_in_process(c), c.expected())]
    n = len(CASES)
    with capsys.disabled():
        print(f"\nconformance: {n - len(failed)}/{n} cases pass ({100.0 * (n - len(failed)) / n:.1f}%)")
    assert set(failed) <= set(XFAIL), f"failing cases not listed in XFAIL: {sorted(set(failed) - set(XFAIL))}"
