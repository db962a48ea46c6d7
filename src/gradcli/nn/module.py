"""torch.nn.Module: parameters, buffers and submodules registered by attribute assignment, hooks, modes.

Follows ``torch/nn/modules/module.py`` of PyTorch 2.13 line by line where a file can see the difference:

* ``__setattr__`` registers a :class:`~gradcli.nn.parameter.Parameter` in ``_parameters`` and a Module in
  ``_modules`` (removing the name from the other stores), refuses a plain tensor over a parameter and a
  non-module over a submodule with PyTorch's TypeErrors, and raises "cannot assign parameters before
  Module.__init__() call" when ``super().__init__()`` was not called; ``__getattr__`` (only reached when
  normal lookup fails) reads the three stores; ``__delattr__`` removes from them;
* ``__call__`` is ``_call_impl``: forward pre-hooks (``hook(module, args)``, may replace the args),
  ``forward``, forward hooks (``hook(module, args, output)``, may replace the output), ``with_kwargs`` and
  ``prepend`` as in PyTorch; full backward hooks through :mod:`gradcli.nn.backward_hook`;
* ``named_modules`` / ``named_parameters`` / ``children`` walk in PyTorch's order with its memo sets
  (a module or parameter reached twice is listed once); ``train``/``apply``/``_apply``/``state_dict``/
  ``__repr__`` recurse into children as PyTorch does -- a module that holds itself makes PyTorch recurse
  until Python's RecursionError, which gradcli raises at once (kind ``runtime``, as the oracle maps it),
  naming the cycle;
* ``state_dict`` / ``load_state_dict`` with PyTorch's keys, strict checks and messages; ``to(dtype)`` /
  ``double()`` / ``float()`` / ``half()`` change parameters in place through ``.data``, as PyTorch's
  ``_apply`` does on CPU.

Exposure (docs/ARCHITECTURE.md): ``_gradcli_public``/``_gradcli_settable`` are
:data:`gradcli.exposure.DYNAMIC`: a file reads any non-``_`` attribute as Python finds it (instance
attributes, methods of the class -- the file's own methods are bound by ``lang/classes.py`` --, then the
three stores), and assigns any non-``_`` name through ``__setattr__``.  Every non-``_`` attribute of the
engine's Module classes is PyTorch API; their internals all start with ``_``, which the file cannot name.

Adding a layer is one class: subclass :class:`Module`, set ``__module__`` to PyTorch's module path
(``print(nn.Linear)`` shows it), create parameters in ``__init__`` as PyTorch does (same random draws),
write ``forward`` with the engine's ops and ``extra_repr``.
"""

from __future__ import annotations

import collections
import itertools
from typing import Any, Callable, Iterator, Optional

from ..autograd import grad_mode
from ..autograd import graph as _graph
from ..autograd.tensor import Tensor
from ..errors import GradcliError, python_errors
from ..exposure import DYNAMIC, mark_subclassable
from ._errors import NNAttributeError, nn_error
from .parameter import Parameter, typename

__all__ = ["Module", "HookHandle", "call_log", "module_path_names", "_addindent"]

#: (first node sequence number, last + 1, module) of each Module call, innermost calls after their
#: callers' entries are opened: ``gradcli graph`` labels a node with the innermost module call whose range
#: holds the node's sequence number (no per-op cost).  Bounded; cleared per run by :func:`reset`.
call_log: "collections.deque" = collections.deque(maxlen=200_000)


def reset() -> None:
    """Forget the module calls of the previous run."""
    call_log.clear()


def _node_seq(_graph: Any = _graph) -> int:
    # consuming one sequence number is harmless: only the order of sequence numbers matters
    return next(_graph._seq)


class HookHandle:
    """torch.utils.hooks.RemovableHandle of a module hook: ``remove()``, ``id``, a context manager."""

    _gradcli_public = frozenset({"remove", "id"})
    _next_id = itertools.count()

    def __init__(self, hooks: dict, *extra: dict) -> None:
        self._dicts = (hooks,) + extra
        self.id = next(HookHandle._next_id)

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        for d in self._dicts:
            d.pop(self.id, None)

    def __enter__(self) -> "HookHandle":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()

    def __repr__(self) -> str:
        return "<torch.utils.hooks.RemovableHandle object>"


def _addindent(s_: str, num_spaces: int) -> str:
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(num_spaces * " ") + line if line.strip() else "" for line in s]
    return first + "\n" + "\n".join(s)


