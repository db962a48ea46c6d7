"""The ``why`` service: why is a tensor's ``.grad`` None (or all zeros) after the run?

For every tensor the file named, :func:`explain_all` returns a :class:`WhyNote`
when its gradient is None or all zeros, in gradcli's words and with the lines
that tell the story.  The kinds (``WhyNote.kind``):

================== =====================================================================
non_leaf           a non-leaf (it has a grad_fn) without retain_grad(): .grad stays None
non_leaf_copy      a non-leaf copy (.to(), .double(), ``* 0.01`` ...) of a leaf that no name
                   refers to: the gradient went into that unnamed leaf
no_grad            computed while grad was off: ``with torch.no_grad()`` (or --no-grad)
set_grad_enabled   computed under ``torch.set_grad_enabled(False)``
inference_mode     computed under ``torch.inference_mode()``
grad_result        a gradient itself: returned by ``torch.autograd.grad`` or read from ``.grad``
                   after a backward without ``create_graph=True`` (no history)
detach             cut from the graph by ``detach()`` / ``detach_()``
data               cut from the graph by ``.data``
requires_grad_false  a leaf created without ``requires_grad=True`` (or computed only from such)
requires_grad_disabled  ``requires_grad_(False)`` / ``.requires_grad = False`` switched it off
not_reachable      requires grad, but no backward's graph reaches it
unused_parameter   a module's parameter that no operation used: the module was never called, or its
                   forward does not use the parameter
excluded_by_inputs a backward reached it, but its ``inputs=`` did not list it
no_backward        no backward ran (none in the file, or the run stopped before it)
backward_failed    the backward that would have reached it failed
autograd_grad      only ``torch.autograd.grad`` ran: it returns gradients, .grad is untouched
grad_reset         a backward filled .grad, then the file set it back to None (``.grad = None``, or
                   ``zero_grad()``, whose default set_to_none=True clears it)
grad_zeroed        .grad was zeroed in place (``x.grad.zero_()``) after the backward
grad_assigned      the file assigned .grad a tensor of zeros
zero_gradient      the backward delivered zeros: a node passed no gradient on (relu of
                   negatives, sign/round/floor, ...), gradients cancelled, or gradient= was 0
nonfinite_gradient .grad holds NaN or inf: the first backward node that made one from finite
                   gradients, and why (sqrt/log at 0, x / 0, a masked ``torch.where`` whose
                   unselected branch is inf or NaN, forward values that already were)
================== =====================================================================

The explanations come from facts the engine records cheaply (``Tensor._origin`` /
``_nograd``, ``Node._loc``, the backward and in-place logs in ``RunResult.logs``)
and from the source (:mod:`.srcinfo`); a zero or non-finite gradient is traced by
re-running the file with the engine's per-node trace and anomaly mode's forward
watch on (only then; the rerun behaves as the run did).  No rich here.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from .srcinfo import GradSwitch, SourceInfo

__all__ = ["WhyNote", "KINDS", "Explainer", "explain_all", "explain_name", "annotate", "BACKWARD_ERRORS",
           "GROUP_EXPLANATION", "group_notes", "line_list"]

KINDS = (
    "non_leaf", "non_leaf_copy", "no_grad", "set_grad_enabled", "inference_mode", "grad_result", "detach", "data",
    "requires_grad_false", "requires_grad_disabled", "not_reachable", "excluded_by_inputs", "no_backward",
    "backward_failed", "autograd_grad", "grad_reset", "grad_zeroed", "grad_assigned", "zero_gradient",
    "unused_parameter", "nonfinite_gradient",
)

#: error kinds raised by a backward / autograd.grad call
BACKWARD_ERRORS = frozenset({
    "second_backward", "non_scalar_backward", "no_grad_fn", "grad_shape", "unused_input", "input_no_grad",
    "inplace_modified",
})

_MAX_WALK = 2_000_000  # nodes visited by one reachability walk
#: where a tensor made outside the file comes from
BEFORE = "before the file ran (by --set, or as a free input)"


@dataclass
class WhyNote:
    """Why one tensor's gradient is None or zero.

    line/col: the line where the cause happened (None when it has no line in the file);
    related: the other lines of the story, ``{"role", "line", "col", "text"}``.
    """

    name: Optional[str]
    kind: str
    message: str
    line: Optional[int] = None
    col: Optional[int] = None
    hint: str = ""
    related: list[dict] = field(default_factory=list)
    grad: str = "None"  # "None", "zeros", or "NaN" / "inf" (nonfinite_gradient)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "grad": self.grad, "line": self.line, "col": self.col,
                "message": self.message, "hint": self.hint, "related": [dict(r) for r in self.related]}


def _q(name: Optional[str]) -> str:
    """A tensor's name as code (`x`), or "it"."""
    return f"`{name}`" if name else "it"


def _loc_of(loc: Any) -> tuple[Optional[int], Optional[int]]:
    if isinstance(loc, tuple) and len(loc) == 2 and isinstance(loc[0], int):
        return loc[0], loc[1]
    return None, None


def _tagged(o: Any) -> bool:
    return isinstance(o, tuple) and len(o) == 3 and isinstance(o[0], str)


def _public_grad_fn(t: Any) -> Any:
    """``t.grad_fn`` as PyTorch shows it; None where PyTorch raises on reading it (a multi-output view whose
    base changed in place), as the JSON records it (app/records.py)."""
    try:
        return t.grad_fn
    except Exception:  # noqa: BLE001 - the engine's runtime error for an invalid view: no grad_fn to show
        return None


def _py_path(path: str) -> str:
    """``model.0.fc`` -> ``model[0].fc``: a module path as Python code."""
    first, *rest = path.split(".")
    return first + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in rest)


def _nonfinite(a: Any) -> Optional[str]:
    """``"NaN"`` when a float array holds a NaN, ``"inf"`` when it holds an inf and no NaN, else None."""
    if a is None or a.dtype.kind not in "fc" or a.size == 0 or np.isfinite(a).all():
        return None
    return "NaN" if np.isnan(a).any() else "inf"


def _data(g: Any) -> Any:
    return None if g is None else g._data


def _nonzero(t: Any) -> bool:
    return t is not None and bool(np.any(t._data))


