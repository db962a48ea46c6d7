"""torch.func.vmap: the function mapped over a dimension of its inputs, with PyTorch's checks and messages
(torch/_functorch/vmap.py, apis.py).

gradcli runs ``func`` once per sample -- each batched input indexed at ``i`` along its ``in_dim`` (a view),
the others as they are -- and stacks the outputs along their ``out_dims``: the values of PyTorch's batched
kernels (within rounding) for the elementwise, reduction and matmul families and for ``grad``/``vjp``/
``functional_call`` inside, which is how the per-sample-gradients tutorial uses it.  While a sample runs, the
engine knows which tensors are batched (autograd/batching.py), so ``.item()``, data-dependent control flow
and random ops in ``randomness='error'`` mode fail with functorch's errors at their line; ``'same'`` gives
every sample the same draws (the generator is rewound before each); ``'different'`` draws are
``unsupported``.

What a per-sample run cannot give is ``unsupported``, never a different result: an output that requires grad
outside vmap (PyTorch's output has its batched op's grad_fn; a stack of samples would have
StackBackward0), printing a batched tensor (PyTorch prints its BatchedTensor wrapper), ``tolist``/``numpy``
of one.
"""

from __future__ import annotations

from typing import Any, Callable

from ..autograd import batching
from ..autograd import limits as _limits
from ..autograd import random as _random
from ..autograd.tensor import Tensor
from ..errors import ValueErrorKind, error_class, call_given
from . import levels
from .pytree import LEAF, tree_flatten, tree_unflatten, treespec_repr

__all__ = ["vmap"]


def _name(func: Any) -> str:
    name = getattr(func, "__name__", None)
    if isinstance(name, str):
        return name
    return repr(func)


def _broadcast(dims: Any, spec: tuple) -> Any:
    """PyTorch's ``_broadcast_to_and_flatten``: ``dims`` (an int/None, or a tree of them matching a prefix of
    ``spec``) as one entry per leaf of ``spec``; None when the structures do not match."""
    if not isinstance(dims, (tuple, list, dict)):
        return [dims] * _count(spec)
    if spec is LEAF:
        return None
    kind, keys, children = spec
    if type(dims) is not kind:
        return None
    if kind is dict:
        if set(dims) != set(keys):
            return None
        parts = [dims[k] for k in keys]
    else:
        if len(dims) != len(children):
            return None
        parts = list(dims)
    out: list = []
    for d, child in zip(parts, children):
        sub = _broadcast(d, child)
        if sub is None:
            return None
        out.extend(sub)
    return out


def _count(spec: tuple) -> int:
    if spec is LEAF:
        return 1
    return sum(_count(c) for c in spec[2])


def _spec_of(dims: Any) -> str:
    return treespec_repr(tree_flatten(dims)[1])


def _check_out_dims(out_dims: Any, func: Callable) -> None:
    if isinstance(out_dims, int):
        return
    for x in tree_flatten(out_dims)[0]:
        if x is not None and not isinstance(x, int):
            raise ValueErrorKind(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or "
                                 "a python collection of ints representing where in the outputs the vmapped "
                                 "dimension should appear.")


