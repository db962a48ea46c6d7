"""Higher-level autograd: ``torch.autograd.functional`` (jacobian, hessian, vjp, jvp, hvp, vhp).

A port of ``torch/autograd/functional.py`` (PyTorch 2.13) onto gradcli's engine,
keeping its algorithms, result shapes and messages:

* inputs are a Tensor or a *tuple* of Tensors (a list is a TypeError, as in
  PyTorch); results follow the same nesting: ``jacobian(f, x)`` is one Tensor of
  shape ``out.shape + x.shape``, with tuple inputs/outputs a (nested) tuple;
  ``hessian`` has shape ``x.shape + x.shape``;
* the function is called on fresh inputs (``detach().requires_grad_()``, or a
  differentiable ``view_as`` with ``create_graph=True``), so the caller's
  ``.grad`` is never touched; without ``create_graph`` results are detached;
* ``strict=True`` raises PyTorch's errors for outputs independent of an input;
  otherwise missing gradients are zeros;
* jvp / hvp use the double-backward trick, as PyTorch does;
* ``vectorize`` only changes speed in PyTorch; here it is accepted and the
  row-by-row algorithm runs either way (``strict`` with ``vectorize`` is still
  refused, and ``strategy="forward-mode"`` needs ``vectorize=True``, as in
  PyTorch; its results equal reverse mode's).

Errors are GradcliErrors of kind ``runtime`` (PyTorch's RuntimeError /
NotImplementedError), ``assertion`` (its AssertionError) or TypeError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ArgumentTypeError, error_class, torch_text
from . import engine, grad_mode
from .tensor import Tensor

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_mode = grad_mode.state


def _runtime(msg: str, torch_type: type | None = None):
    return error_class("runtime")(msg, torch_type=torch_type)


def _type_repr(x: Any) -> str:
    t = type(x)
    if t is Tensor:
        return "<class 'torch.Tensor'>"
    name = getattr(t, "_gradcli_type_name", None) or t.__name__
    module = "builtins" if t.__module__ == "builtins" else "__main__"
    return f"<class '{name}'>" if module == "builtins" else f"<class '{module}.{name}'>"


# --- utilities (same names as torch/autograd/functional.py) ------------------------------------


def _as_tuple_nocheck(x: Any) -> tuple:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _as_tuple(inp: Any, arg_name: str | None = None, fn_name: str | None = None):
    if arg_name is None and fn_name is None:
        return _as_tuple_nocheck(inp)
    is_inp_tuple = True
    if not isinstance(inp, tuple):
        inp = (inp,)
        is_inp_tuple = False
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            if is_inp_tuple:
                raise ArgumentTypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                                f"the value at index {i} has type {_type_repr(el)}.")
            raise ArgumentTypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but the "
                            f"given {arg_name} has type {_type_repr(el)}.")
    return is_inp_tuple, inp


def _tuple_postprocess(res: Any, to_unpack: Any) -> Any:
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _detach_requiring(t: Tensor, need_graph: bool) -> Tensor:
    d = t.detach()
    if need_graph:
        if not t._dtype.is_floating_point:
            raise error_class("requires_grad_dtype")("only Tensors of floating point dtype can require gradients",
                                                     torch_message=torch_text("requires_grad_dtype.method"))
        d._requires_grad = True
    return d


def _grad_preprocess(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """Always new Tensor objects: a differentiable view with create_graph, else detached leaves."""
    from ..ops.shape import view_as

    res = []
    for inp in inputs:
        if create_graph and inp._requires_grad:
            res.append(view_as(inp, inp))
        else:
            res.append(_detach_requiring(inp, need_graph))
    return tuple(res)


def _grad_postprocess(inputs: tuple, create_graph: bool) -> tuple:
    if isinstance(inputs[0], Tensor):
        if not create_graph:
            return tuple(inp.detach() for inp in inputs)
        return inputs
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _size_str(shape: tuple) -> str:
    return f"torch.Size([{', '.join(str(int(s)) for s in shape)}])"


def _validate_v(v: tuple, other: tuple, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise _runtime(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise _runtime("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v._data.shape != el_other._data.shape:
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise _runtime(f"{prepend}v has invalid size: should be {_size_str(el_other._data.shape)} but got "
                           f"{_size_str(el_v._data.shape)}.")


def _check_requires_grad(inputs: tuple, input_type: str, strict: bool) -> None:
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise _runtime(f"The output of the user-provided function is independent of input {i}. This is not "
                           "allowed in strict mode.")
        if not inp._requires_grad:
            if input_type == "hessian":
                raise _runtime(f"The hessian of the user-provided function with respect to input {i} is independent "
                               "of the input. This is not allowed in strict mode. You should ensure that your "
                               "function is thrice differentiable and that the hessian depends on the inputs.")
            if input_type == "jacobian":
                raise _runtime("While computing the hessian, found that the jacobian of the user-provided function "
                               f"with respect to input {i} is independent of the input. This is not allowed in "
                               "strict mode. You should ensure that your function is twice differentiable and that "
                               "the jacobian depends on the inputs (this would be violated by a linear function "
                               "for example).")
            if input_type == "grad_inputs":
                raise _runtime(f"The gradient with respect to input {i} is independent of the inputs of the "
                               "user-provided function. This is not allowed in strict mode.")
            raise _runtime(f"Output {i} of the user-provided function does not require gradients. The outputs must "
                           "be computed in a differentiable manner from the input when running in strict mode.")


def _autograd_grad(outputs: tuple, inputs: tuple, grad_outputs: tuple | None = None, create_graph: bool = False,
                   retain_graph: bool | None = None) -> tuple:
    """autograd.grad that skips outputs not requiring grad (None when none is left), allow_unused=True."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs: list = []
    new_grad_outputs: list = []
    for out, grad_out in zip(outputs, grad_outputs):
        if out is not None and out._requires_grad:
            new_outputs.append(out)
            new_grad_outputs.append(grad_out)
    if not new_outputs:
        return (None,) * len(inputs)
    return engine.grad(new_outputs, list(inputs), new_grad_outputs, allow_unused=True, create_graph=create_graph,
                       retain_graph=retain_graph)