class _Walk:
    """Guard of PyTorch's recursive walks over children: a module met again on the way down (it holds
    itself, directly or not) is Python's RecursionError in PyTorch; here at once, naming the cycle."""

    __slots__ = ("active",)

    def __init__(self) -> None:
        self.active: set = set()

    def enter(self, m: "Module") -> None:
        if id(m) in self.active:
            raise self.cycle(m)
        self.active.add(id(m))

    @staticmethod
    def cycle(m: "Module") -> Exception:
        return nn_error(RuntimeError, f"maximum recursion depth exceeded: the module {type(m).__name__} holds "
                        "itself (directly or through its submodules), so walking its children never ends",
                        "Do not assign a module to one of its own attributes.")

    def leave(self, m: "Module") -> None:
        self.active.discard(id(m))


_WALK = _Walk()


def _call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` for a forward or a hook: a TypeError of the call itself (wrong arguments for an
    engine method or a Python builtin, raised before its body runs) is the file's error, as in PyTorch
    ("BCELoss.forward() takes 3 positional arguments but 4 were given"), not a bug of gradcli."""
    try:
        return fn(*args, **kwargs)
    except TypeError as e:
        tb = e.__traceback__
        if tb is not None and tb.tb_next is None and not isinstance(e, GradcliError):
            raise nn_error(TypeError, str(e)) from None
        raise


def _forward_unimplemented(self: "Module", *input: Any) -> None:
    raise nn_error(NotImplementedError, f'Module [{type(self).__name__}] is missing the required "forward" function')


@mark_subclassable
class Module:
    """Base class of every layer and of a file's ``class Net(nn.Module)`` (torch.nn.Module)."""

    __module__ = "torch.nn.modules.module"
    _gradcli_public = DYNAMIC
    _gradcli_settable = DYNAMIC

    dump_patches = False
    call_super_init = False
    training: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs:
            raise nn_error(TypeError, f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                           f"'{next(iter(kwargs))}'")
        if args:
            raise nn_error(TypeError, f"{type(self).__name__}.__init__() takes 1 positional argument but "
                           f"{len(args) + 1} were given")
        sa = object.__setattr__
        sa(self, "training", True)
        sa(self, "_parameters", {})
        sa(self, "_buffers", {})
        sa(self, "_non_persistent_buffers_set", set())
        sa(self, "_backward_pre_hooks", {})
        sa(self, "_backward_hooks", {})
        sa(self, "_is_full_backward_hook", None)
        sa(self, "_forward_hooks", {})
        sa(self, "_forward_hooks_with_kwargs", {})
        sa(self, "_forward_hooks_always_called", {})
        sa(self, "_forward_pre_hooks", {})
        sa(self, "_forward_pre_hooks_with_kwargs", {})
        sa(self, "_modules", {})

    forward: Callable[..., Any] = _forward_unimplemented

    # --- exposure (lang/access.py) -----------------------------------------------------------
    def _gradcli_getattr(self, name: str) -> Any:
        try:
            return getattr(self, name)
        except NNAttributeError:
            raise
        except AttributeError as e:  # a property's own AttributeError: PyTorch's too (kind runtime)
            raise nn_error(AttributeError, str(e)) from None

    @classmethod
    def _gradcli_class_getattr(cls, name: str) -> Any:
        try:
            return getattr(cls, name)
        except AttributeError:
            raise nn_error(AttributeError, f"type object '{cls.__name__}' has no attribute '{name}'") from None

    def _gradcli_setattr(self, name: str, value: Any) -> None:
        try:
            setattr(self, name, value)
        except AttributeError as e:
            if isinstance(e, NNAttributeError):
                raise
            raise nn_error(AttributeError, str(e)) from None

    def _gradcli_delattr(self, name: str) -> None:
        try:
            delattr(self, name)
        except AttributeError as e:
            if isinstance(e, NNAttributeError):
                raise
            raise nn_error(AttributeError, str(e)) from None

    # --- registration ------------------------------------------------------------------------
    def register_buffer(self, name: str, tensor: Optional[Tensor], persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (kept in ``state_dict`` when persistent)."""
        if "_buffers" not in self.__dict__:
            raise nn_error(AttributeError, "cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise nn_error(TypeError, f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise nn_error(KeyError, 'buffer name can\'t contain "."')
        if name == "":
            raise nn_error(KeyError, 'buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise nn_error(KeyError, f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise nn_error(TypeError, f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                           "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Optional[Parameter]) -> None:
        """Add a parameter under ``name`` (``None`` registers an absent parameter, as ``bias=False``)."""
        if "_parameters" not in self.__dict__:
            raise nn_error(AttributeError, "cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise nn_error(TypeError, f"parameter name should be a string. Got {typename(name)}")
        if "." in name:
            raise nn_error(KeyError, 'parameter name can\'t contain "."')
        if name == "":
            raise nn_error(KeyError, 'parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise nn_error(KeyError, f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise nn_error(TypeError, f"cannot assign '{typename(param)}' object to parameter '{name}' "
                           "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise nn_error(ValueError, f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters "
                           f"must be created explicitly. To express '{name}' as a function of another Tensor, "
                           "compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module: Optional["Module"]) -> None:
        """Add a child module under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise nn_error(TypeError, f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise nn_error(TypeError, f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise nn_error(KeyError, f"attribute '{name}' already exists")
        if "." in name:
            raise nn_error(KeyError, f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise nn_error(KeyError, 'module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Optional["Module"]) -> None:
        """Alias of :meth:`add_module`."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        """The submodule at the dotted path ``target`` ('' is the module itself)."""
        if target == "":
            return self
        mod: Module = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise nn_error(AttributeError, mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise nn_error(AttributeError, "`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``."""
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise nn_error(AttributeError, mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise nn_error(AttributeError, "`" + param_name + "` is not an nn.Parameter")
        return param

    # --- attribute protocol (PyTorch's Module.__getattr__/__setattr__/__delattr__) ----------------
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        params = d.get("_parameters")
        if params is not None and name in params:
            return params[name]
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        modules = d.get("_modules")
        if modules is not None and name in modules:
            return modules[name]
        raise NNAttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__

        def remove_from(*stores: Any) -> None:
            for s in stores:
                if name in s:
                    if isinstance(s, dict):
                        del s[name]
                    else:
                        s.discard(name)

        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise nn_error(AttributeError, "cannot assign parameters before Module.__init__() call")
            remove_from(d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise nn_error(TypeError, f"cannot assign '{typename(value)}' as parameter '{name}' "
                               "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise nn_error(AttributeError, "cannot assign module before Module.__init__() call")
                remove_from(d, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise nn_error(TypeError, f"cannot assign '{typename(value)}' as child module '{name}' "
                                   "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise nn_error(TypeError, f"cannot assign '{typename(value)}' as buffer '{name}' "
                                       "(torch.nn.Buffer, torch.Tensor or None expected)")
                    self.register_buffer(name, value, name not in self._non_persistent_buffers_set)
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        if name in d.get("_parameters", ()):
            del self._parameters[name]
        elif name in d.get("_buffers", ()):
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in d.get("_modules", ()):
            del self._modules[name]
        elif name in d:
            object.__delattr__(self, name)
        else:
            raise NNAttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    # --- calling -----------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = _node_seq()
        entry = [start, None, self]
        call_log.append(entry)
        try:
            if not (self._forward_hooks or self._forward_pre_hooks or self._backward_hooks
                    or self._backward_pre_hooks):
                return _call(self.forward, *args, **kwargs)
            return self._call_with_hooks(args, kwargs)
        finally:
            entry[1] = _node_seq()

    def _call_with_hooks(self, args: tuple, kwargs: dict) -> Any:
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                res = _call(hook, self, args, kwargs)
                if res is not None:
                    if isinstance(res, tuple) and len(res) == 2:
                        args, kwargs = res
                    else:
                        raise nn_error(RuntimeError, "forward pre-hook must return None or a tuple of "
                                       f"(new_args, new_kwargs), but got {res}.")
            else:
                res = _call(hook, self, args)
                if res is not None:
                    if not isinstance(res, tuple):
                        res = (res,)
                    args = res
        bw_hook = None
        full = self._is_full_backward_hook is True
        if (full and self._backward_hooks) or self._backward_pre_hooks:
            from .backward_hook import BackwardHook

            bw_hook = BackwardHook(self, list(self._backward_hooks.values()) if full else [],
                                   list(self._backward_pre_hooks.values()))
            args = bw_hook.setup_input_hook(args)
        result = _call(self.forward, *args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                res = _call(hook, self, args, kwargs, result)
            else:
                res = _call(hook, self, args, result)
            if res is not None:
                result = res
        if bw_hook is not None:
            result = bw_hook.setup_output_hook(result)
        if self._backward_hooks and self._is_full_backward_hook is False:
            from .backward_hook import register_non_full_hooks

            register_non_full_hooks(self, list(self._backward_hooks.values()), args, result)
        return result

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """``hook(module, args)`` before every forward; a non-None result replaces the args."""
        handle = HookHandle(self._forward_pre_hooks, self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            _move_to_front(self._forward_pre_hooks, handle.id)
        return handle

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """``hook(module, args, output)`` after every forward; a non-None result replaces the output."""
        handle = HookHandle(self._forward_hooks, self._forward_hooks_with_kwargs, self._forward_hooks_always_called)
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            _move_to_front(self._forward_hooks, handle.id)
        return handle

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> HookHandle:
        """``hook(module, grad_input, grad_output)`` when the gradients w.r.t. the module's inputs are known."""
        if self._is_full_backward_hook is False:
            raise nn_error(RuntimeError, "Cannot use both regular backward hooks and full backward hooks on a "
                           "single Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", True)
        handle = HookHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            _move_to_front(self._backward_hooks, handle.id)
        return handle

    def register_backward_hook(self, hook: Callable) -> HookHandle:
        """The deprecated non-full backward hook ``hook(module, grad_input, grad_output)``: as PyTorch's, each
        call registers it on the ``grad_fn`` of the output's first tensor (``Node.register_hook``), so
        ``grad_input`` are that node's input gradients; a non-None result replaces them.  PyTorch's
        FutureWarnings for the cases where they are not the module's (``_maybe_warn_non_full_backward_hook``)."""
        if self._is_full_backward_hook is True:
            raise nn_error(RuntimeError, "Cannot use both regular backward hooks and full backward hooks on a "
                           "single Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", False)
        handle = HookHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False) -> HookHandle:
        """``hook(module, grad_output)`` before the gradients w.r.t. the module's inputs are computed."""
        handle = HookHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            _move_to_front(self._backward_pre_hooks, handle.id)
        return handle

    # --- walking -----------------------------------------------------------------------------
    def _named_members(self, get_members: Callable, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Any]]:
        memo: set = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield module_prefix + ("." if module_prefix else "") + k, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module and (``recurse``) its submodules, each once, in registration order."""
        for _name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)`` pairs: ``fc1.weight``, ``0.bias`` ..."""
        yield from self._named_members(lambda m: list(m._parameters.items()), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers of this module and (``recurse``) its submodules."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """``(dotted name, buffer)`` pairs."""
        yield from self._named_members(lambda m: list(m._buffers.items()), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def children(self) -> Iterator["Module"]:
        """The direct submodules, each once."""
        for _name, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, "Module"]]:
        """``(name, submodule)`` of the direct submodules, each module once."""
        memo: set = set()
        for name, module in list(self._modules.items()):
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self, remove_duplicate: bool = True) -> Iterator["Module"]:
        """This module and every submodule, depth first."""
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(self, memo: Optional[set] = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, "Module"]]:
        """``(dotted path, module)`` of this module ('' or ``prefix``) and every submodule, depth first."""
        if memo is None:
            memo = set()
        # PyTorch's recursion, as an explicit stack (pre-order; the memo is shared by the whole walk); without
        # the memo (remove_duplicate=False) a module on its own ancestor path recurses forever in PyTorch
        stack: list = [(prefix, self, frozenset())]
        while stack:
            pre, m, ancestors = stack.pop()
            if m in memo:
                continue
            if remove_duplicate:
                memo.add(m)
            elif id(m) in ancestors:
                raise _WALK.cycle(m)
            yield pre, m
            below = ancestors | {id(m)}
            kids = [(pre + ("." if pre else "") + name, sub, below) for name, sub in list(m._modules.items())
                    if sub is not None]
            stack.extend(reversed(kids))

    # --- modes -------------------------------------------------------------------------------
    def train(self, mode: bool = True) -> "Module":
        """Set ``training`` on this module and every submodule; returns self."""
        if not isinstance(mode, bool):
            raise nn_error(ValueError, "training mode is expected to be boolean")
        self.training = mode
        _WALK.enter(self)
        try:
            for module in self.children():
                module.train(mode)
        finally:
            _WALK.leave(self)
        return self

    def eval(self) -> "Module":
        """``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        """``p.requires_grad_(requires_grad)`` for every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad``: to None (default), or zero it in place."""
        for p in self.parameters():
            if p._grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    g = p._grad
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    def apply(self, fn: Callable[["Module"], Any]) -> "Module":
        """``fn(m)`` for every submodule (children first) and then self; returns self."""
        _WALK.enter(self)
        try:
            for module in self.children():
                module.apply(fn)
        finally:
            _WALK.leave(self)
        _call(fn, self)
        return self

    # --- conversion --------------------------------------------------------------------------
    def _apply(self, fn: Callable[[Tensor], Tensor]) -> "Module":
        _WALK.enter(self)
        try:
            for module in self.children():
                module._apply(fn)
        finally:
            _WALK.leave(self)
        for key, param in list(self._parameters.items()):
            if param is None:
                continue
            with grad_mode.no_grad():
                applied = fn(param)
            param.data = applied  # PyTorch on CPU: the same Parameter object, new data (``.data =``)
            grad = param._grad
            if grad is not None:
                with grad_mode.no_grad():
                    grad_applied = fn(grad)
                grad.data = grad_applied
        for key, buf in list(self._buffers.items()):
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args: Any, **kwargs: Any) -> "Module":
        """``to(dtype)`` / ``to(device)`` / ``to(tensor)``: floating parameters and buffers take the dtype."""
        from ..autograd import dtypes as dt

        from ..autograd import device as _device

        dtype = kwargs.pop("dtype", None)
        if kwargs.get("device") is not None:
            _device.check_device(kwargs["device"])  # a CUDA device or an index fails as PyTorch's CPU build
        kwargs.pop("device", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise nn_error(TypeError, f"to() received an invalid combination of arguments - got an unexpected "
                           f"keyword argument '{next(iter(kwargs))}'")
        for a in args:
            if isinstance(a, dt.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, bool):
                continue
            elif isinstance(a, (str, int)) or type(a).__name__ == "_Device":
                _device.check_device(a)  # ('cpu' passes; 'cuda' and an index fail as PyTorch's CPU build)
            else:
                raise nn_error(TypeError, f"to() received an invalid combination of arguments - got ({typename(a)})")
        if dtype is not None and not (dtype.is_floating_point or getattr(dtype, "is_complex", False)):
            raise nn_error(TypeError, "nn.Module.to only accepts floating point or complex dtypes, but got "
                           f"desired dtype={dtype}")

        def convert(t: Tensor) -> Tensor:
            if dtype is not None and t.is_floating_point():
                return t.to(dtype)
            return t

        return self._apply(convert)

    def double(self) -> "Module":
        """Floating parameters and buffers to float64."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def float(self) -> "Module":
        """Floating parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def half(self) -> "Module":
        """Floating parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def cpu(self) -> "Module":
        """A no-op: gradcli's tensors live on the CPU."""
        return self

    # --- state ------------------------------------------------------------------------------
    def state_dict(self, *args: Any, destination: Any = None, prefix: str = "", keep_vars: bool = False) -> Any:
        """An OrderedDict of every parameter and persistent buffer (detached unless ``keep_vars``)."""
        if args:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = collections.OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        _WALK.enter(self)
        try:
            for name, module in self._modules.items():
                if module is not None:
                    module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        finally:
            _WALK.leave(self)
        return destination

    def _load_from_state_dict(self, state_dict: dict, prefix: str, strict: bool, missing_keys: list,
                              unexpected_keys: list, error_msgs: list, assign: bool) -> None:
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, Tensor):
                    error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                      f"Tensor-like object from checkpoint but received {_py_type(input_param)}")
                    continue
                if param.dim() == 0 and input_param.dim() == 1 and input_param.shape[0] == 1:
                    input_param = input_param[0]
                if input_param.shape != param.shape:
                    error_msgs.append(f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                                      f"from checkpoint, the shape in current model is {param.shape}.")
                    continue
                with grad_mode.no_grad():
                    if assign:
                        if isinstance(param, Parameter) and not isinstance(input_param, Parameter):
                            input_param = Parameter(input_param, requires_grad=param.requires_grad)
                        elif isinstance(param, Parameter):
                            input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            elif strict:
                missing_keys.append(key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Any, strict: bool = True, assign: bool = False) -> "IncompatibleKeys":
        """Copy parameters and buffers from ``state_dict`` (PyTorch's key checks and messages)."""
        if not isinstance(state_dict, dict):
            raise nn_error(TypeError, f"Expected state_dict to be dict-like, got {_py_type(state_dict)}.")
        missing_keys: list = []
        unexpected_keys: list = []
        error_msgs: list = []
        state_dict = collections.OrderedDict(state_dict)

        def load(module: Module, local: dict, prefix: str = "") -> None:
            module._load_from_state_dict(local, prefix, True, missing_keys, unexpected_keys, error_msgs, assign)
            _WALK.enter(module)
            try:
                for name, child in module._modules.items():
                    if child is not None:
                        child_prefix = prefix + name + "."
                        load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
            finally:
                _WALK.leave(module)

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            text = "Error(s) in loading state_dict for {}:\n\t{}".format(self.__class__.__name__,
                                                                         "\n\t".join(error_msgs))
            # SPEC §4 reads "size mismatch" as a shape error, whatever the class
            raise nn_error(RuntimeError, text, kind="shape" if "size mismatch" in text else None)
        return IncompatibleKeys(missing_keys, unexpected_keys)

    # --- printing ----------------------------------------------------------------------------
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        """The text inside the parentheses of ``print(module)``; layers override it."""
        return ""

    def __repr__(self) -> str:
        extra_lines: list = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        _WALK.enter(self)
        try:
            for key, module in self._modules.items():
                mod_str = _addindent(repr(module), 2)
                child_lines.append("(" + key + "): " + mod_str)
        finally:
            _WALK.leave(self)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str


