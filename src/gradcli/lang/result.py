"""Plain data passed from the language layer to the app/CLI layer.

:class:`RunOptions` mirrors the options of ``gradcli run`` that act inside the
program (SPEC §3); :class:`RunResult` is what :func:`gradcli.lang.run.run_file`
returns.  No rich, no typer here: renderers turn these into tables and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass
class RunOptions:
    """The options of SPEC §3 that change how the file runs.

    sets: ``(NAME, VALUE-text)`` pairs of ``--set``, in command-line order.
    gradient: the ``--gradient`` text (number, nested list, ``ones`` or an expression).
    inputs: names given to ``--inputs`` (already split on commas).
    timeout: wall-clock seconds (None = default of lang.limits).
    """

    sets: list[tuple[str, str]] = field(default_factory=list)
    requires_grad: list[str] = field(default_factory=list)
    retain_grad: list[str] = field(default_factory=list)
    no_grad: bool = False
    backward: Optional[str] = None
    gradient: Optional[str] = None
    inputs: Optional[list[str]] = None
    retain_graph: bool = False
    create_graph: bool = False
    repeat: int = 1
    dtype: Optional[str] = None  # 'float32' | 'float64'
    seed: int = 0
    max_elements: Optional[int] = None
    max_memory: Optional[int] = None  # bytes (--max-memory)
    detect_anomaly: bool = False  # --detect-anomaly: anomaly mode for the whole run (file and after-file backward)
    max_steps: Optional[int] = None
    timeout: Optional[float] = None
    trace: bool = False
    # graph --values: record each result's value summary and the gradient each node received
    # (autograd/values.py; RunResult.logs["values"])
    values: bool = False
    # more limits (None = default of lang.limits): --max-call-depth, --max-output, --max-source, --max-depth
    max_call_depth: Optional[int] = None
    max_output: Optional[int] = None
    max_source_bytes: Optional[int] = None
    max_depth: Optional[int] = None  # expression nesting: brackets (max_nesting) and syntax tree (2x, max_ast_depth)


@dataclass
class WarningRecord:
    """One warning, reported once per (kind, line) (SPEC §4)."""

    kind: str
    message: str
    line: Optional[int]
    col: Optional[int] = None
    source_line: Optional[str] = None


@dataclass
class ErrorRecord:
    """The error that ended the run (SPEC §4/§5).

    line/col: innermost position in the file (1-based line, 0-based col), or
    None for errors of the backward gradcli runs after the file.
    frames: call sites from outermost to innermost, as (line, col); the last one
        is the error's own position.
    related: ``{"role", "line", "col", "text"}`` dicts telling both ends of the story.
    """

    kind: str
    message: str
    hint: str = ""
    # PyTorch 2.13's str(e) of the same error, verbatim (None: an error PyTorch never raises)
    torch_message: Optional[str] = None
    line: Optional[int] = None
    col: Optional[int] = None
    source_line: Optional[str] = None
    frames: list[tuple[int, int]] = field(default_factory=list)
    related: list[dict] = field(default_factory=list)
    # static check: every construct outside the language, ``{"kind", "message", "line", "col"}``
    problems: list[dict] = field(default_factory=list)
    # facts of the error for the explainers, not in JSON: the node, saved tensor or root involved (engine, for
    # app/related.py), or the limit that stopped the file before it ran (lang/run.py, for the panel)
    facts: Optional[dict] = field(default=None, repr=False, compare=False)


@dataclass
class RunResult:
    """Everything a run produced.

    tensors: ``(name, Tensor)`` for every top-level name bound to a tensor at
    the end (or at the error), in order of first binding (SPEC §5).
    namespace: the file's top-level names (for `graph`, `why`, ...).
    trace: backward-pass events when RunOptions.trace was set, else None.
    """

    file: str
    source: str
    ok: bool
    stdout: str
    tensors: list[tuple[str, Any]] = field(default_factory=list)
    warnings: list[WarningRecord] = field(default_factory=list)
    error: Optional[ErrorRecord] = None
    namespace: dict[str, Any] = field(default_factory=dict)
    trace: Optional[list[Any]] = None
    # with trace: each event's node and the nodes its gradients went to, in the same order (the HTML report
    # links steps to graph nodes); not in JSON
    trace_nodes: list[tuple[Any, list[Any]]] = field(default_factory=list, repr=False, compare=False)
    # names bound before the file: ``{"name", "source": "--set"|"free", "text"}`` (free inputs: SPEC §3);
    # text: the --set VALUE as given, or "torch.tensor(1.0)"
    inputs: list[dict] = field(default_factory=list)
    # the backward gradcli ran after the file: ``{"target", "implicit", "options": {...}}``, or None
    backward: Optional[dict] = None
    # names the file reads but never binds (lang/inputs.py), for the name error's hint
    free_names: list[str] = field(default_factory=list)
    # anomaly mode's forward watch (autograd/anomaly.py): the first forward op that made a NaN and an inf,
    # ``{"kind": "nan"|"inf", "line", "col", "op", "node", "inputs", "output", "count", "numel",
    # "inputs_had"}``, in line order; None when anomaly mode was never on
    forward_nonfinite: Optional[list[dict]] = None
    # the engine's logs for the explainers (app/why.py): {"backward": [...], "inplace": [...]}; not in JSON
    logs: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
