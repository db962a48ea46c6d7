"""Checkpoint against PyTorch 2.13: recorded snippets (data/checkpoint_cases.json, see record_autograd_extras.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import record_autograd_extras as rec

CASES = rec.load("checkpoint")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case):
    got = rec.run_gradcli(case["src"])
    diffs = rec.compare(got, case)
    assert not diffs, "\n".join(diffs)


# --- gradcli's own surface: what `gradcli graph --show-saved` reads --------------------------------

from gradcli.api import make_globals
from gradcli.autograd import checkpoint as ckpt

torch = make_globals()["torch"]


def _region_nodes(y):
    seen, stack, out = set(), [y.grad_fn], []
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(nx for nx, _ in n.next_functions)
    return out


def test_non_reentrant_marks_region_nodes_and_drops_their_saved_tensors():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    h = x.exp()  # outside the region: keeps its saved result
    y = torch.utils.checkpoint.checkpoint(lambda t: (t * t).sin(), h, use_reentrant=False)
    nodes = {n.name(): n for n in _region_nodes(y)}
    assert nodes["SinBackward0"]._checkpointed and nodes["MulBackward0"]._checkpointed
    assert not nodes["ExpBackward0"]._checkpointed
    inside = [s for s in nodes["SinBackward0"]._saved + nodes["MulBackward0"]._saved if s is not None]
    assert inside and all(s.dropped and not s.freed and s.shape == (2,) for s in inside)
    assert not any(s.dropped for s in nodes["ExpBackward0"]._saved if s is not None)
    y.sum().backward()
    assert all(s.freed for s in inside)
    # d/dx sin(e^{2x}) = cos(e^{2x}) * 2 e^{2x}
    import math

    want = [math.cos(math.exp(2 * v)) * 2 * math.exp(2 * v) for v in (0.5, 1.0)]
    assert all(abs(a - b) < 1e-4 * max(1.0, abs(b)) for a, b in zip(x.grad.tolist(), want))


def test_recompute_happens_once_per_backward_and_only_when_unpacked():
    calls = []

    def f(t):
        calls.append(1)
        return t.exp()

    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
    assert len(calls) == 1
    y.sum().backward(retain_graph=True)
    assert len(calls) == 2
    y.sum().backward()
    assert len(calls) == 3


def test_stop_recomputation_is_not_an_exception():
    assert issubclass(ckpt.StopRecomputation, BaseException)
    assert not issubclass(ckpt.StopRecomputation, Exception)


def test_reentrant_node_name_and_no_dropped_flags():
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = torch.utils.checkpoint.checkpoint(lambda t: t.exp(), x, use_reentrant=True)
    assert repr(y.grad_fn) == "<torch.autograd.function.CheckpointFunctionBackward object>"
    assert not y.grad_fn._checkpointed
