"""The errors torch.nn raises, as gradcli errors that are also the Python class PyTorch raises.

``torch/nn`` is Python code: its errors are Python's ``TypeError``, ``ValueError``, ``AttributeError``,
``KeyError``, ``IndexError``, ``RuntimeError``, ``NotImplementedError``.  Each error here is both the
SPEC §4 kind the oracle maps that class to (``type`` for TypeError, ``index`` for IndexError, ``runtime``
for the rest) and an instance of the Python class itself, so ``hasattr`` sees an AttributeError, and a
caught error is the class PyTorch's is.  Raised on purpose by engine code, they are never mistaken for a
bug of gradcli (``lang/errmap``).
"""

from __future__ import annotations

from typing import Optional

from ..errors import ArgumentIndexError, ArgumentTypeError, error_class

__all__ = ["nn_error", "NNAttributeError"]

_CACHE: dict = {}


def _cls(py: type, kind: Optional[str] = None) -> type:
    cls = _CACHE.get((py, kind))
    if cls is None:
        if py is TypeError:
            cls = type("NNTypeError", (error_class("type"), ArgumentTypeError), {})
        elif py is IndexError:
            cls = type("NNIndexError", (error_class("index"), ArgumentIndexError), {})
        else:
            # torch_type: what a file's ``except ValueError`` (lang/exceptions.py) matches
            cls = type(f"NN{py.__name__}", (error_class(kind or "runtime"), py), {"torch_type": py})
        cls.__module__ = __name__
        _CACHE[(py, kind)] = cls
    return cls


def nn_error(py: type, message: str, hint: Optional[str] = None, kind: Optional[str] = None) -> Exception:
    """The error ``py(message)`` that PyTorch's torch.nn raises, as a gradcli error of the matching kind
    (``kind`` overrides it where SPEC §4 reads the message: "size mismatch" is ``shape``).  A KeyError's
    text is quoted, as ``str(KeyError(...))`` is."""
    text = repr(message) if py is KeyError else message
    err = _cls(py, kind)(text, hint)
    err.args = (message,)
    return err


#: AttributeError of a Module (``'Linear' object has no attribute 'foo'``): kind ``runtime``, and an
#: AttributeError for ``hasattr``/``getattr`` inside the engine
NNAttributeError = _cls(AttributeError)
