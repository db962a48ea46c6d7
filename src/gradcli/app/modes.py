"""``gradcli modes FILE [--target NAME]``: the same file under each grad off-switch, side by side.

The file runs as written, then once per off-switch applied to the statement(s)
that assign the target at top level:

=========================== ============================================================
``no_grad``                 ``with torch.no_grad(): <stmt>``
``set_grad_enabled(False)`` ``with torch.set_grad_enabled(False): <stmt>``
``inference_mode``          ``with torch.inference_mode(): <stmt>``
``detach()``                ``<stmt>; NAME = NAME.detach()``
``requires_grad_(False)``   ``<stmt>; NAME.requires_grad_(False)``
=========================== ============================================================

The rewrite is textual and keeps every line number (the ``with`` goes in front
of the statement on its own line, the detach after it), so errors and why-notes
point at the user's lines.  Each variant is an ordinary run (same options), and
:class:`ModesReport` lines up every tensor's flags and gradient, and the outcome,
per mode.  No rich here: :mod:`.render.modes` draws the table.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Optional

from .problems import UsageProblem
from .srcinfo import SourceInfo

__all__ = ["MODES", "ModeRun", "ModesReport", "rewrite", "run_modes", "modes_document", "SCHEMA"]

SCHEMA = "gradcli.modes/1"
MODES = ("as written", "no_grad", "set_grad_enabled(False)", "inference_mode", "detach()", "requires_grad_(False)")
_WITH = {"no_grad": "torch.no_grad()", "set_grad_enabled(False)": "torch.set_grad_enabled(False)",
         "inference_mode": "torch.inference_mode()"}


@dataclass
class TensorState:
    name: str
    shape: list
    requires_grad: bool
    is_leaf: bool
    grad_fn: Optional[str]
    grad: Any  # numpy array or None

    def flags(self) -> str:
        if self.grad_fn:
            return self.grad_fn
        return "leaf, rg" if self.requires_grad else "leaf, no rg"


@dataclass
class ModeRun:
    mode: str
    source: str
    ok: bool
    error: Optional[tuple] = None  # (kind, line)
    tensors: dict = field(default_factory=dict)  # name -> TensorState
    why: dict = field(default_factory=dict)  # name -> WhyNote


@dataclass
class ModesReport:
    file: str
    target: str
    lines: list[int]
    runs: list[ModeRun]
    names: list[str]

    def differs(self, mode_run: ModeRun, name: str) -> bool:
        """Does ``name`` have other flags or gradient in ``mode_run`` than in the file as written?"""
        import numpy as np

        base = self.runs[0].tensors.get(name)
        other = mode_run.tensors.get(name)
        if base is None or other is None:
            return (base is None) != (other is None)
        if base.flags() != other.flags():
            return True
        if (base.grad is None) != (other.grad is None):
            return True
        if base.grad is not None and (base.grad.shape != other.grad.shape or
                                      not np.allclose(base.grad, other.grad, equal_nan=True)):
            return True
        return False


def _statements(info: SourceInfo, name: str) -> list[ast.stmt]:
    out = []
    for st in info.assignments_of(name):
        if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
            out.append(st)
        elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == name:
            out.append(st)
    return out


def rewrite(source: str, name: str, mode: str) -> tuple[str, list[int]]:
    """The source with the top-level assignments of ``name`` under ``mode``; (text, lines changed)."""
    info = SourceInfo(source)
    stmts = _statements(info, name)
    if mode == "as written" or not stmts:
        return source, [s.lineno for s in stmts]
    lines = source.splitlines(keepends=True)
    # edit from the bottom up so earlier positions stay valid
    for st in sorted(stmts, key=lambda s: (s.lineno, s.col_offset), reverse=True):
        if mode in _WITH:
            i = st.lineno - 1
            text = lines[i]
            b = text.encode("utf-8")
            lines[i] = (b[:st.col_offset] + f"with {_WITH[mode]}: ".encode() + b[st.col_offset:]).decode("utf-8")
        else:
            extra = f"; {name} = {name}.detach()" if mode == "detach()" else f"; {name}.requires_grad_(False)"
            i = (st.end_lineno or st.lineno) - 1
            text = lines[i]
            b = text.encode("utf-8")
            end = st.end_col_offset if st.end_col_offset is not None else len(b.rstrip(b"\r\n"))
            lines[i] = (b[:end] + extra.encode() + b[end:]).decode("utf-8")
    return "".join(lines), [s.lineno for s in stmts]


def _state(name: str, t: Any) -> TensorState:
    import numpy as np

    g = getattr(t, "_grad", None)
    fn = t._grad_fn
    return TensorState(name, [int(s) for s in t._data.shape], bool(t._requires_grad), fn is None,
                       None if fn is None else type(fn).__name__,
                       None if g is None else np.array(g._data, copy=True))


def default_target(result: Any) -> Optional[str]:
    """The first tensor the file computed with history (a non-leaf), else the first that requires grad."""
    for n, t in result.tensors:
        if t._grad_fn is not None:
            return n
    for n, t in result.tensors:
        if t._requires_grad:
            return n
    return None


def run_modes(source: Any, filename: str, options: Any, target: Optional[str] = None) -> ModesReport:
    """Run the file as written and under each off-switch; UsageProblem when there is no target to switch."""
    from ..lang.run import run_file
    from .related import enrich
    from .why import explain_all

    text = source.decode("utf-8", "replace") if isinstance(source, (bytes, bytearray)) else source
    if text.startswith("\ufeff"):
        text = text[1:]
    runs: list[ModeRun] = []
    first = run_file(source, filename, options)
    if first.error is not None and first.error.kind in ("syntax", "unsupported", "limit") and not first.tensors:
        raise UsageProblem(f"{filename} could not run: {first.error.kind} at line {first.error.line}: "
                           f"{first.error.message}", "Run `gradcli run` on it to see the error.")
    if target is None:
        target = default_target(first)
        if target is None:
            raise UsageProblem("no tensor with autograd history to switch off in this file",
                               "Name the tensor with --target NAME.")
    if not _statements(SourceInfo(text), target):
        raise UsageProblem(f"--target {target}: no top-level assignment `{target} = ...` in {filename}",
                           "Name a tensor the file assigns at top level.")
    names: list[str] = []
    lines: list[int] = []
    for mode in MODES:
        if mode == "as written":
            src, result = text, first
            lines = [s.lineno for s in _statements(SourceInfo(text), target)]
        else:
            src, _ = rewrite(text, target, mode)
            result = run_file(src, filename, options)
        enrich(result, options)
        run = ModeRun(mode, src, result.ok,
                      None if result.error is None else (result.error.kind, result.error.line))
        for n, t in result.tensors:
            run.tensors[n] = _state(n, t)
            if n not in names:
                names.append(n)
        try:
            run.why = explain_all(result, None)
        except Exception:  # the table does not need the notes
            run.why = {}
        runs.append(run)
    return ModesReport(filename, target, lines, runs, names)


def modes_document(report: ModesReport) -> dict:
    from .records import tensor_values

    def tensor(s: TensorState) -> dict:
        return {"name": s.name, "shape": s.shape, "requires_grad": s.requires_grad, "is_leaf": s.is_leaf,
                "grad_fn": s.grad_fn, "grad": None if s.grad is None else tensor_values(s.grad)}

    return {
        "schema": SCHEMA,
        "file": report.file,
        "target": report.target,
        "lines": report.lines,
        "modes": [{
            "mode": r.mode,
            "ok": r.ok,
            "error": None if r.error is None else {"kind": r.error[0], "line": r.error[1]},
            "tensors": [tensor(r.tensors[n]) for n in report.names if n in r.tensors],
            "differs": [n for n in report.names if report.differs(r, n)] if i else [],
        } for i, r in enumerate(report.runs)],
    }
