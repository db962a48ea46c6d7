"""torch.optim.lr_scheduler: ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``LambdaLR``
(torch/optim/lr_scheduler.py).

As PyTorch 2.13's ``LRScheduler``: building one sets each group's ``initial_lr`` (or requires it when
``last_epoch`` is given), takes ``base_lrs`` from them and makes the initial step (``last_epoch`` 0);
``step()`` advances ``last_epoch`` and writes each group's new ``lr`` (the chainable form), ``step(epoch)``
uses the closed form and warns that the argument is deprecated; ``get_last_lr()`` is the list last written.
PyTorch's warnings come at the same calls: ``scheduler.step()`` before any ``optimizer.step()`` since the
scheduler was built (on the first ``scheduler.step()``), and ``get_lr()`` called directly.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Any, Callable

from ..autograd.tensor import Tensor
from ..errors import ArgumentTypeError, KeyErrorKind, ValueErrorKind, error_class, warn
from .optimizer import Optimizer, python_errors, type_name

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LambdaLR"]

_EPOCH_DEPRECATION = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where possible. Please "
    "use `scheduler.step()` to step the scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. Please open an issue if you are "
    "unable to replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")
_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should "
    "call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
    "result in PyTorch skipping the first value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
_GET_LR_WARNING = "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."


def _copy(v: Any) -> Any:
    return v.clone() if isinstance(v, Tensor) else v


def _group_values(optimizer: Optimizer, key: str) -> list:
    """``[group[key] for group in param_groups]``, tensors cloned (PyTorch's _param_groups_val_list)."""
    return [_copy(group[key]) for group in optimizer.param_groups]


def _set_group_value(group: dict, key: str, value: Any) -> None:
    if isinstance(group[key], Tensor):
        group[key].fill_(value.item() if isinstance(value, Tensor) else value)
    else:
        group[key] = value


class LRScheduler:
    """Base class of the learning-rate schedulers (``torch.optim.lr_scheduler.LRScheduler``).

    optimizer: a gradcli optimizer (TypeError "X is not an Optimizer" otherwise); last_epoch: -1 for a new
    schedule, else the epoch to resume from (each group must then have ``initial_lr``: PyTorch's KeyError).
    Attributes as PyTorch's: ``optimizer``, ``base_lrs``, ``last_epoch``; ``state_dict()`` holds every
    attribute but the optimizer, in PyTorch's order."""
    __module__ = "torch.optim.lr_scheduler"  # printed as PyTorch's class

    _gradcli_public = frozenset({
        "optimizer", "base_lrs", "last_epoch", "step", "get_last_lr", "get_lr", "state_dict", "load_state_dict",
    })
    _gradcli_settable = frozenset({"last_epoch", "base_lrs"})
    _get_lr_called_within_step = False
    _is_initial = False

    @python_errors
    def __init__(self, optimizer: Any, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise ArgumentTypeError(f"{type_name(optimizer)} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _copy(group["lr"]))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyErrorKind(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
                        "last_epoch >= 0.\nThis typically happens when:\n1. You're trying to resume training from "
                        "a checkpoint but haven't properly loaded the optimizer state\n2. You're using last_epoch "
                        ">= 0 for a fresh training run (not recommended)")
        self.base_lrs = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        optimizer._scheduled = True  # PyTorch wraps optimizer.step to record that it was called
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    # what state_dict() leaves out (PyTorch keeps the instance's attributes but the optimizer)
    _NOT_STATE = ("optimizer",)

    @python_errors
    def state_dict(self) -> dict:
        """Every attribute but the optimizer, in the order PyTorch's instance dict has them."""
        return {k: v for k, v in self.__dict__.items() if k not in self._NOT_STATE}

    @python_errors
    def load_state_dict(self, state_dict: dict) -> None:
        """Restore attributes from :meth:`state_dict` (PyTorch: ``self.__dict__.update(state_dict)``)."""
        if not isinstance(state_dict, dict):
            raise ArgumentTypeError(f"'{type(state_dict).__name__}' object is not iterable")
        for k, v in state_dict.items():
            if isinstance(k, str) and k != "optimizer":
                setattr(self, k, v)

    def get_last_lr(self) -> list:
        """The learning rates the last step wrote, one per parameter group."""
        return self._last_lr

    @python_errors
    def get_lr(self) -> list:
        """This schedule's next learning rates (called by ``step``; called directly it warns, as PyTorch)."""
        if not self._get_lr_called_within_step:
            warn("other", _GET_LR_WARNING)
        return self._compute_lr()

    def _compute_lr(self) -> list:  # pragma: no cover - each scheduler defines it
        raise NotImplementedError

    @python_errors
    def step(self, epoch: Any = None) -> None:
        """Advance one epoch (or to ``epoch``, with the closed form and a deprecation warning) and write the
        groups' ``lr``."""
        if self._step_count == 1 and not self.optimizer._opt_called:
            warn("other", _ORDER_WARNING)
        self._step_count += 1
        if epoch is not None:
            warn("other", _EPOCH_DEPRECATION)
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self._compute_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "_closed_form_lr", None)
                values = closed() if closed is not None else self._compute_lr()
        finally:
            self._get_lr_called_within_step = False
        groups = self.optimizer.param_groups
        if len(values) != len(groups):
            raise ValueErrorKind(f"zip() argument 2 is {'shorter' if len(values) < len(groups) else 'longer'} "
                                 "than argument 1")
        for group, lr in zip(groups, values):
            _set_group_value(group, "lr", lr)
        self._last_lr = _group_values(self.optimizer, "lr")


class StepLR(LRScheduler):
    """``StepLR(optimizer, step_size, gamma=0.1, last_epoch=-1)``: each group's lr times gamma every
    ``step_size`` epochs."""
    __module__ = "torch.optim.lr_scheduler"  # printed as PyTorch's class

    _gradcli_public = LRScheduler._gradcli_public | {"step_size", "gamma"}
    _gradcli_settable = LRScheduler._gradcli_settable | {"step_size", "gamma"}

    @python_errors
    def __init__(self, optimizer: Any, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _compute_lr(self) -> list:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs]


class MultiStepLR(LRScheduler):
    """``MultiStepLR(optimizer, milestones, gamma=0.1, last_epoch=-1)``: each group's lr times gamma at each
    milestone epoch (to the power of how often the epoch is listed).  ``milestones`` is PyTorch's
    ``Counter(milestones)`` (it prints as ``Counter({30: 1, 80: 1})``); the closed form counts the milestones
    passed with ``bisect_right`` over the sorted elements, as PyTorch's ``_get_closed_form_lr``."""
    __module__ = "torch.optim.lr_scheduler"  # printed as PyTorch's class

    _gradcli_public = LRScheduler._gradcli_public | {"milestones", "gamma"}
    _gradcli_settable = LRScheduler._gradcli_settable | {"milestones", "gamma"}

    @python_errors
    def __init__(self, optimizer: Any, milestones: Any, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _compute_lr(self) -> list:
        if self.last_epoch not in self.milestones:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch] for group in self.optimizer.param_groups]

    def _closed_form_lr(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [base_lr * self.gamma ** bisect_right(milestones, self.last_epoch) for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """``ExponentialLR(optimizer, gamma, last_epoch=-1)``: each group's lr times gamma every epoch."""
    __module__ = "torch.optim.lr_scheduler"  # printed as PyTorch's class

    _gradcli_public = LRScheduler._gradcli_public | {"gamma"}
    _gradcli_settable = LRScheduler._gradcli_settable | {"gamma"}

    @python_errors
    def __init__(self, optimizer: Any, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _compute_lr(self) -> list:
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _closed_form_lr(self) -> list:
        return [base_lr * self.gamma ** self.last_epoch for base_lr in self.base_lrs]


class LambdaLR(LRScheduler):
    """``LambdaLR(optimizer, lr_lambda, last_epoch=-1)``: lr = initial lr times ``lr_lambda(epoch)``; one function,
    or a list with one per group (PyTorch's ValueError when the count differs)."""
    __module__ = "torch.optim.lr_scheduler"  # printed as PyTorch's class

    _gradcli_public = LRScheduler._gradcli_public | {"lr_lambdas"}
    _NOT_STATE = ("optimizer", "lr_lambdas")

    @python_errors
    def __init__(self, optimizer: Any, lr_lambda: Callable | list, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        if not isinstance(optimizer, Optimizer):  # PyTorch reads optimizer.param_groups first (AttributeError)
            raise error_class("runtime")(f"'{type_name(optimizer)}' object has no attribute 'param_groups'",
                                         torch_type=AttributeError)
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas = [lr_lambda] * len(optimizer.param_groups)
        else:
            n = len(optimizer.param_groups)
            if len(lr_lambda) != n:
                raise ValueErrorKind(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    @python_errors
    def state_dict(self) -> dict:
        """As PyTorch: the attributes but the optimizer and the functions, plus ``lr_lambdas`` as None each."""
        out = super().state_dict()
        out["lr_lambdas"] = [None] * len(self.lr_lambdas)
        return out

    @python_errors
    def load_state_dict(self, state_dict: dict) -> None:
        """Restore attributes; the functions stay this scheduler's."""
        state_dict = dict(state_dict)
        state_dict.pop("lr_lambdas", None)
        super().load_state_dict(state_dict)

    def _compute_lr(self) -> list:
        return [base_lr * lmbda(self.last_epoch) for lmbda, base_lr in zip(self.lr_lambdas, self.base_lrs)]
