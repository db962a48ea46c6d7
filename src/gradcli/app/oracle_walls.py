"""The walls of ``gradcli compare``'s PyTorch side: a file under real PyTorch reaches only gradcli's surface.

``gradcli compare`` runs a file a second time under real Python and PyTorch (:mod:`.oracle`), and
compare is what a CI job runs over files it did not write.  Real PyTorch has far more than the
language: ``torch.save`` writes files, ``torch.load`` unpickles, ``torch.hub`` downloads code,
``t.numpy()`` is a real ndarray with ``tofile``.  With the walls (``run_document(..., walls=True)``)
the file runs under real PyTorch with exactly the surface gradcli gives it, so that whatever it does
under PyTorch it could do in gradcli:

* **the same static check as** ``gradcli run`` (``lang.run.prepare``: gradcli's parser and
  ``lang/validate.py``), after the oracle's own; ``--set``/``--gradient`` expressions get gradcli's
  expression check;
* **restricted builtins**: the language's own list (``validate.ALLOWED_BUILTINS``) plus the few names
  the static check accepts in one place only (``@staticmethod`` in a Function class) -- never Python's
  ``builtins`` module; ``print(file=...)`` is refused as gradcli refuses it; ``import`` binds proxies;
* **proxies for the modules** (:class:`ModuleProxy`): ``torch``, ``F`` and every module a file imports
  expose exactly the names of gradcli's live namespace of the same place (``api.make_globals()`` and
  whatever is registered there), resolved to the real PyTorch object of that name; ``str(torch)`` is
  gradcli's text (``<module 'torch'>``, no install path);
* **one attribute gate** (:class:`Walls`): the file's tree is rewritten so that every attribute read,
  write and delete goes through it (``obj.name`` -> ``__oracle_getattr__(obj, 'name')``, with the
  positions of the original node, so error lines and columns do not move).  The gate answers by
  gradcli's rules: Python values by ``lang.access`` itself; a real PyTorch object by the public names
  of the gradcli class paired with its class (``torch.Tensor`` -> gradcli's ``Tensor``, paired by
  walking gradcli's namespaces beside PyTorch's modules, so ``nn.Linear``, ``optim.SGD`` ... pair
  themselves when they are registered; the few classes a file reaches without naming them --
  ``grad_fn`` nodes, ``ctx``, hook handles, ``torch.return_types``, ``device``, ndarrays -- are
  paired in :data:`UNNAMED`); the file's own classes by what they define, plus their PyTorch
  base's public names; anything else exposes nothing;
* ``Tensor.numpy()`` gives an :class:`NDArrayView`: the same memory as a real ndarray subclass (so
  printing, operators and ``torch.tensor(a)`` behave as before), refusing item assignment and
  in-place operators (read-only), whose attributes pass the gate as gradcli's ``NDArray`` names.

Refused reads and writes raise what gradcli raises: ``AttributeError`` with Python's text ("module
'torch' has no attribute 'save'", kind ``runtime``), or an ``unsupported`` error where gradcli has
one.  Every refusal is also recorded (:attr:`Walls.refused`: line, what, message), so ``compare`` can
say that the PyTorch side stopped at the walls rather than in PyTorch.

Safety argument: user code is compiled from a tree gradcli's static check accepted (no ``_`` names,
no dunder attributes beyond what that check allows, no ``eval``/``getattr``/``type``); names resolve
in the file's scopes, the restricted builtins and the proxies; the only attribute access left in the
compiled code is the gate's, and Python's own implicit lookups (special methods, ``with``, iteration,
``IMPORT_FROM`` on a proxy) reach no named attribute.  What the walls do not cover (a path inside
PyTorch's C++ code that writes a file, a memory-safety bug) is for the process walls of
:mod:`.oracle_sandbox`.
"""

from __future__ import annotations

import ast
import builtins as _py_builtins
import functools
import importlib
import inspect
import string
import sys
import types
from typing import Any, Callable, Iterable, Optional

import numpy as np

__all__ = [
    "Walls",
    "ModuleProxy",
    "NDArrayView",
    "WallAttributeError",
    "WallUnsupported",
    "WallTypeError",
    "UNNAMED",
    "surface",
    "GATE_NAMES",
]

#: the gate's names in the rewritten tree and the builtins (``__``-names: a file cannot name them)
GET, SET, AUG, DEL = "__oracle_getattr__", "__oracle_setattr__", "__oracle_augattr__", "__oracle_delattr__"
#: called first in every ``except`` handler: an ``unsupported`` refusal cannot be caught, as in gradcli
UNCATCHABLE = "__oracle_uncatchable__"
#: ``obj.name(...)``: the read of a method that is called at once (see :meth:`Walls.method_`)
METHOD = "__oracle_method__"
GATE_NAMES = frozenset({GET, SET, AUG, DEL, UNCATCHABLE, METHOD})

#: real PyTorch/numpy classes a file reaches without naming them (``x.grad_fn``, ``ctx``, ``x.max(0)`` ...),
#: and the gradcli class whose public names they get.  Named classes (``torch.Tensor``, ``torch.Size``,
#: ``nn.Linear`` ...) are paired by walking gradcli's namespaces; ``.*`` pairs every class of a module.
UNNAMED = (
    ("torch.autograd.graph.Node", "gradcli.autograd.graph.Node"),  # C++ nodes are registered with this ABC
    ("torch.autograd.function.BackwardCFunction", "gradcli.autograd.function.BackwardCFunction"),  # ctx
    ("torch.utils.hooks.RemovableHandle", "gradcli.autograd.graph.RemovableHandle"),
    ("torch.device", "gradcli.autograd.tensor._Device"),
    ("torch.return_types.*", "gradcli.ops.reduction_more.ReturnTuple"),
    ("numpy.ndarray", "gradcli.autograd.ndarray.NDArray"),
    ("torch.storage.UntypedStorage", "gradcli.ops.storage.UntypedStorage"),  # x.untyped_storage()
    ("torch._C._autograd.SavedTensor", "gradcli.autograd.saved_fields.RawSavedTensor"),  # grad_fn._raw_saved_*
)

#: dunder attributes the gate lets through when the static check accepted them: a method of the file's
#: own classes, or ``__init__`` (``super().__init__()``, ``nn.Module.__init__(self)``)
_DUNDER_CALLS = frozenset({"__init__"})


