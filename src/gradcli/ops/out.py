"""PyTorch's ``out=`` keyword of the ``torch.X`` functions (``torch.add(a, b, out=c)``).

:func:`gradcli.ops.registry.torch_functions` wraps every name of :data:`OUT_OPS` -- the ``torch.X`` functions
whose Python binding in PyTorch 2.13 takes ``out=`` (``tests/ops/record_out_names.py`` lists them from live
PyTorch; the Tensor methods never take it) -- with :func:`with_out`.  What PyTorch 2.13 does, in its order:

1. ``out`` must be a Tensor (TypeError ``add(): argument 'out' must be Tensor, not list``).
2. Autograd's out= kernel (VariableType): with grad mode on, if any tensor argument or ``out`` itself
   requires grad, a RuntimeError ``add(): functions with out=... arguments don't support automatic
   differentiation, but one of the arguments requires grad.`` -- named by the ATen op that runs (``sub()`` for
   ``torch.subtract``, ``aten::zeros()`` for a factory).  Ops without a derivative (comparisons, logical_X,
   floor_divide, softmax, argmax ...) do not check.  Under no_grad nothing is checked: out= even writes into a
   leaf that requires grad, which keeps its flags (and a non-leaf its grad_fn), as an in-place op under no_grad.
3. The op runs as without ``out``; its result dtype must suit ``out``'s, by the op's family (:data:`RULES`):
   TensorIterator ops cast a result that can be cast safely (``result type Float can't be cast to the desired
   output type Long``), the unary ops that keep their input dtype want it exactly (``Found dtype Double but
   expected Float``), mm/bmm/softmax/gather/scatter/argmax want the result dtype (``Expected out tensor to
   have dtype float, but got double instead``), sum/prod/cumsum/cumprod/mean compute in ``out``'s dtype.
4. ``out`` is resized to the result's shape (with PyTorch's deprecation UserWarning when it had elements),
   the values written (cast to ``out``'s dtype), its version bumped once, and ``out`` itself returned.

A factory (``torch.zeros(2, 3, out=o)``) makes its values in ``out``'s dtype (another ``dtype=`` is a
RuntimeError) and resizes ``out`` without a warning.
"""

from __future__ import annotations

import functools

import numpy as np

from ..autograd import dtypes as dt
from ..autograd.grad_mode import state as mode
from ..autograd.graph import inplace_log as _inplace_log
from ..autograd.graph import source_position as _pos
from ..autograd.tensor import Tensor
from ..errors import ArgumentTypeError, TORCH_DTYPE_NAMES, error_class, warn

__all__ = ["OUT_OPS", "RULES", "with_out"]

#: torch.X functions whose binding takes out= in PyTorch 2.13, among gradcli's (tests/ops/record_out_names.py)
OUT_OPS = frozenset({
    "abs", "absolute", "acos", "add", "addcdiv", "addcmul", "addmm", "all", "amax", "amin", "any", "arange",
    "arccos", "arcsin", "arctan", "arctan2", "argmax", "argmin", "asin", "atan", "atan2", "bitwise_and",
    "bitwise_not", "bitwise_or", "bitwise_xor", "bmm", "cat", "ceil", "clamp", "clamp_max", "clamp_min", "clip",
    "concat", "concatenate", "cos", "cosh", "cumprod", "cumsum", "div", "divide", "dot", "empty", "eq", "erf",
    "exp", "exp2", "expm1", "eye", "floor", "floor_divide", "fmax", "fmin", "frac", "full", "gather", "ge",
    "ger", "gt", "hypot", "index_copy", "index_select", "le", "lerp", "linspace", "log", "log10", "log1p", "log2",
    "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor", "logsumexp", "lt", "matmul", "max",
    "maximum", "mean", "min", "minimum", "mm", "mul", "multiply", "mv", "nan_to_num", "ne", "neg", "negative",
    "norm", "normal", "ones", "outer", "pow", "prod", "rand", "randint", "randn", "randperm", "reciprocal",
    "remainder", "round", "rsqrt", "scatter", "scatter_add", "sgn", "sigmoid", "sign", "sin", "sinh", "softmax",
    "sqrt", "square", "stack", "std", "sub", "subtract", "sum", "tan", "tanh", "tril", "triu", "true_divide",
    "trunc", "var", "where", "xlogy", "zeros",
})

