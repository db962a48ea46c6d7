"""The same observation of ``grad_fn._saved_*`` attributes for PyTorch (record_saved_fields.py) and gradcli
(test_saved_fields.py): a graph walk and a plain-value record of each attribute."""

from __future__ import annotations

import math
from typing import Any


def graph_nodes(out: Any) -> list:
    """The nodes of ``out``'s graph, breadth first from its grad_fn, each once, AccumulateGrad skipped."""
    if isinstance(out, (tuple, list)):
        out = out[0] if out else None
    fn = getattr(out, "grad_fn", None)
    seen, order, queue = set(), [], [fn] if fn is not None else []
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if type(node).__name__ != "AccumulateGrad":
            order.append(node)
        queue.extend(nx for nx, _ in node.next_functions)
    return order


def _num(v: float) -> Any:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def plain(v: Any, torch: Any) -> Any:
    """A JSON-able record of an attribute's value."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return {"float": _num(v)}
    if isinstance(v, (tuple, list)):
        return {type(v).__name__: [plain(x, torch) for x in v]}
    if isinstance(v, torch.Tensor):
        data = v.detach().tolist()
        flat = data if isinstance(data, list) else [data]
        while flat and isinstance(flat[0], list):
            flat = [y for x in flat for y in x]
        return {"tensor": list(v.shape), "dtype": str(v.dtype).replace("torch.", ""),
                "data": [_num(x) if isinstance(x, float) else x for x in flat],
                "requires_grad": bool(v.requires_grad)}
    name = getattr(type(v), "_gradcli_type_name", type(v).__name__)
    if name in ("dtype", "device", "layout", "memory_format"):
        return {name: str(v)}
    return {"object": name}


def observe(node: Any, field: str, torch: Any, get: Any = getattr) -> Any:
    """``get(node, field)`` recorded; an error as ``{"error": ClassName}`` (gradcli's: PyTorch's class for it)."""
    try:
        return plain(get(node, field), torch)
    except Exception as e:  # noqa: BLE001 - the error is what PyTorch does there
        cls = getattr(e, "torch_type", None) or type(e)
        return {"error": cls.__name__}
