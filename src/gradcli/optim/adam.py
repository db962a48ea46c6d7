"""torch.optim.Adam and AdamW (AdamW is Adam with ``decoupled_weight_decay=True``).

The update is PyTorch 2.13's ``_single_tensor_adam`` (torch/optim/adam.py, the non-capturable branch)
operation by operation, for each parameter with a gradient::

    grad = grad if not maximize else -grad
    step_t += 1                                            (a float32 0-d tensor, state["step"])
    weight decay: param.mul_(1 - lr * wd) (decoupled) or grad = grad.add(param, alpha=wd)
    exp_avg.lerp_(grad, 1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    step = step_t.item(); bias_correction1 = 1 - beta1 ** step; bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1; bias_correction2_sqrt = bias_correction2 ** 0.5
    amsgrad: torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq); denom from max_exp_avg_sq
    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-step_size)

``lerp_`` and ``addcmul_`` are fused multiply-adds as in PyTorch's kernels (autograd/fma.py).  One op is not
bit for bit: PyTorch's CPU ``sqrt`` comes from MKL's vector math library and is not correctly rounded (about
one float32 element in five differs from numpy's exact square root by one ulp), so ``denom`` may differ by an
ulp there; every other operation is PyTorch's to the bit (tests/optim/test_update_bytes.py records PyTorch's
loop with an exact square root to check that, and the real loop within an ulp-sized tolerance).
"""

from __future__ import annotations

from typing import Any

from ..autograd.tensor import Tensor
from ..errors import ValueErrorKind
from ..ops import creation
from ..ops.elementwise import maximum
from .optimizer import Optimizer, grad_of, python_errors, check_hyperparameters, check_le, check_lt, getitem, scalar, scalar_dtype

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """``torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
    maximize=False, decoupled_weight_decay=False)``.  State per parameter: ``step`` (a 0-d float tensor),
    ``exp_avg``, ``exp_avg_sq``, and ``max_exp_avg_sq`` with amsgrad.  Raises PyTorch's ValueError (kind
    ``runtime``) for a negative lr/eps/weight_decay, a beta outside [0, 1), betas that are not both floats."""
    __module__ = "torch.optim.adam"  # printed as PyTorch's class

    @python_errors
    def __init__(self, params: Any, lr: Any = 1e-3, betas: Any = (0.9, 0.999), eps: Any = 1e-8,
                 weight_decay: Any = 0, amsgrad: bool = False, *, foreach=None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool = False) -> None:
        check_hyperparameters(lr, ("epsilon value", eps))
        b0, b1 = getitem(betas, 0), getitem(betas, 1)
        if not (check_le(0.0, b0) and check_lt(b0, 1.0)):
            raise ValueErrorKind(f"Invalid beta parameter at index 0: {b0}")
        if not (check_le(0.0, b1) and check_lt(b1, 1.0)):
            raise ValueErrorKind(f"Invalid beta parameter at index 1: {b1}")
        if not check_le(0.0, weight_decay):
            raise ValueErrorKind(f"Invalid weight_decay value: {weight_decay}")
        if not ((isinstance(b0, float) and isinstance(b1, float)) or
                (isinstance(b0, Tensor) and isinstance(b1, Tensor))):
            raise ValueErrorKind("betas must be either both floats or both Tensors")
        for i, b in ((0, b0), (1, b1)):
            if isinstance(b, Tensor) and b.numel() != 1:
                raise ValueErrorKind(f"Tensor betas[{i}] must be 1-element")
        betas = tuple(x.squeeze() if isinstance(x, Tensor) and x.dim() != 0 else x for x in betas)
        defaults = {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
            "maximize": maximize, "foreach": foreach, "capturable": capturable, "differentiable": differentiable,
            "fused": fused, "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

    def _set_state_defaults(self) -> None:
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            group.setdefault("fused", None)
            for p in group["params"]:
                st = self.state.get(p, [])
                if len(st) != 0 and not isinstance(st["step"], Tensor):
                    st["step"] = creation.tensor(float(st["step"]), dtype=scalar_dtype())

    def _step_group(self, group: dict) -> None:
        params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = [], [], [], [], [], []
        amsgrad = group["amsgrad"]
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
                st["exp_avg"] = creation.zeros_like(p)
                st["exp_avg_sq"] = creation.zeros_like(p)
                if amsgrad:
                    st["max_exp_avg_sq"] = creation.zeros_like(p)
            exp_avgs.append(st["exp_avg"])
            exp_avg_sqs.append(st["exp_avg_sq"])
            if amsgrad:
                max_exp_avg_sqs.append(st["max_exp_avg_sq"])
            steps.append(st["step"])
        beta1, beta2 = group["betas"]
        _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, amsgrad=amsgrad,
                            beta1=scalar(beta1), beta2=scalar(beta2), lr=scalar(group["lr"]),
                            weight_decay=scalar(group["weight_decay"]), eps=group["eps"],
                            maximize=group["maximize"], decoupled_weight_decay=group["decoupled_weight_decay"])


def _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, *, amsgrad, beta1, beta2,
                        lr, weight_decay, eps, maximize, decoupled_weight_decay) -> None:
    """PyTorch's ``_single_tensor_adam`` (see the module docstring); updates params and state in place."""
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = step_t.item()
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        if amsgrad:
            max_sq = max_exp_avg_sqs[i]
            max_sq.copy_(maximum(max_sq, exp_avg_sq))  # torch.maximum(..., out=max_sq): same values, one bump
            denom = (max_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)


class AdamW(Adam):
    """``torch.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
    maximize=False)``: Adam whose weight decay multiplies the parameter by ``1 - lr * weight_decay`` instead of
    adding to the gradient."""
    __module__ = "torch.optim.adamw"  # printed as PyTorch's class

    @python_errors
    def __init__(self, params: Any, lr: Any = 1e-3, betas: Any = (0.9, 0.999), eps: Any = 1e-8,
                 weight_decay: Any = 1e-2, amsgrad: bool = False, *, maximize: bool = False, foreach=None,
                 capturable: bool = False, differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def _set_state_defaults(self) -> None:
        super()._set_state_defaults()
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True

