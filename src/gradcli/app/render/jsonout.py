"""JSON text for the ``--json`` outputs.

Objects are indented one key per line; arrays of plain values (tensor data)
stay on one line, so a tensor reads as a row, as in the conformance
expectations.  Strict JSON: non-finite floats must already be strings
(``allow_nan=False`` turns a stray one into an internal error, not bad JSON).
The nesting of objects is bounded by the schemas, so the recursion over
objects here is bounded too; tensor values are dumped by ``json`` itself.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dumps"]


def _has_container_of_objects(v: list) -> bool:
    return any(isinstance(x, dict) for x in v)


def dumps(obj: Any, indent: int = 0) -> str:
    """Format ``obj`` as strict JSON text (no trailing newline)."""
    pad = "  " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}  {json.dumps(str(k))}: {dumps(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list) and _has_container_of_objects(obj):
        items = [f"{pad}  {dumps(v, indent + 1)}" for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(obj, allow_nan=False)