# --------------------------------------------------------------------------------------------
# refusals
# --------------------------------------------------------------------------------------------
class _Refusal:
    """Marks an exception raised by the walls (``wall_kind`` is its SPEC §4 kind)."""

    wall_kind = "runtime"


class WallAttributeError(AttributeError, _Refusal):
    """A name gradcli does not implement: Python's AttributeError text, kind ``runtime``."""


class WallUnsupported(Exception, _Refusal):
    """A construct or attribute gradcli refuses as ``unsupported`` (or ``syntax``/``limit``)."""

    wall_kind = "unsupported"

    def __init__(self, message: str, kind: str = "unsupported") -> None:
        super().__init__(message)
        self.wall_kind = kind


class WallTypeError(TypeError, _Refusal):
    """An operation gradcli's objects do not support (assignment into ``.numpy()``'s array): kind ``type``."""

    wall_kind = "type"


#: the walls of the run in progress (a child runs one file; the in-process runner runs them in turn)
_current: list = []


def _record(exc: BaseException, what: str, stop: bool = True) -> BaseException:
    """``exc``, noted as a stop of the walls unless ``stop`` is False (PyTorch itself would fail the same way)."""
    if _current and stop:
        _current[-1].note(exc, what)
    return exc


def _really_has(obj: Any, name: str) -> bool:
    """Would real Python/PyTorch find ``obj.name``?  (Class dictionaries only: no descriptor runs; an
    object with a ``__getattr__`` counts as having every name.)"""
    if isinstance(obj, types.ModuleType):
        if name in vars(obj):
            return True
        try:
            getattr(obj, name)  # a module's lazy __getattr__ (PEP 562)
        except Exception:  # noqa: BLE001
            return False
        return True
    mro = _TYPE_MRO.__get__(obj) if isinstance(obj, type) else type(obj).__mro__
    if _owner(mro, name) is not None or _owner(type(obj).__mro__, name) is not None:
        return True
    d = _instance_dict(obj)
    return (d is not None and name in d) or _owner(type(obj).__mro__, "__getattr__") is not None


# --------------------------------------------------------------------------------------------
# the surface: gradcli's namespaces beside PyTorch's modules
# --------------------------------------------------------------------------------------------
def _api_refusal(owner: Optional[str], name: str, implemented: Iterable[str]) -> Optional[BaseException]:
    """gradcli's ``unsupported`` error for ``owner.name`` when PyTorch 2.13 has it and gradcli does not
    (``lang.apicheck.attribute_error``: the same message, uncatchable), or None (then Python's
    AttributeError text, kind ``runtime``, as gradcli gives for a name PyTorch lacks too)."""
    if owner is None or not name or name.startswith("_"):
        return None
    from ..lang.apicheck import torch_has, unsupported_text

    if not torch_has(owner, name):
        return None
    return WallUnsupported(unsupported_text(owner, name, implemented)[0])


def _owner_of(g: Optional[type]) -> Optional[str]:
    """The PyTorch owner of the attributes of an object whose gradcli class is ``g``, as
    ``lang.apicheck`` names it: ``torch.Tensor`` for tensors (and Parameters), the class a gradcli type
    declares with ``_gradcli_torch_class``, else None."""
    if g is None:
        return None
    tensor = _resolve("gradcli.autograd.tensor.Tensor")
    if isinstance(tensor, type) and issubclass(g, tensor):
        return "torch.Tensor"
    declared = getattr(g, "_gradcli_torch_class", None)
    return declared if isinstance(declared, str) else None


def _is_namespace(v: Any) -> bool:
    from ..api import Namespace

    return isinstance(v, Namespace)


def _resolve(dotted: str) -> Any:
    mod, _, attr = dotted.rpartition(".")
    try:
        return getattr(importlib.import_module(mod), attr)
    except (ImportError, AttributeError):
        return None


class Surface:
    """What gradcli exposes, paired with PyTorch: built once per process from the live namespaces.

    ``pairs``: real class -> gradcli class (exact classes; an object's most derived paired class
    in its MRO decides); ``abc_pairs``: ABCs that C++ classes are registered with (``isinstance``).
    """

    def __init__(self) -> None:
        from ..api import make_globals

        #: the prelude's names (``torch``, ``F``) and the modules an import can name (``math``), as gradcli
        #: binds them (``Interpreter.module_roots``)
        self.roots: dict[str, Any] = dict(make_globals())
        self.roots.update({k: v for k, v in _import_roots().items() if k not in self.roots})
        self.real_roots: dict[str, Any] = {}
        self.pairs: dict[type, type] = {}
        self.abc_pairs: list[tuple[type, type]] = []
        seen: set = set()
        for name, ns in self.roots.items():
            real = self._real_module(ns)
            if real is not None:
                self.real_roots[name] = real
                self._walk(ns, real, seen)
        for real_name, gradcli_name in UNNAMED:
            g = _resolve(gradcli_name)
            if g is None:
                continue
            if real_name.endswith(".*"):
                try:
                    mod = importlib.import_module(real_name[:-2])
                except ImportError:
                    continue
                for v in vars(mod).values():
                    if isinstance(v, type) and v.__module__ == mod.__name__:
                        self.pairs.setdefault(v, g)
                continue
            r = _resolve(real_name)
            if isinstance(r, type):
                if inspect.isabstract(r) or type(r).__name__ == "ABCMeta":
                    self.abc_pairs.append((r, g))
                else:
                    self.pairs.setdefault(r, g)
        # grad_fn nodes by name: PyTorch's AccumulateGrad is gradcli's AccumulateGrad (``variable``)
        self.node_classes: dict[str, type] = {}
        node = _resolve("gradcli.autograd.graph.Node")
        stack = list(node.__subclasses__()) if isinstance(node, type) else []
        while stack:
            c = stack.pop()
            self.node_classes.setdefault(c.__name__, c)
            stack.extend(c.__subclasses__())
        self._public_cache: dict[type, frozenset] = {}

    @staticmethod
    def _real_module(ns: Any) -> Any:
        name = ns.__dict__.get("_name")
        try:
            return importlib.import_module(name) if isinstance(name, str) else None
        except ImportError:
            return None

    def _walk(self, ns: Any, real: Any, seen: set) -> None:
        if id(ns) in seen:
            return
        seen.add(id(ns))
        for name in sorted(ns._gradcli_public):
            try:
                gv = getattr(ns, name)
            except Exception:  # noqa: BLE001 - a lazy member that does not import: nothing to pair
                continue
            rv = getattr(real, name, None)
            if rv is None:
                continue
            if _is_namespace(gv):
                self._walk(gv, rv, seen)
            elif isinstance(gv, type) and isinstance(rv, type) and hasattr(gv, "_gradcli_public"):
                self.pairs.setdefault(rv, gv)

    def public(self, g: type, obj: Any) -> frozenset:
        """The names a file may read on ``obj`` whose paired gradcli class is ``g``."""
        pub = self._public_cache.get(g)
        if pub is None:
            raw = g.__dict__.get("_gradcli_public") if "_gradcli_public" in g.__dict__ else getattr(
                g, "_gradcli_public", None)
            if is_dynamic(g):  # the class decides (nn.Module): its non-_ attributes are the API it implements
                raw = frozenset(n for c in _TYPE_MRO.__get__(g) if c is not object
                                for n in _TYPE_DICT.__get__(c) if not n.startswith("_"))
            elif isinstance(raw, property):  # per instance (ctx): its fixed part, from an empty instance dict
                try:
                    raw = raw.fget(types.SimpleNamespace())
                except Exception:  # noqa: BLE001
                    raw = frozenset()
            pub = frozenset(raw) if isinstance(raw, (frozenset, set)) else frozenset()
            self._public_cache[g] = pub
        if getattr(g, "_gradcli_dynamic", False):  # plus what the file set on it (ctx.foo = ...)
            d = _instance_dict(obj)
            if d:
                pub = pub | frozenset(k for k in d if isinstance(k, str) and not k.startswith("_"))
        return pub

    def pair(self, obj: Any, mro: tuple, is_type: bool) -> Optional[type]:
        for c in mro:
            g = self.pairs.get(c)
            if g is not None:
                return g
        for abc, g in self.abc_pairs:
            try:
                hit = issubclass(obj, abc) if is_type else isinstance(obj, abc)
            except Exception:  # noqa: BLE001
                hit = False
            if hit:
                name = (obj if is_type else type(obj)).__name__
                return self.node_classes.get(name, g)
        return None


