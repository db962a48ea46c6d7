"""Error and warning kinds of gradcli (SPEC §4).

This is a leaf module: it imports nothing from gradcli, so the engine, the
interpreter and the CLI can all raise and catch the same classes.

Every error a user can cause is a :class:`GradcliError` subclass whose class
attribute ``kind`` is the stable lowercase name of SPEC §4 (used in JSON, in
``--expect-error`` and in panel titles).  Messages are gradcli's own words;
``hint`` says how to fix the problem.  ``line``/``col`` (1-based line, 0-based
column, as Python's ``ast``) are filled in by the interpreter from the
innermost frame of the user's file; they stay ``None`` for errors raised by the
backward pass gradcli runs after the file.

What a file that catches the error sees (SPEC §2b): ``torch_type`` is the
class PyTorch raises there (``RuntimeError`` for most kinds, ``TypeError``,
``IndexError`` ..., set per error where PyTorch raises another class) and
``torch_message`` PyTorch 2.13's own text, verbatim, for ``str(e)`` -- the
message itself, when gradcli's words are PyTorch's, else the text of
:data:`TORCH_MESSAGES` (its own section below, checked against live PyTorch by
tests/lang/test_torch_messages.py).  Errors PyTorch never raises (``syntax``,
``unsupported``, ``limit``) have ``torch_type`` None: they cannot be caught.

Warnings go through one channel, :func:`warn`: the engine calls it, and the
runner installs a sink (:func:`set_warning_sink`) that records the warning
with the current source line.  Without a sink, warnings are dropped.
"""

from __future__ import annotations

from typing import Callable, Optional

__all__ = [
    "GradcliError",
    "ArgumentTypeError",
    "ArgumentIndexError",
    "ValueErrorKind",
    "KeyErrorKind",
    "python_errors",
    "ERROR_KINDS",
    "WARNING_KINDS",
    "error_class",
    "TORCH_MESSAGES",
    "torch_text",
    "torch_node_name",
    "TORCH_DTYPE_NAMES",
    "warn",
    "set_warning_sink",
    "warn_once",
]


