"""Both ends of an autograd error: the ``related`` lines of an error card (issue 7).

The engine attaches raw facts to the errors it raises (``err.facts``, copied to
``ErrorRecord.facts``): the node whose saved tensors were freed, the saved tensor
whose version changed, the root of a failing backward.  :func:`related_for` turns
them, with the source and the run's logs, into ``{"role", "line", "col", "text"}``
entries:

* ``second_backward``: ``built`` (the line that made the node), ``freed`` (the
  backward call that released its saved tensors), ``needed`` (which saved tensor
  the failing backward needed);
* ``inplace_modified``: ``saved`` (the line whose op saved the tensor, and the
  version it saved), ``modified`` (each in-place line that bumped the version,
  with the versions);
* ``no_grad_fn``: ``tracking lost`` (where the root lost — or never had —
  autograd tracking, from :mod:`.why`), then that story's lines;
* ``non_scalar_backward``: ``root`` (where the root was computed, its shape) and
  ``fix`` (how to pass ``gradient=``).

:func:`enrich` fills ``result.error.related``.  No rich here.
"""

from __future__ import annotations

from typing import Any, Optional

from .why import Explainer

__all__ = ["related_for", "enrich", "ROLES"]

ROLES = ("built", "freed", "needed", "saved", "modified", "tracking lost", "root", "fix")


def _loc(loc: Any) -> tuple[Optional[int], Optional[int]]:
    if isinstance(loc, tuple) and len(loc) == 2 and isinstance(loc[0], int):
        return loc
    return None, None


_LOST = {
    "no_grad": "computed under torch.no_grad(): no graph was recorded",
    "set_grad_enabled": "computed under torch.set_grad_enabled(False): no graph was recorded",
    "inference_mode": "computed under torch.inference_mode(): no graph was recorded",
    "detach": "detach() cut it from the graph",
    "data": ".data cut it from the graph",
    "requires_grad_false": "created without requires_grad=True: never tracked",
    "requires_grad_disabled": "requires_grad was switched off here",
}


def _entry(role: str, loc: Any, text: str) -> dict:
    line, col = _loc(loc)
    return {"role": role, "line": line, "col": col, "text": text}


def _shape(t: Any) -> str:
    return "[" + ", ".join(str(int(s)) for s in t._data.shape) + "]"


