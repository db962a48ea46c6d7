"""torch.optim.RMSprop (alpha, eps, weight_decay, momentum, centered, maximize).

The update is PyTorch 2.13's ``_single_tensor_rmsprop`` (torch/optim/rmsprop.py) operation by operation::

    grad = grad if not maximize else -grad
    step += 1
    if weight_decay != 0: grad = grad.add(param, alpha=weight_decay)
    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
    centered: grad_avg.lerp_(grad, 1 - alpha); avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
    else:     avg = square_avg.sqrt()
    avg = avg.add_(eps)
    momentum > 0: buf.mul_(momentum).addcdiv_(grad, avg); param.add_(buf, alpha=-lr)
    else:         param.addcdiv_(grad, avg, value=-lr)

Bit for bit as PyTorch except where its MKL square root is not correctly rounded (see optim/adam.py).
"""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..ops import creation
from .optimizer import Optimizer, grad_of, python_errors, check_hyperparameters, scalar, scalar_dtype

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """``torch.optim.RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
    capturable=False, foreach=None, maximize=False)``.  State per parameter: ``step``, ``square_avg``,
    ``momentum_buffer`` (momentum > 0), ``grad_avg`` (centered).  PyTorch's ValueError (kind ``runtime``) for a
    negative lr/eps/momentum/weight_decay/alpha."""
    __module__ = "torch.optim.rmsprop"  # printed as PyTorch's class

    @python_errors
    def __init__(self, params: Any, lr: Any = 1e-2, alpha: Any = 0.99, eps: Any = 1e-8, weight_decay: Any = 0,
                 momentum: Any = 0, centered: bool = False, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        check_hyperparameters(lr, ("epsilon value", eps), ("momentum value", momentum),
                              ("weight_decay value", weight_decay), ("alpha value", alpha))
        defaults = {
            "lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
            "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach, "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _set_state_defaults(self) -> None:
        for group in self.param_groups:
            for key, default in (("momentum", 0), ("centered", False), ("foreach", None), ("maximize", False),
                                 ("differentiable", False), ("capturable", False)):
                group.setdefault(key, default)
            for p in group["params"]:
                st = self.state.get(p, [])
                if len(st) != 0 and not isinstance(st["step"], Tensor):
                    st["step"] = creation.tensor(float(st["step"]), dtype=scalar_dtype())

    def _step_group(self, group: dict) -> None:
        params, grads, square_avgs, grad_avgs, bufs, steps = [], [], [], [], [], []
        momentum, centered = group["momentum"], group["centered"]
        state = self.state
        for p in group["params"]:
            g = grad_of(p)
            if g is None:
                continue
            params.append(p)
            grads.append(g)
            st = state[p]
            if len(st) == 0:
                st["step"] = creation.zeros((), dtype=scalar_dtype())
                st["square_avg"] = creation.zeros_like(p)
                if momentum > 0:
                    st["momentum_buffer"] = creation.zeros_like(p)
                if centered:
                    st["grad_avg"] = creation.zeros_like(p)
            square_avgs.append(st["square_avg"])
            steps.append(st["step"])
            if momentum > 0:
                bufs.append(st["momentum_buffer"])
            if centered:
                grad_avgs.append(st["grad_avg"])
        _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, bufs, steps, lr=scalar(group["lr"]),
                               alpha=group["alpha"], eps=group["eps"], weight_decay=scalar(group["weight_decay"]),
                               momentum=momentum, centered=centered, maximize=group["maximize"])


def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, bufs, steps, *, lr, alpha, eps, weight_decay,
                           momentum, centered, maximize) -> None:
    """PyTorch's ``_single_tensor_rmsprop`` (see the module docstring)."""
    for i, param in enumerate(params):
        step = steps[i]
        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]
        step += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buf = bufs[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
