"""Full backward hooks of nn.Module (``torch/utils/hooks.py`` BackwardHook, PyTorch 2.13).

``register_full_backward_hook(hook)`` makes ``module(x)`` pass its tensor inputs and its tensor outputs
through ``BackwardHookFunction`` (an identity custom Function: the outputs' ``grad_fn`` is
``BackwardHookFunctionBackward``).  A post hook on the output-side node records the gradients w.r.t. the
outputs (after the full backward pre-hooks, which may replace them); a post hook on the input-side node
then calls ``hook(module, grad_input, grad_output)``, whose non-None result replaces the gradients w.r.t.
the inputs.  When no input requires grad, the hook fires from the output side with ``grad_input`` all None,
after PyTorch's warning.  Non-tensor arguments are None in ``grad_input``.
"""

from __future__ import annotations

from typing import Any

from ..errors import python_errors
from ..autograd import grad_mode
from ..autograd.function import Function
from ..autograd.tensor import Tensor
from ..errors import warn
from ._errors import nn_error

__all__ = ["BackwardHook", "BackwardHookFunction", "register_non_full_hooks"]

_NO_INPUT_GRAD = ("Full backward hook is firing when gradients are computed with respect to module outputs since no "
                  "inputs require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                  "#torch.nn.Module.register_full_backward_hook for more details.")


class BackwardHookFunction(Function):
    """The identity Function whose node carries a module's backward hooks (torch.nn.modules._functions)."""

    _gradcli_module = "torch.nn.modules._functions"

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Any:
        return args


class BackwardHook:
    """One module call's backward-hook wiring (see the module docstring)."""

    def __init__(self, module: Any, user_hooks: list, user_pre_hooks: list) -> None:
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs: Any = None
        self.n_outputs = -1
        self.output_tensors_index: Any = None
        self.n_inputs = -1
        self.input_tensors_index: Any = None

    @staticmethod
    def _pack_with_none(indices: list, values: tuple, size: int) -> tuple:
        res: list = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices: list, values: tuple) -> tuple:
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn: Any) -> None:
        def hook(grad_input: tuple, _: tuple) -> Any:
            if self.grad_outputs is None:
                return None
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise nn_error(RuntimeError, "Backward hook returned an invalid number of grad_input, got "
                                   f"{len(out)}, but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)

        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn: Any, args: tuple) -> tuple:
        tensors_idx = []
        tensors = []
        requires_grad = False
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensors_idx.append(i)
                tensors.append(arg)
                requires_grad |= arg.requires_grad
        if not (requires_grad and grad_mode.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        if len(new_tensors) == 0:
            raise nn_error(RuntimeError, "Cannot set Module backward hook for a Module with no input Tensors.")
        grad_fns = [t.grad_fn for t in new_tensors
                    if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"]
        if not grad_fns:  # pragma: no cover - PyTorch's "please open an issue" case
            raise nn_error(RuntimeError, "Error while setting up backward hooks.")
        fn(grad_fns[0])
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return tuple(arg_list), tensors_idx

    def setup_input_hook(self, args: tuple) -> tuple:
        res, input_idx = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args: Any) -> Any:
        def fn(grad_fn: Any) -> None:
            def hook(_: tuple, grad_output: tuple) -> Any:
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                if self.user_pre_hooks:
                    expected = len(self.grad_outputs)
                    for pre in self.user_pre_hooks:
                        out = pre(self.module, self.grad_outputs)
                        if out is None:
                            continue
                        if len(out) != expected:
                            raise nn_error(RuntimeError, "Backward pre hook returned an invalid number of "
                                           f"grad_output, got {len(out)}, but expected {expected}")
                        self.grad_outputs = out
                local = self.grad_outputs
                if self.input_tensors_index is None:
                    warn("other", _NO_INPUT_GRAD)
                    grad_inputs = self._pack_with_none([], (), self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise nn_error(RuntimeError, "Backward hook for Modules where no input requires "
                                           "gradient should always return None or None for all gradients.")
                    self.grad_outputs = None
                if local is not None:
                    return tuple(local[i] for i in self.output_tensors_index)
                return None

            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, output_idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx
        return res if is_tuple else res[0]


# --- the deprecated non-full hooks (Module.register_backward_hook) -------------------------------------------

_FW = "is deprecated and will be removed in future versions."
_NON_FULL_WARNINGS = {
    "output": ("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple of Tensors "
               f"{_FW} This hook will be missing some of the grad_output. Please use register_full_backward_hook to "
               "get the documented behavior."),
    "input": ("Using non-full backward hooks on a Module that does not take as input a single Tensor or a tuple of "
              f"Tensors {_FW} This hook will be missing some of the grad_input. Please use "
              "register_full_backward_hook to get the documented behavior."),
    "nested": ("Using a non-full backward hook when outputs are nested in python data structure "
               f"{_FW} This hook will be missing some grad_output."),
    "nodes": ("Using a non-full backward hook when outputs are generated by different autograd Nodes "
              f"{_FW} This hook will be missing some grad_output. Please use register_full_backward_hook to get "
              "the documented behavior."),
    "multiple": ("Using a non-full backward hook when the forward contains multiple autograd Nodes "
                 f"{_FW} This hook will be missing some grad_input. Please use register_full_backward_hook to get "
                 "the documented behavior."),
}


@python_errors  # (a forward returning None or a number fails in PyTorch's loop with Python's TypeError too)
def register_non_full_hooks(module: Any, hooks: list, args: tuple, result: Any) -> None:
    """PyTorch's ``_call_impl`` for non-full backward hooks: ``hook(module, grad_input, grad_output)`` on the
    ``grad_fn`` of the result's first tensor (``Node.register_hook``), then
    ``_maybe_warn_non_full_backward_hook``'s FutureWarning, if any (kind ``other``)."""
    var = result
    while not isinstance(var, Tensor):
        if isinstance(var, dict):
            var = next(v for v in var.values() if isinstance(v, Tensor))
        else:
            var = var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(lambda grad_input, grad_output, h=hook: h(module, grad_input, grad_output))
    why = _non_full_warning(args, result, grad_fn)
    if why is not None:
        warn("other", _NON_FULL_WARNINGS[why])


def _non_full_warning(inputs: Any, result: Any, grad_fn: Any) -> Any:
    if not isinstance(result, Tensor):
        if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
            return "output"
    else:
        result = (result,)
    if not isinstance(inputs, Tensor):
        if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
            return "input"
    else:
        inputs = (inputs,)
    out_grad_fn = {id(r.grad_fn): r.grad_fn for r in result if r.grad_fn is not None}
    if not out_grad_fn or (len(out_grad_fn) == 1 and id(grad_fn) not in out_grad_fn):
        return "nested"
    if len(out_grad_fn) > 1:
        return "nodes"
    inputs_grad_fn = {id(i.grad_fn) for i in inputs if i.grad_fn is not None}
    next_functions = {id(n[0]) for n in grad_fn.next_functions}
    return "multiple" if inputs_grad_fn != next_functions else None
