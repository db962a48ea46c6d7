"""Forward-mode AD over the recorded op cases: each case's inputs made dual, the tangent of its result.

Runs a recorded op case (tests/ops/data/ops_cases*.json: ``code``, ``out``, ``inputs``) with a torch-like module
(real PyTorch or gradcli's namespace) inside ``torch.autograd.forward_ad.dual_level()``: right after the line
that makes each floating-point input, the input is replaced by ``make_dual(input, tangent)`` with a fixed
tangent.  Two variants: ``grad`` keeps the primal requiring grad (the tangent is then differentiable and has a
grad_fn), ``plain`` makes the dual of ``input.detach()`` (the op records no history; its tangent is computed
all the same).  The observation: ok / error kind, the result's values and grad_fn, and its tangent's values,
requires_grad and grad_fn.

Used by ``record_forward_ad.py`` (PyTorch) and ``test_forward_ad_recorded.py`` (gradcli).
"""

from __future__ import annotations

from ops_harness import jsonable, node_name


def tangent_values(n: int) -> list:
    """A fixed tangent direction (no zeros, not symmetric)."""
    return [1.0 - 0.375 * ((2 * i) % 5) for i in range(n)]


def dual_code(case: dict, variant: str) -> str | None:
    """The case's code with each input made dual after the line that assigns it (None: no input to make
    dual)."""
    lines = case["code"].splitlines()
    names = list(case.get("inputs", []))
    if not names:
        return None
    out = []
    done = set()
    for line in lines:
        out.append(line)
        for n in names:
            if n not in done and line.startswith(f"{n} = "):
                done.add(n)
                src = n if variant == "grad" else f"{n}.detach()"
                out.append(f"if {n}.is_floating_point():")
                out.append(f"    {n} = _fwAD.make_dual({src}, torch.tensor(_tangent({n}.numel()), "
                           f"dtype={n}.dtype).reshape({n}.shape))")
    if not done:
        return None
    return "\n".join(out) + "\n"


def run_dual(case: dict, variant: str, torch, F, error_kind) -> dict | None:
    """{"ok", "kind" | "value", "grad_fn", "tangent", "tangent_requires_grad", "tangent_grad_fn"}; None when
    the case has no input to make dual."""
    code = dual_code(case, variant)
    if code is None:
        return None
    fwAD = torch.autograd.forward_ad
    env = {"torch": torch, "F": F, "_fwAD": fwAD, "_tangent": tangent_values}
    res: dict = {}
    with fwAD.dual_level():
        try:
            exec(code, env)  # noqa: S102 - test code written by us
        except Exception as e:  # noqa: BLE001
            return {"ok": False, "kind": error_kind(e)}
        out = env[case.get("out", "y")]
        if isinstance(out, tuple):
            out = out[0]
        res["ok"] = True
        try:
            p, t = fwAD.unpack_dual(out)
        except Exception as e:  # noqa: BLE001
            return {"ok": False, "kind": "unpack:" + error_kind(e)}
        res["value"] = jsonable(p.detach().tolist())
        res["grad_fn"] = None if out.grad_fn is None else node_name(out.grad_fn)
        if t is None:
            res["tangent"] = None
        else:
            res["tangent"] = jsonable(t.detach().tolist()) if not t._is_zerotensor() else "zero"
            res["tangent_requires_grad"] = bool(t.requires_grad)
            res["tangent_grad_fn"] = None if t.grad_fn is None else node_name(t.grad_fn)
    return res
