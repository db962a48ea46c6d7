"""torch.nn.Sequential, ModuleList, ModuleDict, ParameterList (``torch/nn/modules/container.py``).

Submodules are registered under ``"0"``, ``"1"`` ... (Sequential, ModuleList) or their keys (ModuleDict),
so ``named_parameters()`` names them ``0.weight``; indexing, slicing, ``len``, iteration, ``append`` /
``extend`` / ``insert`` / ``pop`` / ``del`` and ``+`` behave as PyTorch's, with its messages;
``print(ModuleList)`` folds repeated blocks (``(0-2): 3 x Linear(...)``) as PyTorch does.
"""

from __future__ import annotations

import collections
import operator
from typing import Any, Iterable, Iterator

from ._errors import nn_error
from .module import Module, _addindent, python_errors_on_methods
from ..autograd.tensor import Tensor
from .parameter import Parameter, typename

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList"]

_MOD = "torch.nn.modules.container"


def _index(idx: Any) -> int:
    try:
        return operator.index(idx)
    except TypeError as e:
        raise nn_error(TypeError, str(e)) from None


def _iterable(x: Any) -> bool:
    try:
        iter(x)
    except TypeError:
        return False
    return True


class Sequential(Module):
    """Modules called one after another: ``forward(x)`` is ``m_n(...m_1(m_0(x)))``."""

    __module__ = _MOD

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], collections.OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator: Iterable, idx: Any) -> Any:
        size = len(self)
        idx = _index(idx)
        if not -size <= idx < size:
            raise nn_error(IndexError, f"index {idx} is out of range")
        idx %= size
        return list(iterator)[idx]

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return self.__class__(collections.OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx: int, module: Module) -> None:
        key = self._get_item_by_idx(self._modules.keys(), idx)
        setattr(self, key, module)

    def __delitem__(self, idx: Any) -> None:
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            key = self._get_item_by_idx(self._modules.keys(), idx)
            delattr(self, key)
        str_indices = [str(i) for i in range(len(self._modules))]
        object.__setattr__(self, "_modules", collections.OrderedDict(zip(str_indices, self._modules.values())))

    def __len__(self) -> int:
        return len(self._modules)

    def __add__(self, other: Any) -> "Sequential":
        if isinstance(other, Sequential):
            ret = Sequential()
            for layer in self:
                ret.append(layer)
            for layer in other:
                ret.append(layer)
            return ret
        raise nn_error(ValueError, "add operator supports only objects of Sequential class, but "
                       f"{_py_class(other)} is given.")

    def __iadd__(self, other: Any) -> "Sequential":
        if isinstance(other, Sequential):
            offset = len(self)
            for i, module in enumerate(other):
                self.add_module(str(i + offset), module)
            return self
        raise nn_error(ValueError, "add operator supports only objects of Sequential class, but "
                       f"{_py_class(other)} is given.")

    def pop(self, key: Any) -> Module:
        """Remove and return the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))

    def forward(self, input: Any) -> Any:
        for module in self:
            input = module(input)
        return input

    def append(self, module: Module) -> "Sequential":
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> "Sequential":
        """Insert ``module`` before position ``index``; returns self."""
        if not isinstance(module, Module):
            raise nn_error(AssertionError, "module should be of type: <class 'torch.nn.modules.module.Module'>")
        n = len(self._modules)
        if not (-n <= index <= n):
            raise nn_error(IndexError, f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential: Iterable[Module]) -> "Sequential":
        """Append every module of ``sequential``; returns self."""
        for layer in sequential:
            self.append(layer)
        return self


class ModuleList(Module):
    """A list of submodules, registered as ``"0"``, ``"1"`` ... (no forward of its own)."""

    __module__ = _MOD

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _get_abs_string_index(self, idx: Any) -> str:
        idx = _index(idx)
        if not (-len(self) <= idx < len(self)):
            raise nn_error(IndexError, f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._get_abs_string_index(idx), module)

    def __delitem__(self, idx: Any) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        str_indices = [str(i) for i in range(len(self._modules))]
        object.__setattr__(self, "_modules", collections.OrderedDict(zip(str_indices, self._modules.values())))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))

    def __iadd__(self, modules: Iterable[Module]) -> "ModuleList":
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> "ModuleList":
        combined = ModuleList()
        for i, module in enumerate(list(self) + list(other)):
            combined.add_module(str(i), module)
        return combined

    def __repr__(self) -> str:
        list_of_reprs = [repr(item) for item in self]
        if len(list_of_reprs) == 0:
            return self._get_name() + "()"
        start_end_indices = [[0, 0]]
        repeated_blocks = [list_of_reprs[0]]
        for i, r in enumerate(list_of_reprs[1:], 1):
            if r == repeated_blocks[-1]:
                start_end_indices[-1][1] += 1
                continue
            start_end_indices.append([i, i])
            repeated_blocks.append(r)
        lines = []
        main_str = self._get_name() + "("
        for (start_id, end_id), b in zip(start_end_indices, repeated_blocks):
            local_repr = f"({start_id}): {b}"
            if start_id != end_id:
                n = end_id - start_id + 1
                local_repr = f"({start_id}-{end_id}): {n} x {b}"
            lines.append(_addindent(local_repr, 2))
        main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str

    def insert(self, index: int, module: Module) -> None:
        """Insert ``module`` before position ``index``."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module: Module) -> "ModuleList":
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key: Any) -> Module:
        """Remove and return the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def extend(self, modules: Iterable[Module]) -> "ModuleList":
        """Append every module of ``modules``; returns self."""
        if not _iterable(modules):
            raise nn_error(TypeError, "ModuleList.extend should be called with an iterable, but got "
                           + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self


class ModuleDict(Module):
    """A dict of submodules, registered under their keys (no forward of its own)."""

    __module__ = _MOD

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        try:
            return self._modules[key]
        except KeyError:
            raise nn_error(KeyError, repr(key)) from None
        except TypeError as e:
            raise nn_error(TypeError, str(e)) from None

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        try:
            del self._modules[key]
        except KeyError:
            raise nn_error(KeyError, repr(key)) from None

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._modules))

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every submodule."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove and return the module under ``key``."""
        v = self[key]
        del self[key]
        return v

    def keys(self) -> Any:
        """The keys, in insertion order."""
        return self._modules.keys()

    def items(self) -> Any:
        """``(key, module)`` pairs."""
        return self._modules.items()

    def values(self) -> Any:
        """The modules."""
        return self._modules.values()

    def update(self, modules: Any) -> None:
        """Add ``modules`` (a dict, a ModuleDict, or pairs of key and module)."""
        if not _iterable(modules):
            raise nn_error(TypeError, "ModuleDict.update should be called with an iterable of key/value pairs, "
                           "but got " + type(modules).__name__)
        if isinstance(modules, (dict, ModuleDict)):
            for key, module in modules.items():
                self[key] = module
        else:
            for j, m in enumerate(modules):
                if not _iterable(m):
                    raise nn_error(TypeError, "ModuleDict update sequence element #" + str(j)
                                   + " should be Iterable; is" + type(m).__name__)
                if not len(m) == 2:
                    raise nn_error(ValueError, "ModuleDict update sequence element #" + str(j) + " has length "
                                   + str(len(m)) + "; 2 is required")
                self[m[0]] = m[1]


