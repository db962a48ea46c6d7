"""The deprecated out-of-place ``Tensor.resize(*sizes)`` / ``Tensor.resize_as(other)``.

PyTorch 2.13 defines them in Python (``torch/_tensor.py``): each warns ("non-inplace resize is deprecated",
a UserWarning at the caller's line) and applies the custom Function ``torch.autograd._functions.Resize``, so
the output's ``grad_fn`` is ``ResizeBackward`` (a Python Function node, no ``0`` suffix).  ``Resize.forward``
checks that the element count is unchanged (its RuntimeError text below, verbatim, including the trailing
space); backward reshapes the gradient back to the input's size.  The sizes are taken as given (``resize((2, 3))`` fails the count
check, as in PyTorch, because ``reduce(mul, ((2, 3),), 1)`` is the tuple itself).  The output is
``input.contiguous().view(*sizes)``: a view of a contiguous input (also under no_grad, where it then
requires grad like any view of such an input), a fresh tensor otherwise.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any

from ..autograd.function import Function
from ..errors import error_class, warn
from ._core import Tensor
from .registry import register

__all__ = ["Resize", "resize", "resize_as"]


class Resize(Function):
    """torch.autograd._functions.tensor.Resize, line for line."""

    _gradcli_module = "torch.autograd._functions.tensor"

    @staticmethod
    def forward(ctx: Any, tensor: Tensor, sizes: tuple) -> Tensor:
        ctx.sizes = sizes
        ctx.numel = reduce(operator.mul, sizes, 1)
        if tensor.numel() != ctx.numel:
            raise error_class("runtime")(
                "requested resize to {} ({} elements in total), but the given tensor has a size of {} ({} "
                "elements). autograd's resize can only change the shape of a given tensor, while preserving "
                "the number of elements. ".format("x".join(map(str, sizes)), ctx.numel,
                                                  "x".join(map(str, tensor.size())), tensor.numel()))
        ctx.input_sizes = tensor.size()
        # PyTorch: tensor.new(tensor).contiguous().view(*sizes); new(tensor) aliases, so a contiguous input's
        # output is a view of it (``_base`` is the input; in place on it is the custom-Function view error)
        return tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx: Any, grad_output: Tensor) -> tuple:
        return grad_output.contiguous().view(ctx.input_sizes), None


def resize(input: Tensor, *sizes: Any) -> Tensor:
    """``Tensor.resize`` (torch/_tensor.py): warns, then ``Resize.apply(self, sizes)``."""
    warn("other", "non-inplace resize is deprecated")
    return Resize.apply(input, sizes)


def resize_as(input: Tensor, tensor: Tensor) -> Tensor:
    """``Tensor.resize_as`` (torch/_tensor.py): warns, then ``Resize.apply(self, tensor.size())``."""
    warn("other", "non-inplace resize_as is deprecated")
    return Resize.apply(input, tuple(tensor.size()))


register("resize", resize, "shape", torch=(), nodes=("ResizeBackward",), formula="self: grad.view(self.sizes())")
register("resize_as", resize_as, "shape", torch=(), nodes=("ResizeBackward",),
         formula="self: grad.view(self.sizes())")
