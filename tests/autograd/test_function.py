"""Custom autograd Functions (and anomaly mode) against PyTorch 2.13.

The snippets and their expected output, values, errors and warnings were
recorded from real PyTorch by record_autograd_extras.py (data/function_cases.json);
each runs here against gradcli's ``torch`` namespace.  The remaining tests check
gradcli-specific surface (the ctx exposure protocol, the interpreter factory).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import record_autograd_extras as rec

from gradcli.api import make_globals
from gradcli.autograd import function as fn_mod
from gradcli.errors import GradcliError

CASES = rec.load("function")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case):
    got = rec.run_gradcli(case["src"])
    diffs = rec.compare(got, case)
    assert not diffs, "\n".join(diffs)


torch = make_globals()["torch"]


def _double_class():
    def forward(ctx, a):
        ctx.k = 2
        return a * 2

    def backward(ctx, g):
        return g * ctx.k

    return fn_mod.make_function_class("Double", {"forward": forward, "backward": backward})


def test_make_function_class_builds_a_function_subclass():
    Double = _double_class()
    assert issubclass(Double, torch.autograd.Function)
    assert repr(Double) == "<class '__main__.Double'>"
    assert {"apply", "forward", "backward"} <= Double._gradcli_public
    x = torch.tensor([1.0, 3.0], requires_grad=True)
    y = Double.apply(x)
    assert y.grad_fn.name() == "DoubleBackward"
    assert repr(y.grad_fn) == "<torch.autograd.function.DoubleBackward object>"
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_ctx_exposure_protocol_is_dynamic():
    Double = _double_class()
    y = Double.apply(torch.tensor([1.0], requires_grad=True))
    ctx = y.grad_fn
    assert type(ctx)._gradcli_dynamic is True
    assert "*" in ctx._gradcli_settable
    pub = ctx._gradcli_public
    assert {"k", "save_for_backward", "saved_tensors", "needs_input_grad", "mark_dirty",
            "mark_non_differentiable", "set_materialize_grads", "next_functions", "name"} <= pub
    assert not any(n.startswith("_") for n in pub)
    ctx.extra = [1, 2]
    assert "extra" in ctx._gradcli_public and ctx.extra == [1, 2]


def test_ctx_read_only_names_raise_a_runtime_error():
    Double = _double_class()
    ctx = Double.apply(torch.tensor([1.0], requires_grad=True)).grad_fn
    for name in ("saved_tensors", "next_functions", "metadata"):
        with pytest.raises(GradcliError) as e:
            setattr(ctx, name, 1)
        assert e.value.kind == "runtime"


def test_error_in_user_backward_is_not_wrapped():
    class Boom(Exception):
        pass

    def forward(ctx, a):
        return a * 1

    def backward(ctx, g):
        raise Boom("inside")

    F = fn_mod.make_function_class("F", {"forward": forward, "backward": backward})
    with pytest.raises(Boom):
        F.apply(torch.tensor([1.0], requires_grad=True)).sum().backward()


def test_once_differentiable_is_exposed_as_a_decorator():
    assert torch.autograd.function.once_differentiable is fn_mod.once_differentiable
    assert fn_mod.once_differentiable._gradcli_public == frozenset()


def test_custom_node_releases_saved_tensors_and_marks_freed():
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a

    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return 2 * a * g

    Sq = fn_mod.make_function_class("Sq", {"forward": forward, "backward": backward})
    x = torch.tensor([3.0], requires_grad=True)
    y = Sq.apply(x)
    saved = y.grad_fn._saved[0]
    assert saved.freed is False and saved.shape == (1,)
    y.sum().backward()
    assert saved.freed is True
    assert x.grad.tolist() == [6.0]


def test_anomaly_state_functions():
    from gradcli.autograd import anomaly

    anomaly.reset()
    assert anomaly.is_anomaly_enabled() is False and anomaly.is_anomaly_check_nan_enabled() is True
    with anomaly.set_detect_anomaly(True, check_nan=False):
        assert anomaly.is_anomaly_enabled() and not anomaly.is_anomaly_check_nan_enabled()
    assert anomaly.is_anomaly_enabled() is False
    assert repr(anomaly.detect_anomaly()) == "<torch.autograd.anomaly_mode.detect_anomaly object>"


def test_custom_functions_and_checkpoints_leave_no_reference_cycles():
    import gc

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            r = a.exp()
            ctx.save_for_backward(r, a)
            return r

        @staticmethod
        def backward(ctx, g):
            r, a = ctx.saved_tensors
            return g * r

    gc.collect()
    gc.disable()
    try:
        x = torch.tensor([0.1, 0.2], requires_grad=True)
        y = x
        for _ in range(200):
            y = Exp.apply(y * 0.5)
            y = torch.utils.checkpoint.checkpoint(lambda t: (t * 1.0001).sin(), y, use_reentrant=False)
        y.sum().backward()
        del y
        assert gc.collect() < 50  # a cycle per node would leave hundreds of objects
    finally:
        gc.enable()