def _import_roots() -> dict:
    """The modules gradcli's ``import`` can name besides the prelude: ``math`` (lang/pymath.py).  Its
    namespace wants a run's budget; a fresh one serves, since only its names are read here."""
    out: dict = {}
    try:
        from ..lang.limits import DEFAULT_LIMITS, Budget
        from ..lang.pymath import math_namespace

        out["math"] = math_namespace(Budget(DEFAULT_LIMITS), DEFAULT_LIMITS)
    except ImportError:  # pragma: no cover - a gradcli without the math namespace
        pass
    return out


_SURFACE: list = []


def surface() -> Surface:
    """The process's :class:`Surface` (built at the first call, after PyTorch is imported)."""
    if not _SURFACE:
        _SURFACE.append(Surface())
    return _SURFACE[0]


def is_dynamic(g: Optional[type]) -> bool:
    """Does gradcli class ``g`` decide its names one by one (``exposure.DYNAMIC``: nn.Module, the file's
    classes)?  Then the object's own attributes (parameters, submodules, what the file set) are readable."""
    if g is None:
        return False
    from ..exposure import DYNAMIC

    return getattr(g, "_gradcli_public", None) is DYNAMIC


def _documented_private(name: str) -> bool:
    """One of the ``_`` attributes PyTorch documents that gradcli's static check lets a file read
    (``lang.validate``: ``_version``, ``_base``, ``_is_view``, ``_saved_*``, ``_raw_saved_*``)?"""
    from ..lang.validate import _documented_private as documented

    return documented(name)


def _instance_dict(obj: Any) -> Optional[dict]:
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:  # noqa: BLE001 - no instance dict
        return None
    return d if isinstance(d, dict) else None


_TYPE_DICT = type.__dict__["__dict__"]
_TYPE_MRO = type.__dict__["__mro__"]


def _owner(mro: Iterable, name: str) -> Optional[type]:
    """The first class of ``mro`` whose own ``__dict__`` defines ``name`` (no descriptor runs)."""
    for c in mro:
        try:
            d = _TYPE_DICT.__get__(c)
        except TypeError:
            continue
        if name in d:
            return c
    return None


