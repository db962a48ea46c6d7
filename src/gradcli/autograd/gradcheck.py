"""Numeric gradient checks: ``torch.autograd.gradcheck`` / ``gradgradcheck`` and :func:`numeric_vs_analytic`.

A port of the slow mode of ``torch/autograd/gradcheck.py`` (PyTorch 2.13), with
its defaults ``eps=1e-6, atol=1e-5, rtol=1e-3``, its order of work and its
messages:

1. inputs: a warning (kind ``other``) for each input that requires grad and is
   not float64 ("Input #0 requires gradient and is not a double precision
   floating point or complex. ..."); an input with a stride-0 dimension and
   "no input requires grad" are errors;
2. ``func(*inputs)`` once; its outputs that require grad are checked;
3. the numerical Jacobian: each element of each input that requires grad is
   perturbed in place by ``-eps`` and ``+eps`` (the input's ``.data``, no
   version bump) and ``func`` is called each time -- central differences
   ``(f(x+eps) - f(x-eps)) / (2 eps)`` computed in the output's dtype;
4. the analytical Jacobian: one ``autograd.grad`` per output element, twice
   (the second time to check that backward is reentrant);
5. the comparison ``|a - n| <= atol + rtol * |n|`` (``allclose``) per
   (output, input) pair; a mismatch raises ``GradcheckError`` (kind
   ``runtime``): "Jacobian mismatch for output 0 with respect to input 0,
   numerical:... analytical:..." -- or returns False with
   ``raise_exception=False``;
6. backward must multiply by grad_output (a zero grad_output gives zero
   gradients), and must accept undefined output gradients (``func`` is called
   once more for this check, plus once per output when there are several).

Hence a function with one input of n elements is called 2n + 2 times, as in
PyTorch, so prints inside it appear as often.  The matrices are laid out as
PyTorch's: ``[input numel, output numel]``.

Not ported: complex numbers, sparse layouts, vmap.
``fast_mode`` and ``check_batched_grad`` are accepted and run the slow check
(same verdict for a correct or incorrect backward; no random projection is
drawn); ``check_forward_ad=True`` compares the numerical Jacobian with forward-mode AD's
(:func:`forward_ad_jacobian`, PyTorch's ``_get_analytical_jacobian_forward_ad``; its undefined-tangent
check is not ported).
``gradgradcheck`` draws its random ``grad_outputs`` from the global generator
exactly as ``torch.testing.make_tensor(low=-1, high=1)`` does.

:func:`numeric_vs_analytic` is the library entry point of ``gradcli check``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import GradcliError, error_class, warn
from . import engine, grad_mode
from .graph import Node, collect_edge
from .tensor import Tensor

__all__ = [
    "GradcheckError",
    "InputCheck",
    "analytical_jacobian",
    "gradcheck",
    "gradgradcheck",
    "numeric_vs_analytic",
    "numerical_jacobian",
]

_mode = grad_mode.state

GradcheckError = type("GradcheckError", (error_class("runtime"),), {
    "__module__": __name__,
    "__doc__": "Raised by gradcheck and gradgradcheck (torch.autograd.gradcheck.GradcheckError), kind runtime.",
    "default_hint": "The analytical gradient (backward) disagrees with finite differences: check the backward "
                    "formula; run the check in float64.",
})

_FAILED_NONDET_MSG = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def _runtime(msg: str, torch_type: type | None = None):
    return error_class("runtime")(msg, torch_type=torch_type)


def _as_tuple(x: Any) -> tuple:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _requires_grad_of(o: Any) -> bool:
    if isinstance(o, Tensor):
        return o._requires_grad
    name = getattr(type(o), "_gradcli_type_name", None) or type(o).__name__
    raise _runtime(f"'{name}' object has no attribute 'requires_grad'")


def _differentiable_outputs(x: Any) -> tuple:
    return tuple(o for o in _as_tuple(x) if _requires_grad_of(o))


def _diff_inputs(inputs: tuple) -> list:
    return [t for t in inputs if isinstance(t, Tensor) and t._requires_grad]


def _is_float(t: Any) -> bool:
    return isinstance(t, Tensor) and t._dtype.is_floating_point


class _no_grad_block:
    def __enter__(self) -> None:
        self.prev = _mode.enabled
        _mode.enabled = False

    def __exit__(self, *exc: object) -> None:
        _mode.enabled = self.prev


def _wrap(data: np.ndarray, dtype) -> Tensor:
    return Tensor._from_data(data, dtype)


# --- checks on inputs -----------------------------------------------------------------------------


def _check_inputs(tupled_inputs: tuple) -> None:
    any_requiring = False
    for idx, inp in enumerate(tupled_inputs):
        if isinstance(inp, Tensor) and inp._requires_grad:
            if inp._dtype.name != "float64":
                warn("other", f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ")
            d = inp._data
            if not all(st > 0 or sz <= 1 for st, sz in zip(d.strides, d.shape)):
                raise _runtime(f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs "
                               "that are non-overlapping to be able to compute the numerical gradients correctly. "
                               "You should call .contiguous on the input before passing it to gradcheck.")
            any_requiring = True
    if not any_requiring:
        raise _runtime("gradcheck expects at least one input tensor to require gradient, but none of them have "
                       "requires_grad=True.", torch_type=ValueError)


# --- numerical Jacobian ---------------------------------------------------------------------------------


def _clone_outputs(out: Any) -> tuple:
    res = []
    for a in _as_tuple(out):
        if not isinstance(a, Tensor):
            name = getattr(type(a), "_gradcli_type_name", None) or type(a).__name__
            raise _runtime(f"'{name}' object has no attribute 'clone'")
        res.append(a.clone())
    return tuple(res)


def _size_str(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(int(s)) for s in shape)}])"


def _check_same_dtype_and_shape(a: Tensor, b: Tensor, eps: float, idx: tuple) -> None:
    on_index = f"on index {idx} "
    if a._data.shape != b._data.shape:
        raise error_class("assertion")(
            f"Expected `func` to return outputs with the same shape when inputs are perturbed {on_index}by {eps}, "
            f"but got: shapes {_size_str(a._data.shape)} and {_size_str(b._data.shape)}.")
    if a._dtype is not b._dtype:
        raise error_class("assertion")(
            f"Expected `func` to return outputs with the same dtype when inputs are perturbed {on_index}by {eps}, "
            f"but got: dtypes {a._dtype} and {b._dtype}.")


def _numerical_wrt_input(fn: Callable, input_idx: int, inputs: tuple, outputs: tuple, eps: float) -> tuple:
    """Columns of d(outputs)/d(inputs[input_idx]) by central differences: one tensor per float output."""
    inp = inputs[input_idx]
    x = inp._data  # PyTorch perturbs input.data: same storage, no version bump
    cols: dict = {}
    for d_idx, idx in enumerate(np.ndindex(*x.shape)):
        orig = x[idx]  # a numpy scalar: a copy
        x[idx] = orig - eps
        outa = _clone_outputs(fn(*inputs))
        x[idx] = orig + eps
        outb = _clone_outputs(fn(*inputs))
        x[idx] = orig
        col = []
        with _no_grad_block():
            for a, b in zip(outa, outb):
                _check_same_dtype_and_shape(a, b, eps, idx)
                col.append(((b - a) / (2 * eps)).detach().reshape(-1))
        cols[d_idx] = col
    numel = int(x.size)
    float_outs = [o for o in outputs if _is_float(o)]
    jacobians = []
    for i, o in enumerate(float_outs):
        jac = np.zeros((numel, o._data.size), dtype=o._dtype.np)
        for k, v in cols.items():
            jac[k] = v[i]._data
        jacobians.append(_wrap(jac, o._dtype))
    return tuple(jacobians)


def numerical_jacobian(fn: Callable, inputs: tuple, outputs: tuple, eps: float = 1e-6) -> list:
    """For each input that requires grad, a tuple (one per float output) of [input numel, output numel] Tensors."""
    res = []
    for i, a in enumerate(inputs):
        if isinstance(a, Tensor) and a._requires_grad:
            res.append(_numerical_wrt_input(fn, i, inputs, outputs, eps))
    return res


# --- analytical Jacobian ------------------------------------------------------------------------------


def _analytical_rows(inputs: tuple, output: Tensor) -> list:
    diff_inputs = _diff_inputs(inputs)
    n = int(output._data.size)
    rows: list = [[] for _ in diff_inputs]
    for j in range(n):
        onehot = np.zeros(output._data.shape, dtype=output._dtype.np)
        onehot.reshape(-1)[j] = 1.0
        grads = engine.grad([output], diff_inputs, [_wrap(onehot, output._dtype)], retain_graph=True,
                            allow_unused=True)
        for i, g in enumerate(grads):
            rows[i].append(None if g is None else _wrap(np.array(g._data, copy=True), g._dtype))
    return rows


def _stack_rows(rows: list, inputs: tuple, numel_output: int) -> tuple:
    diff_inputs = _diff_inputs(inputs)
    out = []
    for i, tensor_list in enumerate(rows):
        inp = diff_inputs[i]
        jac = np.zeros((inp._data.size, numel_output), dtype=inp._dtype.np)
        for j, t in enumerate(tensor_list):
            if t is not None:
                jac[:, j] = t._data.reshape(-1)
        out.append(_wrap(jac, inp._dtype))
    return tuple(out)


def analytical_jacobian(inputs: tuple, output: Tensor, nondet_tol: float = 0.0) -> tuple:
    """For each input that requires grad, the [input numel, output numel] Jacobian from backward.

    Backward runs twice; GradcheckError when the two disagree by more than nondet_tol.
    """
    j1 = _stack_rows(_analytical_rows(inputs, output), inputs, int(output._data.size))
    j2 = _stack_rows(_analytical_rows(inputs, output), inputs, int(output._data.size))
    for a, b in zip(j1, j2):
        if a._data.size and float(np.abs(a._data - b._data).max()) > nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
                "times gives different values, although analytical gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + _FAILED_NONDET_MSG)
    return j1


def _allclose(a: Tensor, b: Tensor, rtol: float, atol: float) -> bool:
    dtype = np.promote_types(a._data.dtype, b._data.dtype)
    x = a._data.astype(dtype)
    y = b._data.astype(dtype)
    return bool(np.all(np.abs(x - y) <= atol + rtol * np.abs(y)))


def _notallclose_msg(analytical: Tensor, numerical: Tensor, output_idx: int, input_idx: int,
                     forward: bool = False) -> str:
    mode = "computed with forward mode " if forward else ""
    return (f"Jacobian {mode}mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
            f"numerical:{numerical}\nanalytical:{analytical}\n")


def forward_ad_jacobian(func: Callable, inputs: tuple, func_out: tuple) -> list:
    """PyTorch's ``_get_analytical_jacobian_forward_ad``: for each input that requires grad, a tuple (one
    per float output) of [input numel, output numel] Jacobians, a row per call of ``func`` on dual inputs
    (``make_dual(input.detach(), zeros)``) whose tangent is one at that element."""
    from . import forward_ad as fw

    float_outs = [o for o in func_out if _is_float(o)]
    tangents: list = []
    duals: list = []
    with fw.dual_level():
        for inp in inputs:
            if isinstance(inp, Tensor) and inp._requires_grad:
                tan = _wrap(np.zeros(inp._data.shape, dtype=inp._dtype.np), inp._dtype)
                inp = fw.make_dual(inp.detach(), tan)
                tangents.append(fw.unpack_dual(inp).tangent)
            duals.append(inp)
        jacobians = []
        for tan in tangents:
            jac = [np.zeros((tan._data.size, o._data.size), dtype=tan._dtype.np) for o in float_outs]
            flat = tan._data.reshape(-1)
            for lin_idx in range(flat.size):
                flat[lin_idx] = 1.0
                outs = [o for o in _as_tuple(func(*duals)) if _is_float(o)]
                for index_o, d_o in enumerate(outs):
                    res = fw.unpack_dual(d_o).tangent
                    if res is None:
                        jac[index_o][...] = 0
                    else:
                        jac[index_o][lin_idx] = res._data.reshape(-1)
                flat[lin_idx] = 0.0
            jacobians.append(tuple(_wrap(j, tan._dtype) for j in jac))
    return jacobians


def _forward_gradcheck(func: Callable, func_out: Any, tupled_inputs: tuple, outputs: tuple, eps: float,
                       rtol: float, atol: float) -> bool:
    """_slow_gradcheck(use_forward_ad=True): the numerical Jacobian against forward-mode AD's."""
    func_out = _as_tuple(func_out)
    if not outputs:
        return _slow_gradcheck(func, func_out, tupled_inputs, outputs, eps, rtol, atol, 0.0)
    numerical = list(zip(*numerical_jacobian(func, tupled_inputs, func_out, eps)))
    numerical = [nj for o, nj in zip(func_out, numerical) if _requires_grad_of(o)]
    analytical = forward_ad_jacobian(func, tupled_inputs, func_out)
    for i, n_per_out in enumerate(numerical):
        for j, n in enumerate(n_per_out):
            a = analytical[j][i]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_notallclose_msg(a, n, i, j, forward=True))
    return True