class ParameterList(Module):
    """A list of parameters registered as ``"0"``, ``"1"`` ... (PyTorch's ParameterList line for line): the
    constructor, ``append``, ``extend`` and item assignment make a plain tensor a Parameter; other objects
    are kept as attributes; printing lists each as PyTorch's extra_repr; calling it is PyTorch's error."""

    __module__ = _MOD

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        object.__setattr__(self, "_size", 0)
        if values is not None:
            self.extend(values)

    def _get_abs_string_index(self, idx: Any) -> str:
        idx = _index(idx)
        if not (-len(self) <= idx < len(self)):
            raise nn_error(IndexError, f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx: Any, param: Any) -> None:
        idx = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, idx, param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter([self[i] for i in range(len(self))])

    def __iadd__(self, parameters: Any) -> "ParameterList":
        return self.extend(parameters)

    def append(self, value: Any) -> "ParameterList":
        """Add ``value`` at the end (a tensor becomes a Parameter); returns self."""
        new_idx = len(self)
        object.__setattr__(self, "_size", self._size + 1)
        self[new_idx] = value
        return self

    def extend(self, values: Any) -> "ParameterList":
        """Append every value of ``values``; returns self."""
        if not _iterable(values) or isinstance(values, Tensor):
            raise nn_error(TypeError, "ParameterList.extend should be called with an iterable, but got "
                           + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        child_lines = []
        for k, p in enumerate(self):
            if isinstance(p, Tensor):
                size_str = "x".join(str(size) for size in p.size())
                kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
                child_lines.append(f"  ({k}): {kind} containing: [{p.dtype} of size {size_str}]")
            else:
                child_lines.append(f"  ({k}): Object of type: {type(p).__name__}")
        return "\n".join(child_lines)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise nn_error(RuntimeError, "ParameterList should not be called.")


def _py_class(v: Any) -> str:
    name = typename(v)
    return f"<class '{name}'>"


for _cls in (Sequential, ModuleList, ModuleDict, ParameterList):
    python_errors_on_methods(_cls)