class Explainer:
    """Explanations over one RunResult (and the options it ran with, for a zero-gradient trace)."""

    def __init__(self, result: Any, options: Any = None, tree: Any = None) -> None:
        self.result = result
        self.options = options
        self.src = SourceInfo(result.source, tree)
        self.names: dict[int, str] = {}
        for name, t in result.tensors:
            self.names.setdefault(id(t), name)
        logs = getattr(result, "logs", None) or {}
        self.calls: list[dict] = list(logs.get("backward", ()))
        self.bumps: list[tuple] = list(logs.get("inplace", ()))
        self._reach: dict[int, Optional[set]] = {}
        self._zero_passes: Optional[dict] = None
        self.module_calls = {id(e[2]) for e in logs.get("modules", ()) if len(e) > 2}

    # --- module parameters (SPEC §2b: a top-level module's parameters are named NAME.PARAM) ---------
    def module_param(self, name: Optional[str]) -> Optional[tuple[str, Any]]:
        """``(module path, module)`` when ``name`` is ``model.fc1.weight``, a parameter of a top-level module."""
        import sys

        nn_module = sys.modules.get("gradcli.nn.module")
        if not name or "." not in name or nn_module is None:
            return None
        root_name, _, rest = name.partition(".")
        root = (getattr(self.result, "namespace", None) or {}).get(root_name)
        if not isinstance(root, nn_module.Module):
            return None
        path, _, _ = rest.rpartition(".")
        try:
            mod = root.get_submodule(path)
        except Exception:  # noqa: BLE001 - the file changed the module after the run's names were taken
            return None
        return (f"{root_name}.{path}" if path else root_name), mod

    # --- helpers ---------------------------------------------------------------------------------
    def rel(self, role: str, loc: Any, text: str) -> dict:
        line, col = _loc_of(loc)
        return {"role": role, "line": line, "col": col, "text": text}

    def where(self, loc: Any) -> str:
        line, col = _loc_of(loc)
        if line is None:
            return "before the file ran (a --set value or the backward gradcli ran after the file)"
        code = self.src.snippet(line, col)
        return f"line {line}" + (f" (`{code}`)" if code else "")

    def at_where(self, loc: Any, none: str = "in the backward gradcli ran after the file") -> str:
        """``at line N (`code`)``, or ``none`` (the phrase for a position outside the file)."""
        line, _ = _loc_of(loc)
        return none if line is None else "at " + self.where(loc)

    def at(self, loc: Any) -> str:
        line, _ = _loc_of(loc)
        return "after the file" if line is None else f"line {line}"

    @staticmethod
    def grad_of(name: Optional[str]) -> str:
        return f"`{name}.grad`" if name else "Its .grad"

    def label(self, t: Any) -> str:
        n = self.names.get(id(t))
        return f"`{n}`" if n else "the tensor"

    def tensor_named(self, name: str) -> Any:
        for n, t in self.result.tensors:
            if n == name:
                return t
        return None

    def root_label(self, node: Any) -> str:
        var = getattr(node, "variable", None)
        for n, t in self.result.tensors:
            if (var is not None and t is var) or (var is None and t._grad_fn is node):
                return f"`{n}`"
        return f"a {type(node).__name__} result" if var is None else "a leaf"

    def note(self, name: Optional[str], kind: str, message: str, loc: Any = None, hint: str = "",
             related: Optional[list] = None) -> WhyNote:
        line, col = _loc_of(loc)
        return WhyNote(name, kind, message, line, col, hint, list(related or []))

    # --- entry points ---------------------------------------------------------------------------
    def explain_all(self) -> dict[str, WhyNote]:
        out: dict[str, WhyNote] = {}
        for name, t in self.result.tensors:
            n = self.explain(t, name)
            if n is not None:
                out[name] = n
        return out

    def explain(self, t: Any, name: Optional[str] = None) -> Optional[WhyNote]:
        """The note for tensor ``t`` (None when its gradient is neither None nor all zeros)."""
        g = getattr(t, "_grad", None)
        if g is not None:
            bad = _nonfinite(g._data)
            if bad is not None:
                n = self._nonfinite(t, name, g, bad)
                n.grad = bad
                return n
            if g._data.size == 0 or np.any(g._data):
                return None
            n = self._zero(t, name, g)
            n.grad = "zeros"
            return n
        # the public flags, as PyTorch shows them: a view's grad_fn is regenerated (None when invalid), and a view
        # made with grad off requires grad when its base does
        if _public_grad_fn(t) is not None and not t._retains_grad:
            return self._non_leaf(t, name)
        if not t.requires_grad:
            return self.no_requires_grad(t, name)
        ng = getattr(t, "_nograd", None)
        if t._base is not None and t._grad_fn is None and ng is not None:
            return self._grad_off(t, name, ng, view_of=t._base)
        return self._missed(t, name)

    # --- non-leaves -------------------------------------------------------------------------------
    def _leaves_of(self, node: Any, limit: int = 20000) -> list:
        """The leaves (AccumulateGrad variables) reachable from ``node``: at most 2, in discovery order."""
        leaves: list = []
        seen = set()
        stack = [node]
        while stack and len(seen) < limit:
            n = stack.pop()
            if n is None or id(n) in seen:
                continue
            seen.add(id(n))
            var = getattr(n, "variable", None)
            if var is not None:
                leaves.append(var)
                if len(leaves) > 1:
                    break
                continue
            stack.extend(nx for nx, _ in getattr(n, "next_functions", ()))
        return leaves

    def _non_leaf(self, t: Any, name: Optional[str]) -> WhyNote:
        fn = _public_grad_fn(t)
        made = f"{type(fn).__name__} {self.at_where(fn._loc)}"
        who = f"`{name}`" if name else "This tensor"
        leaves = self._leaves_of(fn)
        if t._base is not None and fn._loc is None and type(fn).__name__ == "AsStridedBackward0":
            base = self.label(t._base)
            msg = (f"{who} is not a leaf: it is a view of {base}, which got a history or was changed in place "
                   f"after the view was made, so PyTorch gave the view a new grad_fn, AsStridedBackward0, on "
                   f"{base}'s current history. backward() fills .grad only for leaves; a view's gradient passes "
                   "through it to its base.")
            hint = (f"Call {name or 'it'}.retain_grad() before the backward (or pass --retain-grad "
                    f"{name or 'NAME'}) to keep its gradient.")
            return self.note(name, "non_leaf", msg, None, hint)
        if len(leaves) == 1 and id(leaves[0]) not in self.names:
            leaf = leaves[0]
            lo = getattr(leaf, "_origin", None)
            lloc = lo if not _tagged(lo) else lo[1]
            leaf_line, _ = _loc_of(lloc)
            where_leaf = f"created at line {leaf_line}" if leaf_line is not None else "made before the file ran"
            msg = (f"{who} is not a leaf: it is a copy made by {made} from a leaf tensor that requires grad "
                   f"({where_leaf}) but that no name refers to. backward() put the gradient into that "
                   f"unnamed leaf's .grad, not into {who}'s.")
            hint = ("Make the tensor you keep the leaf: do the conversion or scaling first and call "
                    "requires_grad_() last, e.g. w = (torch.randn(3) * 0.01).requires_grad_(); "
                    f"or call {name or 'it'}.retain_grad() to also keep this copy's gradient.")
            rel = [self.rel("copy made", fn._loc, f"{type(fn).__name__} made {who} from the leaf"),
                   self.rel("leaf created", lloc, "the leaf that receives the gradient (no name refers to it)")]
            return self.note(name, "non_leaf_copy", msg, fn._loc, hint, rel)
        msg = (f"{who} is not a leaf: {made} computed it, so it has a grad_fn. backward() fills .grad only "
               "for leaves; a non-leaf's gradient passes through it and is dropped.")
        if len(leaves) == 1 and id(leaves[0]) in self.names:
            msg += f" Its leaf `{self.names[id(leaves[0])]}` gets the gradient."
        hint = (f"Call {name or 'it'}.retain_grad() before the backward (or pass --retain-grad "
                f"{name or 'NAME'}) to keep its gradient.")
        return self.note(name, "non_leaf", msg, fn._loc, hint,
                         [self.rel("computed", fn._loc, f"{type(fn).__name__} made {who} here")])

    # --- tensors that do not require grad -------------------------------------------------------
    def no_requires_grad(self, t: Any, name: Optional[str], depth: int = 0) -> WhyNote:
        """Why ``t`` (a leaf that does not require grad) has no gradient: where tracking was lost."""
        who = f"`{name}`" if name else "This tensor"
        o = getattr(t, "_origin", None)
        if _tagged(o):
            how, loc, ref = o
            src = ref() if ref is not None else None
            src_label = f" of {self.label(src)}" if src is not None and id(src) in self.names else ""
            if how in ("detach", "detach_", "data"):
                spelled = {"detach": "detach()", "detach_": "detach_()", "data": ".data"}[how]
                kind = "data" if how == "data" else "detach"
                if how == "detach_":
                    msg = (f"{who} was cut from the graph by detach_() {self.at_where(loc, BEFORE)}: it became a leaf "
                           "that does not require grad, so no backward reaches it.")
                else:
                    msg = (f"{who} was cut from the graph by {spelled}{src_label} {self.at_where(loc, BEFORE)}: "
                           f"{spelled} gives a new leaf that shares the values but has no history and does "
                           "not require grad, so no backward reaches it.")
                hint = (f"Use the tensor itself instead of {spelled} where the gradient must flow; "
                        f"{spelled} is for values you deliberately treat as constants.")
                if how == "data":
                    hint += " Prefer detach() to .data: .data also escapes the in-place version checks."
                return self.note(name, kind, msg, loc, hint,
                                 [self.rel("cut", loc, f"{spelled} made {who} a leaf without history")])
            if how == "requires_grad_false":
                msg = (f"{who} had requires_grad switched off {self.at_where(loc, BEFORE)}, so it is a leaf that autograd "
                       "does not track and no backward reaches it.")
                mp = self.module_param(name)
                if mp is not None:
                    msg = (f"{who} is frozen: requires_grad was switched off {self.at_where(loc, BEFORE)}; a module's "
                           "requires_grad_(False) freezes each of its parameters, so backward skips it and its "
                           ".grad stays None.")
                    return self.note(name, "requires_grad_disabled", msg, loc,
                                     f"If `{_py_path(mp[0])}` should train, remove that line or call "
                                     f"{_py_path(mp[0])}.requires_grad_(True); a frozen parameter's .grad stays "
                                     "None by design.",
                                     [self.rel("switched off", loc, "requires_grad set to False here")])
                return self.note(name, "requires_grad_disabled", msg, loc,
                                 f"Remove that line, or call {name or 'it'}.requires_grad_() again before "
                                 "computing with it.",
                                 [self.rel("switched off", loc, "requires_grad set to False here")])
        holder = next((n for n, u in self.result.tensors if u is not t and getattr(u, "_grad", None) is t), None)
        if holder is not None:
            binds = self.src.assignments_of(name) if name else []
            bloc = (binds[-1].lineno, binds[-1].col_offset) if binds else None
            return self._grad_result(name, f"`{holder}.grad`", None, bloc)
        returned = self._returned_by_grad(t, name, o)
        if returned is not None:
            return self._grad_result(name, "torch.autograd.grad", returned[0], create=returned[1])
        ng = getattr(t, "_nograd", None)
        if ng is not None:
            return self._grad_off(t, name, ng)
        loc = o if not _tagged(o) else None
        if loc is None and name:  # made outside the recording paths: the last statement binding the name
            binds = self.src.assignments_of(name)
            if binds:
                loc = (binds[-1].lineno, binds[-1].col_offset)
        line, col = _loc_of(loc)
        # computed from other tensors: follow the first one that lost tracking on the way
        inputs = []
        for n in self.src.names_read(self.src.statement_at(line, col)):
            u = self.tensor_named(n)
            if u is not None and u is not t and not u._requires_grad and u._grad_fn is None:
                inputs.append((n, u))
        names = ", ".join(f"`{k}`" for k, _ in inputs)
        if inputs and depth < 6:
            for n, u in inputs:
                cause = self.no_requires_grad(u, n, depth + 1)
                if cause.kind != "requires_grad_false":
                    msg = (f"{who} was computed {self.at_where(loc, BEFORE)} from {names}, which "
                           f"{'does' if len(inputs) == 1 else 'do'} not require grad. " + cause.message)
                    rel = [self.rel("computed from", loc, f"{who} computed from {names}")] + cause.related
                    cloc = (cause.line, cause.col) if cause.line is not None else loc
                    return self.note(name, cause.kind, msg, cloc, cause.hint, rel)
        cut = self._cut_in(line)
        if cut is not None:
            src_name, how = cut
            spelled = {"data": ".data", "detach": "detach()"}[how]
            msg = (f"{who} was computed {self.at_where(loc, BEFORE)} from `{src_name}.{'data' if how == 'data' else 'detach()'}`"
                   f": {spelled} gives a tensor that shares `{src_name}`'s values but has no history and does not "
                   f"require grad, so {who} does not require grad either and no backward reaches it.")
            hint = (f"Use `{src_name}` itself where the gradient must flow; {spelled} is for values you "
                    "deliberately treat as constants.")
            return self.note(name, how, msg, loc, hint,
                             [self.rel("cut", loc, f"{spelled} of `{src_name}` here: no history")])
        hint = (f"Create it with requires_grad=True, or call {name or 'it'}.requires_grad_() before using it "
                f"(on the command line: --requires-grad {name or 'NAME'}).")
        if line is None:
            msg = (f"{who} was made before the file ran (e.g. by --set) without requires_grad, so it is a "
                   "leaf that autograd does not track.")
            return self.note(name, "requires_grad_false", msg, None,
                             f"Pass --requires-grad {name or 'NAME'}.", [])
        if inputs:
            none = "which does not require grad" if len(inputs) == 1 else "none of which requires grad"
            msg = (f"{who} was computed {self.at_where(loc, BEFORE)} only from {names}, {none}, "
                   "so it does not require grad either.")
            first = inputs[0][1]
            fo = getattr(first, "_origin", None)
            rel = [self.rel("computed from", loc, f"{who} computed from {names}")]
            if fo is not None and not _tagged(fo):
                rel.append(self.rel("created", fo, f"`{inputs[0][0]}` created without requires_grad"))
            hint = "Give the tensor the gradient should reach requires_grad=True (e.g. the weights)."
            return self.note(name, "requires_grad_false", msg, loc, hint, rel)
        msg = (f"{who} was created {self.at_where(loc, BEFORE)} without requires_grad=True: it is a leaf that "
               "autograd does not track.")
        return self.note(name, "requires_grad_false", msg, loc, hint,
                         [self.rel("created", loc, f"{who} created here without requires_grad")])

    def _returned_by_grad(self, t: Any, name: Optional[str], origin: Any) -> Any:
        """``(loc, create)``: the logged torch.autograd.grad call whose result ``name`` was last bound to
        (grad on there) and whether it passes create_graph; else None (decided from the source)."""
        import ast

        if not name or _tagged(origin) or getattr(self.options, "no_grad", False):
            return None
        binds = self.src.assignments_of(name)
        if not binds or not isinstance(binds[-1], (ast.Assign, ast.AnnAssign)) or binds[-1].value is None:
            return None
        st = binds[-1]
        calls = [c for c in ast.walk(st.value) if isinstance(c, ast.Call) and
                 ast.unparse(c.func) in ("torch.autograd.grad", "autograd.grad")]
        if len(calls) != 1:
            return None
        sw = self.src.grad_switch_at(st.lineno)
        if sw is not None and sw.off:
            return None
        logged = [e for e in self.calls if e["kind"] == "grad" and _loc_of(e["loc"])[0] == calls[0].lineno]
        create = any(k.arg == "create_graph" for k in calls[0].keywords) or len(calls[0].args) > 4
        return (logged[-1]["loc"], create) if logged else None

    def _cut_in(self, line: Optional[int]) -> Optional[tuple[str, str]]:
        """``(name, "data" | "detach")`` when the statement at ``line`` reads ``name.data`` or calls
        ``name.detach()`` on a tensor of the file that requires grad (the first such, in source order)."""
        import ast

        st = self.src.statement_at(line)
        if st is None or isinstance(st, (ast.For, ast.While, ast.If, ast.With, ast.FunctionDef)):
            return None
        found = []
        for n in ast.walk(st):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.attr in ("data", "detach"):
                u = self.tensor_named(n.value.id)
                if u is not None and u._requires_grad:
                    found.append((n.lineno, n.col_offset, n.value.id, n.attr))
        return (min(found)[2], min(found)[3]) if found else None

    def _grad_result(self, name: Optional[str], source: str, loc: Any, read: Any = None,
                     create: bool = False) -> WhyNote:
        """A gradient itself: autograd computes gradients without recording a graph unless
        create_graph=True (PyTorch's engine runs the backward with grad mode = create_graph)."""
        who = f"`{name}`" if name else "This tensor"
        if loc is not None:
            made = f"{who} is a gradient that torch.autograd.grad returned {self.at_where(loc)}"
        else:
            made = f"{who} is {source}" + (f", read {self.at_where(read)}," if read is not None else "") + \
                " a gradient that a backward filled"
        msg = (f"{made} without create_graph=True: the backward computes gradients without recording a graph, "
               f"so {who} is a leaf that does not require grad and no backward reaches it.")
        if create or (loc is None and self._uses_create_graph()):  # it may have run with create_graph=True
            msg = (f"{made}, and it has no history: a gradient has one only when the backward ran with "
                   "create_graph=True and the gradient depends on tensors that require grad (the gradient of a "
                   f"linear function is a constant), so {who} is a leaf that does not require grad and no "
                   "backward reaches it.")
        hint = ("Pass create_graph=True to that backward / autograd.grad to differentiate the gradient again "
                "(higher-order derivatives).")
        if loc is not None:
            rel = [self.rel("returned", loc, "autograd.grad returned it, with no history")]
        else:
            rel = [self.rel("read", read, f"{who} bound to {source}")] if read is not None else []
        return self.note(name, "grad_result", msg, loc if loc is not None else read, hint, rel)

    def _uses_create_graph(self) -> bool:
        """Whether any call in the file passes create_graph= (or --create-graph was given)."""
        import ast

        if getattr(self.options, "create_graph", False):
            return True
        return any(isinstance(n, ast.keyword) and n.arg == "create_graph"
                   for n in (ast.walk(self.src.tree) if self.src.tree is not None else ()))

    def _grad_off(self, t: Any, name: Optional[str], loc: Any, view_of: Any = None) -> WhyNote:
        who = f"`{name}`" if name else "This tensor"
        line, _ = _loc_of(loc)
        sw: Optional[GradSwitch] = self.src.grad_switch_at(line)
        if getattr(t, "_inference", False):
            kind = "inference_mode"
        elif sw is not None and sw.kind in ("no_grad", "set_grad_enabled", "inference_mode"):
            kind = sw.kind
        else:
            kind = "no_grad"
        spelled = {"no_grad": "torch.no_grad()", "set_grad_enabled": "torch.set_grad_enabled(False)",
                   "inference_mode": "torch.inference_mode()"}[kind]
        rel = [self.rel("computed", loc, f"{who} computed here while grad was off")]
        if sw is not None and sw.off:
            form = {"with": f"inside `with {sw.spelling()}:`", "decorator": f"in a function decorated "
                    f"@{sw.spelling()}", "call": f"after `{sw.spelling()}`"}.get(sw.how, "")
            switch = f"{form} (line {sw.line})"
            rel.append(self.rel("grad off", (sw.line, sw.col), f"{sw.spelling()} turned grad recording off"))
        elif self.options is not None and getattr(self.options, "no_grad", False):
            switch = "with --no-grad (the whole file runs inside torch.no_grad())"
        else:
            switch = f"while grad mode was off ({spelled})"
        msg = (f"{who} was computed {self.at_where(loc, BEFORE)} {switch}: operations there record no graph, so "
               f"{who} is a leaf that does not require grad and no backward reaches it.")
        if view_of is not None:  # PyTorch: requires_grad (from the base), but no grad_fn and no edge to the graph
            msg = (f"{who} is a view of {self.label(view_of)} made {self.at_where(loc, BEFORE)} {switch}: it reports "
                   f"requires_grad=True (its base requires grad), but a view made with grad off has no grad_fn "
                   f"and no edge into the graph, so no backward reaches it and its .grad stays None.")
        hint = ("Compute it outside the block (or inside `with torch.enable_grad():`) if its gradient is needed; "
                "no_grad is for updates and evaluation.")
        if kind == "inference_mode":
            hint = ("Compute it outside torch.inference_mode(): inference tensors can never join a graph "
                    "(clone() it outside the block to get a normal tensor).")
        return self.note(name, kind, msg, loc, hint, rel)

    # --- tensors that require grad but got nothing --------------------------------------------
    @staticmethod
    def _walk(roots: list) -> set:
        seen: set = set()
        stack = list(roots)
        while stack and len(seen) < _MAX_WALK:
            n = stack.pop()
            if n is None or n in seen:
                continue
            seen.add(n)
            stack.extend(nx for nx, _ in getattr(n, "next_functions", ()))
        return seen

    def _reach_set(self, entry: dict) -> Optional[set]:
        """The nodes reachable from a logged call's roots (None when a root's graph is gone)."""
        key = id(entry)
        if key not in self._reach:
            roots = [r() for r in entry["roots"]]
            self._reach[key] = None if any(r is None for r in roots) else self._walk(roots)
        return self._reach[key]

    def _reaches(self, roots: list, target: Any) -> bool:
        if target is None:
            return False
        return target in self._walk(roots)

    def _missed(self, t: Any, name: Optional[str]) -> WhyNote:
        who = f"`{name}`" if name else "This tensor"
        err = self.result.error
        backwards = [e for e in self.calls if e["kind"] == "backward"]
        grads = [e for e in self.calls if e["kind"] == "grad"]
        target = t._grad_fn if t._grad_fn is not None else (t._acc() if t._acc is not None else None)
        err_loc = None if err is None else (err.line, err.col)
        # 1. a failing backward that would have reached it (or whose graph is unknown)
        if err is not None and err.kind in BACKWARD_ERRORS:
            facts = getattr(err, "facts", None) or {}
            last = backwards[-1] if backwards else None
            if last is not None and err.kind in ("second_backward", "inplace_modified") and \
                    _loc_of(last["loc"])[0] == err.line:
                failing = self._reach_set(last)
                if target is not None and (failing is None or target in failing):
                    return self._failed(t, name, err_loc)
            else:
                root = facts.get("root")
                rnode = None
                if root is not None:
                    rnode = root._grad_fn if root._grad_fn is not None else (root._acc() if root._acc else None)
                if rnode is None or (target is not None and self._reaches([rnode], target)):
                    if not any(target is not None and (s := self._reach_set(e)) is not None and target in s
                               for e in backwards):
                        return self._failed(t, name, err_loc)
        # 2. the latest backward that reached it
        ok = [e for e in backwards if not (err is not None and err.kind in BACKWARD_ERRORS and e is backwards[-1]
                                            and _loc_of(e["loc"])[0] == err.line)]
        unknown = False
        for e in reversed(ok):
            seen = self._reach_set(e)
            if seen is None:
                unknown = True
                continue
            if target is None or target not in seen:
                continue
            ins = e["inputs"]
            if ins is not None and not any(r() is t for r in ins):
                listed = [self.label(r()) for r in ins if r() is not None]
                msg = (f"{who} is part of the graph of the backward {self.at_where(e['loc'])}, but that call "
                       f"passed inputs=[{', '.join(listed)}], which does not list {who}: only the listed "
                       "tensors get .grad.")
                return self.note(name, "excluded_by_inputs", msg, e["loc"],
                                 f"Add {_q(name)} to inputs=, or leave inputs= out to fill every leaf.",
                                 [self.rel("backward", e["loc"], "inputs= leaves this tensor out")])
            return self._reset(t, name, e)
        # 3. differentiated by autograd.grad only
        by_grad = [e for e in grads if e["inputs"] and any(r() is t for r in e["inputs"])]
        if by_grad:
            e = by_grad[-1]
            msg = (f"{who} was differentiated by torch.autograd.grad {self.at_where(e['loc'])}, which returns "
                   "the gradients and never writes .grad; no backward() reached it.")
            return self.note(name, "autograd_grad", msg, e["loc"],
                             "Read the gradient from autograd.grad's result, or call backward() to accumulate it "
                             "into .grad.",
                             [self.rel("autograd.grad", e["loc"], "returned the gradients, .grad untouched")])
        # 4. no backward at all
        if not backwards:
            if grads:
                e = grads[-1]
                msg = (f"{who} requires grad, but the only backward pass was torch.autograd.grad "
                       f"{self.at_where(e['loc'])}: autograd.grad returns the gradients and never writes .grad.")
                return self.note(name, "autograd_grad", msg, e["loc"],
                                 "Read the gradient from autograd.grad's result, or call backward() to "
                                 "accumulate it into .grad.",
                                 [self.rel("autograd.grad", e["loc"], "returned the gradients, .grad untouched")])
            if err is not None:
                msg = (f"{who} requires grad, but no backward ran: the run stopped with `{err.kind}`"
                       + (f" at line {err.line}" if err.line is not None else "") + " before any backward.")
                return self.note(name, "no_backward", msg, err_loc, "Fix that error first.",
                                 [self.rel("stopped", err_loc, f"the run stopped here: {err.kind}")])
            msg = (f"{who} requires grad, but no backward ran: the file calls no backward() and gradcli's "
                   "default backward did not apply (it needs a last-assigned tensor that requires grad).")
            return self.note(name, "no_backward", msg, None,
                             "Call loss.backward() in the file, or pass --backward NAME.", [])
        # 5. not reachable
        last = backwards[-1]
        mp = self.module_param(name)
        if target is None and mp is not None:
            path, mod = mp
            if id(mod) not in self.module_calls:
                msg = (f"{who} is a parameter of `{path}`, which was never called: the forward does not use "
                       f"`{path}`, so no graph contains {who} and the backward {self.at_where(last['loc'])} cannot "
                       "reach it.")
            else:
                msg = (f"{who} is a parameter of `{path}`: `{path}` was called, but {who} took part in no "
                       f"operation that records a graph, so the backward {self.at_where(last['loc'])} cannot "
                       "reach it.")
            return self.note(name, "unused_parameter", msg, last["loc"],
                             f"Use `{_py_path(path)}` in forward, or freeze what stays unused "
                             f"({_py_path(path)}.requires_grad_(False)) so that no optimizer waits for its "
                             "gradient.",
                             [self.rel("backward", last["loc"], "this backward's graph does not contain it")])
        if target is None:
            msg = (f"{who} requires grad, but no operation that records a graph ever used it, so it is in no "
                   f"graph and the backward {self.at_where(last['loc'])} cannot reach it.")
            return self.note(name, "not_reachable", msg, last["loc"],
                             f"Use {_q(name)} in the computation of the tensor you call backward() on "
                             "(outside no_grad).",
                             [self.rel("backward", last["loc"], "this backward's graph does not contain it")])
        roots = [r() for r in last["roots"]]
        root_names = ", ".join(self.root_label(r) for r in roots if r is not None) or "its root"
        msg = (f"{who} requires grad, but the backward {self.at_where(last['loc'])} starts from {root_names}, "
               f"which is not computed from {who}: the gradient cannot reach it.")
        if unknown:
            msg = (f"{who} requires grad, but no graph that a backward ran through (last "
                   f"{self.at_where(last['loc'])}) reaches it, as far as the graphs still alive tell.")
        return self.note(name, "not_reachable", msg, last["loc"],
                         f"Check that the tensor you call backward() on is computed from {_q(name)}.",
                         [self.rel("backward", last["loc"], f"backward from {root_names}")])

    def _failed(self, t: Any, name: Optional[str], loc: Any) -> WhyNote:
        who = f"`{name}`" if name else "This tensor"
        err = self.result.error
        msg = (f"{who} requires grad, but the backward "
               + (f"at line {loc[0]}" if loc and loc[0] is not None else "gradcli ran after the file")
               + f" failed with `{err.kind}` before it could deliver a gradient.")
        return self.note(name, "backward_failed", msg, loc, "Fix that error (see its panel).",
                         [self.rel("failed", loc, f"the backward failed: {err.kind}")])

    def _reset(self, t: Any, name: Optional[str], e: dict) -> WhyNote:
        who = f"`{name}`" if name else "This tensor"
        bline, _ = _loc_of(e["loc"])
        reset_loc = None
        if name and self.src.tree is not None:
            import ast

            for st in self.src.statements():
                if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant) and st.value.value is None:
                    for tg in st.targets:
                        if isinstance(tg, ast.Attribute) and tg.attr == "grad" and isinstance(tg.value, ast.Name) \
                                and tg.value.id == name and (bline is None or st.lineno > bline):
                            reset_loc = (st.lineno, st.col_offset)
        zero_grad = None
        if reset_loc is None and self.src.tree is not None:
            import ast

            for st in self.src.statements():
                if bline is not None and st.lineno <= bline:
                    continue
                for c in ast.walk(st):
                    if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "zero_grad" \
                            and not any(k.arg == "set_to_none" for k in c.keywords) and not c.args:
                        zero_grad = ((c.lineno, c.col_offset), ast.unparse(c))
                        break
                if zero_grad is not None:
                    break
        if zero_grad is not None:
            zloc, code = zero_grad
            msg = (f"The backward {self.at_where(e['loc'])} reached {who} and filled its .grad, but `{code}` at "
                   f"line {zloc[0]} set it back to None: zero_grad()'s default set_to_none=True clears every "
                   "gradient it covers.")
            return self.note(name, "grad_reset", msg, zloc,
                             "Read the gradient between backward() and zero_grad() (or call zero_grad() at the "
                             "start of the step).",
                             [self.rel("backward", e["loc"], "filled .grad"),
                              self.rel("reset", zloc, f"{code}: .grad = None")])
        msg = (f"The backward {self.at_where(e['loc'])} reached {who} and filled its .grad, but it was set back "
               "to None afterwards" + (f" {self.at_where(reset_loc)}." if reset_loc else "."))
        return self.note(name, "grad_reset", msg, reset_loc or e["loc"],
                         "Read the gradient before resetting it.",
                         [self.rel("backward", e["loc"], "filled .grad"),
                          *([self.rel("reset", reset_loc, ".grad = None")] if reset_loc else [])])

    # --- zero gradients ----------------------------------------------------------------------------
    def _zero(self, t: Any, name: Optional[str], g: Any) -> WhyNote:
        who = f"`{name}`" if name else "This tensor"
        mine = [b for b in self.bumps if b[0] is g._version]
        if mine:
            loc = mine[-1][2]
            msg = (f"{self.grad_of(name)} is all zeros because it was changed in place {self.at_where(loc, BEFORE)} "
                   "after the backward filled it.")
            return self.note(name, "grad_zeroed", msg, loc,
                             "Read or use the gradient before zeroing it (zero it at the start of the next step).",
                             [self.rel("zeroed", loc, ".grad changed in place")])
        # changed in place through another tensor sharing .grad's values (x.grad.data.zero_(), a view of it):
        # that bump is on the other tensor's version counter; the statement that made it names `x.grad`
        if name:
            for _box, _v, loc in reversed(self.bumps):
                if self._names_grad_of(_loc_of(loc)[0], name):
                    code = self.src.snippet(_loc_of(loc)[0]) or ""
                    via = " through .data" if ".data" in code else ""
                    msg = (f"{self.grad_of(name)} is all zeros because it was changed in place{via} "
                           f"{self.at_where(loc, BEFORE)} after the backward filled it.")
                    return self.note(name, "grad_zeroed", msg, loc,
                                     "Read or use the gradient before zeroing it (zero it at the start of the "
                                     "next step).", [self.rel("zeroed", loc, ".grad changed in place")])
        o = getattr(g, "_origin", None)
        backward_locs = {e["loc"] for e in self.calls}
        if o is not None and not _tagged(o) and o not in backward_locs:
            msg = (f"{self.grad_of(name)} is all zeros because the file assigned it a tensor of zeros made "
                   f"{self.at_where(o, BEFORE)}.")
            return self.note(name, "grad_assigned", msg, o, "Assign None instead, or run a backward after it.",
                             [self.rel("assigned", o, "the zero tensor assigned to .grad")])
        return self._zero_flow(t, name)

    def _names_grad_of(self, line: Optional[int], name: str) -> bool:
        """Whether the statement at ``line`` changes ``name.grad`` in place: an in-place method called on it
        or on what it leads to (``name.grad.data.zero_()``, ``name.grad[0].fill_(0)``), or an augmented /
        item assignment to it (``name.grad *= 0``, ``name.grad[0] = 0``)."""
        import ast

        def reaches(e: Any) -> bool:  # e is name.grad, or .data / [i] / a method call of it
            while True:
                if isinstance(e, ast.Attribute) and e.attr == "grad" and isinstance(e.value, ast.Name):
                    return e.value.id == name
                if isinstance(e, (ast.Attribute, ast.Subscript)):
                    e = e.value
                elif isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
                    e = e.func.value
                else:
                    return False

        st = self.src.statement_at(line)
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute):
            return st.value.func.attr.endswith("_") and reaches(st.value.func.value)
        if isinstance(st, ast.AugAssign):
            return reaches(st.target)
        if isinstance(st, ast.Assign):
            return any(isinstance(tg, ast.Subscript) and reaches(tg.value) for tg in st.targets)
        return False

    def _zero_flow(self, t: Any, name: Optional[str]) -> WhyNote:
        who = f"`{name}`" if name else "This tensor"
        generic = self.note(name, "zero_gradient",
                            f"The backward delivered an all-zero gradient to {who}: along every path from the "
                            "root, some operation has a zero derivative at these values.", None,
                            "Look at the ops between the root and this tensor: relu/clamp of out-of-range "
                            "values, sign/round/floor, multiplication by zero.", [])
        found = self._trace_zero(name) if name else None
        if found is None:
            return generic
        kind, ev, extra = found
        if kind == "root":
            loc = ev
            msg = (f"The gradient passed to the backward {self.at_where(loc)} is all zeros, so every gradient "
                   f"it produces, {who}'s included, is zero.")
            return self.note(name, "zero_gradient", msg, loc, "Pass a nonzero gradient=.",
                             [self.rel("backward", loc, "gradient= is all zeros")])
        if kind == "cancel":
            lines = sorted({ln for ln in extra if ln is not None})
            msg = (f"Gradients did reach {who}, but they cancel out: the contributions along its paths sum to "
                   "zero" + (f" (paths through line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))})."
                             if lines else "."))
            return self.note(name, "zero_gradient", msg, (lines[0], 0) if lines else None,
                             "The function is constant in this tensor (e.g. x - x).",
                             [self.rel("path", (ln, 0), "a contribution") for ln in lines])
        node_name, loc = ev["node"], (ev["line"], 0) if ev.get("line") is not None else None
        fn = ev.get("grad_fn")
        loc = getattr(fn, "_loc", None) or loc
        reason = _ZERO_REASONS.get(node_name.rstrip("0123456789"), "its local derivative is zero at these values")
        msg = (f"{self.grad_of(name)} is all zeros: {node_name} {self.at_where(loc)} received a nonzero gradient but "
               f"passed zeros on towards {who}: {reason}.")
        return self.note(name, "zero_gradient", msg, loc,
                         "Change the operation or its inputs so that its derivative is not zero there.",
                         [self.rel("zeroed by", loc, f"{node_name} passed an all-zero gradient")])

    # --- NaN / inf gradients ------------------------------------------------------------------------
    def _nonfinite(self, t: Any, name: Optional[str], g: Any, bad: str) -> WhyNote:
        """Why ``t.grad`` holds NaN or inf (``bad``): the first backward node that made one from finite
        gradients, found by a traced rerun, and the cause its forward inputs show."""
        who = f"`{name}`" if name else "this tensor"
        found = self._trace_nonfinite(name, bad) if name else None
        if found is not None:
            return found
        return self.note(name, "nonfinite_gradient",
                         f"{self.grad_of(name)} holds {bad}: an operation between the root and {who} has an "
                         "infinite or undefined derivative at these values (sqrt or log at 0, x / 0, a power "
                         f"below 1 at 0), or the forward values were already {bad}.", None,
                         "Run with --detect-anomaly: it stops at the backward node that makes the first NaN and "
                         "names the forward op that made the first NaN or inf.", [])

    def _trace_nonfinite(self, name: str, bad: str) -> Optional[WhyNote]:
        found = self._rerun_tensor(name)
        if found is None:
            return None
        rerun, plist, t2 = found
        kept = (getattr(rerun, "logs", None) or {}).get("nonfinite_inputs") or {}
        origins = getattr(rerun, "forward_nonfinite", None) or []
        for loc, events in plist:
            into = [ev for ev in events if ev.get("accumulated_into") is t2
                    or (t2._grad_fn is not None and ev.get("grad_fn") is t2._grad_fn)]
            if not any(_nonfinite(_data(g)) for ev in into for g in ev.get("grad_in", ())):
                continue
            if events and any(_nonfinite(_data(g)) for g in events[0].get("grad_in", ())):
                what = _nonfinite(_data(next(g for g in events[0]["grad_in"] if _nonfinite(_data(g)))))
                return self.note(name, "nonfinite_gradient",
                                 f"The gradient passed to the backward {self.at_where(loc)} already holds {what}, "
                                 f"so the gradients it produces, {self.grad_of(name)} included, do too.", loc,
                                 "Pass a finite gradient=.", [self.rel("backward", loc, f"gradient= holds {what}")])
            for ev in events:
                if any(_nonfinite(_data(g)) for g in ev.get("grad_in", ())):
                    continue
                outs = [(j, g) for j, (_nx, g) in enumerate(ev.get("grad_out", ())) if _nonfinite(_data(g))]
                if outs:
                    return self._nonfinite_cause(name, bad, ev, outs[0], kept, origins, events)
        return None

    def _nonfinite_cause(self, name: str, bad: str, ev: dict, out: tuple, kept: dict, origins: list,
                         events: list) -> WhyNote:
        """The note for the first node ``ev`` that turned finite gradients into NaN/inf (its ``out`` =
        (grad_out index, gradient)): what its forward input was there, and a ``torch.where`` upstream that
        sent it zeros."""
        node, nname = ev["grad_fn"], ev["node"]
        loc = getattr(node, "_loc", None)
        j, g = out
        made = _nonfinite(g._data)
        m = ~np.isfinite(g._data)
        gin = _data(ev["grad_in"][0]) if ev.get("grad_in") else None
        zero_in = gin is not None and gin.shape == m.shape and bool(np.all(gin[m] == 0))
        idx = (ev.get("out_index") or list(range(len(ev.get("grad_out", ())))))[j]
        inputs = kept.get(id(node), (None, ()))[1]
        x = inputs[idx] if idx < len(inputs) else None
        y = inputs[1] if len(inputs) > 1 else None
        base = nname.rstrip("0123456789")
        cause, hint = _cause(base, idx, x, y, m)
        op = _OP_OF.get(base, nname)
        parts = [f"{self.grad_of(name)} holds {bad}. The first {made} of the backward came from {nname} "
                 f"{self.at_where(loc)}, the backward of {op}"]
        if cause:
            parts[0] += f": {cause}"
        parts[0] += "."
        related = [self.rel("made " + made, loc, f"{nname} turned finite gradients into {made}")]
        if made == "inf" and bad == "NaN":  # the inf became a NaN further on (inf × 0, inf - inf)
            later = events[events.index(ev) + 1:] if ev in events else []
            nxt = next((e for e in later if not any(_nonfinite(_data(g)) == "NaN" for g in e.get("grad_in", ()))
                        and any(_nonfinite(_data(g)) == "NaN" for _nx, g in e.get("grad_out", ()))), None)
            if nxt is not None:
                nloc = getattr(nxt["grad_fn"], "_loc", None)
                parts[0] += (f" Then {nxt['node']} {self.at_where(nloc)} turned that inf into NaN (inf × 0, or "
                             "inf - inf).")
                related.append(self.rel("made NaN", nloc, f"{nxt['node']} turned the inf into NaN"))
        if zero_in and made == "NaN":
            mask_ev = self._masking_node(node, events)
            if mask_ev is not None:
                mloc = getattr(mask_ev["grad_fn"], "_loc", None)
                what = "torch.where" if mask_ev["node"].startswith("Where") else mask_ev["node"]
                parts.append(f"The gradient it received there was 0: {what} {self.at_where(mloc)} selected the "
                             "other branch at those elements, but the unselected branch still runs its backward, "
                             "and 0 × inf is NaN.")
                hint = ("Make the unselected branch finite before the op, not after it: give it a safe input where "
                        "the condition is false (torch.where(cond, x, 1.0) inside the op, the 'double where'), or "
                        "compute the branch only on x[cond].")
                related.append(self.rel("masked", mloc, f"{what} chose the other branch here"))
            else:
                parts.append("The gradient it received there was 0, and 0 × inf is NaN.")
        if not cause and origins:
            o = origins[0]
            parts.append(f"The forward values were not finite already: the first {o['kind'] if o['kind'] == 'inf' else 'NaN'} "
                         f"was made by {o['op']} {self.at_where((o['line'], o['col']) if o['line'] else None)}.")
            if o["line"] is not None:
                related.append(self.rel("first " + ("NaN" if o["kind"] == "nan" else "inf"), (o["line"], o["col"]),
                                        f"{o['op']} made the first {'NaN' if o['kind'] == 'nan' else 'inf'} of the forward"))
            hint = hint or "Keep that op's inputs inside its domain (clamp them, or add an epsilon)."
        return self.note(name, "nonfinite_gradient", " ".join(parts), loc,
                         hint or "Keep the inputs of that op where its derivative is finite (clamp them, or add "
                                 "an epsilon).", related)

    @staticmethod
    def _masking_node(node: Any, events: list, limit: int = 64) -> Optional[dict]:
        """The nearest ``torch.where`` / masked_fill backward upstream of ``node`` in this pass (the one
        whose zeros reached it), or None."""
        pred: dict = defaultdict(list)
        for e in events:
            for nx, _g in e.get("grad_out", ()):
                pred[nx].append(e)
        frontier, seen = [node], set()
        while frontier and len(seen) < limit:
            n = frontier.pop(0)
            for e in pred.get(n, ()):
                fn = e["grad_fn"]
                if id(fn) in seen:
                    continue
                seen.add(id(fn))
                if e["node"].rstrip("0123456789") in _MASKING:
                    return e
                frontier.append(fn)
        return None

    def _rerun_tensor(self, name: str) -> Optional[tuple]:
        """``(rerun, passes, tensor)``: the traced rerun (:meth:`_traced_run`) and its tensor named ``name``;
        None without options, when the rerun failed, or when it binds no such tensor."""
        if self.options is None:
            return None
        passes = self._traced_run()
        if passes is None:
            return None
        rerun, plist = passes
        t2 = None
        for n, v in rerun.tensors:
            if n == name:
                t2 = v
        return None if t2 is None else (rerun, plist, t2)

    def _trace_zero(self, name: str):
        """Re-run the file with the per-node trace on; find where the gradient of ``name`` became zero."""
        found = self._rerun_tensor(name)
        if found is None:
            return None
        rerun, plist, t2 = found
        for loc, events in reversed(plist):
            target = None
            for ev in events:
                if ev.get("accumulated_into") is t2 or (t2._grad_fn is not None and ev.get("grad_fn") is t2._grad_fn):
                    target = ev["grad_fn"]
            if target is None:
                continue
            pred: dict = defaultdict(list)
            for ev in events:
                for nx, g in ev.get("grad_out", ()):
                    pred[nx].append((ev, g))
            direct = pred.get(target, [])
            contrib = [(ev, g) for ev, g in direct if _nonzero(g)]
            if contrib:
                return ("cancel", None, [getattr(ev.get("grad_fn"), "_line", None) for ev, _ in contrib])
            frontier = [target]
            seen: set = set()
            root_ev = None
            while frontier:
                n = frontier.pop()
                ps = pred.get(n, [])
                if not ps and n is not target:
                    root_ev = n
                for ev, g in ps:
                    node = ev["grad_fn"]
                    if node in seen:
                        continue
                    seen.add(node)
                    if any(_nonzero(gi) for gi in ev.get("grad_in", ())):
                        return ("node", ev, None)
                    frontier.append(node)
            if root_ev is not None or not direct:
                return ("root", loc, None)
        return None

    def _traced_run(self):
        if self._zero_passes is not None:
            return self._zero_passes or None
        from ..autograd import engine
        from ..autograd.graph import source_position as _pos
        from ..lang.run import run_file

        plist: list = []

        def observer(phase, outputs, grads, inputs) -> None:
            if phase == "before":
                plist.append((_pos.loc, []))
                engine.trace_sink = plist[-1][1]
            else:
                engine.trace_sink = None

        from ..autograd import anomaly

        opts = dataclasses.replace(self.options, trace=False)
        engine.observers.append(observer)
        anomaly.force_watch(True)  # forward origins and the inputs of nodes that divide (NaN-gradient notes)
        try:
            rerun = run_file(self.result.source, self.result.file, opts)
        except Exception:  # the first run succeeded; a rerun problem only costs the detail
            self._zero_passes = ()
            return None
        finally:
            anomaly.force_watch(False)
            engine.observers.remove(observer)
            engine.trace_sink = None
        self._zero_passes = (rerun, plist)
        return self._zero_passes