# --- the checks after the Jacobians -------------------------------------------------------------------


def _slow_gradcheck(func: Callable, func_out: Any, tupled_inputs: tuple, outputs: tuple, eps: float, rtol: float,
                    atol: float, nondet_tol: float) -> bool:
    func_out = _as_tuple(func_out)
    if not outputs:
        for per_input in numerical_jacobian(func, tupled_inputs, func_out, eps):
            for jac in per_input:
                if np.count_nonzero(jac._data != 0) > 0:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    numerical = list(zip(*numerical_jacobian(func, tupled_inputs, func_out, eps)))
    numerical = [nj for o, nj in zip(func_out, numerical) if _requires_grad_of(o)]
    for i, o in enumerate(outputs):
        analytical = analytical_jacobian(tupled_inputs, o, nondet_tol)
        for j, (a, n) in enumerate(zip(analytical, numerical[i])):
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_notallclose_msg(a, n, i, j))
    return True


def _test_backward_mul_by_grad_output(outputs: tuple, inputs: tuple) -> None:
    from ..ops.creation import zeros_like

    diff_inputs = _diff_inputs(inputs)
    if not diff_inputs:
        raise GradcheckError("no Tensors requiring grad found in input")
    grads = engine.grad(list(outputs), diff_inputs, [zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff_inputs):
        if gi is None:
            continue
        if not bool(np.all(gi._data == 0)):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi._dtype is not di._dtype:
            raise GradcheckError("grad is incorrect type")
        if gi._data.shape != di._data.shape:
            raise GradcheckError("grad is incorrect size")


class UndefinedGradBackward(Node):
    """torch._C._functions.UndefinedGrad's node: passes an undefined (None) gradient on."""

    __slots__ = ()

    def apply(self, grads: list) -> tuple:
        return (None,)


def _undefined_grad(o: Tensor) -> Tensor:
    out = Tensor._from_data(o._data, o._dtype)
    node = UndefinedGradBackward()
    node.next_functions = (collect_edge(o),)
    node._meta = ((o._data.shape, o._dtype),)
    out._grad_fn = node
    out._requires_grad = True
    return out


_BC_MSG = ("Backwards compatibility: New undefined gradient support checking feature is enabled by default, but it "
           "may break existing callers of this function. If this is true for you, you can call this function with "
           "\"check_undefined_grad=False\" to disable the feature")


def _test_undefined_backward_mode(func: Callable, outputs: tuple, inputs: tuple) -> bool:
    from ..ops.creation import zeros_like

    diff_inputs = _diff_inputs(inputs)
    if not diff_inputs:
        raise GradcheckError("no Tensors requiring grad found in input")

    def check(output_to_check: list) -> bool:
        grads_output = [zeros_like(o) for o in output_to_check]
        try:
            grads_input = engine.grad(output_to_check, diff_inputs, grads_output, allow_unused=True)
        except GradcliError as e:
            if e.kind == "limit":
                raise
            warn("other", _BC_MSG)
            raise GradcheckError('Expected backward function to handle undefined output grads. Please look at '
                                 '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"') from e
        for gi in grads_input:
            if gi is not None and not bool(np.all(gi._data == 0)):
                warn("other", _BC_MSG)
                raise GradcheckError('Expected all input grads to be undefined or zero when all output grads are '
                                     'undefined or zero. Please look at "Notes about undefined output gradients" in '
                                     '"tools/autograd/derivatives.yaml"')
        return True

    to_check = [[_undefined_grad(o) for o in _differentiable_outputs(func(*inputs)) if isinstance(o, Tensor)]]
    if len(to_check[0]) > 1:
        for undef_idx in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            to_check.append([_undefined_grad(o) if idx == undef_idx else o for idx, o in enumerate(outs)])
    return all(check(o) for o in to_check)


def _gradcheck_helper(func: Callable, inputs: Any, eps: float, atol: float, rtol: float, nondet_tol: float,
                      check_undefined_grad: bool, check_backward_ad: bool, check_forward_ad: bool) -> bool:
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)
    func_out = func(*tupled_inputs)
    outputs = _differentiable_outputs(func_out)
    if check_backward_ad:
        _slow_gradcheck(func, func_out, tupled_inputs, outputs, eps, rtol, atol, nondet_tol)
    if check_forward_ad:  # (PyTorch's _test_undefined_forward_mode is not ported)
        _forward_gradcheck(func, func_out, tupled_inputs, outputs, eps, rtol, atol)
    if not check_backward_ad:
        return True
    _test_backward_mul_by_grad_output(outputs, tupled_inputs)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, tupled_inputs)
    return True