# --------------------------------------------------------------------------------------------
# module proxies
# --------------------------------------------------------------------------------------------
class ModuleProxy:
    """A PyTorch module seen through gradcli's namespace of the same place: its public names only.

    Attribute reads resolve to the real PyTorch object of that name (a sub-namespace to another
    proxy); anything else is refused as gradcli refuses it ("module 'torch' has no attribute
    'save'").  Prints as gradcli's namespace prints.  Not writable.
    """

    __slots__ = ("_state",)

    def __init__(self, walls: "Walls", real: Any, ns: Any) -> None:
        object.__setattr__(self, "_state", (walls, real, ns, {}))

    def __getattribute__(self, name: str) -> Any:
        walls, real, ns, cache = object.__getattribute__(self, "_state")
        if name in cache:
            return cache[name]
        if name.startswith("__"):  # Python's own lookups (isinstance's __class__, IMPORT_FROM's __name__)
            if name == "__class__":
                return ModuleProxy
            raise AttributeError(name)
        mod = ns.__dict__.get("_name", "?")
        if name not in ns._gradcli_public:
            missing = getattr(ns, "_gradcli_unsupported", None)
            if isinstance(missing, (frozenset, set)) and name in missing:
                raise _record(WallUnsupported(
                    f"'{mod}.{name}' exists in PyTorch but gradcli does not implement it (yet)"), f"{mod}.{name}")
            api = _api_refusal(mod, name, ns._gradcli_public)
            if api is not None:
                raise _record(api, f"{mod}.{name}")
            raise _record(WallAttributeError(f"module '{mod}' has no attribute '{name}'"), f"{mod}.{name}",
                          _really_has(real, name))
        value = _substitute(getattr(real, name))
        gv = getattr(ns, name, None)
        if _is_namespace(gv):
            value = walls.proxy(value, gv)
        cache[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise _record(WallAttributeError(_not_writable(self, name)), f"setting {name}")

    def __delattr__(self, name: str) -> None:
        raise _record(WallAttributeError(_not_writable(self, name)), f"deleting {name}")

    def __repr__(self) -> str:
        return repr(object.__getattribute__(self, "_state")[2])

    __str__ = __repr__

    def __dir__(self) -> list:
        return sorted(object.__getattribute__(self, "_state")[2]._gradcli_public)


def _not_writable(proxy: ModuleProxy, name: str) -> str:
    ns = object.__getattribute__(proxy, "_state")[2]
    if name in ns._gradcli_public:
        return f"attribute '{name}' of 'Namespace' object is not writable"
    return f"'Namespace' object has no attribute '{name}'"


# --------------------------------------------------------------------------------------------
# what a module proxy hands out instead of a real PyTorch class
# --------------------------------------------------------------------------------------------
_SUBSTITUTES: dict = {}


def _substitute(value: Any) -> Any:
    """``value``, or what the walls give in its place: ``torch.utils.data.DataLoader`` loads in the
    process (:func:`_in_process_loader`)."""
    if isinstance(value, type) and value.__name__ == "DataLoader" and value.__module__ == "torch.utils.data.dataloader":
        sub = _SUBSTITUTES.get(value)
        if sub is None:
            sub = _SUBSTITUTES[value] = _in_process_loader(value)
        return sub
    return value


def _in_process_loader(real: type) -> type:
    """PyTorch's DataLoader whose ``num_workers > 0`` loads in this process, as gradcli's does.

    Worker processes cannot run behind the process walls (no new processes, no shared-memory files:
    ``RLIMIT_FSIZE`` 0), so a real snippet's ``DataLoader(ds, num_workers=2)`` would fail there while
    gradcli runs it.  The arguments are PyTorch's own (its checks and messages, the worker-count
    warning); the iterator is PyTorch's single-process one, which gives a map-style dataset the same
    batches in the same order from the same ``_base_seed`` draw.  Over an IterableDataset, where the
    workers would each yield the whole dataset, it is gradcli's ``unsupported`` error, as in gradcli.
    Named and printed as PyTorch's class.
    """
    from torch.utils.data import IterableDataset
    from torch.utils.data.dataloader import _SingleProcessDataLoaderIter

    def __init__(self: Any, dataset: Any, *args: Any, **kwargs: Any) -> None:
        real.__init__(self, dataset, *args, **kwargs)
        if self.num_workers > 0 and isinstance(dataset, IterableDataset):
            raise _record(WallUnsupported(
                "a DataLoader with num_workers > 0 over an IterableDataset is not supported by gradcli"),
                "DataLoader(IterableDataset, num_workers > 0)")

    def _get_iterator(self: Any) -> Any:
        if self.num_workers == 0:
            return real._get_iterator(self)
        self.check_worker_number_rationality()  # PyTorch's warning when there are more workers than CPUs
        workers, timeout = self.num_workers, self.timeout
        self.num_workers, self.timeout = 0, 0
        try:
            return _SingleProcessDataLoaderIter(self)
        finally:
            self.num_workers, self.timeout = workers, timeout

    return type(real)(real.__name__, (real,), {"__init__": __init__, "_get_iterator": _get_iterator,
                                               "__module__": real.__module__, "__qualname__": real.__qualname__,
                                               "__doc__": real.__doc__})


# --------------------------------------------------------------------------------------------
# Tensor.numpy(): a read-only view
# --------------------------------------------------------------------------------------------
def _read_only(*_args: Any, **_kwargs: Any) -> Any:
    raise _record(WallTypeError("the array of .numpy() is read-only in gradcli (gradcli's NDArray does not "
                                "support item assignment or in-place operators)"), "writing into .numpy()")


class NDArrayView(np.ndarray):
    """What ``Tensor.numpy()`` gives under the walls: the tensor's memory as a read-only ndarray subclass.

    Prints, compares, computes and converts (``torch.tensor(a)``) exactly as the real ndarray;
    reductions give numpy scalars as they do (``__array_wrap__``); item assignment and in-place
    operators are refused (``type``, as gradcli's NDArray has none); its attributes pass the gate as
    gradcli's ``NDArray`` public names, and methods that write files are refused here too.
    """

    def __array_wrap__(self, obj: Any, context: Any = None, return_scalar: bool = False) -> Any:
        if return_scalar:
            return obj[()]
        return np.ndarray.__array_wrap__(self, obj, context, return_scalar)

    def __repr__(self) -> str:
        return repr(self.view(np.ndarray))

    def __str__(self) -> str:
        return str(self.view(np.ndarray))

    __setitem__ = __iadd__ = __isub__ = __imul__ = __itruediv__ = __ifloordiv__ = __imod__ = __ipow__ = _read_only
    __imatmul__ = __iand__ = __ior__ = __ixor__ = __ilshift__ = __irshift__ = _read_only
    tofile = dump = dumps = __reduce__ = __reduce_ex__ = __setstate__ = _read_only  # defence in depth


def _numpy_view(method: Callable) -> Callable:
    def numpy(*args: Any, **kwargs: Any) -> Any:
        a = method(*args, **kwargs)
        return a.view(NDArrayView) if isinstance(a, np.ndarray) else a

    return numpy


#: (gradcli class, name) -> adapter of the real value: results a file may not hold raw
_ADAPTERS: dict[tuple[str, str], Callable] = {("Tensor", "numpy"): _numpy_view}


# --------------------------------------------------------------------------------------------
# format strings: no field may reach an attribute or an item (defence in depth: gradcli refuses them)
# --------------------------------------------------------------------------------------------
def _check_format(fmt: Any, depth: int = 0) -> None:
    if not isinstance(fmt, str) or depth > 2:
        return
    for _, field, spec, _ in string.Formatter().parse(fmt):
        if field is not None and ("." in field or "[" in field):
            raise _record(WallUnsupported(f"format field {field!r} reaches an attribute or item: outside the "
                                          "language"), "str.format field")
        if spec:
            _check_format(spec, depth + 1)


def _guarded_format(method: Callable, fmt: str) -> Callable:
    def format_(*args: Any, **kwargs: Any) -> Any:
        _check_format(fmt)
        return method(*args, **kwargs)

    return format_


# --------------------------------------------------------------------------------------------
# the tree: every attribute access through the gate
# --------------------------------------------------------------------------------------------
def _attr_position(node: ast.Attribute) -> tuple:
    """Where CPython places the load of ``node``: its start, or, when the attribute name is on a later
    line than the start (a chain split over lines), that name (3.11's ``update_start_location_to_match_attr``)."""
    line, col = node.lineno, node.col_offset
    if node.end_lineno is not None and node.end_lineno != node.lineno:
        line = node.end_lineno
        col = node.end_col_offset - len(node.attr) if len(node.attr) <= node.end_col_offset else node.end_col_offset
    return line, col


class _Rewriter(ast.NodeTransformer):
    def _gate(self, fn: str, node: ast.Attribute) -> ast.Call:
        call = ast.Call(func=ast.Name(id=fn, ctx=ast.Load()), args=[node.value, ast.Constant(value=node.attr)],
                        keywords=[])
        line, col = _attr_position(node)
        for n in (call, call.func, call.args[1]):
            n.lineno, n.col_offset = line, col
            n.end_lineno, n.end_col_offset = node.end_lineno, node.end_col_offset
        return call

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        node.value = self.visit(node.value)
        if isinstance(node.ctx, ast.Load):
            return self._gate(GET, node)
        node.value = self._gate(SET if isinstance(node.ctx, ast.Store) else DEL, node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        if isinstance(node.target, ast.Attribute):
            t = node.target
            t.value = self.visit(t.value)
            t.value = self._gate(AUG, t)
            node.value = self.visit(node.value)
            return node
        return self.generic_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> Any:
        self.generic_visit(node)
        call = ast.Expr(value=ast.Call(func=ast.Name(id=UNCATCHABLE, ctx=ast.Load()), args=[], keywords=[]))
        for n in (call, call.value, call.value.func):
            n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = \
                node.lineno, node.col_offset, node.lineno, node.col_offset
        node.body.insert(0, call)
        return node

    def visit_Call(self, node: ast.Call) -> Any:
        func = node.func
        self.generic_visit(node)
        gate = node.func.func if isinstance(node.func, ast.Call) else None
        if isinstance(func, ast.Attribute) and isinstance(gate, ast.Name) and gate.id == GET:
            gate.id = METHOD  # a method read and called at once
        if isinstance(func, ast.Attribute) and func.end_lineno is not None and func.end_lineno != node.lineno:
            # a method call split over lines: CPython places the call at the method's name, as the load
            node.lineno, node.col_offset = _attr_position(func)
        return node


def accepted_builtins(tree: ast.AST) -> frozenset:
    """Builtin names outside ``ALLOWED_BUILTINS`` that a tree *which passed gradcli's static check* reads
    without binding them: the ones the check accepts in one place only (``@staticmethod`` in a Function
    class).  A name the file binds anywhere is left out (its read resolves in the file, or fails there)."""
    from ..lang.validate import ALLOWED_BUILTINS, bound_names

    bound = bound_names(tree)
    return frozenset(
        node.id for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound
        and node.id not in ALLOWED_BUILTINS and not node.id.startswith("_") and hasattr(_py_builtins, node.id))


def rewrite(tree: ast.AST) -> ast.AST:
    """``tree`` with every attribute read/write/delete through the gate (positions kept)."""
    return _Rewriter().visit(tree)


def _uncatchable() -> None:
    """Re-raise the exception being handled when gradcli would not let a file catch it (``unsupported``,
    an action of the process walls); its traceback keeps the line where it was first raised."""
    from .oracle_sandbox import SandboxRefusal

    e = sys.exc_info()[1]
    if isinstance(e, (WallUnsupported, SandboxRefusal)):
        raise e


# --------------------------------------------------------------------------------------------
# the gate
# --------------------------------------------------------------------------------------------
def _py_attrs() -> dict:
    if not _PY_ATTRS:
        from ..lang.access import PY_ATTRS

        _PY_ATTRS.append(PY_ATTRS)
    return _PY_ATTRS[0]


_PY_ATTRS: list = []


def _type_name(obj: Any) -> str:
    """The name Python's messages give ``obj``'s type; ``numpy.ndarray`` for ``.numpy()``'s view, as
    for a real ndarray (and gradcli's NDArray)."""
    if isinstance(obj, type):
        return obj.__name__
    return "numpy.ndarray" if isinstance(obj, NDArrayView) else type(obj).__name__


def _no_attr(obj: Any, name: str) -> str:
    if isinstance(obj, type):
        return f"type object '{obj.__name__}' has no attribute '{name}'"
    return f"'{_type_name(obj)}' object has no attribute '{name}'"


#: the torch modules whose classes type() may give (not torch.autograd.graph: it re-exports
#: torch.utils.hooks.RemovableHandle, a class gradcli's namespace does not name)
_TORCH_NAMESPACES = ("torch", "torch.nn", "torch.optim", "torch.optim.lr_scheduler", "torch.utils.data")


def _torch_public_class(cls: type) -> bool:
    """Is ``cls`` a class of one of torch's public namespaces the language exposes, under its own name?"""
    for name in _TORCH_NAMESPACES:
        mod = sys.modules.get(name)
        if mod is not None and getattr(mod, cls.__name__, None) is cls:
            return True
    return False


class Walls:
    """The walls of one run: the gate, the proxies, the restricted builtins, and what was refused.

    ``code_name``: the file name the file's code is compiled under (refusals are placed at the
    innermost line of that file).  ``refused``: ``[{"line", "what", "message"}]`` in order.
    """

    def __init__(self, code_name: str, accepted_builtins: Iterable[str] = ()) -> None:
        self.code_name = code_name
        self.accepted_builtins = frozenset(accepted_builtins)
        self.surface = surface()
        self.user_classes: set = set()
        self.refused: list[dict] = []
        self._proxies: dict[int, ModuleProxy] = {}
        self._fast: dict[tuple, type] = {}  # (type, name) -> paired gradcli class, for reads the class decides

    # --- bookkeeping ----------------------------------------------------------------------
    def __enter__(self) -> "Walls":
        _current.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _current.remove(self)

    def note(self, exc: BaseException, what: str) -> None:
        """Record a refusal at the innermost line of the file."""
        line = None
        f: Any = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == self.code_name:
                line = f.f_lineno
                break
            f = f.f_back
        if len(self.refused) < 100:
            self.refused.append({"line": line, "what": what, "message": str(exc)[:500]})

    def note_os_error(self, exc: BaseException) -> None:
        """The error that ended the run, when it is the process walls' doing rather than PyTorch's: a
        write past ``RLIMIT_FSIZE`` 0 (``EFBIG``, from C code the audit hook does not see).  Recorded as
        a stop at the file's innermost line of its traceback."""
        import errno

        if not isinstance(exc, OSError) or exc.errno != errno.EFBIG:
            return
        line, tb = None, exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.code_name:
                line = tb.tb_lineno
            tb = tb.tb_next
        self.refused.append({"line": line, "what": "writing a file",
                             "message": f"the process may not write files (file size limit 0): {exc}"})

    def refuse(self, exc: BaseException, what: str, stop: bool = True) -> BaseException:
        """``exc``, noted as a stop of the walls unless ``stop`` is False (PyTorch would fail the same way)."""
        if stop:
            self.note(exc, what)
        return exc

    def proxy(self, real: Any, ns: Any) -> ModuleProxy:
        p = self._proxies.get(id(ns))
        if p is None:
            p = self._proxies[id(ns)] = ModuleProxy(self, real, ns)
        return p

    # --- globals and builtins -------------------------------------------------------------
    def fill_globals(self, g: dict, tree: ast.AST, extra: dict) -> None:
        """Bind the prelude's ``torch`` and ``F`` (proxies) and the restricted ``__builtins__`` in ``g``."""
        s = self.surface
        for name in ("torch", "F"):
            if name in s.roots and name in s.real_roots:
                g[name] = self.proxy(s.real_roots[name], s.roots[name])
        g["__builtins__"] = self.builtins(tree, extra)

    def builtins(self, tree: ast.AST, extra: dict) -> dict:
        """The language's builtins (real Python objects), the gate, ``__build_class__`` and ``__import__``."""
        from ..lang.validate import ALLOWED_BUILTINS

        names = set(ALLOWED_BUILTINS) | self.accepted_builtins
        table = {n: getattr(_py_builtins, n) for n in names if hasattr(_py_builtins, n)}
        table.update({
            "print": self.print_, "__build_class__": self.build_class, "__import__": self.import_,
            "getattr": self.getattr_builtin, "hasattr": self.hasattr_builtin,
            "setattr": self.setattr_builtin, "delattr": self.delattr_builtin, "type": self.type_builtin,
            GET: self.getattr_, SET: self.setattr_, AUG: self.augattr_, DEL: self.delattr_, METHOD: self.method_,
            UNCATCHABLE: _uncatchable,
        })
        table.update(extra)
        return table

    def print_(self, *args: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: bool = False) -> None:
        if file is not None:
            raise self.refuse(WallUnsupported("print(file=...) is outside the language: output goes to stdout"),
                              "print(file=...)")
        print(*args, sep=sep, end=end, flush=flush)

    def _attr_name(self, fn: str, name: Any) -> str:
        if not isinstance(name, str):
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        if name.startswith("_"):
            raise self.refuse(WallUnsupported(f"{fn}(obj, {name!r}): names starting with '_' are outside the "
                                              "language"), f"{fn}(obj, {name!r})")
        return name

    def type_builtin(self, *args: Any, **kwargs: Any) -> Any:
        """The language's ``type`` (lang/type_builtin.py): the class of a value of the language's types, of the
        file's own classes, or a public class of torch's namespaces; anything else refused as gradcli does."""
        from ..lang.type_builtin import LANGUAGE_TYPES

        if kwargs or len(args) not in (1, 3):
            raise TypeError("type() takes 1 or 3 arguments")
        if len(args) == 3:
            raise self.refuse(WallUnsupported("type(name, bases, dict) creates a class: outside the language (use "
                                              "a class statement)"), "type(name, bases, dict)")
        cls = type(args[0])
        if cls in LANGUAGE_TYPES or cls in self.user_classes or _torch_public_class(cls):
            return cls
        raise self.refuse(WallUnsupported(
            f"type() of a '{cls.__name__}' object is outside the language: gradcli gives type(x) only for the "
            "classes a file can name"), f"type({cls.__name__})")

    def getattr_builtin(self, obj: Any, name: Any, *default: Any) -> Any:
        """The language's ``getattr``: through the gate (``_`` names refused, as in gradcli)."""
        if len(default) > 1:
            raise TypeError(f"getattr expected at most 3 arguments, got {2 + len(default)}")
        try:
            return self.getattr_(obj, self._attr_name("getattr", name))
        except AttributeError:
            if default:
                return default[0]
            raise

    def setattr_builtin(self, obj: Any, name: Any, value: Any) -> None:
        """The language's ``setattr``: exactly ``obj.name = value`` through the gate."""
        name = self._attr_name("setattr", name)
        setattr(self.setattr_(obj, name), name, value)

    def delattr_builtin(self, obj: Any, name: Any) -> None:
        """The language's ``delattr``: exactly ``del obj.name`` through the gate."""
        name = self._attr_name("delattr", name)
        delattr(self.delattr_(obj, name), name)

    def hasattr_builtin(self, obj: Any, name: Any) -> bool:
        """The language's ``hasattr``: a read through the gate; a name gradcli withholds is absent."""
        try:
            self.getattr_(obj, self._attr_name("hasattr", name))
        except AttributeError:
            return False
        except WallUnsupported as e:
            if "outside the language" in str(e):
                raise
            return False
        return True

    def _base_allowed(self, base: Any) -> bool:
        """May a file's class derive from ``base``?  As gradcli decides: one of the file's classes, or a
        PyTorch class whose gradcli class is subclassable (``nn.Module`` and its layers ...), or
        ``torch.autograd.Function``, or ``object``."""
        from ..exposure import is_subclassable

        if base is object or base in self.user_classes:
            return True
        if not isinstance(base, type):
            return False
        g = self.surface.pairs.get(base)
        return g is not None and (is_subclassable(g) or g is _resolve("gradcli.autograd.function.Function"))

    def build_class(self, func: Any, name: str, *bases: Any, **kwargs: Any) -> Any:
        if any(type(b) is ModuleProxy for b in bases):  # what ``class X(torch)`` raises for a real module
            raise TypeError(f"module() takes at most 2 arguments ({len(bases) + 2} given)")
        for b in bases:
            if not self._base_allowed(b):
                shown = getattr(b, "__name__", None) or type(b).__name__
                raise self.refuse(WallUnsupported(f"unsupported class: {name} cannot derive from {shown}"),
                                  f"class {name}({shown})")
        cls = _py_builtins.__build_class__(func, name, *bases, **kwargs)
        self.user_classes.add(cls)
        return cls

    def import_(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        """``import`` as gradcli resolves it: the prelude's namespace of the first part, then its names."""
        if type(fromlist) is list:
            # C code importing a module of its own (PyImport_Import passes a list, and then takes the module
            # from sys.modules, not from here): PyTorch's C++ importing torch.storage while a file runs.
            # A file's ``import`` passes None or a tuple.
            return _py_builtins.__import__(name, globals, locals, fromlist, level)
        s = self.surface
        parts = name.split(".")
        if level != 0 or parts[0] not in s.roots or parts[0] not in s.real_roots:
            raise self.refuse(WallUnsupported(f"import of {name}: the module is not available"), f"import {name}")
        root = self.proxy(s.real_roots[parts[0]], s.roots[parts[0]])
        v: Any = root
        for p in parts[1:]:
            v = getattr(v, p)
        return v if fromlist else root

    def import_problem(self, tree: ast.AST) -> Optional[dict]:
        """The first import of ``tree`` the surface cannot honour, as gradcli's compile step refuses it
        before anything runs (``{"line", "col", "message"}``), or None."""
        s = self.surface

        def resolve(path: str) -> Optional[Any]:
            parts = path.split(".")
            if parts[0] not in s.roots or parts[0] not in s.real_roots:
                return None
            ns = s.roots[parts[0]]
            for p in parts[1:]:
                if not _is_namespace(ns) or p not in ns._gradcli_public:
                    return None
                ns = getattr(ns, p, None)
            return ns

        for node in ast.walk(tree):
            paths: list = []
            if isinstance(node, ast.Import):
                paths = [(a.name, None) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                paths = [(node.module, a.name) for a in node.names]
            for path, member in paths:
                ns = resolve(path)
                if ns is None or not _is_namespace(ns):
                    why = f"unsupported import: {path} -- gradcli does not implement it (yet)"
                elif member is not None and member != "*" and member not in ns._gradcli_public:
                    why = f"unsupported import: cannot import name '{member}' from '{path}'"
                else:
                    continue
                return {"line": node.lineno, "col": node.col_offset, "message": why}
        return None

    def compile_expression(self, text: str, g: dict, limits: Any = None) -> Any:
        """A ``--set``/``--gradient`` expression, checked as gradcli checks it, through the gate."""
        from ..errors import GradcliError
        from ..lang.limits import DEFAULT_LIMITS
        from ..lang.parse import parse_expression
        from ..lang.validate import check

        try:
            tree = parse_expression(text, limits or DEFAULT_LIMITS)
            check(tree, extra_names=g.keys())
        except GradcliError as e:
            raise self.refuse(WallUnsupported(str(e), e.kind), "a command-line expression") from None
        return compile(ast.fix_missing_locations(rewrite(tree)), "<command line>", "eval")

    # --- the gate ---------------------------------------------------------------------------
    def _python_base(self, obj: Any) -> Optional[type]:
        """The Python value type an unpaired object derives from (an exception subclass PyTorch raises,
        ``OrderedDict``): gradcli's whitelist of that type applies to it."""
        from ..lang.access import PY_ATTRS

        for c in type(obj).__mro__[1:]:
            if c in PY_ATTRS:
                return c
        return None

    def _python_value(self, obj: Any, name: str) -> Any:
        from ..errors import GradcliError
        from ..lang.access import get_attr

        try:
            value = get_attr(obj, name)
        except GradcliError as e:
            exc: BaseException = WallUnsupported(str(e)) if e.kind == "unsupported" else WallAttributeError(str(e))
            raise self.refuse(exc, f"{type(obj).__name__}.{name}", hasattr(type(obj), name)) from None
        if type(obj) is str and name in ("format", "format_map"):
            return _guarded_format(getattr(obj, name), obj)  # Python's own formatting, no field reaching out
        return value

    def _refusal(self, obj: Any, name: str, g: Optional[type]) -> BaseException:
        """What gradcli raises for reading a name it does not expose (``lang.access.get_attr``): its
        ``unsupported`` error for a name it lists as missing or that PyTorch 2.13 has on a tensor,
        else Python's AttributeError."""
        missing = getattr(g, "_gradcli_unsupported", None) if g is not None else None
        what = f"{_type_name(obj)}.{name}"
        if isinstance(missing, (frozenset, set)) and name in missing:
            return self.refuse(WallUnsupported(
                f"'{_type_name(obj)}.{name}' exists in PyTorch but gradcli does not implement it (yet)"), what)
        if not isinstance(obj, type):
            api = _api_refusal(_owner_of(g), name, self.surface.public(g, obj) if g is not None else ())
            if api is not None:
                return self.refuse(api, what)
        return self.refuse(WallAttributeError(_no_attr(obj, name)), what, _really_has(obj, name))

    def _where(self, obj: Any, name: str) -> tuple:
        """(mro, is_type, user, owner, search object) of ``obj.name``."""
        if type(obj) is super:
            this, self_class = obj.__thisclass__, obj.__self_class__
            full = _TYPE_MRO.__get__(self_class) if isinstance(self_class, type) else (object,)
            mro = full[full.index(this) + 1:] if this in full else full
            owner = _owner(mro, name)
            return full, True, bool(self.user_classes.intersection(full)), owner, self_class
        is_type = isinstance(obj, type)
        mro = _TYPE_MRO.__get__(obj) if is_type else type(obj).__mro__
        owner = _owner(mro, name)
        if owner is None and is_type:
            meta = _owner(type(obj).__mro__, name)
            if meta is not None:
                return mro, True, False, meta, obj  # the metaclass's (``mro``, ``register``): never the file's
        return mro, is_type, bool(self.user_classes.intersection(mro)), owner, obj

    def readable(self, obj: Any, name: str) -> tuple:
        """``(None, gradcli class)`` when the file may read ``obj.name``, else ``(refusal, None)``."""
        mro, is_type, user, owner, subject = self._where(obj, name)
        users = self.user_classes
        if name.startswith("__"):
            # a method of the file's own class, or ``__init__`` of a base (``super().__init__()``,
            # ``Base.__init__(self)``): what the static check lets a file name
            if owner is not None and (owner in users or (name in _DUNDER_CALLS and is_type)):
                return None, None
            return self.refuse(WallAttributeError(_no_attr(obj, name)), f"{_type_name(obj)}.{name}",
                               _really_has(obj, name)), None
        if owner is not None and owner in users:
            return None, None
        if user and not is_type:  # an attribute the file set on its own object shadows its class's
            d = _instance_dict(obj)
            if d is not None and name in d:
                return None, None
        g = self.surface.pair(subject, mro, is_type)
        if not is_type and getattr(g, "_gradcli_user_attrs", False) and not name.startswith("_"):
            d = _instance_dict(obj)  # an attribute the file set on a tensor (the write above allowed it)
            if d is not None and name in d and not hasattr(type(obj), name):
                return None, None
        if name[:1] == "_" and not is_type and getattr(g, "_gradcli_private", None) is not None \
                and _documented_private(name):
            return None, g  # t._version, t._base, t._is_view(), grad_fn._saved_*: PyTorch's own answer
        if owner is None and (user or is_dynamic(g)):
            return None, g  # the object's own attributes (instance dict, a Module's parameters and submodules)
        if g is not None and name in self.surface.public(g, obj):
            if not (user or is_type or type(obj) is super or getattr(g, "_gradcli_dynamic", False)):
                self._fast[(type(obj), name)] = g  # decided by the class alone: the next read is a lookup
            return None, g
        if g is None and not is_type:
            base = self._python_base(obj)
            if base is not None and name in _py_attrs()[base]:
                return None, None
        return self._refusal(obj, name, g), None

    def getattr_(self, obj: Any, name: str) -> Any:
        """``obj.name`` in the file."""
        if obj is dict and name == "fromkeys":  # the one attribute of a built-in type the language reads
            return dict.fromkeys
        t = type(obj)
        g = self._fast.get((t, name))
        if g is None:
            if t is ModuleProxy:
                return getattr(obj, name)
            if t in _py_attrs():
                return self._python_value(obj, name)
            refusal, g = self.readable(obj, name)
            if refusal is not None:
                raise refusal
        value = getattr(obj, name)
        if g is not None:
            adapt = _ADAPTERS.get((g.__name__, name))
            if adapt is not None:
                value = adapt(value)
        return value

    def method_(self, obj: Any, name: str) -> Any:
        """``obj.name`` read to be called at once (``obj.name(...)``): as :meth:`getattr_`, but a C method of
        the object's class is handed over unbound with ``obj`` as its first argument, so that a wrong call
        fails with the message a direct method call gives ("TensorBase.exp_() takes no arguments"; a bound
        builtin method names the instance's type instead, "Tensor.exp_()")."""
        value = self.getattr_(obj, name)
        if type(value) is types.BuiltinMethodType and value.__self__ is obj and not isinstance(obj, type) \
                and name not in (_instance_dict(obj) or ()):
            owner = _owner(type(obj).__mro__, name)
            descr = _TYPE_DICT.__get__(owner).get(name) if owner is not None else None
            if type(descr) is types.MethodDescriptorType:
                return functools.partial(descr, obj)
        return value

    def _writable(self, obj: Any, name: str, verb: str) -> Any:
        t = type(obj)
        if t is ModuleProxy:
            raise self.refuse(WallAttributeError(_not_writable(obj, name)), f"{verb} {name}")
        from ..errors import GradcliError
        from ..lang.access import PY_ATTRS, set_attr

        if t in PY_ATTRS:
            try:
                set_attr(obj, name, None)  # gradcli's answer: Python values have nothing settable (it raises)
            except GradcliError as e:
                raise self.refuse(WallAttributeError(str(e)), f"{verb} {type(obj).__name__}.{name}", False) from None
            return obj
        mro, is_type, user, _, subject = self._where(obj, name)
        if is_type:  # gradcli sets nothing on a class, the file's own or PyTorch's (``A.x = 1``)
            raise self.refuse(WallAttributeError(f"'type' object has no attribute '{name}'"),
                              f"{verb} {_type_name(obj)}.{name}")
        if user and not name.startswith("__"):
            return obj
        g = self.surface.pair(subject, mro, is_type)
        if not is_type and getattr(g, "_gradcli_user_attrs", False) and not name.startswith("_") \
                and name not in self.surface.public(g, obj) and not hasattr(type(obj), name):
            # a new plain attribute of a tensor (``x.label = 'x'``), as gradcli takes it; never one that would
            # shadow anything torch.Tensor has, so PyTorch's own code cannot meet a value of the file's there
            return obj
        if not is_type and getattr(g, "_gradcli_user_attrs", False) and not name.startswith("_") \
                and inspect.isfunction(inspect.getattr_static(g, name, None)):
            # a tensor attribute hiding a Tensor method (``w.retain_grad = True``): gradcli keeps it as
            # PyTorch's instance __dict__ does (lang/access.set_attr); the value is the file's own
            return obj
        settable = getattr(g, "_gradcli_settable", None) if g is not None else None
        if isinstance(settable, (frozenset, set)) and (name in settable or ("*" in settable and not name.startswith("_"))):
            return obj
        if not is_type and not name.startswith("_") and is_dynamic(g) and getattr(g, "_gradcli_settable", None) is \
                getattr(g, "_gradcli_public", None):  # the class decides writes too (a Module's __setattr__)
            return obj
        if g is not None and name in self.surface.public(g, obj) and getattr(g, "_gradcli_user_attrs", False):
            msg = f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable"  # as lang/access.set_attr
        elif g is not None and name in self.surface.public(g, obj):
            msg = f"attribute '{name}' of '{_type_name(obj)}' object is not writable"
        else:
            msg = _no_attr(obj, name)
        raise self.refuse(WallAttributeError(msg), f"{verb} {_type_name(obj)}.{name}")

    def setattr_(self, obj: Any, name: str) -> Any:
        """``obj.name = ...`` in the file: returns ``obj`` when gradcli lets the file set ``name``."""
        return self._writable(obj, name, "setting")

    def augattr_(self, obj: Any, name: str) -> Any:
        """``obj.name += ...``: both a read and a write of ``name`` (the read itself is Python's)."""
        from ..lang.access import PY_ATTRS

        if type(obj) is not ModuleProxy and type(obj) not in PY_ATTRS:  # those refuse the write anyway
            refusal, _ = self.readable(obj, name)
            if refusal is not None:
                raise refusal
        return self._writable(obj, name, "setting")

    def delattr_(self, obj: Any, name: str) -> Any:
        """``del obj.name``: as a write."""
        return self._writable(obj, name, "deleting")