#: backward nodes that pass zeros to one input where a mask chose the other (the masked-branch NaN)
_MASKING = frozenset({"WhereBackward", "MaskedFillBackward", "MaskedScatterBackward", "IndexPutBackward"})

#: node -> the forward op, for the notes (PyTorch's derivatives.yaml names)
_OP_OF = {
    "SqrtBackward": "torch.sqrt", "RsqrtBackward": "torch.rsqrt", "LogBackward": "torch.log",
    "Log2Backward": "torch.log2", "Log10Backward": "torch.log10", "Log1pBackward": "torch.log1p",
    "DivBackward": "division", "ReciprocalBackward": "reciprocal", "PowBackward": "a power",
    "ExpBackward": "torch.exp", "Exp2Backward": "torch.exp2", "AcosBackward": "torch.acos",
    "AsinBackward": "torch.asin", "AtanhBackward": "torch.atanh", "AcoshBackward": "torch.acosh",
    "NormBackward": "a norm", "LinalgVectorNormBackward": "a vector norm", "XlogyBackward": "torch.xlogy",
    "Atan2Backward": "torch.atan2", "MulBackward": "a product",
}


def _cause(base: str, idx: int, x: Any, y: Any, m: Any) -> tuple[str, str]:
    """``(cause, hint)`` for a node whose gradient turned non-finite at ``m``, from its forward inputs ``x``
    (the input the gradient is for) and ``y`` (the second input); ``("", "")`` when they show nothing.
    The derivatives are PyTorch's (tools/autograd/derivatives.yaml)."""
    def at(a: Any) -> Any:
        if a is None:
            return None
        try:
            return np.broadcast_to(a, m.shape)[m]
        except ValueError:
            return None

    xv, yv = at(x), at(y)
    if xv is not None and xv.dtype.kind in "fc" and not np.isfinite(xv).all():
        return "", ""  # the forward input was not finite already: the forward origin tells the story
    eps = ("Keep the input away from 0 where a gradient is needed: add an epsilon or clamp it "
           "(x.clamp(min=eps)).")
    if base in ("SqrtBackward", "RsqrtBackward") and xv is not None:
        if np.any(xv == 0):
            return ("its input was 0 there, where the derivative 1/(2·sqrt(x)) is infinite",
                    eps + " For a distance, square it instead of taking the root, or use torch.sqrt(x + eps).")
        if np.any(xv < 0):
            return "its input was negative there: sqrt of a negative number is NaN, and so is its derivative", eps
    if base in ("LogBackward", "Log2Backward", "Log10Backward") and xv is not None and np.any(xv == 0):
        return ("its input was 0 there, where the derivative 1/x is infinite",
                eps + " For log(softmax) use log_softmax; for x·log(x) use torch.xlogy.")
    if base == "Log1pBackward" and xv is not None and np.any(xv == -1):
        return "its input was -1 there, where the derivative 1/(1 + x) is infinite", eps
    if base == "DivBackward" and y is not None:
        yy = at(y)
        if yy is not None and np.any(yy == 0):
            return ("the divisor was 0 there: the derivatives of x / y are 1/y and -x/y², infinite where y is 0",
                    "Guard the divisor before dividing (y.clamp(min=eps), or torch.where on y itself).")
    if base == "ReciprocalBackward" and xv is not None and np.any(xv == 0):
        return "its input was 0 there, where the derivative -1/x² is infinite", eps
    if base == "PowBackward" and xv is not None and np.any(xv == 0):
        return ("its base was 0 there, where the derivative p·x^(p-1) of a power below 1 is infinite",
                eps + " Or use a power of at least 1 (x ** 2 instead of x ** 0.5 of a square).")
    if base in ("ExpBackward", "Exp2Backward") and xv is not None:
        with np.errstate(all="ignore"):
            out = np.exp(xv) if base == "ExpBackward" else np.exp2(xv)
        if np.any(np.isfinite(xv) & ~np.isfinite(out.astype(x.dtype))):
            return ("its result overflowed to inf in the forward, and its derivative is its result",
                    "Compute in a stable form (logsumexp, softplus, log_softmax) or clamp the exponent.")
    if base in ("AcosBackward", "AsinBackward", "AtanhBackward") and xv is not None and np.any(np.abs(xv) == 1):
        return ("its input was ±1 there, where the derivative is infinite",
                "Clamp the input inside (-1, 1), e.g. x.clamp(-1 + eps, 1 - eps).")
    if base in ("NormBackward", "LinalgVectorNormBackward") and xv is not None and np.any(xv == 0):
        return ("the vector was all zeros, where the derivative x / ‖x‖ of the norm is 0 / 0",
                "Add an epsilon inside the norm (torch.sqrt((x * x).sum() + eps)) or skip zero vectors.")
    return "", ""