class GradcliError(Exception):
    """Base of every error a user's file (or invocation) can cause.

    Attributes:
        kind: stable lowercase error kind (SPEC §4).
        message: what happened, in gradcli's words.
        hint: how to fix it ('' when there is nothing useful to say).
        line, col: position in the user's file (1-based line, 0-based col),
            or None when the error has no position in the file.
        related: extra source positions that tell the story of the error,
            a list of dicts ``{"role", "line", "col", "text"}``.
        torch_type: the exception class PyTorch raises here (None: PyTorch raises nothing, the error
            cannot be caught by the file).
        torch_message: PyTorch 2.13's ``str(e)``, verbatim (None when torch_type is None).
        torch_args: PyTorch's ``e.args`` when it is not ``(torch_message,)`` (``assert x`` gives ``()``).
    """

    kind = "runtime"
    default_hint = ""
    torch_type: Optional[type] = RuntimeError

    def __init__(
        self,
        message: str,
        hint: Optional[str] = None,
        *,
        line: Optional[int] = None,
        col: Optional[int] = None,
        torch_message: Optional[str] = None,
        torch_type: Optional[type] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = self.default_hint if hint is None else hint
        self.line = line
        self.col = col
        self.related: list[dict] = []
        # call chain (list of (line, col)) filled by the interpreter, innermost last
        self.frames: list[tuple[int, int]] = []
        self._torch_message = torch_message
        if torch_type is not None:
            self.torch_type = torch_type
        self.torch_args: Optional[tuple] = None

    def __str__(self) -> str:
        return self.message

    @property
    def torch_message(self) -> Optional[str]:
        """What ``str(e)`` gives in PyTorch: set by the raise site, else the kind's fixed text of
        :data:`TORCH_MESSAGES`, else the message (gradcli's words are PyTorch's there)."""
        if self.torch_type is None:
            return None
        if self._torch_message is not None:
            return self._torch_message
        fixed = TORCH_MESSAGES.get(self.kind)
        if fixed is not None and "{" not in fixed:
            return fixed
        return self.message

    @torch_message.setter
    def torch_message(self, text: Optional[str]) -> None:
        self._torch_message = text


#: the class PyTorch raises for each kind, where it is not RuntimeError (None: not PyTorch's, not catchable)
_TORCH_TYPES: dict[str, Optional[type]] = {
    "syntax": None, "unsupported": None, "limit": None, "name": NameError, "type": TypeError,
    "index": IndexError, "assertion": AssertionError,
}


def _kind(name: str, hint: str = "", base: type = GradcliError) -> type:
    cls = type(
        "".join(p.capitalize() for p in name.split("_")) + "Error",
        (base,),
        {"kind": name, "default_hint": hint, "__doc__": f"Error kind ``{name}`` (SPEC §4).",
         "torch_type": _TORCH_TYPES.get(name, RuntimeError)},
    )
    cls.__module__ = __name__
    return cls


SyntaxErrorKind = _kind("syntax", "Fix the Python syntax at the marked position.")
UnsupportedError = _kind(
    "unsupported",
    "gradcli runs a safe subset of Python + torch; see `gradcli ops` and the README's language section.",
)
NameErrorKind = _kind("name", "Define the name before this line, or pass it with --set NAME=VALUE.")
TypeErrorKind = _kind("type", "Check the number and types of the arguments.")
IndexErrorKind = _kind("index", "Check the index against the tensor's shape.")
ShapeError = _kind("shape", "Check the shapes: they must broadcast, multiply or reshape as the operation requires.")
SecondBackwardError = _kind(
    "second_backward",
    "Call backward(retain_graph=True) the first time (or pass --retain-graph), or recompute the graph before "
    "the next backward.",
)
NonScalarBackwardError = _kind(
    "non_scalar_backward",
    "Reduce the output to a scalar (e.g. .sum()), or pass gradient= (on the command line: --gradient ones).",
)
NoGradFnError = _kind(
    "no_grad_fn",
    "Make sure a leaf that requires grad reaches this tensor and that it was not computed under no_grad, "
    "detach() or .data.",
)
GradShapeError = _kind("grad_shape", "Pass a gradient with exactly the output's shape.")
UnusedInputError = _kind(
    "unused_input", "Pass allow_unused=True (the gradient is then None), or remove the input from inputs."
)
InputNoGradError = _kind(
    "input_no_grad", "Only tensors that require grad can be differentiated; call requires_grad_() on it first."
)
LeafInplaceError = _kind(
    "leaf_inplace",
    "Do the update under `with torch.no_grad():`, or use an out-of-place op (x = x + 1) to make a new tensor.",
)
InplaceModifiedError = _kind(
    "inplace_modified",
    "Use an out-of-place op (y = y * 2) instead of the in-place one, or clone() the tensor before changing it.",
)
NonLeafRequiresGradError = _kind(
    "non_leaf_requires_grad",
    "Use y = y.detach() to get a tensor that does not require grad; requires_grad_ only changes leaves.",
)
RetainGradNoGradError = _kind(
    "retain_grad_no_grad", "retain_grad() needs a tensor that requires grad; compute it outside no_grad."
)
RequiresGradDtypeError = _kind(
    "requires_grad_dtype", "Convert to a floating dtype first, e.g. x = x.float().requires_grad_()."
)
NumpyRequiresGradError = _kind("numpy_requires_grad", "Use t.detach().numpy().")
ItemNonScalarError = _kind(
    "item_non_scalar", "item() needs a one-element tensor; index it first, or use .tolist()."
)
DetachViewError = _kind(
    "detach_view", "Use v = v.detach() (out of place) instead of detach_() on a view."
)
AssertionErrorKind = _kind("assertion", "")
LimitError = _kind("limit", "Raise the limit with its command-line option if the program really needs more.")
RuntimeErrorKind = _kind("runtime", "")


class ArgumentTypeError(TypeError):
    """PyTorch's TypeError for an argument of the wrong type or count, raised on purpose by the engine.

    The interpreter maps it to kind ``type`` at the file's line (``lang.errmap``).  A plain ``TypeError`` that
    comes out of the engine's own code is a bug of gradcli (exit status 70), unless an argument of the call has
    a type PyTorch refuses there (``errmap.diagnose_call``)."""


class ArgumentIndexError(IndexError):
    """PyTorch's IndexError (a dimension or index out of range), raised on purpose by the engine; kind
    ``index``.  A plain ``IndexError`` out of the engine's own code is a bug, as for :class:`ArgumentTypeError`."""


class ValueErrorKind(RuntimeErrorKind, ValueError):
    """PyTorch's ValueError raised on purpose by the engine (``Invalid learning rate: -1``, ``optimizer got an
    empty parameter list``): kind ``runtime`` with PyTorch's message; a file's ``except ValueError`` catches it
    (``torch_type``)."""

    torch_type = ValueError


class KeyErrorKind(RuntimeErrorKind, KeyError):
    """PyTorch's KeyError for a missing ``key`` raised on purpose by the engine (a parameter group without
    ``params``): kind ``runtime``, message ``KeyError: 'params'``; caught as a KeyError whose ``str(e)`` is
    ``repr(key)``, as Python's."""

    torch_type = KeyError

    def __init__(self, key: object, hint: Optional[str] = None) -> None:
        super().__init__(f"KeyError: {key!r}", hint, torch_message=repr(key))
        self.torch_args = (key,)

    def __str__(self) -> str:
        return self.message


def python_errors(fn: Callable) -> Callable:
    """Run ``fn`` (engine code that works on a file's values) with Python's own errors reported as PyTorch's.

    PyTorch's torch.optim and torch.utils.data are Python: a value a file gave (``lr`` a string, an int among
    the params, a dataset without ``__len__``) fails there with Python's TypeError/AttributeError/... and its
    message.  The same happens in gradcli's code, where it would count as an internal error; this maps it to
    the kind PyTorch's exception has (TypeError ``type``, IndexError ``index``, the others ``runtime``) with
    Python's message.  gradcli's own errors pass through unchanged."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (GradcliError, ArgumentTypeError, ArgumentIndexError, StopIteration, RecursionError, MemoryError):
            raise
        except TypeError as e:
            raise ArgumentTypeError(str(e)) from None
        except IndexError as e:
            raise ArgumentIndexError(str(e)) from None
        except KeyError as e:
            raise KeyErrorKind(e.args[0] if e.args else None) from None
        except ValueError as e:
            raise ValueErrorKind(str(e)) from None
        except (AttributeError, ArithmeticError, NotImplementedError) as e:
            raise RuntimeErrorKind(f"{type(e).__name__}: {e}", torch_type=type(e), torch_message=str(e)) from None

    return wrapper


def call_given(fn: Callable, *args, **kwargs):
    """``fn(*args, **kwargs)`` for engine code calling a callable the file gave it (torch.func's transforms, a
    torch function handed to jacrev/vmap): when the arguments do not bind to ``fn`` (its signature, through
    ``functools.wraps``), Python's TypeError becomes the ``type`` error PyTorch raises for a wrong call, named
    after ``fn`` (``sin() takes 1 positional argument but 2 were given``, PyTorch 2.13's text for a torch
    function); any other error passes unchanged."""
    try:
        return fn(*args, **kwargs)
    except TypeError as e:
        if isinstance(e, GradcliError):
            raise
        import inspect

        try:
            inspect.signature(fn).bind(*args, **kwargs)
        except TypeError as unbound:
            name = getattr(fn, "__name__", None)
            name = name if isinstance(name, str) else "function"
            msg = str(e)
            cut = msg.find("() ")
            text = f"{name}(){msg[cut + 2:]}" if cut >= 0 else f"{name}(): {unbound}"
            raise ArgumentTypeError(text) from None
        except ValueError:  # no signature to check against
            pass
        raise


class InternalError(Exception):
    """A bug inside gradcli itself (exit status 70); never a user's mistake."""


ERROR_KINDS: dict[str, type] = {
    c.kind: c
    for c in (
        SyntaxErrorKind,
        UnsupportedError,
        NameErrorKind,
        TypeErrorKind,
        IndexErrorKind,
        ShapeError,
        SecondBackwardError,
        NonScalarBackwardError,
        NoGradFnError,
        GradShapeError,
        UnusedInputError,
        InputNoGradError,
        LeafInplaceError,
        InplaceModifiedError,
        NonLeafRequiresGradError,
        RetainGradNoGradError,
        RequiresGradDtypeError,
        NumpyRequiresGradError,
        ItemNonScalarError,
        DetachViewError,
        AssertionErrorKind,
        LimitError,
        RuntimeErrorKind,
    )
}

WARNING_KINDS = ("non_leaf_grad", "create_graph_cycle", "other")


# ---------------------------------------------------------------------------------------------
# PyTorch's own messages: what ``str(e)`` gives a file that catches the error (SPEC §2b)
# ---------------------------------------------------------------------------------------------
#: PyTorch 2.13's text, verbatim, where gradcli words the error its own way.  A key that is a kind
#: without ``{fields}`` is that kind's text everywhere (GradcliError.torch_message); the others are
#: templates the raise sites fill in (:func:`torch_text`).  Each entry is checked against live PyTorch
#: by tests/lang/test_torch_messages.py.
TORCH_MESSAGES: dict[str, str] = {
    "second_backward": (
        "Trying to backward through the graph a second time (or directly access saved tensors after they have "
        "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
        "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
        "if you need to access saved tensors after calling backward."
    ),
    "non_scalar_backward": "grad can be implicitly created only for scalar outputs",
    "detach_view": (
        "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for "
        "training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence "
        "detach_() cannot be called on these gradients. To fix this error, please refer to the "
        "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
    ),
    "non_leaf_requires_grad": (
        "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a "
        "subgraph that doesn't require differentiation use var_no_grad = var.detach()."
    ),
    # requires_grad_dtype, by the way the flag was set: factory requires_grad=True (the kind's text),
    # Tensor.requires_grad_(), the requires_grad attribute
    "requires_grad_dtype": "Only Tensors of floating point and complex dtype can require gradients",
    "requires_grad_dtype.method": "only Tensors of floating point dtype can require gradients",
    "requires_grad_dtype.attribute": "only Tensors of floating point and complex dtype can require gradients",
    "unused_input": (
        "The differentiated Tensor at index {index} appears to not have been used in the graph. Set "
        "allow_unused=True if this is the desired behavior."
    ),
    # SavedVariable::unpack: {output} is ", which is output N of NODE," (torch_node_name) or ""
    "inplace_modified": (
        "one of the variables needed for gradient computation has been modified by an inplace operation: "
        "[{tensor_type} [{sizes}]]{output} is at version {version}; expected version {expected} instead. "
        "Hint: {hint}"
    ),
    "inplace_modified.hint": (
        "enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    ),
    "inplace_modified.hint_anomaly": (
        "the backtrace further above shows the operation that failed to compute its gradient. The variable in "
        "question was changed in there or anywhere later. Good luck!"
    ),

    "grad_dtype": (
        "attempting to assign a gradient with dtype '{got}' to a tensor with grad_dtype '{want}'. The gradient "
        "must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype "
        "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the "
        "dtypes of a tensor and its gradient may break downstream systems that assume they match."
    ),
    "grad_size": (
        "attempting to assign a gradient of size '[{got}]' to a tensor of size '[{want}]'. Please ensure that the "
        "gradient and the tensor are the same size"
    ),
}

#: dtype name -> (C++ type name, ScalarType name), as PyTorch's messages print dtypes ('double', 'Float')
TORCH_DTYPE_NAMES: dict[str, tuple[str, str]] = {
    "float32": ("float", "Float"), "float64": ("double", "Double"), "float16": ("c10::Half", "Half"),
    "bfloat16": ("c10::BFloat16", "BFloat16"), "int64": ("long int", "Long"), "int32": ("int", "Int"),
    "int16": ("short int", "Short"), "int8": ("signed char", "Char"), "uint8": ("unsigned char", "Byte"),
    "bool": ("bool", "Bool"), "complex64": ("c10::complex<float>", "ComplexFloat"),
    "complex128": ("c10::complex<double>", "ComplexDouble"),
}



def torch_node_name(name: str) -> str:
    """A backward node as PyTorch 2.13's messages name it: ``ExpBackward0`` -> ``Exp``, ``PowBackward1`` ->
    ``Pow1``, a custom Function's ``MyFnBackward`` -> ``MyFn``; C++ nodes keep their name
    (``torch::autograd::CopySlices``)."""
    if name.endswith("Backward0"):
        return name[: -len("Backward0")]
    head, sep, tail = name.rpartition("Backward")
    if sep and (tail == "" or tail.isdigit()):
        return head + tail
    return name


def torch_text(key: str, **fields: object) -> str:
    """The :data:`TORCH_MESSAGES` entry ``key`` with its ``{fields}`` filled in."""
    return TORCH_MESSAGES[key].format(**fields)


def error_class(kind: str) -> type:
    """The GradcliError subclass for ``kind``; raises KeyError for an unknown kind."""
    return ERROR_KINDS[kind]


_sink: Optional[Callable[[str, str], None]] = None


def set_warning_sink(sink: Optional[Callable[[str, str], None]]) -> Optional[Callable[[str, str], None]]:
    """Install ``sink(kind, message)`` as the receiver of warnings; returns the previous sink."""
    global _sink
    old, _sink = _sink, sink
    return old


def warn(kind: str, message: str) -> None:
    """Emit a warning of ``kind`` (one of WARNING_KINDS) to the installed sink.

    Deduplication per (kind, line), as Python's default warning filter does,
    is the sink's job since only it knows the line.
    """
    if _sink is not None:
        _sink(kind, message)


_once: set = set()
_once_sink: list = [None]


def warn_once(key: str, kind: str, message: str) -> None:
    """PyTorch's ``TORCH_WARN_ONCE``: :func:`warn` only the first time ``key`` is met in this run (the oracle
    runs each file in a fresh process; gradcli forgets the keys whenever a new sink is installed)."""
    if _once_sink[0] is not _sink:
        _once.clear()
        _once_sink[0] = _sink
    if key in _once:
        return
    _once.add(key)
    warn(kind, message)
