"""torch.func.jacrev and hessian: Jacobians by reverse mode, as torch/_functorch/eager_transforms.py builds them.

jacrev runs ``vjp`` once (grad.py's ``vjp_with_argnums``) and calls its vjp_fn with each row of the standard
basis of the (flattened, concatenated) outputs -- PyTorch's ``vmap(vjp_fn)`` over that basis, row by row
here, the same products -- then stacks the rows, splits them per output and views each as
``output.shape + primal.shape``; the result nests as the output's structure, then the primals'
(one Tensor per pair for an int ``argnums``).  hessian is PyTorch's ``jacfwd(jacrev(f))``
(forward over reverse: the signs of its zeros are forward mode's).
"""

from __future__ import annotations

from typing import Any, Callable

from ..autograd import limits
from ..errors import ValueErrorKind
from .argnums import slice_argnums
from .grad import vjp_with_argnums
from .pytree import tree_flatten, tree_unflatten

__all__ = ["jacrev", "hessian"]


def _basis_rows(flat_output: list):
    """Each row of the standard basis over the outputs: one tensor per output, shaped as it, a single 1."""
    from ..ops.creation import zeros_like

    for j, out in enumerate(flat_output):
        for k in range(out.numel()):
            row = []
            for i, o in enumerate(flat_output):
                z = zeros_like(o)
                if i == j:
                    z.view(-1)._data[k] = 1
                row.append(z)
            yield row


def jacrev(func: Callable, argnums: Any = 0, *, has_aux: bool = False, chunk_size: Any = None,
           _preallocate_and_copy: bool = False) -> Callable:
    """torch.func.jacrev: a function returning the Jacobian of ``func`` w.r.t. the arguments ``argnums``
    (``output.shape + input.shape`` per pair); with ``has_aux``, ``(jacobian, aux)``.  ``chunk_size`` only
    changes how PyTorch batches the rows (ValueError when it is not positive)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueErrorKind("jacrev: `chunk_size` should be greater than 0.")

    def wrapper_fn(*args: Any) -> Any:
        from ..ops.shape import split, stack

        vjp_out = vjp_with_argnums(func, args, argnums, has_aux)
        output, vjp_fn = vjp_out[0], vjp_out[1]
        flat_output, output_spec = tree_flatten(output)
        numels = [o.numel() for o in flat_output]
        _, primals = slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        rows: list[list] = [[] for _ in flat_primals]
        limits.python_objects(sum(numels), "tensors")  # (one vjp per row: charged as unbind's tensors are)
        for basis in _basis_rows(flat_output):
            products, _ = tree_flatten(vjp_fn(tree_unflatten(basis, output_spec)))
            for i, p in enumerate(products):
                rows[i].append(p)
        per_input = [split(stack(r, 0), numels, 0) for r in rows]
        flat_input_flat_output = [
            tuple(piece.view(tuple(out.shape) + tuple(primal.shape)) for piece, out in zip(pieces, flat_output))
            for pieces, primal in zip(per_input, flat_primals)]
        flat_output_input = tuple(tree_unflatten(list(col), primals_spec)
                                  for col in zip(*flat_input_flat_output))
        if isinstance(argnums, int):
            flat_output_input = tuple(x[0] for x in flat_output_input)
        result = tree_unflatten(list(flat_output_input), output_spec)
        if has_aux:
            return result, vjp_out[2]
        return result

    return wrapper_fn


def hessian(func: Callable, argnums: Any = 0) -> Callable:
    """torch.func.hessian: the Jacobian of the Jacobian of ``func`` w.r.t. ``argnums``
    (``input.shape + input.shape`` for a scalar output)."""
    from .forward import jacfwd

    return jacfwd(jacrev(func, argnums), argnums)