def _process_inputs(in_dims: Any, args: tuple, func: Callable) -> tuple:
    name = _name(func)
    if not isinstance(in_dims, (int, tuple)):
        raise ValueErrorKind(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                             f"(potentially nested) tuple matching the structure of inputs, got: "
                             f"{levels.type_repr(in_dims)}.")
    if len(args) == 0:
        raise ValueErrorKind(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
                             "trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = _broadcast(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueErrorKind(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                             f"structure of `inputs`. in_dims has structure {_spec_of(in_dims)} but inputs has "
                             f"structure {treespec_repr(args_spec)}.")
    for i, (arg, in_dim) in enumerate(zip(flat_args, flat_in_dims)):
        if not isinstance(in_dim, int) and in_dim is not None:
            raise ValueErrorKind(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for an input "
                                 "but in_dim must be either an integer dimension or None.")
        if isinstance(in_dim, int) and not isinstance(arg, Tensor):
            raise ValueErrorKind(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for an input "
                                 f"but the input is of type {levels.type_repr(arg)}. We cannot vmap over non-Tensor "
                                 "arguments, please use None as the respective in_dim")
        if in_dim is not None and (in_dim < -arg.dim() or in_dim >= arg.dim()):
            raise ValueErrorKind(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for some "
                                 f"input, but that input is a Tensor of dimensionality {arg.dim()} so expected "
                                 f"in_dim to satisfy -{arg.dim()} <= in_dim < {arg.dim()}.")
        if in_dim is not None and in_dim < 0:
            flat_in_dims[i] = in_dim % arg.dim()
    sizes = [arg.size(d) for d, arg in zip(flat_in_dims, flat_args) if d is not None]
    if not sizes:
        raise ValueErrorKind("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueErrorKind(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
    return sizes[0], flat_in_dims, flat_args, args_spec


def _flat_out_dims(outputs: Any, out_dims: Any, func: Callable) -> tuple[list, tuple]:
    flat_out, spec = tree_flatten(outputs)

    def incompatible():
        return ValueErrorKind(f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
                              f"with the structure of `outputs`. out_dims has structure {_spec_of(out_dims)} but "
                              f"outputs has structure {treespec_repr(spec)}.")

    if isinstance(outputs, Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            dims = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            dims = list(out_dims)
        else:
            raise incompatible()
    else:
        dims = _broadcast(out_dims, spec)
        if dims is None:
            raise incompatible()
    return dims, spec


def _run_samples(func: Callable, batch_size: int, flat_in_dims: list, flat_args: list, args_spec: tuple,
                 randomness: str, kwargs: dict) -> list:
    from ..ops.shape import select

    _limits.python_objects(batch_size, "tensors")  # (one call per sample: charged as unbind's tensors are)
    gen = _random.default_generator
    start = gen.get_state() if randomness == "same" else None
    results = []
    batching.state.randomness.append(randomness)
    try:
        for i in range(batch_size):
            if start is not None and i:
                gen.set_state(start)  # 'same': every sample draws what the first drew
            batching.state.depth += 1
            try:
                sample = []
                for arg, d in zip(flat_args, flat_in_dims):
                    if d is None:
                        sample.append(arg)
                    else:
                        s = select(arg, d, i)
                        batching.add(s)
                        sample.append(s)
                results.append(call_given(func, *tree_unflatten(sample, args_spec), **kwargs))
            finally:
                batching.state.depth -= 1
    finally:
        batching.state.randomness.pop()
        if not batching.state.depth:
            batching.state.marks.clear()
    return results


def _stack(func: Callable, samples: list, out_dims: Any) -> Any:
    from ..ops.shape import stack

    name = _name(func)
    dims, spec = _flat_out_dims(samples[0], out_dims, func)
    flat_samples = []
    for s in samples:
        flat, s_spec = tree_flatten(s)
        if s_spec != spec:  # (a function returning another structure for another sample)
            raise error_class("unsupported")(
                f"vmap({name}): the function returned {treespec_repr(s_spec)} for one sample and "
                f"{treespec_repr(spec)} for another", "Return the same structure for every sample.")
        flat_samples.append(flat)
    outs = []
    for j, d in enumerate(dims):
        first = flat_samples[0][j]
        if d is None:
            if isinstance(first, Tensor) and any(isinstance(f[j], Tensor) and batching.is_batched(f[j])
                                                 for f in flat_samples):
                raise ValueErrorKind(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is "
                                     "None")
            outs.append(first)
            continue
        if not isinstance(first, Tensor):
            raise ValueErrorKind(f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                                 f"{levels.type_repr(first)}. Did you mean to set out_dims= to None for output?")
        pieces = [f[j] for f in flat_samples]
        ndim = first.dim() + 1
        if not -ndim <= d < ndim:
            raise error_class("index")(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
                                       f"but got {d})")
        out = stack(pieces, d)
        if out.requires_grad and levels.active() == 0 and batching.state.depth == 0:
            raise error_class("unsupported")(
                f"vmap({name}): an output requires grad outside vmap. gradcli runs the function once per sample "
                "and stacks the results (StackBackward0), where PyTorch's batched kernels give the output their "
                "own grad_fn",
                "Pass detached inputs (t.detach()) to vmap, as the per-sample-gradients tutorial does, or compute "
                "on the whole batch without vmap.")
        outs.append(out)
    return tree_unflatten(outs, spec)


def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: Any = None) -> Callable:
    """torch.func.vmap (also torch.vmap): ``func`` mapped over dimension ``in_dims`` of its inputs (an int, None
    for an input not mapped, or a tuple matching the arguments' structure), the outputs stacked along
    ``out_dims``.  ``randomness``: 'error' (random ops raise), 'same', 'different' (unsupported when a random op
    runs); ``chunk_size`` only changes how PyTorch batches.  Raises PyTorch's ValueErrors for bad dims."""
    if randomness not in ("error", "different", "same"):
        raise error_class("runtime")(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if not (chunk_size is None or chunk_size > 0):
        raise ValueErrorKind(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _process_inputs(in_dims, args, func)
        samples = _run_samples(func, batch_size, flat_in_dims, flat_args, args_spec, randomness, kwargs)
        if not samples:
            raise error_class("unsupported")(f"vmap({_name(func)}) over a dimension of size 0",
                                             "Map over a non-empty dimension.")
        return _stack(func, samples, out_dims)

    return wrapped