def gradcheck(func: Callable, inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Compare backward's gradients of ``func`` at ``inputs`` with central finite differences.

    inputs: a Tensor or a tuple/list of values (the Tensors that require grad are
    checked; use float64).  Returns True, or raises GradcheckError (kind
    ``runtime``) -- returns False instead with ``raise_exception=False``.
    """
    if not (check_forward_ad or check_backward_ad):
        raise error_class("assertion")("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise error_class("assertion")("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise error_class("assertion")(
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    try:
        return _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_backward_ad,
                                 check_forward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _random_grad_output(x: Tensor) -> Tensor:
    """torch.testing.make_tensor(x.shape, dtype, low=-1, high=1, requires_grad=True) on the global generator."""
    from . import dtypes as dt

    dtype = x._dtype if x._dtype.is_floating_point else dt.float64
    data = np.zeros(x._data.shape, dtype=dtype.np)
    try:
        from . import random as _random

        _random.default_generator.uniform_(data, -1.0, 1.0)
    except (ImportError, AttributeError):  # pragma: no cover - random module absent
        data[...] = np.random.default_rng(0).uniform(-1.0, 1.0, size=data.shape)
    t = _wrap(data, dtype)
    t._requires_grad = True
    return t


def gradgradcheck(func: Callable, inputs: Any, grad_outputs: Any = None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False,
                  check_rev_over_rev: bool = True, fast_mode: bool = False, masked: bool = False) -> bool:
    """gradcheck of the backward itself: second derivatives by finite differences of first ones.

    grad_outputs: defaults to random values in [-1, 1) (drawn from the global
    generator, as PyTorch's make_tensor does).
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise error_class("assertion")(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise error_class("assertion")("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise error_class("assertion")("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_grad_output(x) for x in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_idx = {i for i, x in enumerate(tupled_inputs) if isinstance(x, Tensor) and x._requires_grad}
    for x in tupled_grad_outputs:
        if not isinstance(x, Tensor):  # PyTorch reads x.requires_grad of each: Python's AttributeError
            text = f"'{type(x).__name__}' object has no attribute 'requires_grad'"
            raise error_class("runtime")(f"AttributeError: {text}", torch_type=AttributeError, torch_message=text)
    diff_grad_output_idx = {i for i, x in enumerate(tupled_grad_outputs) if x._requires_grad}

    def new_func(*args: Any) -> tuple:
        input_args = tuple(x.requires_grad_() if i in diff_input_idx else x
                           for i, x in enumerate(args[:-num_outputs]))
        outputs = _differentiable_outputs(func(*input_args))
        gouts = tuple(x.requires_grad_() if i in diff_grad_output_idx else x
                      for i, x in enumerate(args[-num_outputs:]))
        diff_input_args = [x for i, x in enumerate(input_args) if i in diff_input_idx]
        grad_inputs = engine.grad(list(outputs), diff_input_args, list(gouts), create_graph=True, allow_unused=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


# --- gradcli check ------------------------------------------------------------------------------------


@dataclass
class InputCheck:
    """The verdict for one input of :func:`numeric_vs_analytic`.

    max_abs_error: max |analytical - numerical| over the Jacobian block(s) of this input;
    max_rel_error: max |a - n| / max(|a|, |n|) (0 where both are 0), in [0, 2];
    ok: PyTorch's criterion |a - n| <= atol + rtol * |n| everywhere.
    """

    max_abs_error: float
    max_rel_error: float
    ok: bool

    def __iter__(self):  # unpacks as (max_abs_error, max_rel_error, ok)
        return iter((self.max_abs_error, self.max_rel_error, self.ok))


def numeric_vs_analytic(fn: Callable, inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
                        rtol: float = 1e-3) -> list:
    """Compare finite differences with backward for each input that requires grad (``gradcli check``).

    fn(*inputs) -> Tensor or tuple of Tensors.  Uses gradcheck's central
    differences and one backward per output element (no warnings, no errors for
    a mismatch).  Returns one :class:`InputCheck` per input that requires grad,
    in order (each unpacks as ``(max_abs_error, max_rel_error, ok)``); an output
    that does not depend on an input counts as a zero Jacobian.
    """
    tupled = _as_tuple(inputs)
    diff_inputs = _diff_inputs(tupled)
    func_out = fn(*tupled)
    outs = _as_tuple(func_out)
    numerical = numerical_jacobian(fn, tupled, outs, eps)  # [input][float output]
    float_outs = [o for o in outs if _is_float(o)]
    result = []
    for k, inp in enumerate(diff_inputs):
        max_abs = 0.0
        max_rel = 0.0
        ok = True
        for i, o in enumerate(float_outs):
            n = numerical[k][i]._data.astype(np.float64)
            if o._requires_grad:
                rows = _analytical_rows(tupled, o)[k]
                a = np.zeros(n.shape)
                for j, t in enumerate(rows):
                    if t is not None:
                        a[:, j] = t._data.reshape(-1)
            else:
                a = np.zeros(n.shape)
            if n.size == 0:
                continue
            diff = np.abs(a - n)
            with np.errstate(invalid="ignore", divide="ignore"):
                denom = np.maximum(np.abs(a), np.abs(n))
                rel = np.where(denom > 0, diff / np.where(denom > 0, denom, 1.0), 0.0)
            if np.isnan(diff).any():
                max_abs = max_rel = float("nan")
                ok = False
                continue
            max_abs = max(max_abs, float(diff.max()))
            max_rel = max(max_rel, float(rel.max()))
            ok = ok and bool(np.all(diff <= atol + rtol * np.abs(n)))
        result.append(InputCheck(max_abs, max_rel, ok))
    return result
