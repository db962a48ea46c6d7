"""The ``compare`` service: run a file in gradcli and in PyTorch, list where they disagree.

:func:`diff_documents` compares two ``gradcli.run/1`` documents by the rules of
the conformance suite (tests/conformance/README.md, "What is compared"):

* ``ok`` (and, when given, the exit status: 0 when ok, else 1);
* ``error.kind`` and ``error.line`` (not ``col``, ``message``, ``hint``);
* ``warnings`` as a multiset of (``kind``, ``line``);
* ``stdout`` after stripping the trailing whitespace of each line and of the text: equal, but for
  numbers within float32 tolerance (SPEC §2b; :func:`stdout_close`);
* ``tensors`` by name and in order: ``shape``, ``dtype``, ``requires_grad``,
  ``is_leaf``, ``grad_fn``, ``retains_grad``, and ``data``/``grad`` with the
  tolerance of PyTorch's dtype (float32 rtol 1e-5 atol 1e-6, float64 rtol 1e-10
  atol 1e-12, ints and bools exact; ``"nan"`` equals ``"nan"``, infinities must
  match); ``grad`` null vs not null must match.  ``file`` is not compared.

Each disagreement is a :class:`Difference` row (tensor, field, gradcli,
PyTorch).  :func:`compare_file` runs both sides: gradcli in this process,
PyTorch through :mod:`.oracle` in a process of its own, behind compare's walls
(:mod:`.oracle_walls`: the file reaches only the surface gradcli implements;
:mod:`.oracle_sandbox`: the process is confined).  A file that gradcli's
static check refuses (``syntax``/``unsupported``/``limit`` before anything ran)
is only parsed and checked on the PyTorch side, never executed.  When the walls
stop the PyTorch side (a name gradcli lacks that PyTorch has, an action the
process may not take), the comparison is not identical: a ``PyTorch side``
difference and the note say where it stopped, since real PyTorch would have gone on.

No rich here: :mod:`.render.compare` draws the table.
"""

from __future__ import annotations

import collections
import json
import re
import math
from dataclasses import dataclass, field
from typing import Any, Optional

from .problems import UsageProblem

__all__ = [
    "SCHEMA",
    "TOLERANCES",
    "Difference",
    "Comparison",
    "diff_documents",
    "compare_file",
    "compare_document",
    "TorchMissing",
]

SCHEMA = "gradcli.compare/1"
#: dtype -> (rtol, atol); other dtypes compare exactly
TOLERANCES = {
    "float32": (1e-5, 1e-6),
    "float64": (1e-10, 1e-12),
    "float16": (1e-3, 1e-5),
    "bfloat16": (1e-2, 1e-5),
}
#: tensors up to this many elements are shown whole in a difference; bigger ones by their first differing element
SHOW_WHOLE = 8
_NONE = "—"


class TorchMissing(UsageProblem):
    """``gradcli compare`` needs PyTorch, which is not installed (exit status 2)."""

    def __init__(self, detail: str = "") -> None:
        from .oracle import INSTALL_HINT

        msg = "gradcli compare needs PyTorch to run the file, and it is not installed"
        super().__init__(msg + (f" ({detail})" if detail else ""),
                         f"Install it with: {INSTALL_HINT}")


@dataclass
class Difference:
    """One disagreement. ``tensor`` is None for fields of the whole run (ok, error, warnings, stdout)."""

    tensor: Optional[str]
    field: str
    gradcli: str
    pytorch: str
    detail: str = ""

    def as_dict(self) -> dict:
        return {"tensor": self.tensor, "field": self.field, "gradcli": self.gradcli, "pytorch": self.pytorch,
                "detail": self.detail}


@dataclass
class Comparison:
    """Both runs of one file and their differences.

    pytorch: the PyTorch document, or None when the PyTorch side did not run
    (then ``note`` says why, and the comparison is not identical).
    """

    file: str
    gradcli: dict
    pytorch: Optional[dict]
    differences: list[Difference] = field(default_factory=list)
    note: str = ""
    #: the reference that ran the PyTorch side: {"torch": version, "cpu_capability": "AVX2"} (SPEC §2b Hosts)
    reference: dict = field(default_factory=dict)
    #: what compare's walls did on the PyTorch side: {"refused": [...], "process": {...}, "left": [...]}
    walls: dict = field(default_factory=dict)
    #: gradcli's RunResult (its error, when the file failed, is shown first)
    run: Any = field(default=None, repr=False, compare=False)

    @property
    def failed(self) -> bool:
        """Did the file fail in gradcli (whatever PyTorch did)?"""
        return self.run is not None and self.run.error is not None

    @property
    def identical(self) -> bool:
        return self.pytorch is not None and not self.differences


