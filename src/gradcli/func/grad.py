"""torch.func.grad, grad_and_value and vjp: reverse mode as torch/_functorch/eager_transforms.py runs it.

Each call of the returned function is a new level (levels.py): the differentiated arguments (``argnums``,
any pytree of tensors) become the level's tensors, ``f`` runs with grad mode on (a transform ignores an
enclosing ``torch.no_grad()``: PyTorch's NOTE "grad and vjp interaction with no_grad"), the gradients are
``torch.autograd.grad(..., create_graph=True, allow_unused=True)`` with zeros for an unused input, and the
results are unwrapped.  Messages are functorch's own, verbatim.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import call_given
from ..autograd import engine, grad_mode
from ..autograd.tensor import Tensor
from . import levels
from .argnums import replace_args, runtime, slice_argnums
from .pytree import spec_str, tree_flatten, tree_map, tree_unflatten

__all__ = ["grad", "grad_and_value", "vjp", "autograd_grad", "unwrap_tree"]


def autograd_grad(outputs, inputs, grad_outputs=None, retain_graph: bool = False,
                  create_graph: bool = True) -> tuple:
    """functorch's ``_autograd_grad``: only the outputs that require grad, zeros for an unused input."""
    from ..ops.creation import zeros_like

    if grad_outputs is None:
        pairs = [(o, None) for o in outputs if o.requires_grad]
    else:
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return tuple(zeros_like(i) for i in inputs)
    logged = len(engine.backward_log)
    try:
        grads = engine.grad([o for o, _ in pairs], list(inputs),
                            None if grad_outputs is None else [g for _, g in pairs],
                            retain_graph=retain_graph, create_graph=create_graph, allow_unused=True)
    finally:
        del engine.backward_log[logged:]  # (a transform's pass is not a backward of the file: gradcli why)
    return tuple(zeros_like(i) if g is None else g for g, i in zip(grads, inputs))


def unwrap_tree(tree: Any) -> Any:
    """functorch's ``_undo_create_differentiable`` after the level exited: every leaf must be a tensor
    ("Expected tensors, got unsupported type <class 'int'>")."""
    def unwrap(x):
        if isinstance(x, Tensor):
            return levels.unwrap(x)
        raise runtime(f"Expected tensors, got unsupported type {levels.type_repr(x)}")

    return tree_map(unwrap, tree)


def _differentiable_args(args: tuple, argnums: Any, level: int) -> tuple[tuple, Any]:
    """``(args with the argnums ones made differentiable, those differentiable ones)``."""
    argnums, diff = slice_argnums(args, argnums, as_tuple=False)
    diff = tree_map(lambda x: levels.differentiable(x, level), diff)
    return replace_args(args, diff, argnums), diff


def _grad_and_value(func: Callable, argnums: Any, has_aux: bool, args: tuple, kwargs: dict) -> tuple:
    level = levels.enter()
    try:
        with grad_mode.enable_grad():
            args, diff_args = _differentiable_args(args, argnums, level)
            output = call_given(func, *args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(output, tuple) and len(output) == 2):
                    raise runtime("grad_and_value(f)(*args): output of function f should be a tuple: (output, aux) "
                                  "if has_aux is True")
                output, aux = output
            if not isinstance(output, Tensor):
                raise runtime("grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                              f"{levels.type_repr(output)}")
            if output.dim() != 0:
                raise runtime("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor "
                              f"with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
            flat_diff, spec = tree_flatten(diff_args)
            # retain_graph: functorch keeps the value's own graph outside the level (its ops were recorded
            # there too), which a backward from the value may still run through
            grads = tree_unflatten(autograd_grad((output,), flat_diff, retain_graph=True, create_graph=True), spec)
    finally:
        levels.exit(level)
    grads = unwrap_tree(grads)
    output = unwrap_tree(output)
    if has_aux:
        return grads, (output, unwrap_tree(aux))
    return grads, output


def grad_and_value(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """torch.func.grad_and_value: a function returning ``(gradient, value)`` of ``func`` (a scalar Tensor
    output) w.r.t. the arguments ``argnums`` (an int or a tuple of ints; a pytree of tensors each); with
    ``has_aux`` ``func`` returns ``(output, aux)`` and the result is ``(gradient, (value, aux))``."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return _grad_and_value(func, argnums, has_aux, args, kwargs)

    return wrapper


def grad(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """torch.func.grad: a function returning the gradient of ``func`` (a scalar Tensor output) w.r.t. the
    arguments ``argnums``, in their structure; with ``has_aux``, ``(gradient, aux)``."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        grads, value = _grad_and_value(func, argnums, has_aux, args, kwargs)
        if has_aux:
            return grads, value[1]
        return grads

    return wrapper


def vjp(func: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """torch.func.vjp: ``(func(*primals), vjp_fn)`` (and ``aux`` with ``has_aux``); ``vjp_fn(cotangents)`` is
    the tuple of vector-Jacobian products, one per primal, and can be called again (``retain_graph=True``)."""
    return vjp_with_argnums(func, primals, None, has_aux)


def vjp_with_argnums(func: Callable, primals: tuple, argnums: Any, has_aux: bool) -> tuple:
    """functorch's ``_vjp_with_argnums`` (jacrev's too): vjp_fn gives the products for ``argnums`` only."""
    level = levels.enter()
    try:
        with grad_mode.enable_grad():
            if argnums is None:
                primals = tree_map(lambda x: levels.differentiable(x, level), primals)
                diff = primals
            else:
                primals, diff = _differentiable_args(primals, argnums, level)
            out = call_given(func, *primals)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise runtime("vjp(f, *primals): output of function f should be a tuple: (output, aux) "
                                  "if has_aux is True")
                out, aux = out
            flat_out, out_spec = tree_flatten(out)
            if not flat_out:
                raise runtime(f"vjp(f, *primals): Expected f to be a function that has non-empty output (got "
                              f"output = {flat_out})")
            for o in flat_out:
                if not isinstance(o, Tensor):
                    raise runtime("vjp(f, *primals): expected f(*primals) to return only tensors, got unsupported "
                                  f"type {levels.type_repr(o)}")
            flat_diff, diff_spec = tree_flatten(diff)
            for o in flat_out:
                if not o.is_floating_point():
                    raise runtime("vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                                  f"Tensor with dtype {o.dtype}")
    finally:
        levels.exit(level)
    if has_aux:
        aux = unwrap_tree(aux)
    results = unwrap_tree(out)

    def vjp_fn(cotangents: Any, retain_graph: bool = True, create_graph: Any = None) -> Any:
        """The vector-Jacobian products for ``cotangents`` (the structure of the primal output)."""
        if create_graph is None:
            create_graph = grad_mode.is_grad_enabled()
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise runtime("Expected pytree structure of cotangents to be the same as pytree structure of outputs "
                          f"to the function. cotangents: {spec_str(cot_spec)}, primal output: {spec_str(out_spec)}")
        res = autograd_grad(flat_out, flat_diff, flat_cot, retain_graph=retain_graph, create_graph=create_graph)
        return tree_unflatten([levels.unwrap(r) for r in res], diff_spec)

    if has_aux:
        return results, vjp_fn, aux
    return results, vjp_fn