class _Story:
    def __init__(self, result: Any, options: Any) -> None:
        self.result = result
        self.ex = Explainer(result, options)
        self.names = self.ex.names

    def name_of(self, t: Any) -> Optional[str]:
        return None if t is None else self.names.get(id(t))

    def edge_name(self, node: Any, i: int) -> Optional[str]:
        """The file's name for the tensor behind edge ``i`` of ``node`` (a leaf, or a named non-leaf)."""
        edges = getattr(node, "next_functions", ())
        if i >= len(edges) or edges[i][0] is None:
            return None
        nx = edges[i][0]
        var = getattr(nx, "variable", None)
        for n, t in self.result.tensors:
            if (var is not None and t is var) or (var is None and t._grad_fn is nx):
                return n
        return None

    def saved_desc(self, node: Any, i: int) -> str:
        from ..autograd.graph import SavedTensor

        items = getattr(node, "_saved", ()) or ()
        s = items[i] if i < len(items) else None
        if s is None:
            return "a saved value"
        if not isinstance(s, SavedTensor):
            return f"the constant operand {s!r}" if isinstance(s, (int, float, bool)) else "a constant operand"
        if s._is_output:
            holder = self.box_holder(s._box)
            return "its own result" + (f" (`{holder}`)" if holder else "")
        t = s._tensor
        name = self.name_of(t) if t is not None else self.edge_name(node, i)
        return f"its input `{name}`" if name else "one of its inputs"

    def box_holder(self, box: Any) -> Optional[str]:
        for n, t in self.result.tensors:
            if t._version is box:
                return n
        return None

    # --- the kinds -------------------------------------------------------------------------------
    def second_backward(self, facts: dict) -> list[dict]:
        node = facts.get("node")
        if node is None:
            return []
        name = type(node).__name__
        if facts.get("index", 0) is None:  # CopySlices: PyTorch drops the in-place op's function it holds
            desc = "the backward function of the in-place write into a view"
        else:
            desc = self.saved_desc(node, int(facts.get("index", 0) or 0))
        out = [_entry("built", getattr(node, "_loc", None), f"{name} made here; it saved {desc}")]
        freed = getattr(node, "_freed", None)
        if isinstance(freed, tuple):
            again = freed[0] is not None and freed[0] == self.result.error.line  # a backward in a loop
            out.append(_entry("freed", freed, f"this backward freed {name}'s saved tensors (no retain_graph=True)"
                              + (" in an earlier iteration" if again else "")))
        else:
            out.append(_entry("freed", None, f"the backward gradcli ran after the file (--backward, --repeat) "
                                             f"freed {name}'s saved tensors (no --retain-graph)"))
        out.append(_entry("needed", None, f"the failing backward needed {desc} of {name} again"))
        return out

    def inplace_modified(self, facts: dict) -> list[dict]:
        node, saved = facts.get("node"), facts.get("saved")
        if node is None or saved is None:
            return []
        name = type(node).__name__
        expected, now = saved._version, saved._box[0]
        if saved._is_output:
            holder = self.box_holder(saved._box)
            desc = "its result" + (f" `{holder}`" if holder else "")
        else:
            n = self.name_of(saved._tensor) or self.box_holder(saved._box)
            desc = f"its input `{n}`" if n else "one of its inputs"
        out = [_entry("saved", getattr(node, "_loc", None),
                      f"{name} saved {desc} here, at version {expected}")]
        bumps = [b for b in (self.result.logs or {}).get("inplace", ()) if b[0] is saved._box and
                 expected < b[1] <= now]
        for box, v, loc in bumps[:4]:
            out.append(_entry("modified", loc, f"changed in place here: version {v - 1} -> {v}"))
        if len(bumps) > 4:
            out.append(_entry("modified", None, f"... {len(bumps) - 4} more in-place changes, up to version {now}"))
        if not bumps:
            out.append(_entry("modified", None, f"changed in place since: now at version {now}, "
                                                f"the backward expected version {expected}"))
        return out

    def no_grad_fn(self, facts: dict) -> list[dict]:
        root = facts.get("root")
        if root is None:
            return []
        name = self.name_of(root)
        note = self.ex.no_requires_grad(root, name)
        who = f"`{note.name}`" if note.name else "the root"
        what = _LOST.get(note.kind, "tracking ended here")
        subject = self.lost_subject(note) or who
        loc = (note.line, note.col)
        created = [r for r in note.related if r.get("role") == "created" and r.get("line") is not None]
        if note.kind == "requires_grad_false" and created:  # never tracked: where the leaf was made
            loc = (created[-1]["line"], created[-1]["col"])
            subject = str(created[-1]["text"]).split(" created", 1)[0]
        out = [_entry("tracking lost", loc, f"{subject}: {what}")]
        for r in note.related:
            if r.get("line") is not None and r.get("line") == loc[0]:
                continue  # the tracking-lost line itself
            out.append(dict(r))
        return out

    def calls_autograd_grad(self, line: Optional[int]) -> bool:
        """Whether the statement at ``line`` calls torch.autograd.grad (and no backward())."""
        import ast

        st = self.ex.src.statement_at(line)
        if st is None:
            return False
        calls = {ast.unparse(c.func) for c in ast.walk(st) if isinstance(c, ast.Call)}
        return bool(calls & {"torch.autograd.grad", "autograd.grad"}) and not any(
            c.endswith(".backward") for c in calls)

    @staticmethod
    def lost_subject(note: Any) -> Optional[str]:
        """The tensor at the end of a why-chain (the last ``computed from`` names it), as `name`."""
        subject = f"`{note.name}`" if note.name else None
        for r in note.related:
            if r.get("role") == "computed from":
                text = str(r.get("text", ""))
                if " computed from " in text:
                    subject = text.split(" computed from ", 1)[1].split(",")[0].strip()
        return subject

    def non_scalar_backward(self, facts: dict, in_file: bool, line: Optional[int] = None) -> list[dict]:
        root = facts.get("root")
        if root is None:
            return []
        name = self.name_of(root)
        who = f"`{name}`" if name else "the root"
        shape = _shape(root)
        fn = root._grad_fn
        loc = getattr(fn, "_loc", None) if fn is not None else getattr(root, "_origin", None)
        # torch.autograd.grad names its v grad_outputs= (backward() names it gradient=)
        by_grad = in_file and self.calls_autograd_grad(line)
        call = "torch.autograd.grad" if by_grad else "backward()"
        made = "computed" if fn is not None else "created"
        out = [_entry("root", loc, f"{who} was {made} here with shape {shape} ({root._data.size} elements): "
                                   f"{call} can only create the gradient of a one-element tensor itself")]
        var = name or "y"
        if by_grad:
            fix = (f"pass grad_outputs= of shape {shape}: `torch.autograd.grad({var}, ..., "
                   f"grad_outputs=torch.ones_like({var}))` computes v^T J with v = ones (the same as "
                   f"`torch.autograd.grad({var}.sum(), ...)`); or reduce first")
        elif in_file:
            fix = (f"pass gradient= of shape {shape}: {var}.backward(gradient=torch.ones_like({var})) computes "
                   f"v^T J with v = ones (the same as {var}.sum().backward()); or reduce first: "
                   f"{var}.sum().backward()")
        else:
            fix = (f"pass --gradient ones (v = ones of shape {shape}, i.e. the gradient of {var}.sum()), "
                   "or --gradient with a list of that shape")
        out.append(_entry("fix", None, fix))
        return out


def related_for(result: Any, options: Any = None) -> list[dict]:
    """The related entries of ``result.error`` (empty for kinds without a story, or without facts)."""
    err = result.error
    facts = getattr(err, "facts", None) if err is not None else None
    if not facts:
        return []
    story = _Story(result, options)
    if err.kind == "second_backward":
        return story.second_backward(facts)
    if err.kind == "inplace_modified":
        return story.inplace_modified(facts)
    if err.kind == "no_grad_fn":
        return story.no_grad_fn(facts)
    if err.kind == "non_scalar_backward":
        return story.non_scalar_backward(facts, in_file=err.line is not None, line=err.line)
    return []


def enrich(result: Any, options: Any = None) -> Any:
    """Fill ``result.error.related`` (keeping entries the language layer already gave); returns result."""
    err = result.error
    if err is None:
        return result
    try:
        extra = related_for(result, options)
    except Exception:  # an explanation must never turn a user's error into an internal one
        extra = []
    if extra:
        have = list(getattr(err, "related", None) or [])
        err.related = have + [e for e in extra if e not in have]
    return result