def _fill_in_zeros(grads: tuple, refs: tuple, strict: bool, create_graph: bool, stage: str) -> tuple:
    from ..ops.creation import zeros_like

    res = []
    for i, grads_i in enumerate(grads):
        if grads_i is None:
            if strict:
                if stage == "back":
                    raise _runtime("The output of the user-provided function is independent of input "
                                   f"{i}. This is not allowed in strict mode.")
                if stage == "back_trick":
                    raise _runtime(f"The gradient with respect to the input is independent of entry {i} in the "
                                   "grad_outputs when using the double backward trick to compute forward mode "
                                   "gradients. This is not allowed in strict mode.")
                if stage == "double_back":
                    raise _runtime("The jacobian of the user-provided function is independent of input "
                                   f"{i}. This is not allowed in strict mode.")
                raise _runtime("The hessian of the user-provided function is independent of entry "
                               f"{i} in the grad_jacobian. This is not allowed in strict mode as it prevents from "
                               "using the double backward trick to replace forward mode AD.")
            grads_i = zeros_like(refs[i])
        elif strict and create_graph and not grads_i._requires_grad:
            if "double" not in stage:
                raise _runtime("The jacobian of the user-provided function is independent of input "
                               f"{i}. This is not allowed in strict mode when create_graph=True.")
            raise _runtime("The hessian of the user-provided function is independent of input "
                           f"{i}. This is not allowed in strict mode when create_graph=True.")
        res.append(grads_i)
    return tuple(res)


