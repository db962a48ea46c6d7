"""Hand-made stand-ins for the engine's Tensor and Node, with exactly the
attributes the app layer reads (see the CLI brief): shape, dtype (with .name),
requires_grad, is_leaf, grad_fn, retains_grad, _data, _grad; nodes with
next_functions, _line, _saved, and AccumulateGrad with .variable.

They let the app layer be tested on its own, without the engine or the
language layer; integration with the real ones is tested in tests/cli.
"""

from __future__ import annotations

import numpy as np

from gradcli.lang.result import ErrorRecord, RunResult, WarningRecord

_NP = {"float32": np.float32, "float64": np.float64, "int64": np.int64, "bool": np.bool_}


class FakeDType:
    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return "torch." + self.name


class FakeNode:
    def __init__(self, next_functions=(), line=None, saved=()) -> None:
        self.next_functions = tuple(next_functions)
        self._line = line
        self._saved = tuple(saved)

    def name(self) -> str:
        return type(self).__name__


_CLASSES: dict = {}


def node(name: str, next_functions=(), line=None, saved=()) -> FakeNode:
    """A node whose class is called ``name`` (e.g. 'MulBackward0')."""
    cls = _CLASSES.setdefault(name, type(name, (FakeNode,), {}))
    return cls(next_functions, line, saved)


class AccumulateGrad(FakeNode):
    def __init__(self, variable) -> None:
        super().__init__()
        self.variable = variable


class FakeSaved:
    def __init__(self, shape, freed=False) -> None:
        self.shape = tuple(shape)
        self.freed = freed


class FakeTensor:
    def __init__(self, data, dtype="float32", requires_grad=False, grad_fn=None, retains_grad=False, grad=None):
        self._data = np.asarray(data, dtype=_NP[dtype])
        self.dtype = FakeDType(dtype)
        self.requires_grad = requires_grad or grad_fn is not None
        self.grad_fn = grad_fn
        self.retains_grad = retains_grad
        self._grad = None if grad is None else FakeTensor(grad, dtype)
        self._acc = None

    @property
    def shape(self):
        return tuple(self._data.shape)

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    def acc(self) -> AccumulateGrad:
        """The leaf's AccumulateGrad node (cached, as the engine does)."""
        if self._acc is None:
            self._acc = AccumulateGrad(self)
        return self._acc


def result(tensors=(), *, ok=True, stdout="", warnings=(), error=None, source="", file="expr.py", trace=None):
    return RunResult(file=file, source=source, ok=ok, stdout=stdout, tensors=list(tensors),
                     warnings=list(warnings), error=error, trace=trace)


def simple_chain():
    """x = tensor([1., 2.], requires_grad=True); y = x * 2; s = y.sum(); s.backward()

    Values from mathematics: y = [2, 4], s = 6, dx = [2, 2].
    """
    x = FakeTensor([1.0, 2.0], requires_grad=True, grad=[2.0, 2.0])
    mul = node("MulBackward0", [(x.acc(), 0), (None, 0)], line=2, saved=[FakeSaved((2,), freed=True)])
    y = FakeTensor([2.0, 4.0], grad_fn=mul)
    s = FakeTensor(6.0, grad_fn=node("SumBackward0", [(mul, 0)], line=3))
    return x, y, s


__all__ = ["FakeTensor", "FakeDType", "FakeNode", "FakeSaved", "AccumulateGrad", "node", "result", "simple_chain",
           "ErrorRecord", "WarningRecord"]
