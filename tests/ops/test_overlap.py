"""ops/inplace.non_overlapping_and_dense: PyTorch's is_non_overlapping_and_dense, which decides whether its
in-place overlap check can judge two tensors (MemOverlap.cpp get_overlap_status).  The expected values are
PyTorch 2.13's (torch._prims_common.is_non_overlapping_and_dense_or_false on the same views)."""

import pytest

import gradcli.api
from gradcli.ops.inplace import non_overlapping_and_dense

torch = gradcli.api.make_globals()["torch"]
x = torch.arange(24.).reshape(2, 3, 4)

CASES = {
    "contiguous": (x, True),
    "transposed": (x.transpose(0, 2), True),
    "narrowed": (x[:, :, :2], False),
    "strided to one row": (x[::2], True),
    "expanded": (torch.ones(3, 1).expand(3, 4), False),
    "select_col": (x[:, :, 1], False),
    "row": (x[1], True),
    "size-1 dim": (x[:1, :, :], True),
    "permuted": (x.permute(1, 2, 0), True),
    "single": (x[0, 0, :1], True),
    "column of 2-d": (torch.ones(2, 2)[:, 1], False),
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_pytorch(name):
    t, expected = CASES[name]
    assert non_overlapping_and_dense(t._data) is expected