class _grad_state:
    """Set grad mode for a block, restoring it after (enable_grad / set_grad_enabled without the checks)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __enter__(self) -> None:
        self.prev = _mode.enabled
        _mode.enabled = self.enabled

    def __exit__(self, *exc: object) -> None:
        _mode.enabled = self.prev


# --- public API ------------------------------------------------------------------------------------


def vjp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple:
    """Vector-Jacobian product: returns ``(func(inputs), v^T J)`` (torch.autograd.functional.vjp).

    v may be None only when func returns a single one-element Tensor.
    """
    with _grad_state(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, outputs, is_outputs_tuple)
        elif len(outputs) != 1 or outputs[0]._data.size != 1:
            raise _runtime("The vector v can only be None if the user-provided function returns a single Tensor "
                           "with a single element.")
    enable = True if create_graph else _mode.enabled
    with _grad_state(enable):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        vjp_ = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    vjp_ = _grad_postprocess(vjp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vjp_, is_inputs_tuple)


def jvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple:
    """Jacobian-vector product: returns ``(func(inputs), J v)`` (double-backward trick, as PyTorch).

    v may be None only when the input is a single one-element Tensor.
    """
    from ..ops.creation import zeros_like

    with _grad_state(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, inputs, is_inputs_tuple)
        elif len(inputs) != 1 or inputs[0]._data.size != 1:
            raise _runtime("The vector v can only be None if the input to the user-provided function is a single "
                           "Tensor with a single element.")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    if create_graph:
        with _grad_state(True):
            grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
            jvp_ = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    else:
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        jvp_ = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    jvp_ = _grad_postprocess(jvp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(jvp_, is_outputs_tuple)


def jacobian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs`` (torch.autograd.functional.jacobian).

    One Tensor of shape ``out.shape + in.shape`` for a Tensor input and output;
    ``J[i][j]`` (output i, input j) with tuples.  Rows are computed by one
    backward per output element, as PyTorch's non-vectorized path.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise error_class("assertion")(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function has more '
            'outputs than inputs, "forward-mode" tends to be more performant. Otherwise, prefer to use '
            '"reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise _runtime("torch.autograd.functional.jacobian: `create_graph=True` and `strategy=\"forward-mode\"` "
                           "are not supported together (yet). Please either set `create_graph=False` or "
                           "`strategy=\"reverse-mode\"`.", torch_type=NotImplementedError)
        if strict:
            raise _runtime("torch.autograd.functional.jacobian: `strict=True` and `strategy=\"forward-mode\"` are "
                           "not supported together (yet). Please either set `strict=False` or "
                           "`strategy=\"reverse-mode\"`.", torch_type=NotImplementedError)
        _as_tuple(inputs, "inputs", "jacobian")
        if not vectorize:
            raise _runtime("Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented "
                           "for `vectorize=True`.", torch_type=NotImplementedError)
    from ..ops.creation import zeros_like
    from ..ops.shape import stack

    with _grad_state(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize and strict:
            raise _runtime("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                           "supported together. Please either set `strict=False` or `vectorize=False`.",
torch_type=NotImplementedError)
        jac: list = []
        for i, out in enumerate(outputs):
            jac_i: tuple = tuple([] for _ in range(len(inputs)))
            flat = out.reshape(-1)
            for j in range(out._data.size):
                vj = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for el_idx, (jac_i_el, vj_el, inp_el) in enumerate(zip(jac_i, vj, inputs)):
                    if vj_el is not None:
                        if strict and create_graph and not vj_el._requires_grad:
                            raise _runtime("The jacobian of the user-provided function is independent of input "
                                           f"{i}. This is not allowed in strict mode when create_graph=True.")
                        jac_i_el.append(vj_el)
                    else:
                        if strict:
                            raise _runtime(f"Output {i} of the user-provided function is independent of input "
                                           f"{el_idx}. This is not allowed in strict mode.")
                        jac_i_el.append(zeros_like(inp_el))
            jac.append(tuple(
                _stack_rows(stack, jac_i_el, out, inputs[el_idx]) for el_idx, jac_i_el in enumerate(jac_i)))
        result = _grad_postprocess(tuple(jac), create_graph)
        return _tuple_postprocess(result, (is_outputs_tuple, is_inputs_tuple))


def _stack_rows(stack: Callable, rows: list, out: Tensor, inp: Tensor) -> Tensor:
    shape = tuple(out._data.shape) + tuple(inp._data.shape)
    if not rows:  # a zero-element output: PyTorch's torch.stack([]) fails; an empty Jacobian is what it means
        from ..ops.creation import zeros

        return zeros(shape, dtype=inp._dtype)
    return stack(rows, 0).view(shape)


def hessian(func: Callable, inputs: Any, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar function (torch.autograd.functional.hessian): shape ``in.shape + in.shape``.

    With tuple inputs, ``H[i][j]`` is the block for inputs i and j.
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise error_class("assertion")('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp: Any) -> Tensor:
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise _runtime("The function given to hessian should return a single Tensor")
        if out._data.size != 1:
            raise _runtime("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp: Any) -> Any:
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _single_scalar_output(outputs: tuple, is_outputs_tuple: bool, name: str) -> None:
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise _runtime(f"The function given to {name} should return a single Tensor")
    if outputs[0]._data.size != 1:
        raise _runtime(f"The Tensor returned by the function given to {name} should contain a single element")


def vhp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple:
    """Vector-Hessian product of a scalar function: ``(func(inputs), v^T H)`` (torch.autograd.functional.vhp)."""
    with _grad_state(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "vhp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, inputs, is_inputs_tuple)
        elif len(inputs) != 1 or inputs[0]._data.size != 1:
            raise _runtime("The vector v can only be None if the input to the user-provided function is a single "
                           "Tensor with a single element.")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vhp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        _single_scalar_output(outputs, is_outputs_tuple, "vhp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    enable = True if create_graph else _mode.enabled
    with _grad_state(enable):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        vhp_ = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    vhp_ = _grad_postprocess(vhp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vhp_, is_inputs_tuple)


def hvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False) -> tuple:
    """Hessian-vector product of a scalar function: ``(func(inputs), H v)`` (torch.autograd.functional.hvp)."""
    from ..ops.creation import zeros_like

    with _grad_state(True):
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "hvp")
            v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
            _validate_v(v, inputs, is_inputs_tuple)
        elif len(inputs) != 1 or inputs[0]._data.size != 1:
            raise _runtime("The vector v can only be None if the input to the user-provided function is a single "
                           "Tensor with a single element.")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "hvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        _single_scalar_output(outputs, is_outputs_tuple, "hvp")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    enable = True if create_graph else _mode.enabled
    with _grad_state(enable):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        hvp_ = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    hvp_ = _grad_postprocess(hvp_, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(hvp_, is_inputs_tuple)
