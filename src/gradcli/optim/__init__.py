"""torch.optim for gradcli: optimizers written as PyTorch's single-tensor update loops, and lr schedulers.

Above ``ops/`` and below ``api.py`` (DESIGN.md "Where real-code support goes"): every update uses only the
engine's public tensor ops, run with grad mode off as PyTorch's ``step()`` does, so values, version counters
and (not) recorded history are PyTorch's.

* :mod:`.optimizer` -- the ``Optimizer`` base: param groups, ``state``, ``zero_grad``, ``state_dict``;
* :mod:`.sgd`, :mod:`.adam` (Adam, AdamW), :mod:`.rmsprop`, :mod:`.adagrad` -- the update loops;
* :mod:`.lr_scheduler` -- ``StepLR``, ``MultiStepLR``, ``ExponentialLR``, ``LambdaLR``.
"""

from __future__ import annotations

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
