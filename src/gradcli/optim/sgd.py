"""torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov, weight decay, maximize.

The update is PyTorch 2.13's ``_single_tensor_sgd`` (torch/optim/sgd.py) operation by operation, for each
parameter with a gradient::

    grad = grad if not maximize else -grad
    if weight_decay != 0: grad = grad.add(param, alpha=weight_decay)
    if momentum != 0:
        buf = grad.detach().clone()                                   (first step)
        buf.mul_(momentum).add_(grad, alpha=1 - dampening)            (later steps)
        grad = grad.add(buf, alpha=momentum) if nesterov else buf
    param.add_(grad, alpha=-lr)

``add(..., alpha=)`` is one fused multiply-add in PyTorch's kernel, and in gradcli's (autograd/fma.py), so
parameters after N steps are PyTorch's bit for bit (tests/optim/test_update_bytes.py).
"""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..errors import ValueErrorKind
from .optimizer import Optimizer, grad_of, python_errors, check_le, check_lt, scalar

__all__ = ["SGD"]


class SGD(Optimizer):
    """``torch.optim.SGD(params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False)``.  State per parameter: ``momentum_buffer`` (when momentum != 0).  Raises PyTorch's
    ValueError (kind ``runtime``) for a negative lr/momentum/weight_decay and for nesterov without momentum
    or with dampening."""
    __module__ = "torch.optim.sgd"  # printed as PyTorch's class

    @python_errors
    def __init__(self, params: Any, lr: Any = 1e-3, momentum: Any = 0, dampening: Any = 0,
                 weight_decay: Any = 0, nesterov: bool = False, *, maximize: bool = False, foreach=None,
                 differentiable: bool = False, fused=None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueErrorKind("Tensor lr must be 1-element")
        if check_lt(lr, 0.0):
            raise ValueErrorKind(f"Invalid learning rate: {lr}")
        if check_lt(momentum, 0.0):
            raise ValueErrorKind(f"Invalid momentum value: {momentum}")
        if check_lt(weight_decay, 0.0):
            raise ValueErrorKind(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
            "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (check_le(momentum, 0) or dampening != 0):
            raise ValueErrorKind("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _set_state_defaults(self) -> None:
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _step_group(self, group: dict) -> None:
        params: list[Tensor] = []
        grads: list[Tensor] = []
        bufs: list = []
        momentum = group["momentum"]
        state = self.state
        for p in group["params"]:
            g = grad_of(p)
            if g is not None:
                params.append(p)
                grads.append(g)
                if momentum != 0:
                    bufs.append(state[p].get("momentum_buffer"))
        _single_tensor_sgd(params, grads, bufs, weight_decay=scalar(group["weight_decay"]), momentum=momentum,
                           lr=scalar(group["lr"]), dampening=group["dampening"], nesterov=group["nesterov"],
                           maximize=group["maximize"])
        if momentum != 0:
            for p, buf in zip(params, bufs):
                state[p]["momentum_buffer"] = buf


def _single_tensor_sgd(params, grads, bufs, *, weight_decay, momentum, lr, dampening, nesterov, maximize) -> None:
    """PyTorch's ``_single_tensor_sgd`` (see the module docstring); ``bufs`` is updated in place."""
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = bufs[i]
            if buf is None:
                buf = grad.detach().clone()
                bufs[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            if nesterov:
                grad = grad.add(buf, alpha=momentum)
            else:
                grad = buf
        param.add_(grad, alpha=-lr)