# --------------------------------------------------------------------------------------------
# the differ
# --------------------------------------------------------------------------------------------
def _text(v: Any) -> str:
    if v is None:
        return "None"
    if isinstance(v, str):
        return v
    return json.dumps(v)


def _flat(v: Any) -> list:
    out: list = []
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(reversed(x))
        else:
            out.append(x)
    return out


def _structure(v: Any) -> list:
    dims = []
    while isinstance(v, list):
        dims.append(len(v))
        if not v:
            break
        v = v[0]
    return dims


def _close(p: Any, g: Any, tol: Optional[tuple]) -> bool:
    """Is gradcli's element ``g`` equal to PyTorch's ``p`` (within ``tol`` for floats)?"""
    if isinstance(p, str) or isinstance(g, str):  # "nan", "inf", "-inf"
        return p == g
    if isinstance(p, bool) or isinstance(g, bool):
        return isinstance(p, bool) and isinstance(g, bool) and p == g
    if not isinstance(g, (int, float)) or not isinstance(p, (int, float)):
        return False
    if tol is None:
        return p == g and isinstance(p, float) == isinstance(g, float)
    rtol, atol = tol
    return math.isfinite(g) and abs(p - g) <= atol + rtol * abs(p)


def _index(flat_i: int, shape: list) -> str:
    idx = []
    for n in reversed(shape):
        if n <= 0:
            break
        idx.append(flat_i % n)
        flat_i //= n
    return "[" + ", ".join(str(i) for i in reversed(idx)) + "]"


def _diff_values(name: str, what: str, g: Any, p: Any, dtype: str, out: list) -> None:
    tol = TOLERANCES.get(dtype)
    if isinstance(g, dict) or isinstance(p, dict):  # a truncated summary on either side
        # shape exact; min, max and mean within 10x the tolerance (the shared suite's compare.py rule)
        wide = None if tol is None else (10 * tol[0], 10 * tol[1])
        same = (isinstance(g, dict) and isinstance(p, dict) and g.get("truncated") == p.get("truncated")
                and g.get("shape") == p.get("shape")
                and all(_close(p.get(k), g.get(k), wide) for k in ("min", "max", "mean")))
        if not same:
            out.append(Difference(name, what, _text(g), _text(p)))
        return
    gs, ps = _structure(g), _structure(p)
    if gs != ps:
        out.append(Difference(name, what, _values_text(g), _values_text(p),
                              f"nesting {gs} in gradcli, {ps} in PyTorch"))
        return
    gf, pf = _flat(g), _flat(p)
    bad = [i for i, (x, y) in enumerate(zip(gf, pf)) if not _close(y, x, tol)]
    if not bad:
        return
    if len(pf) <= SHOW_WHOLE:
        detail = "" if len(pf) <= 1 else f"{len(bad)} of {len(pf)} elements differ"
        out.append(Difference(name, what, _values_text(g), _values_text(p), detail))
        return
    i = bad[0]
    more = f"{len(bad)} of {len(pf)} elements differ" if len(bad) > 1 else "1 element differs"
    out.append(Difference(name, f"{what}{_index(i, ps)}", _text(gf[i]), _text(pf[i]), more))


def _values_text(v: Any) -> str:
    return json.dumps(v)


def _norm_stdout(s: Any) -> str:
    return "\n".join(line.rstrip() for line in (s if isinstance(s, str) else "").rstrip().split("\n"))


def _error_text(e: Any) -> str:
    if not isinstance(e, dict):
        return "no error"
    line = e.get("line")
    return f"{e.get('kind')} (line {line})" if line is not None else f"{e.get('kind')} (after the file)"


def _warning_text(kind: Any, line: Any, n: int) -> str:
    where = f"line {line}" if line is not None else "after the file"
    return _NONE if n == 0 else f"{kind} ({where})" + (f" ×{n}" if n > 1 else "")


def diff_documents(gradcli: dict, pytorch: dict, *, gradcli_status: Optional[int] = None) -> list[Difference]:
    """The differences of gradcli's document from PyTorch's (empty when they agree).

    ``gradcli_status``: gradcli's exit status, when known (a CLI run), is
    checked too: 0 when PyTorch's run was ok, else 1.
    """
    out: list[Difference] = []
    if not isinstance(gradcli, dict):
        return [Difference(None, "document", "not a JSON object", "gradcli.run/1")]
    if gradcli.get("schema") != pytorch.get("schema"):
        out.append(Difference(None, "schema", _text(gradcli.get("schema")), _text(pytorch.get("schema"))))
    if gradcli.get("ok") != pytorch["ok"]:
        out.append(Difference(None, "ok", _text(gradcli.get("ok")), _text(pytorch["ok"])))
    if gradcli_status is not None:
        want = 0 if pytorch["ok"] else 1
        if gradcli_status != want:
            out.append(Difference(None, "exit status", str(gradcli_status), str(want)))
    _diff_error(gradcli.get("error"), pytorch.get("error"), out)
    _diff_warnings(gradcli.get("warnings"), pytorch.get("warnings") or [], out)
    _diff_stdout(gradcli.get("stdout"), pytorch.get("stdout"), out)
    _diff_tensors(gradcli.get("tensors"), pytorch.get("tensors") or [], out)
    return out


