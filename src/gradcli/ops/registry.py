"""The op registry: the single list of supported operations.

Each family module (elementwise, reduction, linalg, shape, nn, creation,
inplace) registers its ops here with :func:`register`: the public names under
``torch.`` / ``F.`` / as Tensor methods and operators, the ``grad_fn`` node
names it creates, and its derivative formula per input (PyTorch's
derivatives.yaml naming: ``self``, ``other``, ``result``).  ``gradcli ops``,
the registry-parametrised gradcheck test and the docs all read
:data:`REGISTRY`; :func:`install` attaches the functions to the Tensor class
and the namespaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

__all__ = ["OpInfo", "REGISTRY", "register", "torch_functions", "f_functions", "tensor_methods"]


@dataclass
class OpInfo:
    """One supported operation.

    name: canonical name ('mul'); fn: the forward (Tensor-level) function;
    torch: names under ``torch.``; F: names under ``torch.nn.functional``;
    methods: Tensor method/operator names; nodes: grad_fn names it can create;
    formula: derivative per input ('' = not differentiable); group: family;
    sample: a small gradcheck input recipe — a callable returning (args, kwargs)
    of float64 tensors, or None when the op is not differentiable.
    """

    name: str
    fn: Callable
    group: str
    torch: tuple = ()
    F: tuple = ()
    methods: tuple = ()
    nodes: tuple = ()
    formula: str = ""
    sample: Optional[Callable] = None
    twice_differentiable: bool = True
    notes: str = ""
    extra: dict = field(default_factory=dict)


REGISTRY: dict[str, OpInfo] = {}


def register(name: str, fn: Callable, group: str, *, torch=None, F=(), methods=None, nodes=(), formula="",
             sample=None, twice_differentiable=True, notes="") -> Callable:
    """Add an op; ``torch``/``methods`` default to ``(name,)``. Returns ``fn`` (usable as a decorator helper)."""
    if name in REGISTRY:
        raise ValueError(f"op {name!r} registered twice")
    REGISTRY[name] = OpInfo(name=name, fn=fn, group=group, torch=(name,) if torch is None else tuple(torch),
                            F=tuple(F), methods=(name,) if methods is None else tuple(methods),
                            nodes=tuple(nodes), formula=formula, sample=sample,
                            twice_differentiable=twice_differentiable, notes=notes)
    return fn


def torch_functions() -> dict[str, Callable]:
    """``torch.NAME`` -> function, from the registry (``extra["torch_fn"]`` where the function form takes
    its arguments differently from the method, e.g. ``torch.permute(x, dims)`` vs ``x.permute(*dims)``;
    the names of ops/out.py's OUT_OPS take PyTorch's ``out=`` keyword;
    ``extra["torch_fns"]`` maps one spelling whose signature differs, e.g. ``true_divide``, to its own)."""
    from .out import OUT_OPS, with_out  # PyTorch's out= keyword, for the functions whose binding takes it

    fns = {n: op.extra.get("torch_fns", {}).get(n, op.extra.get("torch_fn", op.fn))
           for op in REGISTRY.values() for n in op.torch}
    return {n: with_out(n, f) if n in OUT_OPS else f for n, f in fns.items()}


def f_functions() -> dict[str, Callable]:
    """``torch.nn.functional.NAME`` -> function, from the registry."""
    return {n: op.fn for op in REGISTRY.values() for n in op.F}


def tensor_methods() -> dict[str, Callable]:
    """Tensor attribute name -> function (methods and dunder operators), from the registry
    (``extra["method_fns"]`` maps a spelling whose behaviour differs, e.g. ``__invert__``, to its own)."""
    return {n: op.extra.get("method_fns", {}).get(n, op.fn) for op in REGISTRY.values() for n in op.methods}
