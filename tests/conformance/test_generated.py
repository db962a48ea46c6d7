"""Differential test: random programs (program_strategies.programs) must behave in gradcli exactly as in PyTorch.

Each generated program runs in gradcli (``run_file``, in process) and under
real PyTorch (the oracle, a forked process per program), and the two
``gradcli.run/1`` documents must agree by the conformance README's rules:
ok, error kind and line, warnings, stdout, every tensor's flags, values and
gradients.  Hypothesis shrinks a disagreement to a small program; turn it into
a regression case with ``record.py`` (tests/conformance/regressions/).

Deterministic in CI: the ``ci`` settings profile is derandomized with a
bounded number of examples.  ``HYPOTHESIS_PROFILE=deep`` (optionally with
``GRADCLI_GEN_EXAMPLES=N``) runs long, randomized; ``run_generator.py`` runs
batches that log every disagreement instead of stopping at the first.
"""

from __future__ import annotations

import pytest
from casefiles import needs_torch
from hypothesis import given
from program_strategies import (
    INPLACE_STATEMENTS,
    TEMPLATES,
    UNGENERATED,
    Program,
    profile_settings,
    programs,
    spellings,
)

from gradcli.ops.registry import REGISTRY


def test_every_registry_op_has_a_call_template():
    """The generator draws from the whole registry: each op has a call template (in-place ops: a statement),
    or a stated reason in UNGENERATED (and then no template)."""
    assert set(REGISTRY) - set(TEMPLATES) - INPLACE_STATEMENTS - set(UNGENERATED) == set()
    assert (set(TEMPLATES) | INPLACE_STATEMENTS | set(UNGENERATED)) - set(REGISTRY) == set()
    assert not set(UNGENERATED) & (set(TEMPLATES) | INPLACE_STATEMENTS)
    assert all(isinstance(why, str) and why for why in UNGENERATED.values())


def test_spellings_come_from_the_registry():
    assert ("torch", "add") in spellings("add") and ("operator", "__add__") in spellings("add")
    assert ("F", "relu") in spellings("F.relu")
    assert ("method", "view") in spellings("view") and not any(s[0] == "torch" for s in spellings("view"))


@needs_torch
@pytest.mark.torch
@pytest.mark.slow
@profile_settings()
@given(programs())
def test_generated_program_agrees_with_pytorch(program: Program):
    from differential import check, describe

    diffs, g, p = check(program.source, program.options)
    assert not diffs, f"gradcli and PyTorch disagree on:\n{program.case_text()}\n{describe(diffs, g, p)}"


def test_printed_numbers_compare_within_tolerance():
    """differential.stdout_close: the text exactly, each printed number within float32 tolerance."""
    from differential import stdout_close

    assert stdout_close("0 1.1854441165924072", "0 1.1854442358016968")  # 1 ulp of float32 apart
    assert stdout_close("[1e-07, -2.5]", "[1.5e-07, -2.5000001]")  # atol 1e-6 near zero
    assert not stdout_close("0 1.1854", "0 1.1855")  # 8e-5 relative
    assert not stdout_close("0 1.5", "1 1.5")
    assert not stdout_close("tensor([1.])", "tensor([1., 2.])")
    assert not stdout_close("loss 1.0", "Loss 1.0")
