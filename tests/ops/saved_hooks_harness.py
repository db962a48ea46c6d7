"""Which tensors each op saves for backward, in which order, and when backward unpacks them.

Runs a recorded op case (tests/ops/data/ops_cases*.json: ``code``, ``out``, ``inputs``) inside
``torch.autograd.graph.saved_tensors_hooks(pack, unpack)`` with a torch-like module (real PyTorch or gradcli's
namespace), then its backward for a fixed cotangent.  ``pack`` logs the tensor it is given and returns a token;
``unpack`` logs the token.  The log is the observable contract of saved-tensor hooks (SPEC §2b): which tensors
are packed, in PyTorch's order, with what autograd identity, and which are unpacked when.

Used by ``record_saved_hooks.py`` (PyTorch) and ``test_saved_hooks_recorded.py`` (gradcli).
"""

from __future__ import annotations

from ops_harness import cotangent, jsonable, node_name


def _describe(t, torch) -> list:
    fn = t.grad_fn
    vals = jsonable(t.detach().tolist()) if not t._is_zerotensor() else "zero"
    return [None if fn is None else node_name(fn), bool(t.requires_grad), list(t.shape),
            str(t.dtype).replace("torch.", ""), vals]


def run_hooked(case: dict, torch, F, error_kind) -> dict:
    """The pack/unpack log of ``case``: {"log": [["pack", k, description] | ["unpack", k], ...], "error": kind}."""
    log: list = []
    store: list = []

    def pack(t):
        k = len(store)
        store.append(t)
        log.append(["pack", k, _describe(t, torch)])
        return k

    def unpack(k):
        log.append(["unpack", k])
        return store[k]

    env = {"torch": torch, "F": F}
    res: dict = {"log": log}
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            exec(case["code"], env)  # noqa: S102 - test code written by us
    except Exception as e:  # noqa: BLE001
        res["error"] = error_kind(e)
        return res
    out = env[case.get("out", "y")]
    if isinstance(out, tuple):
        out = out[0]
    inputs = [env[n] for n in case.get("inputs", [])]
    if not (getattr(out, "requires_grad", False) and inputs):
        return res
    log.append(["backward"])
    cot = torch.tensor(cotangent(out.numel()), dtype=out.dtype).reshape(tuple(out.shape))
    try:
        torch.autograd.grad(out, inputs, cot, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        res["backward_error"] = error_kind(e)
    return res
