"""Record PyTorch's optimizer updates bit for bit: tests/optim/data/update_cases.json.

    python tests/optim/record_updates.py

Each case builds parameters from a fixed function of the element index (:func:`values`, also in
test_update_bytes.py), then for a few steps sets each ``.grad`` to another such array (one parameter has no
gradient at one step: it is skipped) and calls ``optimizer.step()``; the parameters and every state tensor
are stored as exact bytes (hex; a SHA-256 for large ones), twice:

* ``real``: PyTorch as it is;
* ``exact_sqrt``: PyTorch with ``sqrt``/``sqrt_`` replaced by the correctly rounded square root (a
  ``TorchFunctionMode``): PyTorch's CPU sqrt comes from MKL and is not correctly rounded, numpy's (and so
  gradcli's) is.  Every other operation of the loop is PyTorch's own kernel, so gradcli must give these
  bytes exactly; ``real`` it must give within a few ulps (and exactly for SGD, which takes no square root).

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
from gradcli import host

host.pin_torch()
import torch  # noqa: E402
from torch.overrides import TorchFunctionMode  # noqa: E402

host.require_torch_avx2()
torch.set_num_threads(2)

OUT = Path(__file__).with_name("data") / "update_cases.json"
SMALL = 64
STEPS = 6
SHAPES = [(37,), (5, 7), (70001,)]


def values(n: int, salt: int, lo: float, hi: float, dtype: str) -> np.ndarray:
    """n values in [lo, hi): a multiplicative hash of the index (the same in the recorder and the test)."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(salt * 40503 + 12345)) % np.uint64(1 << 32)
    u = h.astype(np.float64) / float(1 << 32)
    return (lo + (hi - lo) * u).astype(dtype)


def grad_values(step: int, k: int, n: int, dtype: str) -> np.ndarray | None:
    """The gradient of parameter k at a step (None: parameter 1 gets no gradient at step 2)."""
    if k == 1 and step == 2:
        return None
    return values(n, 1000 + 17 * step + k, -1.5, 1.5, dtype)


#: name -> (optimizer class name, options, param groups (list of option dicts) or None)
CASES = {
    "sgd": ("SGD", {"lr": 0.1}, None),
    "sgd_momentum": ("SGD", {"lr": 0.05, "momentum": 0.9}, None),
    "sgd_dampening": ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.3}, None),
    "sgd_nesterov": ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True}, None),
    "sgd_weight_decay": ("SGD", {"lr": 0.05, "momentum": 0.5, "weight_decay": 0.01}, None),
    "sgd_maximize": ("SGD", {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1,
                             "maximize": True}, None),
    "sgd_groups": ("SGD", {"lr": 0.1, "momentum": 0.9}, [{"lr": 0.01}, {"momentum": 0.5, "weight_decay": 0.2}]),
    "adam": ("Adam", {}, None),
    "adam_lr_betas": ("Adam", {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6}, None),
    "adam_weight_decay": ("Adam", {"lr": 0.01, "weight_decay": 0.1}, None),
    "adam_amsgrad": ("Adam", {"lr": 0.01, "amsgrad": True}, None),
    "adam_maximize": ("Adam", {"lr": 0.01, "maximize": True, "weight_decay": 0.05, "amsgrad": True}, None),
    "adam_groups": ("Adam", {"lr": 0.01}, [{"lr": 0.1, "betas": (0.5, 0.9)}, {"amsgrad": True}]),
    "adamw": ("AdamW", {"lr": 0.01}, None),
    "adamw_amsgrad": ("AdamW", {"lr": 0.01, "weight_decay": 0.3, "amsgrad": True}, None),
    "adamw_maximize": ("AdamW", {"lr": 0.02, "maximize": True}, None),
    "rmsprop": ("RMSprop", {}, None),
    "rmsprop_alpha_eps": ("RMSprop", {"lr": 0.001, "alpha": 0.9, "eps": 1e-4}, None),
    "rmsprop_centered": ("RMSprop", {"lr": 0.01, "centered": True}, None),
    "rmsprop_momentum": ("RMSprop", {"lr": 0.01, "momentum": 0.9, "weight_decay": 0.1}, None),
    "rmsprop_all": ("RMSprop", {"lr": 0.01, "momentum": 0.5, "centered": True, "maximize": True}, None),
    "adagrad": ("Adagrad", {}, None),
    "adagrad_lr_decay": ("Adagrad", {"lr": 0.1, "lr_decay": 0.01}, None),
    "adagrad_init_acc": ("Adagrad", {"lr": 0.1, "initial_accumulator_value": 0.5, "eps": 1e-6}, None),
    "adagrad_weight_decay": ("Adagrad", {"lr": 0.1, "weight_decay": 0.1, "maximize": True}, None),
}


class ExactSqrt(TorchFunctionMode):
    """``sqrt``/``sqrt_`` correctly rounded (numpy's); every other op is PyTorch's."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("sqrt", "sqrt_"):
            x = args[0]
            r = torch.from_numpy(np.sqrt(x.detach().numpy()))
            if name == "sqrt_":
                x.copy_(r)
                return x
            return r
        return func(*args, **(kwargs or {}))


def _blob(t: torch.Tensor) -> dict:
    data = t.detach().contiguous().numpy().tobytes()
    if t.numel() <= SMALL:
        return {"hex": data.hex()}
    return {"sha256": hashlib.sha256(data).hexdigest()}


def run(name: str, dtype: str, exact: bool) -> dict:
    cls_name, options, groups = CASES[name]
    params = [torch.from_numpy(values(int(np.prod(s)), 10 + k, -2, 2, dtype).reshape(s)).requires_grad_()
              for k, s in enumerate(SHAPES)]
    if groups is None:
        opt = getattr(torch.optim, cls_name)(params, **options)
    else:
        spec = [{"params": params[:1], **groups[0]}, {"params": params[1:], **groups[1]}]
        opt = getattr(torch.optim, cls_name)(spec, **options)
    for step in range(STEPS):
        for k, p in enumerate(params):
            g = grad_values(step, k, p.numel(), dtype)
            p.grad = None if g is None else torch.from_numpy(g.reshape(p.shape))
        if exact:
            with ExactSqrt():
                opt.step()
        else:
            opt.step()
    out = {"params": [_blob(p) for p in params], "state": []}
    for p in params:
        out["state"].append({k: _blob(v) for k, v in opt.state[p].items()})
    return out


def main() -> None:
    cases = []
    for name in CASES:
        for dtype in ("float32", "float64"):
            cases.append({"name": name, "dtype": dtype, "real": run(name, dtype, False),
                          "exact_sqrt": run(name, dtype, True)})
    doc = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(), "steps": STEPS,
           "shapes": [list(s) for s in SHAPES], "cases": cases}
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
