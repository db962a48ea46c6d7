"""str()/repr() of tensors, exactly as PyTorch 2.13 prints them.

A numpy re-implementation of the algorithm in PyTorch's ``torch/_tensor_str.py``
(PyTorch's print options: precision 4, threshold 1000, edgeitems 3,
linewidth 80, sci_mode chosen automatically, or what ``torch.set_printoptions`` set).  It works on plain numpy arrays,
so the engine never needs torch to print.

PyTorch formats every element through the Python number it gets from
``.item()`` / ``.tolist()`` (a Python float holding the exact float32/float16
value, or a Python int/bool), so we do the same: ``float(np.float32(x))`` is
that very value, and Python's ``format`` then rounds it exactly as PyTorch does.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["format_tensor", "set_printoptions", "OPTS", "PRECISION", "THRESHOLD",
           "EDGEITEMS", "LINEWIDTH"]

# PyTorch's default print options (torch._tensor_str.PRINT_OPTS).
PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80


class _PrintOptions:
    """torch._tensor_str.PRINT_OPTS: what ``torch.set_printoptions`` changes (reset before each run)."""

    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.precision, self.threshold, self.edgeitems, self.linewidth = PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH
        self.sci_mode = None


OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None) -> None:
    """torch.set_printoptions: ``profile`` ('default', 'short', 'full') first, then each option given;
    ``sci_mode`` is always set (None: chosen from the values), as PyTorch's does."""
    if profile is not None:
        if profile == "default":
            OPTS.precision, OPTS.threshold, OPTS.edgeitems, OPTS.linewidth = 4, 1000, 3, 80
        elif profile == "short":
            OPTS.precision, OPTS.threshold, OPTS.edgeitems, OPTS.linewidth = 2, 1000, 2, 80
        elif profile == "full":
            OPTS.precision, OPTS.threshold, OPTS.edgeitems, OPTS.linewidth = 4, math.inf, 3, 80
    if precision is not None:
        OPTS.precision = precision
    if threshold is not None:
        OPTS.threshold = threshold
    if edgeitems is not None:
        OPTS.edgeitems = edgeitems
    if linewidth is not None:
        OPTS.linewidth = linewidth
    OPTS.sci_mode = sci_mode


_NP_DTYPES = {
    "float32": np.float32,
    "float64": np.float64,
    "float16": np.float16,
    "int64": np.int64,
    "int32": np.int32,
    "int16": np.int16,
    "int8": np.int8,
    "uint8": np.uint8,
    "bool": np.bool_,
}
_FLOAT_DTYPES = frozenset({"float32", "float64", "float16"})

_PREFIX = "tensor("


class _Formatter:
    """Decides width / int mode / scientific mode from the values that will be shown.

    Mirrors ``torch._tensor_str._Formatter``: only non-zero finite values count
    towards the width (starting at 1), so ``nan``/``inf``/``0`` never widen a
    column and may stick out when wider than the rest.
    """

    def __init__(self, values: np.ndarray, floating: bool) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)

        if not floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(f"{v}"))
            return

        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            # Nothing to measure: defaults (int mode, width 1) apply, as in PyTorch.
            return

        # PyTorch converts |values| to double before min/max/ratio (half would overflow).
        absvals = np.abs(finite).astype(np.float64)
        vmin = float(absvals.min())
        vmax = float(absvals.max())
        pyvals = finite.tolist()  # exact Python floats of the stored values

        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        self.sci_mode = (vmax / vmin > 1000.0 or vmax > 1.0e8 or vmin < 1.0e-4) if OPTS.sci_mode is None \
            else OPTS.sci_mode

        if self.sci_mode:
            fmt = f"{{:.{OPTS.precision}e}}"
            self.max_width = max(self.max_width, max(len(fmt.format(v)) for v in pyvals))
        elif self.int_mode:
            # +1 for the trailing "." that marks an integer-valued float.
            self.max_width = max(self.max_width, max(len(f"{v:.0f}") + 1 for v in pyvals))
        else:
            fmt = f"{{:.{OPTS.precision}f}}"
            self.max_width = max(self.max_width, max(len(fmt.format(v)) for v in pyvals))

    def format(self, value) -> str:
        """One element (a Python float/int/bool), right-aligned to the common width."""
        if self.floating:
            if self.sci_mode:
                ret = f"{{:{self.max_width}.{OPTS.precision}e}}".format(value)
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{{:.{OPTS.precision}f}}".format(value)
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _summarized(a: np.ndarray) -> np.ndarray:
    """The values a summarised print shows (PyTorch's ``get_summarized_data``).

    Every dimension longer than 2*edgeitems keeps only its first and last
    ``edgeitems`` entries; the result feeds the formatter so hidden values
    never influence width or scientific mode.
    """
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * OPTS.edgeitems:
        rows = list(range(OPTS.edgeitems)) + list(range(a.shape[0] - OPTS.edgeitems, a.shape[0]))
    else:
        rows = list(range(a.shape[0]))
    if a.ndim == 1:
        return a[rows]
    return np.stack([_summarized(a[i]) for i in rows])