def _error_cell(e: Any) -> str:
    if not isinstance(e, dict):
        return "no error"
    message = " ".join(str(e.get("message", "")).split())
    return _error_text(e) + (f": {message[:160]}" if message else "")


def _diff_error(ge: Any, pe: Any, out: list) -> None:
    if pe is None and ge is None:
        return
    if pe is None or not isinstance(ge, dict) or ge.get("kind") != pe["kind"]:
        out.append(Difference(None, "error", _error_cell(ge), _error_cell(pe)))
    elif ge.get("line") != pe["line"]:
        out.append(Difference(None, "error line", _text(ge.get("line")), _text(pe["line"]), pe["kind"]))


def _diff_warnings(gw: Any, pw: list, out: list) -> None:
    try:
        gc = collections.Counter((w.get("kind"), w.get("line")) for w in gw or [])
    except AttributeError:
        out.append(Difference(None, "warnings", "malformed", _text(len(pw))))
        return
    pc = collections.Counter((w["kind"], w["line"]) for w in pw)
    if gc == pc:
        return
    for key in sorted(set(gc) | set(pc), key=lambda k: (k[1] if k[1] is not None else -1, str(k[0]))):
        if gc[key] != pc[key]:
            out.append(Difference(None, "warning", _warning_text(key[0], key[1], gc[key]),
                                  _warning_text(key[0], key[1], pc[key])))


_NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def stdout_close(g: str, p: str) -> bool:
    """Printed texts equal up to numbers within float32 tolerance (SPEC §2b: printed numbers compare within
    section 1's tolerances -- a float32 ``.item()`` printed in full shows the last bits of BLAS/reduction
    order; the shared suite's compare.py ``stdout_close``); the text around the numbers must be equal."""
    if _NUMBER.sub("#", g) != _NUMBER.sub("#", p):
        return False
    gn, pn = _NUMBER.findall(g), _NUMBER.findall(p)
    if len(gn) != len(pn):
        return False
    return all(x == y or abs(float(x) - float(y)) <= 1e-6 + 1e-5 * abs(float(y)) for x, y in zip(gn, pn))


def _diff_stdout(gs: Any, ps: Any, out: list) -> None:
    g, p = _norm_stdout(gs), _norm_stdout(ps)
    if g == p or stdout_close(g, p):
        return
    gl, pl = g.split("\n"), p.split("\n")
    for i in range(max(len(gl), len(pl))):
        x = gl[i] if i < len(gl) else None
        y = pl[i] if i < len(pl) else None
        if x != y:
            extra = sum(1 for a, b in zip(gl[i:], pl[i:]) if a != b) + abs(len(gl) - len(pl))
            detail = f"{extra} lines differ" if extra > 1 else ""
            out.append(Difference(None, f"stdout line {i + 1}", _NONE if x is None else x,
                                  _NONE if y is None else y, detail))
            return


def _tensor_summary(t: dict) -> str:
    return f"{t.get('dtype')} {t.get('shape')}"