#: the ATen op a torch.X alias runs, which autograd's message names
ATEN_NAME = {
    "absolute": "abs", "arccos": "acos", "arcsin": "asin", "arctan": "atan", "arctan2": "atan2", "clip": "clamp",
    "concat": "cat", "concatenate": "cat", "divide": "div", "true_divide": "div", "ger": "mul", "outer": "mul",
    "multiply": "mul", "negative": "neg", "norm": "linalg_vector_norm", "square": "pow", "subtract": "sub",
}

#: no derivative in PyTorch: its out= kernel does not refuse inputs that require grad
NOT_DIFFERENTIABLE = frozenset({
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not",
    "floor_divide", "softmax", "log_softmax", "argmax", "argmin", "all", "any", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not",
})
#: ... of which these run through autograd's not-implemented fallback: with an input that requires grad, out
#: gets a NotImplemented node (its backward fails: "derivative for aten::softmax is not implemented")
FALLBACK = frozenset({"floor_divide", "softmax", "log_softmax"})

FACTORIES = frozenset({"zeros", "ones", "empty", "full", "arange", "linspace", "eye", "rand", "randn", "randint",
                       "randperm", "normal"})
#: factories whose out= kernel starts with out.resize_(): an out that requires grad fails there
_RESIZE_FIRST = frozenset({"empty", "randn"})

_SAME = ("abs", "absolute", "neg", "negative", "ceil", "floor", "frac", "round", "trunc", "sign", "sgn", "clamp",
         "clamp_min", "clamp_max", "clip", "bitwise_not")
_EXACT = ("mm", "bmm", "addmm", "mv", "softmax", "log_softmax", "norm", "scatter", "scatter_add", "gather",
          "argmax", "argmin", "tril", "triu", "index_copy")
_ACC = ("sum", "prod", "cumsum", "cumprod", "mean")
#: torch name -> how the result's dtype must suit out's ("cast" for the rest: TensorIterator's safe cast)
RULES: dict[str, str] = {**{n: "same" for n in _SAME}, **{n: "exact" for n in _EXACT}, **{n: "acc" for n in _ACC},
                         "dot": "dot", "matmul": "matmul", "cat": "cat", "concat": "cat", "concatenate": "cat", "stack": "cat",
                         "index_select": "index_select", "where": "where", "all": "bool", "any": "bool", "amax": "amax",
                         "amin": "amax", "nan_to_num": "nan_to_num", "logsumexp": "float"}

