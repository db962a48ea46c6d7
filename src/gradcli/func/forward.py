"""torch.func.jvp, jacfwd and linearize: forward mode over gradcli's dual tensors (autograd/forward_ad.py), as
torch/_functorch/eager_transforms.py runs them.

jvp makes each primal a dual tensor with its tangent inside a forward-AD level (one level for nested jvp
calls, as functorch's ``JVP_NESTING``), runs ``f`` and unpacks every output: the primal outputs as aliases
(``AliasBackward0`` when they require grad outside), the tangents as computed (differentiable, so
``grad`` of a ``jvp`` works), zeros for an output independent of the inputs (``strict``: PyTorch's error).
jacfwd pushes every column of the standard basis of the inputs through jvp -- PyTorch's ``vmap(push_jvp)``,
column by column here, the same products -- and lays the columns out as ``output.shape + input.shape``.
linearize returns ``f(*primals)`` and a ``jvp_fn(*tangents)`` that runs jvp at the same primals (PyTorch
traces ``f`` once with make_fx and replays the trace; the values are the same).
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import RuntimeErrorKind, call_given
from ..autograd import forward_ad, limits
from ..autograd.tensor import Tensor
from . import levels
from .argnums import replace_args, runtime, slice_argnums
from .grad import unwrap_tree
from .pytree import tree_flatten, tree_unflatten, treespec_repr

__all__ = ["jvp", "jacfwd", "linearize"]

_JVP = "jvp(f, primals, tangents)"


def _tensors_only(flat: list, argname: str) -> None:
    if not flat:
        raise runtime(f"{_JVP}: Expected {argname} to contain at least one Tensor.")
    for x in flat:
        if not isinstance(x, Tensor):
            raise runtime(f"{_JVP}: Expected {argname} to only contain Tensors, got {levels.type_repr(x)}")


def _unwrap_primal(t: Tensor) -> Tensor:
    """A primal output leaving the level: an alias of the dual result when it requires grad outside."""
    if t.requires_grad:
        from ..ops.shape import _alias

        out = levels.unwrap(t)
        return _alias(out) if out.requires_grad else out
    return levels.unwrap(t)


def jvp_with_argnums(func: Callable, primals: Any, tangents: Any, argnums: Any, *, strict: bool = False,
                     has_aux: bool = False) -> tuple:
    """functorch's ``_jvp_with_argnums`` (jacfwd's too): tangents for the ``argnums`` primals only."""
    from ..ops.creation import zeros_like

    if not isinstance(primals, tuple):
        raise runtime(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    if argnums is None:
        diff_args = primals
    else:
        argnums, diff_args = slice_argnums(primals, argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise runtime(f"{_JVP}: Expected primals and tangents to have the same python structure. For example, if "
                      "primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
                      f"{treespec_repr(primals_spec)} and tangents with structure {treespec_repr(tangents_spec)}")
    _tensors_only(flat_primals, "primals")
    _tensors_only(flat_tangents, "tangents")
    entered = forward_ad.state.level is None
    if entered:
        forward_ad.enter_dual_level()
    try:
        duals = tree_unflatten([forward_ad.make_dual(p, t) for p, t in zip(flat_primals, flat_tangents)],
                               primals_spec)
        if argnums is not None:
            duals = replace_args(primals, duals if not isinstance(argnums, int) else duals[0], argnums)
        result = call_given(func, *duals)
        aux = None
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise runtime(f"{_JVP}: output of function f should be a tuple: (output, aux) if has_aux is True")
            result, aux = result
            aux = unwrap_tree(aux)
        flat_result, spec = tree_flatten(result)
        if not flat_result:
            raise runtime(f"{_JVP}: Expected f to be a function that has non-empty output (got output = "
                          f"{flat_result})")
        for r in flat_result:
            if not isinstance(r, Tensor):
                raise runtime(f"{_JVP}: expected f(*primals) to return only tensors, got unsupported type "
                              f"{levels.type_repr(r)}")
        outs, tans = [], []
        for r in flat_result:
            tan = forward_ad.unpack_dual(r).tangent
            if tan is None:
                if strict:
                    raise runtime("jvp(f, primals, tangents, strict=True): The output of f is independent of the "
                                  "inputs. This is not allowed with strict=True.")
                tan = zeros_like(r)
            outs.append(r)
            tans.append(tan)
    finally:
        if entered:
            forward_ad.exit_dual_level()
    primals_out = tree_unflatten([_unwrap_primal(o) for o in outs], spec)
    tangents_out = tree_unflatten([levels.unwrap(t) for t in tans], spec)
    if has_aux:
        return primals_out, tangents_out, aux
    return primals_out, tangents_out


def jvp(func: Callable, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False) -> tuple:
    """torch.func.jvp: ``(func(*primals), the Jacobian of func at primals times tangents)`` (and ``aux`` with
    ``has_aux``); ``primals`` is a tuple, ``tangents`` has its structure."""
    return jvp_with_argnums(func, primals, tangents, None, strict=strict, has_aux=has_aux)


def _basis_columns(flat_primals: list):
    from ..ops.creation import zeros_like

    for j, p in enumerate(flat_primals):
        for k in range(p.numel()):
            col = []
            for i, q in enumerate(flat_primals):
                z = zeros_like(q)
                if i == j:
                    z.view(-1)._data[k] = 1
                col.append(z)
            yield col


def jacfwd(func: Callable, argnums: Any = 0, has_aux: bool = False, *, randomness: str = "error") -> Callable:
    """torch.func.jacfwd: a function returning the Jacobian of ``func`` w.r.t. ``argnums`` by forward mode
    (``output.shape + input.shape`` per pair, nested as the output's structure, then the inputs'); with
    ``has_aux``, ``(jacobian, aux)``."""
    def wrapper_fn(*args: Any) -> Any:
        from ..ops.shape import permute, split, stack

        primals = args if argnums is None else slice_argnums(args, argnums)[1]
        flat_primals, primals_spec = tree_flatten(primals)
        for p in flat_primals:
            if not isinstance(p, Tensor):  # PyTorch's jacfwd calls p.numel() before any check
                name = getattr(type(p), "_gradcli_type_name", None) or type(p).__name__
                text = f"'{name}' object has no attribute 'numel'"
                raise RuntimeErrorKind(f"AttributeError: {text}", torch_type=AttributeError, torch_message=text)
        numels = [p.numel() for p in flat_primals]
        limits.python_objects(sum(numels), "tensors")  # (one jvp per column: charged as unbind's tensors are)
        columns: list = []
        aux = None
        spec = None
        for basis in _basis_columns(flat_primals):
            out = jvp_with_argnums(func, args, tree_unflatten(basis, primals_spec), argnums, has_aux=has_aux)
            if has_aux and aux is None:
                aux = out[2]
            flat_tan, spec = tree_flatten(out[1])
            columns.append(flat_tan)
        jac_outs_ins = []
        for j in range(len(columns[0])):
            # PyTorch: the vmapped columns (dim 0) moved last, split per input, unflattened to its shape
            stacked = stack([c[j] for c in columns], 0)
            stacked = permute(stacked, *range(1, stacked.dim()), 0)  # (movedim(0, -1))
            pieces = split(stacked, numels, -1)
            jac_outs_ins.append(tree_unflatten(
                [piece.view(tuple(piece.shape[:-1]) + tuple(p.shape)) for piece, p in zip(pieces, flat_primals)],
                primals_spec))
        if isinstance(argnums, int):
            jac_outs_ins = [j[0] for j in jac_outs_ins]
        result = tree_unflatten(jac_outs_ins, spec)
        if has_aux:
            return result, aux
        return result

    return wrapper_fn


#: the UserWarning PyTorch 2.13's linearize gives at every call (torch/fx/graph.py, when its const-folding pass
#: moves the traced constants: measured for every function tried)
LINEARIZE_WARNING = ("Attempted to insert a get_attr Node with no underlying reference in the owning GraphModule! "
                     "Call GraphModule.add_submodule to add the necessary submodule, GraphModule.add_parameter to "
                     "add the necessary Parameter, or nn.Module.register_buffer to add the necessary buffer")


def linearize(func: Callable, *primals: Any) -> tuple:
    """torch.func.linearize: ``(func(*primals), jvp_fn)``; ``jvp_fn(*tangents)`` is the Jacobian-vector
    product at ``primals`` (PyTorch's errors for tangents of another structure, shape or dtype).  Warns as
    PyTorch does (its tracing's UserWarning, :data:`LINEARIZE_WARNING`)."""
    from ..errors import warn

    output = call_given(func, *primals)
    flat_primals, primals_spec = tree_flatten(primals)
    warn("other", LINEARIZE_WARNING)

    def jvp_fn(*tangents: Any) -> Any:
        """The Jacobian of func at the primals times ``tangents`` (one per primal)."""
        flat_tangents, tangents_spec = tree_flatten(tangents)
        if tangents_spec != primals_spec:
            raise runtime(f"Expected the tangents {treespec_repr(tangents_spec)} to have the same argspec as the "
                          f"primals {treespec_repr(primals_spec)}")
        for idx, (p, t) in enumerate(zip(flat_primals, flat_tangents)):
            if not (isinstance(p, Tensor) and isinstance(t, Tensor)):
                continue
            for what, a, b in (("shape", _size(t), _size(p)), ("dtype", str(t.dtype), str(p.dtype))):
                if a != b:
                    raise runtime(f"tangent:{idx} with {what} {a} in flattened pytree doesn't match the {what} {b} "
                                  "of the corresponding primal.")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


def _size(t: Tensor) -> str:
    return f"torch.Size([{', '.join(str(int(s)) for s in t.shape)}])"