def _vector_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    # Each element takes its width plus ", "; wrap so a line fits in linewidth - indent.
    element_length = fmt.max_width + 2
    per_line = max(1, math.floor((OPTS.linewidth - indent) / element_length))
    if summarize and a.shape[0] > 2 * OPTS.edgeitems:
        data = (
            [fmt.format(v) for v in a[:OPTS.edgeitems].tolist()]
            + [" ..."]
            + [fmt.format(v) for v in a[-OPTS.edgeitems:].tolist()]
        )
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(a: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
    n = a.shape[0]
    if summarize and n > 2 * OPTS.edgeitems:
        slices = (
            [_tensor_str(a[i], indent + 1, summarize, fmt) for i in range(OPTS.edgeitems)]
            + ["..."]
            + [_tensor_str(a[i], indent + 1, summarize, fmt) for i in range(n - OPTS.edgeitems, n)]
        )
    else:
        slices = [_tensor_str(a[i], indent + 1, summarize, fmt) for i in range(n)]
    # Blocks of a d-dim tensor are separated by d-1 newlines (blank lines for 3-d+).
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    # PyTorch's own arithmetic: the "+ 1" (and +2 when there is no newline, since
    # rfind gives -1) is kept verbatim because it decides where suffixes wrap.
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_tensor(
    data: "np.ndarray",
    dtype: str,
    *,
    default_dtype: str = "float32",
    requires_grad: bool = False,
    grad_fn: str | None = None,
    is_leaf: bool = True,
    tangent: str | None = None,
) -> str:
    """The text PyTorch 2.13 prints for ``print(t)`` / ``repr(t)`` of a CPU tensor.

    Args:
        data: the tensor's values, any shape including 0-d and empty.  It is
            cast to ``dtype`` first, so float64 data for a float32 tensor is
            rounded to float32 just as the tensor would hold it.
        dtype: one of ``'float32', 'float64', 'float16', 'int64', 'int32', 'bool'``.
        default_dtype: the current ``torch.get_default_dtype()`` (``'float32'``
            or ``'float64'``); decides whether a ``dtype=`` suffix is printed.
        requires_grad: the tensor's ``requires_grad`` flag.
        grad_fn: class name of ``t.grad_fn`` (e.g. ``'MulBackward0'``) or None.
        is_leaf: accepted for the caller's convenience; PyTorch's choice depends
            only on ``grad_fn`` (non-leaf tensors always have one).
        tangent: a dual tensor's ``tangent=...`` suffix (forward_ad.tangent_suffix), printed last.

    Rules followed (``torch/_tensor_str.py``, default print options):
      * floats: precision 4; ``1.``/``-3.`` when every finite non-zero value is
        integral; scientific (``1.0000e-05``) when max/min of |finite non-zero|
        > 1000, max > 1e8 or min < 1e-4; all elements right-aligned to one width;
      * more than 1000 elements: summarised with ``...``, 3 items per edge;
      * 1-d rows wrap at 80 columns; 3-d+ blocks are separated by blank lines;
      * empty: ``tensor([])`` plus ``size=(...)`` when not 1-d and ``dtype=``
        whenever dtype differs from the default (int64 and bool included);
      * suffixes, in order: ``dtype=torch.X`` (unless dtype is the default,
        int64 or bool), then ``grad_fn=<Name>`` or else ``requires_grad=True``;
        each moves to a new line indented 7 when it would pass column 80.
    """
    if dtype not in _NP_DTYPES:
        raise ValueError(f"unsupported dtype for printing: {dtype!r}")
    a = np.asarray(data).astype(_NP_DTYPES[dtype], copy=False)
    indent = len(_PREFIX)
    suffixes: list[str] = []

    if a.size == 0:
        # Nothing to infer the dtype from, so it is shown whenever it is not the default.
        if a.ndim != 1:
            suffixes.append("size=" + str(tuple(int(s) for s in a.shape)))
        if dtype != default_dtype:
            suffixes.append("dtype=torch." + dtype)
        tensor_str = "[]"
    else:
        if dtype not in (default_dtype, "int64", "bool"):
            suffixes.append("dtype=torch." + dtype)
        summarize = a.size > OPTS.threshold
        fmt = _Formatter(_summarized(a) if summarize else a, dtype in _FLOAT_DTYPES)
        tensor_str = _tensor_str(a, indent, summarize, fmt)

    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(tangent)

    return _add_suffixes(_PREFIX + tensor_str, suffixes, indent)