_RESIZE_WARNING = (
    "An output with one or more elements was resized since it had shape {old}, which does not match the required "
    "output shape {new}. This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
    "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
    "elements with t.resize_(0). (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def _sname(d: dt.dtype) -> str:
    """ScalarType name ('Float')."""
    return TORCH_DTYPE_NAMES[d.name][1]


def _cname(d: dt.dtype) -> str:
    """C++ type name ('float', 'long int')."""
    return TORCH_DTYPE_NAMES[d.name][0]


def _can_cast(src: dt.dtype, dst: dt.dtype) -> bool:
    """c10::canCast: no float into an integral type, nothing but bool into bool."""
    if src.category == 2 and dst.category < 2:
        return False
    return not (dst is dt.bool_ and src is not dt.bool_)


def _runtime(msg: str):
    return error_class("runtime")(msg)


def _tensors(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (t for t in a if isinstance(t, Tensor))


def _first_tensor(args):
    for a in args:
        if isinstance(a, Tensor):
            return a
        if isinstance(a, (list, tuple)) and a and isinstance(a[0], Tensor):
            return a[0]
    return None


def _check_dtype(name: str, rule: str, result: Tensor, out: Tensor, args) -> None:
    """PyTorch's check of the result's dtype against out's, by the op's family (see the module docstring)."""
    r, o = result._dtype, out._dtype
    if rule == "cast":
        if not _can_cast(r, o):
            raise _runtime(f"result type {_sname(r)} can't be cast to the desired output type {_sname(o)}")
    elif rule == "same":
        src = _first_tensor(args)
        want = src._dtype if src is not None else r
        if o is not want:
            raise _runtime(f"Found dtype {_sname(o)} but expected {_sname(want)}")
    elif rule == "exact" or rule == "matmul" and not all(isinstance(a, Tensor) and a._data.ndim == 1
                                                         for a in args[:2]):
        if o is not r:
            raise _runtime(f"Expected out tensor to have dtype {_cname(r)}, but got {_cname(o)} instead")
    elif rule in ("dot", "matmul"):
        if o is not r:
            raise _runtime(f"result dtype {_sname(o)} does not match input dtype {_sname(r)}")
    elif rule == "cat":
        if not _can_cast(r, o):
            raise ArgumentTypeError(f"torch.cat(): input types can't be cast to the desired output type {_sname(o)}")
    elif rule == "where":
        if o is not r:
            raise _runtime(f"Expected out type to be {_sname(r)} but got {_sname(o)}")
    elif rule == "index_select":
        if o is not r:
            raise _runtime("index_select(): self and result must have the same scalar type")
    elif rule == "bool":
        if o is not dt.bool_:
            raise _runtime(f"{name} only supports bool tensor for result, got: {_sname(o)}")
    elif rule == "amax":
        if o is not r:
            raise _runtime(f"Expected the dtype for input and out to match, but got {_sname(r)} for input's dtype "
                           f"and {_sname(o)} for out's dtype.")
    elif rule == "nan_to_num":
        if o is not r:
            raise _runtime(f"nan_to_num: dtype of out: {_sname(o)} should be same as input: {_sname(r)}")
    elif rule == "float":
        if not o.is_floating_point:
            raise _runtime(f"{name}(): Expected floating point type for result tensor, but got: {_sname(o)}")


_NO_DIM_SIGNATURES = {
    "sum": " * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, tuple of ints dim, bool keepdim = False, "
           "*, torch.dtype dtype = None, Tensor out = None)\n",
    "prod": " * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, int dim, bool keepdim = False, *, "
            "torch.dtype dtype = None, Tensor out = None)\n",
}
_MAX_SIGNATURES = (" * (Tensor input, *, Tensor out = None)\n      didn't match because some of the keywords were "
                   "incorrect: out\n * (Tensor input, Tensor other, *, Tensor out = None)\n * (Tensor input, int dim, "
                   "bool keepdim = False, *, tuple of Tensors out = None)\n")


def _arg_type(v) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, dt.dtype):
        return "torch.dtype"
    return getattr(type(v), "_gradcli_type_name", type(v).__name__)


def _check_signature(name: str, args, kwargs) -> None:
    """The overloads PyTorch's argument parser finds without out=: sum/prod of everything, max/min along a dim
    (whose out= is a (values, indices) pair) -- PyTorch's TypeError, verbatim."""
    got = ", ".join([_arg_type(a) for a in args] + [f"{k}={_arg_type(v)}" for k, v in kwargs.items()]
                    + ["out=Tensor"])
    if name in _NO_DIM_SIGNATURES and len(args) < 2 and "dim" not in kwargs:
        if "dtype" in kwargs:
            raise ArgumentTypeError(f'{name}() missing 1 required positional arguments: "dim"')
        raise ArgumentTypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected "
                                f"one of:\n{_NO_DIM_SIGNATURES[name]}")
    if name in ("max", "min") and (len(args) > 1 and not isinstance(args[1], Tensor) or "dim" in kwargs):
        raise ArgumentTypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected "
                                f"one of:\n{_MAX_SIGNATURES}")


def _write(out: Tensor, data: np.ndarray, *, warn_resize: bool) -> Tensor:
    """Resize out to data's shape if needed (at::native::resize_output), write data cast to out's dtype, bump
    out's version once; returns out."""
    if out._data.shape != data.shape:
        if out._base is not None:
            raise error_class("unsupported")("gradcli does not resize a view given as out= (PyTorch resizes its "
                                             "storage); pass a tensor of the result's shape")
        if warn_resize and out._data.size:
            warn("other", _RESIZE_WARNING.format(old=list(out._data.shape), new=list(data.shape)))
        out._data = np.empty(data.shape, dtype=out._dtype.np)
    np.copyto(out._data, data, casting="unsafe")
    out._version[0] += 1
    _inplace_log.append((out._version, out._version[0], _pos.loc))  # for the explainers (app/related.py)
    return out