def _move_to_front(d: dict, key: Any) -> None:
    value = d.pop(key)
    items = list(d.items())
    d.clear()
    d[key] = value
    d.update(items)


def _py_type(v: Any) -> str:
    """``str(type(v))`` as PyTorch's messages print it (``<class 'list'>``, ``<class 'torch.Tensor'>``)."""
    if isinstance(v, Tensor):
        return "<class 'torch.nn.parameter.Parameter'>" if isinstance(v, Parameter) else "<class 'torch.Tensor'>"
    t = type(v)
    mod = t.__module__
    return f"<class '{t.__qualname__}'>" if mod == "builtins" else f"<class '{mod}.{t.__qualname__}'>"


class IncompatibleKeys(tuple):
    """What ``load_state_dict`` returns: ``missing_keys``, ``unexpected_keys`` (PyTorch's _IncompatibleKeys)."""

    _gradcli_public = frozenset({"missing_keys", "unexpected_keys", "count", "index"})

    def __new__(cls, missing_keys: list, unexpected_keys: list) -> "IncompatibleKeys":
        return tuple.__new__(cls, (missing_keys, unexpected_keys))

    @property
    def missing_keys(self) -> list:
        return self[0]

    @property
    def unexpected_keys(self) -> list:
        return self[1]

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, unexpected_keys={self.unexpected_keys!r})"

    __str__ = __repr__


