"""Functions defined in the file (``def``/``lambda``): the function object and Python's argument binding.

A :class:`UserFunction` is a compiled body (:class:`Code`, shared by every
function object a ``def`` statement creates) plus the frame of the enclosing
function scope (closures) and the evaluated defaults.  It is callable from
Python code -- the engine calling a hook ``fn(grad)``, a decorator's wrapper --
and exposes no attribute to user code.  Argument binding follows Python's
rules and error messages (kind ``type``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..errors import GradcliError, error_class
from .limits import limit_error
from .position import position

__all__ = ["UserFunction", "Code", "UNBOUND", "bind"]


class _Unbound:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()
_MISS = object()


def _err(kind: str, message: str) -> GradcliError:
    return error_class(kind)(message)


class Code:
    """The compiled form of a def or lambda (shared by every function object it creates)."""

    __slots__ = (
        "name", "body", "size", "npos", "posnames", "posonly", "kwonly", "vararg", "kwarg", "kwindex",
        "simple", "is_lambda", "pad", "rt", "line", "col", "varname", "kwname", "_params",
    )
    name: str  # 'f' or '<lambda>'
    body: Callable[[list], Any]  # block (returns a signal) or, for a lambda, the expression
    size: int  # frame length (outer link + locals)
    npos: int  # positional parameters (positional-only included)
    posnames: list[str]
    posonly: frozenset[str]
    kwonly: dict[str, int]  # keyword-only name -> frame slot
    vararg: Optional[int]  # slot of *args
    kwarg: Optional[int]  # slot of **kwargs
    kwindex: dict[str, int]  # names bindable by keyword -> slot
    simple: bool  # no *args/**kwargs/keyword-only: the positional fast path applies
    is_lambda: bool
    pad: tuple  # UNBOUND for the non-parameter locals
    rt: Any  # the run's shared runtime (budget, tick, max_depth)
    line: Optional[int]
    col: Optional[int]
    varname: Optional[str]  # name of *args (None without)
    kwname: Optional[str]  # name of **kwargs (None without)
    _params: Any  # cached (kind, name) list for __signature__

    def parameters(self) -> list:
        """``(name, kind)`` of every parameter in definition order (``inspect.Parameter`` kinds)."""
        try:
            return self._params
        except AttributeError:
            pass
        import inspect

        P = inspect.Parameter
        out = []
        for n in self.posnames:
            out.append((n, P.POSITIONAL_ONLY if n in self.posonly else P.POSITIONAL_OR_KEYWORD))
        if getattr(self, "varname", None):
            out.append((self.varname, P.VAR_POSITIONAL))
        for n in self.kwonly:
            out.append((n, P.KEYWORD_ONLY))
        if getattr(self, "kwname", None):
            out.append((self.kwname, P.VAR_KEYWORD))
        self._params = out
        return out


class UserFunction:
    """A function defined in the file (``def`` or ``lambda``).

    Callable from Python (the engine calling a hook: ``fn(grad)``); exposes no
    attribute to user code.
    """

    __slots__ = ("_code", "_outer", "_defaults", "_kwdefaults")
    _gradcli_public: frozenset = frozenset()
    _gradcli_type_name = "function"

    def __init__(self, code: Code, outer: Any, defaults: tuple, kwdefaults: dict) -> None:
        self._code = code
        self._outer = outer
        self._defaults = defaults
        self._kwdefaults = kwdefaults

    @property
    def __name__(self) -> str:  # for engine messages (e.g. functools.wraps)
        return self._code.name

    @property
    def __signature__(self) -> Any:
        """``inspect.signature(fn)``: the def's parameters with their defaults (engine code introspects it:
        ``Function.apply`` with ``setup_context``, functional, checkpoint).  Unreachable from user code
        (a dunder name)."""
        import inspect

        P = inspect.Parameter
        code = self._code
        params = code.parameters()
        npos = code.npos
        first_default = npos - len(self._defaults)
        out = []
        for i, (name, kind) in enumerate(params):
            default: Any = P.empty
            if i < npos and i >= first_default:
                default = self._defaults[i - first_default]
            elif kind is P.KEYWORD_ONLY and name in self._kwdefaults:
                default = self._kwdefaults[name]
            out.append(P(name, kind, default=default))
        return inspect.Signature(out, __validate_parameters__=False)

    def __repr__(self) -> str:
        return f"<function {self._code.name}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Entry from Python code (engine hooks, decorators): keeps :data:`position` as it was."""
        saved = position.loc
        try:
            return self._invoke(args, kwargs)
        finally:
            position.loc = saved

    def _invoke(self, args: Any, kwargs: Optional[dict]) -> Any:
        code = self._code
        rt = code.rt
        tick = rt.tick
        tick[0] -= 1
        if tick[0] <= 0:
            rt.budget.refill()
        budget = rt.budget
        budget.depth += 1
        try:
            if budget.depth > rt.max_depth:
                raise limit_error(
                    f"function calls nested more than {rt.max_depth} deep (recursion limit)", "max_call_depth"
                )
            if code.simple and not kwargs and len(args) == code.npos:
                fr = [self._outer, *args, *code.pad]
            else:
                fr = bind(self, args, kwargs)
            r = code.body(fr)
        finally:
            budget.depth -= 1
        if code.is_lambda:
            return r
        if r is None:
            return None
        return r[0]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _name_list(names: list[str]) -> str:
    q = [f"'{n}'" for n in names]
    if len(q) == 1:
        return q[0]
    if len(q) == 2:
        return f"{q[0]} and {q[1]}"
    return ", ".join(q[:-1]) + f", and {q[-1]}"