def with_out(name: str, fn):
    """``fn`` (a torch.X function) taking PyTorch's ``out=`` keyword; ``out=None`` is the plain call."""
    rule = RULES.get(name, "cast")
    aten = ATEN_NAME.get(name, name)
    factory = name in FACTORIES

    @functools.wraps(fn)
    def call(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise ArgumentTypeError(f"{name}(): argument 'out' must be Tensor, not "
                                    f"{getattr(type(out), '_gradcli_type_name', type(out).__name__)}")
        _check_signature(name, args, kwargs)
        if name == "where":  # the overloads with a Number input/other have no out=
            for pos, arg in ((1, "input"), (2, "other")):
                if len(args) > pos and not isinstance(args[pos], Tensor):
                    raise ArgumentTypeError(f"where(): argument '{arg}' (position {pos + 1}) must be Tensor, not "
                                            f"{getattr(type(args[pos]), '_gradcli_type_name', type(args[pos]).__name__)}")
        if mode.enabled and not mode.inference and name not in NOT_DIFFERENTIABLE:
            if factory and name in _RESIZE_FIRST and out._requires_grad:
                raise _runtime("cannot resize variables that require grad")
            if out._requires_grad or not factory and any(t._requires_grad for t in _tensors(args, kwargs)):
                raise _runtime(f"{'aten::' if factory else ''}{aten}(): functions with out=... arguments don't "
                               "support automatic differentiation, but one of the arguments requires grad.")
        if factory:
            return _factory_out(name, fn, args, kwargs, out)
        from ..autograd.grad_mode import no_grad

        with no_grad():
            if rule == "acc":  # computed in out's dtype (mean: when its own result can be cast to it)
                if name == "mean":
                    r = fn(*args, **kwargs)._dtype
                    if not _can_cast(r, out._dtype):
                        raise _runtime(f"result type {_sname(r)} can't be cast to the desired output type "
                                       f"{_sname(out._dtype)}")
                if name in ("cumsum", "cumprod") and out._dtype is dt.bool_:
                    raise error_class("runtime")(f'"{name}_out_cpu" not implemented for \'Bool\'',
                                                 torch_type=NotImplementedError)
                kwargs = dict(kwargs, dtype=out._dtype)
            result = fn(*args, **kwargs)
        if isinstance(result, tuple):  # (values, indices) ops: out= takes the pair (not supported here)
            raise error_class("unsupported")(f"gradcli does not support out= for torch.{name} with this signature")
        _check_dtype(name, rule, result, out, args)
        _write(out, result._data, warn_resize=True)
        if name in FALLBACK and mode.enabled and not mode.inference:
            _not_implemented_on(out, aten, [t for t in _tensors(args, kwargs) if t._requires_grad])
        return out

    return call


def _factory_out(name: str, fn, args, kwargs, out: Tensor) -> Tensor:
    """torch.zeros(..., out=o) and the other factories: the values made in out's dtype, out resized without
    a warning, requires_grad=True applied to out."""
    dtype = kwargs.pop("dtype", None)
    if dtype is not None and dtype is not out._dtype:
        raise _runtime(f"dtype {_sname(dtype)} does not match dtype of out parameter ({_sname(out._dtype)})")
    rg = kwargs.pop("requires_grad", False)
    result = fn(*args, dtype=out._dtype, **kwargs)
    if name == "arange" and out._data.size and out._data.size != result._data.size:
        warn("other", f"The number of elements in the out tensor of shape {list(out._data.shape)} is "
                      f"{out._data.size} which does not match the computed number of elements "
                      f"{result._data.size}. Note that this may occur as a result of rounding error. The out tensor "
                      f"will be resized to a tensor of shape ({result._data.size},). (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/RangeFactories.cpp:199.)")
    _write(out, result._data, warn_resize=False)
    if name in _RESIZE_FIRST and name == "randn":
        out._version[0] += 1  # randn's out= kernel is resize_ then normal_: two bumps
    out.requires_grad_(bool(rg))  # the binding sets out's flag from requires_grad= (default False)
    return out


def _not_implemented_on(out: Tensor, aten: str, inputs: list) -> None:
    """Autograd's not-implemented fallback after an out= kernel: out's history becomes a NotImplemented node
    with an edge to each input that requires grad."""
    if not inputs:
        return
    from .elementwise import record_not_implemented

    _, node = record_not_implemented(aten, out._data, out._dtype, tuple(inputs))
    out._grad_fn = node
    out._output_nr = 0
    out._requires_grad = True
