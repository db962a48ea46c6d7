"""torch.func (SPEC §2b "Autograd surface"): functorch's composable transforms over gradcli's engine.

Above ops/ and nn/ (functional_call swaps a module's tensors), below api.py, which exposes :data:`MEMBERS`
as the lazy ``torch.func`` namespace.  One concept per module:

* pytree.py -- flatten/unflatten of the tuples, lists and dicts the transforms take and return;
* levels.py -- a transform's level on the one tape: its inputs made differentiable, its results unwrapped;
* argnums.py -- ``argnums`` validated as functorch does;
* grad.py -- grad, grad_and_value, vjp;
* jac.py -- jacrev, hessian;
* forward.py -- jvp, jacfwd, linearize (forward mode over autograd/forward_ad.py);
* vmap.py -- vmap, once per sample with the engine's batched marks (autograd/batching.py);
* functional_call.py -- functional_call(module, params_and_buffers, args, kwargs).
"""

from __future__ import annotations

#: torch.func's names gradcli has -> the module of gradcli.func that defines each
MEMBERS = {
    "grad": "grad", "grad_and_value": "grad", "vjp": "grad",
    "jacrev": "jac", "hessian": "jac", "jvp": "forward", "jacfwd": "forward", "linearize": "forward",
    "vmap": "vmap", "functional_call": "functional_call",
}