_ZERO_REASONS = {
    "ReluBackward": "relu's input was <= 0 at every element, where its derivative is 0",
    "ThresholdBackward": "the input was below the threshold at every element, where the derivative is 0",
    "HardtanhBackward": "every input was outside the linear range, where the derivative is 0",
    "SignBackward": "sign() has derivative 0 everywhere",
    "RoundBackward": "round() has derivative 0 everywhere",
    "FloorBackward": "floor() has derivative 0 everywhere",
    "CeilBackward": "ceil() has derivative 0 everywhere",
    "TruncBackward": "trunc() has derivative 0 everywhere",
    "ClampBackward": "every element was clamped (outside the bounds), where the derivative is 0",
    "ClampMinBackward": "every element was below the minimum and clamped, where the derivative is 0",
    "ClampMaxBackward": "every element was above the maximum and clamped, where the derivative is 0",
    "MulBackward": "the other factor of the product is zero",
    "DivBackward": "the numerator's gradient is scaled by zero here",
    "MaskedFillBackward": "every element was overwritten by the fill value",
    "WhereBackward": "the condition selected the other branch at every element",
}


# --- several tensors, one reason ------------------------------------------------------------------------
#: what a reason means for several tensors at once ("why no gradient" table, one row per reason)
GROUP_EXPLANATION = {
    "non_leaf": "Not leaves: each has a grad_fn, and backward() fills .grad only for leaves (none of them "
                "called retain_grad()); the gradient passes through them to their leaves.",
    "non_leaf_copy": "Non-leaf copies of a leaf (.to(), .float(), * 0.01 ...): the gradient went into the "
                     "unnamed leaf each was copied from.",
    "no_grad": "Computed inside `with torch.no_grad():`, where no graph is recorded: leaves that do not "
               "require grad.",
    "set_grad_enabled": "Computed under torch.set_grad_enabled(False), where no graph is recorded.",
    "inference_mode": "Computed under torch.inference_mode(): inference tensors never join a graph.",
    "grad_result": "Gradients themselves (returned by torch.autograd.grad or read from .grad) made without "
                   "create_graph=True: they have no history.",
    "detach": "Cut from the graph by detach(): leaves without history.",
    "data": "Cut from the graph by .data: leaves without history, outside the version checks too.",
    "requires_grad_false": "Leaves that do not require grad (created without requires_grad=True, or computed "
                           "only from such tensors), so autograd does not track them.",
    "requires_grad_disabled": "requires_grad was switched off on them (requires_grad_(False) or "
                              ".requires_grad = False).",
    "not_reachable": "They require grad, but no backward's graph reaches them.",
    "excluded_by_inputs": "A backward reached them, but its inputs= did not list them: only the listed "
                          "tensors get .grad.",
    "no_backward": "They require grad, but no backward ran (the file makes none, or it stopped before one).",
    "backward_failed": "The backward that would have reached them failed.",
    "autograd_grad": "Only torch.autograd.grad ran: it returns the gradients and never writes .grad.",
    "grad_reset": "A backward filled their .grad, then the file set it back to None.",
    "grad_zeroed": "Their .grad was zeroed in place after the backward filled it.",
    "grad_assigned": "The file assigned their .grad a tensor of zeros.",
    "zero_gradient": "The backward delivered zeros: a node passed no gradient on (relu of negatives, sign, "
                     "round ...), gradients cancelled, or gradient= was zero.",
    "nonfinite_gradient": "Their .grad holds NaN or inf: a backward node met an infinite or undefined derivative "
                          "(sqrt or log at 0, x / 0, a masked torch.where), or the forward values already were.",
}


