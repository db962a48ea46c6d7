"""torch.optim.Adagrad (lr_decay, weight_decay, initial_accumulator_value, eps, maximize).

The update is PyTorch 2.13's ``_single_tensor_adagrad`` (torch/optim/adagrad.py, dense gradients)::

    step_t += 1; step = step_t.item()
    grad = grad if not maximize else -grad
    if weight_decay != 0: grad = grad.add(param, alpha=weight_decay)
    clr = lr / (1 + (step - 1) * lr_decay)
    state_sum.addcmul_(grad, grad, value=1)
    std = state_sum.sqrt().add_(eps)
    param.addcdiv_(grad, std, value=-clr)

Unlike the other optimizers, Adagrad fills every parameter's state (``step`` and ``sum``, the latter
``full_like(p, initial_accumulator_value)``) when it is built.  Bit for bit as PyTorch except where its MKL
square root is not correctly rounded (see optim/adam.py).
"""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..ops import creation
from .optimizer import Optimizer, grad_of, python_errors, check_hyperparameters, scalar, scalar_dtype

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """``torch.optim.Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
    eps=1e-10, foreach=None, *, maximize=False)``.  State per parameter: ``step``, ``sum``.  PyTorch's
    ValueError (kind ``runtime``) for a negative lr/lr_decay/weight_decay/initial_accumulator_value/eps."""
    __module__ = "torch.optim.adagrad"  # printed as PyTorch's class

    @python_errors
    def __init__(self, params: Any, lr: Any = 1e-2, lr_decay: Any = 0, weight_decay: Any = 0,
                 initial_accumulator_value: Any = 0, eps: Any = 1e-10, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        check_hyperparameters(lr, ("lr_decay value", lr_decay), ("weight_decay value", weight_decay),
                              ("initial_accumulator_value value", initial_accumulator_value),
                              ("epsilon value", eps))
        defaults = {
            "lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value, "foreach": foreach, "maximize": maximize,
            "differentiable": differentiable, "fused": fused,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                st = self.state[p]
                st["step"] = creation.tensor(0.0, dtype=scalar_dtype())
                st["sum"] = creation.full_like(p, initial_accumulator_value)

    def _set_state_defaults(self) -> None:
        for group in self.param_groups:
            for key, default in (("foreach", None), ("maximize", False), ("differentiable", False),
                                 ("fused", None)):
                group.setdefault(key, default)
        values = list(self.state.values())
        for st in values:
            if isinstance(st, dict) and "step" in st and not isinstance(st["step"], Tensor):
                st["step"] = creation.tensor(float(st["step"]), dtype=scalar_dtype())

    def _step_group(self, group: dict) -> None:
        params, grads, sums, steps = [], [], [], []
        state = self.state
        for p in group["params"]:
            g = grad_of(p)
            if g is None:
                continue
            params.append(p)
            grads.append(g)
            st = state[p]
            if len(st) == 0:
                st["step"] = creation.tensor(0.0, dtype=scalar_dtype())
                st["sum"] = creation.full_like(p, self.defaults["initial_accumulator_value"])
            sums.append(st["sum"])
            steps.append(st["step"])
        _single_tensor_adagrad(params, grads, sums, steps, lr=scalar(group["lr"]),
                               weight_decay=scalar(group["weight_decay"]), lr_decay=group["lr_decay"],
                               eps=group["eps"], maximize=group["maximize"])


def _single_tensor_adagrad(params, grads, sums, steps, *, lr, weight_decay, lr_decay, eps, maximize) -> None:
    """PyTorch's ``_single_tensor_adagrad`` for dense gradients (see the module docstring)."""
    for param, grad, state_sum, step_t in zip(params, grads, sums, steps):
        step_t += 1
        step = step_t.item()
        grad = grad if not maximize else -grad
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
