"""The ``ops`` service: the supported operations, read from the engine's registry.

The registry (:mod:`gradcli.ops.registry`) is the single list of operations
(DESIGN §1): each entry names its public spellings (``torch.X``, ``F.X``,
Tensor methods/operators), the ``grad_fn`` nodes it creates and its
derivative formula per input.  This module only reads it; it never lists an
op by hand.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Optional

from .problems import UsageProblem

__all__ = ["OpRow", "list_ops", "ops_document", "SCHEMA"]

SCHEMA = "gradcli.ops/1"


@dataclass
class OpRow:
    """One operation as ``gradcli ops`` shows it."""

    name: str
    group: str
    spellings: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    formula: str = ""
    differentiable: bool = True
    notes: str = ""


def _registry() -> dict:
    """The populated registry: importing the op families (through the package or
    the torch-shaped API) is what registers them."""
    reg = importlib.import_module("gradcli.ops.registry")
    for mod in ("gradcli.ops", "gradcli.api"):
        if getattr(reg, "REGISTRY", None):
            break
        try:
            importlib.import_module(mod)
        except ImportError:
            continue
    return dict(getattr(reg, "REGISTRY", {}) or {})


def _spellings(op: Any) -> list[str]:
    out = [f"torch.{n}" for n in getattr(op, "torch", ()) or ()]
    out += [f"F.{n}" for n in getattr(op, "F", ()) or ()]
    for m in getattr(op, "methods", ()) or ():
        out.append(m if m.startswith("__") else f"Tensor.{m}")
    return out


def list_ops(group: Optional[str] = None, query: Optional[str] = None) -> list[OpRow]:
    """Every registered op (optionally one family, or those whose name, spelling or
    grad_fn contains ``query``), sorted by family then name."""
    rows = []
    for name, op in _registry().items():
        formula = str(getattr(op, "formula", "") or "")
        rows.append(OpRow(
            name=str(getattr(op, "name", name)),
            group=str(getattr(op, "group", "") or ""),
            spellings=_spellings(op),
            nodes=[str(n) for n in getattr(op, "nodes", ()) or ()],
            formula=formula,
            differentiable=bool(formula) or bool(getattr(op, "nodes", ())) or getattr(op, "sample", None) is not None,
            notes=str(getattr(op, "notes", "") or ""),
        ))
    if group is not None:
        groups = sorted({r.group for r in rows})
        rows = [r for r in rows if r.group == group]
        if not rows:
            raise UsageProblem(f"--group {group!r}: no such family of operations",
                               "Families: " + (", ".join(groups) if groups else "(none registered)") + ".")
    if query:
        q = query.lower()
        rows = [r for r in rows if q in r.name.lower() or any(q in x.lower() for x in r.spellings + r.nodes)]
        if not rows:
            raise UsageProblem(f"no operation matches {query!r}", "Run `gradcli ops` to see them all.")
    rows.sort(key=lambda r: (r.group, r.name))
    return rows


def ops_document(rows: list[OpRow]) -> dict:
    """The ``gradcli.ops/1`` JSON object."""
    return {
        "schema": SCHEMA,
        "ops": [
            {
                "name": r.name,
                "group": r.group,
                "spellings": r.spellings,
                "grad_fn": r.nodes,
                "formula": r.formula,
                "differentiable": r.differentiable,
                "notes": r.notes,
            }
            for r in rows
        ],
    }