#: the container protocol's methods (``model[1e30:]``: Python's slice TypeError, as PyTorch's list slicing)
_CONTAINER_DUNDERS = frozenset({"__getitem__", "__setitem__", "__delitem__", "__contains__", "__add__", "__iadd__",
                                "__mul__", "__rmul__", "__imul__"})


def python_errors_on_methods(cls: type) -> type:
    """Wrap each public method ``cls`` defines with :func:`errors.python_errors`: torch.nn.Module's methods are
    Python, so a value a file hands them (``load_state_dict({5: t})``, ``get_submodule(5)``) fails in PyTorch
    with Python's TypeError/AttributeError and its message -- in gradcli too, as PyTorch's kind, never as an
    internal error.  Dunders (``__call__`` runs the file's forward) but the container protocol's, properties and
    static methods stay as they are.  Returns ``cls``."""
    import functools
    import inspect

    def generator(fn):  # (a generator method fails while it is iterated, after the call returned)
        step, start = python_errors(next), python_errors(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            it = start(*args, **kwargs)
            while True:
                try:
                    item = step(it)
                except StopIteration:
                    return
                yield item

        return wrapper

    for name, fn in list(vars(cls).items()):
        if (not name.startswith("_") or name in _CONTAINER_DUNDERS) and inspect.isfunction(fn) \
                and not getattr(fn, "__wrapped__", None):
            setattr(cls, name, generator(fn) if inspect.isgeneratorfunction(fn) else python_errors(fn))
    return cls


python_errors_on_methods(Module)


def module_path_names(namespace: dict) -> dict:
    """``id(module) -> "model.fc1"`` for every module reachable from the top-level names of ``namespace``
    that are bound to modules (first binding and first path win)."""
    out: dict = {}
    for name, v in namespace.items():
        if not isinstance(v, Module) or name.startswith("__"):
            continue
        try:
            for path, m in v.named_modules():
                out.setdefault(id(m), name + ("." + path if path else ""))
        except Exception:  # pragma: no cover - a module the file broke: no labels for it
            continue
    return out
