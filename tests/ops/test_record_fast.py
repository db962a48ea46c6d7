"""ops/_core.record_with_number: the fast path of an op of one tensor and one number (issue 9) must leave the
same autograd state as record() -- the flags and edges PyTorch gives x * c (conformance cases check the values)."""

import numpy as np
import pytest

import gradcli.api
from gradcli.autograd.grad_mode import state as mode
from gradcli.ops._core import record, record_with_number
from gradcli.ops.elementwise import MulBackward0

torch = gradcli.api.make_globals()["torch"]


def _state(out, node):
    edges = None if node is None else [(type(fn).__name__ if fn is not None else None, nr)
                                       for fn, nr in node.next_functions]
    return (out.requires_grad, out.is_leaf, type(node).__name__ if node else None, edges,
            None if node is None else node._meta, None if node is None else node._needs,
            getattr(out, "_origin", "unset"), getattr(out, "_nograd", "unset"), out._data.dtype, out._data.shape)


def _inputs():
    leaf = torch.ones(3, requires_grad=True)
    yield "leaf", leaf
    yield "non-leaf", leaf * 2
    yield "no grad", torch.ones(2, 2)
    yield "view", leaf[1:]
    yield "0-d", torch.tensor(2.0, requires_grad=True)
    yield "float64", torch.ones(2, dtype=torch.float64, requires_grad=True)
    with torch.inference_mode():
        inf = torch.ones(2)
    yield "inference", inf


@pytest.mark.parametrize("enabled", [True, False])
def test_fast_path_matches_record(enabled):
    for name, t in _inputs():
        data = np.asarray(np.multiply(t._data, 3))
        prev = mode.enabled
        mode.enabled = enabled
        try:
            fast = _state(*record_with_number(MulBackward0, data.copy(), t._dtype, t))
            slow = _state(*record(MulBackward0, data.copy(), t._dtype, (t, None)))
        finally:
            mode.enabled = prev
        assert fast == slow, name


def test_a_numpy_scalar_result_is_wrapped_as_an_array():
    # np.multiply of a 0-d array gives a numpy scalar: the fast path hands it to record(), which wraps it
    t = torch.tensor(2.0, requires_grad=True)
    out, node = record_with_number(MulBackward0, np.multiply(t._data, 3), t._dtype, t)
    assert type(out._data) is np.ndarray and out._data.shape == () and float(out._data) == 6.0
    assert node is not None and out.requires_grad