def group_notes(notes: dict, names: list) -> list[tuple[str, list[tuple[str, "WhyNote"]]]]:
    """The notes of ``names`` (in that order) grouped by reason, in the order each reason first appears:
    ``[(kind, [(name, note), ...]), ...]``."""
    groups: dict = {}
    for n in names:
        note = notes.get(n)
        if note is not None:
            # a NaN/inf note's story is its own (the node, the line, the cause): never merged with another's
            key = (note.kind, n) if note.kind in UNGROUPED else note.kind
            groups.setdefault(key, []).append((n, note))
    return [(k[0] if isinstance(k, tuple) else k, items) for k, items in groups.items()]


#: kinds whose notes get a row each in the "why" table (their explanation differs tensor by tensor)
UNGROUPED = frozenset({"nonfinite_gradient"})


def line_list(lines: list) -> str:
    """``3, 5, 7-12``: sorted lines, runs of consecutive ones as a range."""
    nums = sorted({x for x in lines if x is not None})
    out: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if j == i else (f"{nums[i]}, {nums[j]}" if j == i + 1 else f"{nums[i]}-{nums[j]}"))
        i = j + 1
    return ", ".join(out)


# --- module-level conveniences ---------------------------------------------------------------------------
def explain_all(result: Any, options: Any = None, tree: Any = None) -> dict[str, WhyNote]:
    """A note for every named tensor whose .grad is None or all zeros (``tree``: the program that ran, when
    it is not ``result.source`` parsed)."""
    return Explainer(result, options, tree).explain_all()


def explain_name(result: Any, name: str, options: Any = None) -> Optional[WhyNote]:
    """The note for the tensor the file named ``name`` (None when its gradient is neither None nor zero).

    Raises KeyError when the file binds no tensor of that name.
    """
    ex = Explainer(result, options)
    t = ex.tensor_named(name)
    if t is None:
        raise KeyError(name)
    return ex.explain(t, name)


def annotate(result: Any, options: Any = None) -> dict[str, WhyNote]:
    """Compute the notes once and keep them on the result (``result.why``) for the renderers."""
    notes = getattr(result, "why", None)
    if notes is None:
        notes = explain_all(result, options)
        result.why = notes
    return notes