def bind(fn: UserFunction, args: Any, kwargs: Optional[dict]) -> list:
    """Python's argument binding, with Python's TypeError messages (kind ``type``)."""
    code = fn._code
    name = code.name
    fr: list[Any] = [UNBOUND] * code.size
    fr[0] = fn._outer
    npos = code.npos
    nargs = len(args)
    defaults = fn._defaults
    if nargs > npos:
        if code.vararg is None:
            given_kw = len([k for k in (kwargs or ()) if k in code.kwonly])
            if defaults:
                takes = f"from {npos - len(defaults)} to {npos} positional arguments"
            else:
                takes = _plural(npos, "positional argument")
            was = "was" if nargs == 1 else "were"
            extra = ""
            if given_kw:
                kw_text = _plural(given_kw, "keyword-only argument")
                extra = f" positional {'argument' if nargs == 1 else 'arguments'} (and {kw_text})"
            raise _err("type", f"{name}() takes {takes} but {nargs}{extra} {was} given")
        fr[code.vararg] = tuple(args[npos:])
        nargs = npos
    elif code.vararg is not None:
        fr[code.vararg] = ()
    for i in range(nargs):
        fr[1 + i] = args[i]
    extra_kw: Optional[dict] = {} if code.kwarg is not None else None
    if kwargs:
        for k, v in kwargs.items():
            idx = code.kwindex.get(k)
            if idx is None:
                if extra_kw is not None:
                    extra_kw[k] = v
                    continue
                if k in code.posonly:
                    raise _err(
                        "type", f"{name}() got some positional-only arguments passed as keyword arguments: '{k}'"
                    )
                raise _err("type", f"{name}() got an unexpected keyword argument '{k}'")
            if fr[idx] is not UNBOUND:
                raise _err("type", f"{name}() got multiple values for argument '{k}'")
            fr[idx] = v
    if code.kwarg is not None:
        fr[code.kwarg] = extra_kw
    # defaults and missing arguments
    first_default = npos - len(defaults)
    missing = []
    for i in range(npos):
        if fr[1 + i] is UNBOUND:
            if i >= first_default:
                fr[1 + i] = defaults[i - first_default]
            else:
                missing.append(code.posnames[i])
    if missing:
        raise _err(
            "type", f"{name}() missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: "
            f"{_name_list(missing)}"
        )
    missing = []
    for k, idx in code.kwonly.items():
        if fr[idx] is UNBOUND:
            if k in fn._kwdefaults:
                fr[idx] = fn._kwdefaults[k]
            else:
                missing.append(k)
    if missing:
        raise _err(
            "type", f"{name}() missing {len(missing)} required keyword-only argument{'s' if len(missing) > 1 else ''}: "
            f"{_name_list(missing)}"
        )
    return fr
