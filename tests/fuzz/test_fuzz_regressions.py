"""Inputs the fuzzing found (reduced): each once escaped as an exception (an internal error, exit 70),
wrote to stderr, crashed the process or took minutes; each must now end as SPEC says, with the kind
PyTorch's own error maps to (SPEC §4)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib  # noqa: E402
from gradcli.lang.result import RunOptions  # noqa: E402
from gradcli.lang.run import run_file  # noqa: E402

FOUND = [
    # wrong argument types reaching engine functions: PyTorch's TypeError
    ("print(torch.isinf([99999.0, 1.0]))\n", "type"),
    ("b = torch.rand_like(True)\n", "type"),
    ("x = torch.maximum(2, 3)\n", "type"),
    ("x = torch.tensor([1.0]).maximum(-2)\n", "type"),
    ("x = torch.ones(1, 3).maximum(3.14)\n", "type"),
    ("x = torch.full((), (2, 3))\n", "type"),
    ("x = torch.flatten(3)\n", "type"),
    ("x = torch.Tensor.add(1, 2)\n", "type"),
    ("x = torch.full_like(torch.no_grad(), 2)\n", "type"),
    ("a = torch.numel(1)\n", "type"),
    ("y = torch.rand_like(torch.numel(torch.float64))\n", "type"),
    ("b = torch.randint(-float('nan'), 5, (4, 5))\n", "type"),
    ("x = torch.randn(2, 1)\nx[[0, 1]] = range(3)\n", "type"),
    ("x = torch.tensor([[0.5, -1.0], 1.0, 2.0])\n", "type"),
    ("print(f'{torch.ones(2):.3f}')\n", "type"),
    ("loss = sum((w * w for w in None))\n", "type"),
    # values PyTorch refuses or overflows
    ("print(f'{torch.tensor(2.5):d}')\n", "runtime"),
    ("w = torch.full((2, 4), 10**9, dtype=torch.int8)\n", "runtime"),
    ("y = torch.tensor([[1, -2], [3, 0]], dtype=torch.int32) * 10**20\n", "runtime"),
    ("idx = torch.arange(torch.full((2,), 1.0))\n", "runtime"),
    ("x = torch.cat(1 / 0 for i in [1])\n", "runtime"),
    ("b = torch.permute(torch.ones(2, 3), (-2, 0))\n", "runtime"),
    ("z = torch.arange(float('nan'))\n", "runtime"),
    ("z = torch.arange(0, 1, float('nan'))\n", "runtime"),
    ("x = torch.full((2, 2), torch.full((3,), 0.0))\n", "type"),
    # the long run of 2026-11-30: a dtype taken as a logical op's operand (an object array that broke the
    # JSON), and Python numbers as the outputs of grad (PyTorch's AssertionError in _make_grads)
    ("a = torch.ones(4, 2, 2)\nz = a.logical_and(torch.int8)\n", "type"),
    ("x = torch.ones(2, 3, requires_grad=True)\nh, = torch.autograd.grad(x.mean(dim=1).tolist(), [x])\n",
     "assertion"),
    ("x = torch.tensor([1.2345, -2.5], requires_grad=True)\na = x.round(decimals=float('nan'))\n", "type"),
    ("x = torch.tensor([1.2345, -2.5])\na = x.round(decimals=2**70)\n", "runtime"),
    # broadcasting inside logical/bitwise ops: PyTorch's size mismatch
    ("a = torch.tensor([]).logical_or(torch.randint(0, 10, (3,)))\n", "shape"),
    ("z = torch.tensor([True, False]) & torch.tensor([True, False, True])\n", "shape"),
    # engine state a file could reach
    ("class A(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        return a * 2\n"
     "    @staticmethod\n    def backward(ctx, g):\n        return g\nx = torch.ones(2, requires_grad=True)\n"
     "y = A.apply(x)\ny.grad_fn.num_outputs = 10**12\ny.sum().backward()\n", "runtime"),
    # fine, as PyTorch
    ("print(torch.ones(2, dtype=torch.uint8), torch.tensor([-3, 100], dtype=torch.int8), "
     "f'{torch.tensor([5], dtype=torch.int16)}')\n", None),
    ("x = torch.tensor([1.2345, -2.5])\nprint(torch.round(x, decimals=-2**63))\n", None),
    ("x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)\ny = x * 1\na, b = y.split(2)\ny.mul_(2)\n"
     "print(b)\n", "non_scalar_backward"),  # (the default backward of b)
    ("w = torch.full((1,), 1j, dtype=torch.float32)\n", None),  # numpy's ComplexWarning never reaches stderr
    # Python's SyntaxWarning of a valid file ("1and.0") once reached the real stderr from the explainers' parse
    # (the explanation of the error parses the file again)
    ("x = torch.tensor([1and.0, 2.0], requires_grad=True)\ny = x * 2\n", "non_scalar_backward"),
    # the long run of 2026-12-02 (seed 29001; kinds as PyTorch 2.13 raised them on the same lines)
    ("y = torch.tensor(2.0)\na, b = y.split(2)\n", "runtime"),  # split expects at least a 1-dimensional tensor
    ("y = torch.tensor(2.0)\na, b = y.chunk(2)\n", "runtime"),
    ("x2 = torch.tensor([[-0.5, -1.5]], requires_grad=True)\nt6 = x2.sin()\nt6[:[True, False]] = 2.0\n", "type"),
    ("a = torch.tensor([1.0, 2.0], requires_grad=True)\nwith torch.autograd.graph.disable_saved_tensors_hooks(10):\n"
     "    y = a.sin()\n", "type"),
    ("from torch.func import jacrev\nx = torch.tensor([0.5, 1.0])\nj2 = jacrev(torch.sin)(x, 3.0)\n", "type"),
    ("b = torch.clamp_min_(torch.tensor([True, False]))\n", "type"),
    ("x = torch.ones(3)\ntorch.sin_(x, 1)\n", "type"),
    ("print(torch.arange(1j))\n", "runtime"),
    ("import torch.nn as nn\nm = nn.Sequential(nn.Linear(3, 4), nn.ReLU())\nprint(m[1e30:])\n", "type"),
    ("x = torch.chunk(torch.ones(3), ())\n", "type"),
    ("x = torch.arange(6.0).reshape(2, 3)\nfrom torch.func import vmap\nprint(vmap(x.mv, in_dims=(None, 0))(torch.ones(2, 3), x))\n",
     "type"),
    ("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_backward_hook(lambda *a: None)\n    def forward(self, x):\n        return None\n"
     "M()(torch.rand(()))\n", "type"),
    ("a = F.triplet_margin_with_distance_loss(10, -1, (3,))\n", "runtime"),  # AttributeError in PyTorch's Python
    ("x = torch.ones(2, 3)\nprint(x.nan_to_num((2, 1)))\n", "type"),
    ("import torch.nn as nn\na = torch.ones(1, 4)\nloss = nn.TripletMarginWithDistanceLoss(distance_function=print)\n"
     "print(loss(a, a, a))\n", "type"),
    ("print(torch.arange(12.0).unsafe_chunk(3, 4))\n", "index"),
    # the long run of 2026-12-04 (seed 20261204; kinds as PyTorch 2.13 raised them on the same lines)
    ("from torch.func import hessian\nprint(hessian(lambda x: x.sin().sum())(len))\n", "runtime"),  # AttributeError
    ("import torch.nn.functional as F\nlp = torch.randn(8, 3, 5).log_softmax(2)\n"
     "b = F.ctc_loss(lp, torch.tensor([[1, 1, 2], [3, 4, 0], [4, 2, 1]]), [8, 7, 6], [3, 2, 3], torch.int8)\n",
     "type"),
    ("w = torch.tensor([1, 2, 3]).unsafe_split((0,))\n", "type"),
    ("x = torch.ones(2, 3)\nprint(x.shape[1e+308])\n", "type"),
    ("x = torch.ones(2, 3)\nprint(x.shape[5])\n", "index"),
    ("x = torch.tensor([0.0, 1.0], requires_grad=1)\n", "type"),
    ("w = torch.randn(3, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
     "opt.add_param_group({'params': [torch.randn(2, requires_grad=True)], 1e+30: 0.1})\nprint(opt)\n", "type"),
    ("from torch import nn\nlazy = nn.LazyLinear(3)\ny = lazy(torch.rand(2, 4), 6)\n", "type"),  # PyTorch's TypeError
    ("z = torch.full((2), 0.0)\n", "type"),  # full(): argument 'size' must be tuple of ints, not int
    ("x = torch.tensor([float('nan'), 1.0])\nprint(x.nan_to_num(10, torch.tensor(-0.5), float('inf')))\n", None),
    ("from torch.autograd import gradgradcheck\nx = torch.rand(3, dtype=torch.float64, requires_grad=True)\n"
     "gradgradcheck(torch.sin, x, 6)\n", "runtime"),  # AttributeError in PyTorch's Python
    ("t5 = torch.empty_like(torch.ones(2)).fill_(-1j)\n", "runtime"),  # value cannot be converted to type float
    # more than numpy's 64 dims (PyTorch allows them): a clear refusal, not an internal error
    ("x = torch.rand(*([2] + [1] * 70))\n", "unsupported"),
    # a target label outside [0, C): PyTorch reads memory outside log_probs (an undefined value)
    ("import torch.nn.functional as F\nlp = torch.randn(3, 2, 4).log_softmax(2)\n"
     "print(F.ctc_loss(lp, torch.tensor([[1, 1, 2], [100, 0, 0]]), [3, 3], [3, 1]))\n", "unsupported"),
]


@pytest.mark.parametrize("src,kind", FOUND)
def test_found_input(src, kind):
    problem = fuzzlib.check_source(src, RunOptions(**fuzzlib.FUZZ_LIMITS))  # every renderer too
    assert problem is None, problem
    r = run_file(src, "found.py", RunOptions(**fuzzlib.FUZZ_LIMITS))
    assert (r.error.kind if r.error else None) == kind, r.error


def test_bad_seed_is_an_invocation_error():
    from gradcli.lang.run import InvocationError

    with pytest.raises(InvocationError, match="--seed"):
        run_file("x = torch.randn(2)\n", "s.py", RunOptions(seed=2**64))


def test_a_syntax_warning_of_the_file_never_reaches_python_warnings():
    """Python warns about ``1and.0`` while parsing; neither the run nor the explanation of its error may pass
    that on to Python's warnings machinery (which writes to the real stderr outside pytest)."""
    import warnings

    src = "x = torch.tensor([1and.0, 2.0], requires_grad=True)\ny = x * 2\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fuzzlib.check_source(src, RunOptions(**fuzzlib.FUZZ_LIMITS)) is None
    assert not [w for w in caught if issubclass(w.category, SyntaxWarning)], [str(w.message) for w in caught]
