"""PyTorch's ZeroTensor: the immutable "efficient zero" some backward formulas return.

For a real tensor, ``sgn``'s derivative is ``at::_efficientzerotensor`` (derivatives.yaml: sgn_backward), a
tensor of zeros with no storage.  It shows in an expression file when it reaches a leaf's ``.grad`` (the
first AccumulateGrad outside create_graph keeps it): an in-place op on that ``.grad`` (``x.grad.zero_()``,
``add_``, ``copy_``, indexing assignment), a second backward into it, ``tolist()`` and ``numpy()`` raise.

gradcli marks such a gradient with the tensor's ``_zero`` flag.  The engine carries the flag through a
backward node when PyTorch's formula keeps the zero tensor (a product with it, a view of it, a
concatenation), and drops it where the formula makes a normal tensor (a negation, a reduction, a fused
kernel).  The table below was measured in PyTorch 2.13 for each node: ``y = op(x, ...)``,
``autograd.grad(y.sgn().sum(), inputs)``, ``_is_zerotensor()`` of each gradient.
"""

from __future__ import annotations

import itertools

#: the in-place message (zero_, add_, mul_, fill_, abs_, ...; a second AccumulateGrad into it)
IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you "
             "want a mutable tensor.")
#: copy_ and indexing assignment word it differently
IMMUTABLE_COPY = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a "
                  "mutable zero tensor.")
TOLIST = "tolist() shouldn't be called on a tensor with unallocated storage"
NUMPY = " Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array."

# per input of the node: Z: the gradient is a zero tensor; B: one unless it was reduced to fewer elements (a
# broadcast input, whose sum is a normal tensor); N: a normal tensor.  A single code (not a tuple): every input
_ALWAYS = ("AbsBackward0", "AcosBackward0", "AsinBackward0", "AtanBackward0", "CosBackward0", "CoshBackward0",
           "ErfBackward0", "Exp2Backward0", "ExpBackward0", "Expm1Backward0", "FracBackward0", "Log10Backward0",
           "Log1PBackward0", "Log2Backward0", "LogBackward0", "LogsumexpBackward0", "RsqrtBackward0", "SgnBackward0",
           "SinBackward0", "SinhBackward0", "SqrtBackward0", "TanBackward0", "ProdBackward0", "ProdBackward1",
           "VarBackward0", "LinalgVectorNormBackward0", "AmaxBackward0", "AminBackward0", "PermuteBackward0",
           "TransposeBackward0", "SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2", "UnsqueezeBackward0",
           "ViewBackward0", "TBackward0", "CloneBackward0", "SumBackward0", "SumBackward1", "NansumBackward0",
           "PowBackward2", "RemainderBackward0", "FmodBackward0")
RULES: dict[str, tuple | str] = {name: ("Z",) for name in _ALWAYS}
RULES.update({
    "CatBackward0": "Z", "StackBackward0": "Z",  # narrow()/select() views of the gradient, any number of inputs
    "MulBackward0": ("B", "B"), "AddBackward0": ("B", "B"), "ExpandBackward0": ("B",),
    "Atan2Backward0": ("B", "B"), "HypotBackward0": ("B", "B"), "LerpBackward0": ("B", "B"),
    "LerpBackward1": ("B", "B", "B"), "AddcmulBackward0": ("B", "B", "B"), "AddcdivBackward0": ("B", "B", "N"),
    "BinaryCrossEntropyWithLogitsBackward0": ("B", "B"),
    "DivBackward0": ("B", "N"), "SubBackward0": ("B", "N"), "RsubBackward0": ("N", "B"),
    "PowBackward0": ("B",), "PowBackward1": ("N", "B"), "RemainderBackward1": ("B", "N"),
    "AddmmBackward0": ("B", "N", "N"), "MvBackward0": ("B", "N"), "XlogyBackward0": ("N", "B"),
})
#: nodes whose PyTorch backward changes its incoming gradient in place: a zero tensor fails there
IN_PLACE_USERS = frozenset({"StdBackward0"})


HINT = ("The gradient here is PyTorch's ZeroTensor: sgn's derivative of a real tensor is an immutable zero "
        "with no storage. Reset a .grad that holds one with `x.grad = None` instead of zeroing it in place, or "
        "work on a copy (`.clone()`).")


def error(message: str) -> Exception:
    """The runtime error PyTorch raises on a ZeroTensor (``message``: one of the texts above), with HINT."""
    from ..errors import error_class

    e = error_class("runtime")(message)
    e.hint = HINT
    return e


def mark(t):
    """Flag ``t`` (a fresh gradient Tensor) as a ZeroTensor and return it."""
    t._zero = True
    return t


def propagate(node, g, outs: tuple) -> tuple:
    """The outputs of ``node.apply`` for a single incoming gradient ``g`` that is a ZeroTensor, flagged as
    PyTorch's formula leaves them (RULES; not listed: normal tensors).

    Raises the runtime error PyTorch raises when the node's backward writes into its gradient
    (IN_PLACE_USERS: std).
    """
    name = type(node).__name__
    if name in IN_PLACE_USERS:
        raise error(IMMUTABLE)
    rule = RULES.get(name)
    if rule is None:
        return outs
    if name == "PowBackward0" and node.exponent == 0:
        return outs  # zeros_like(grad): a normal tensor
    n = g._data.size
    for out, code in zip(outs, itertools.repeat(rule) if isinstance(rule, str) else rule):
        if out is None or out is g or code == "N":
            continue
        if code == "Z" or out._data.size >= n:  # B: a sum over broadcast dims is a normal tensor
            out._zero = True
    return outs