def _diff_tensors(gt: Any, pt: list, out: list) -> None:
    gt = [t for t in gt if isinstance(t, dict)] if isinstance(gt, list) else []
    gmap = {t.get("name"): t for t in gt}
    pmap = {t["name"]: t for t in pt}
    for name, t in pmap.items():
        if name not in gmap:
            out.append(Difference(name, "tensor", "absent", _tensor_summary(t)))
    for name, t in gmap.items():
        if name not in pmap:
            out.append(Difference(name, "tensor", _tensor_summary(t), "absent"))
    common_p = [n for n in pmap if n in gmap]
    common_g = [t.get("name") for t in gt if t.get("name") in pmap]
    if common_p != common_g:
        out.append(Difference(None, "tensor order", ", ".join(map(str, common_g)), ", ".join(common_p)))
    for name in common_p:
        p, g = pmap[name], gmap[name]
        for key in ("shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "retains_grad"):
            if g.get(key) != p[key]:
                out.append(Difference(name, key, _text(g.get(key)), _text(p[key])))
        _diff_values(name, "data", g.get("data"), p["data"], p["dtype"], out)
        pg, gg = p["grad"], g.get("grad")
        if pg is None or gg is None:
            if (pg is None) != (gg is None):
                out.append(Difference(name, "grad", "None" if gg is None else _short(gg),
                                      "None" if pg is None else _short(pg)))
        else:
            _diff_values(name, "grad", gg, pg, p["dtype"], out)


def _short(v: Any) -> str:
    text = _values_text(v)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------------------------
# the service
# --------------------------------------------------------------------------------------------
_STATIC_KINDS = ("syntax", "unsupported", "limit")


def _static_failure(source: bytes, display: str, options: Any) -> bool:
    """Does gradcli's static check (parse + language check) refuse the file?"""
    from ..errors import GradcliError
    from ..lang.limits import DEFAULT_LIMITS
    from ..lang.run import prepare

    try:
        prepare(source, display, DEFAULT_LIMITS.with_options(options), tuple(n for n, _ in options.sets))
    except GradcliError:
        return True
    return False


def compare_file(path: str, options: Any, *, timeout: float = 120.0, stdin: Any = None,
                 argv: Any = None) -> Comparison:
    """Run FILE in gradcli and in PyTorch with ``options`` (a RunOptions) and compare.

    Raises TorchMissing (exit 2) without PyTorch, UsageProblem for a bad file
    or invocation; a PyTorch side that crashes or times out gives a
    Comparison with ``pytorch`` None and a ``note``.
    """
    from . import oracle
    from .records import run_document
    from .run import execute, read_source

    if not oracle.torch_available():
        raise TorchMissing()
    source, display = read_source(path, stdin, getattr(options, "max_source_bytes", None))
    import io

    result = execute(path, options, stdin=io.BytesIO(source), argv=argv)
    walls: dict = {}
    gdoc = run_document(result, max_elements=1 << 62)
    from ..lang.parse import source_text

    text = source_text(source)  # as gradcli decodes it (a PEP 263 coding line honoured)
    if result.error is not None and result.error.kind == "limit":
        # past gradcli's limits PyTorch would allocate or loop without them (40 GB, forever): not run
        return Comparison(display, gdoc, None, run=result, note=(
            "gradcli stopped the file at a resource limit; compare does not run it under PyTorch beyond "
            "gradcli's limits (raise the limit named in the error to compare)"))
    static = _static_failure(source, display, options)
    try:
        if static:
            pdoc = oracle.run_document(text, display, options, static_only=True)
            if pdoc is None:
                kind = result.error.kind if result.error is not None else "unsupported"
                return Comparison(display, gdoc, None, run=result, note=(
                    f"gradcli refuses this file before running it ({kind}); PyTorch would run it, "
                    "but compare does not execute files outside gradcli's language"))
        else:
            from ..lang.limits import command_deadline

            whole = command_deadline()  # --timeout bounds the whole command: PyTorch gets what is left
            if whole is not None:
                import time

                timeout = max(0.5, min(timeout, whole - time.monotonic()))
            pdoc = oracle.run_isolated(text, display, options, timeout=timeout, walls=True, report=walls)
    except oracle.OracleUnavailable as e:
        raise TorchMissing(e.detail) from None
    except oracle.OracleInvocationError as e:
        raise UsageProblem(f"PyTorch refused the options: {e}") from None
    except oracle.OracleFailure as e:
        return Comparison(display, gdoc, None, note=f"the PyTorch side failed: {e}", reference=oracle.reference(),
                          run=result, walls=walls)
    c = Comparison(display, gdoc, pdoc, diff_documents(gdoc, pdoc), reference=oracle.reference(), run=result,
                   walls=walls)
    stop = walls_stop(walls)
    if stop:
        ge = gdoc.get("error")
        c.differences.insert(0, Difference(None, "PyTorch side", _error_cell(ge) if ge else "ran to the end",
                                           f"stopped by compare's walls: {stop}",
                                           "compare runs PyTorch only within gradcli's surface"))
        c.note = f"the PyTorch side was stopped by compare's walls ({stop}); real PyTorch would have gone on"
    return c


def walls_stop(walls: dict) -> str:
    """Where compare's walls stopped the PyTorch side ('' when they did not): the first refusal."""
    refused = walls.get("refused") or []
    if refused:
        r = refused[0]
        where = f"line {r['line']}: " if r.get("line") is not None else ""
        return f"{where}{r.get('message', '')}"
    events = (walls.get("process") or {}).get("refused") or []
    if events:
        return f"the process may not do this: {events[0]}"
    left = walls.get("left") or []
    if left:
        return f"it left {', '.join(left[:5])} in its working folder"
    return ""


def compare_document(c: Comparison) -> dict:
    """The ``gradcli.compare/1`` JSON object."""
    return {
        "schema": SCHEMA,
        "file": c.file,
        "identical": c.identical,
        "note": c.note,
        "reference": c.reference,
        "walls": c.walls,
        "differences": [d.as_dict() for d in c.differences],
        "gradcli": c.gradcli,
        "pytorch": c.pytorch,
    }
