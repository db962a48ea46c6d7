"""torch.utils._pytree's flatten/unflatten for what torch.func's transforms take and return.

Containers are tuples, lists and dicts (a dict's keys in insertion order, as PyTorch's pytree keeps them),
nested; everything else is a leaf (``None`` too, as in PyTorch 2.13).  A spec prints as
PyTorch's ``treespec_pprint`` does (``(*, *)``, ``[*]``, ``{'a': *}``), which functorch's messages quote.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["tree_flatten", "tree_unflatten", "tree_map", "spec_str", "treespec_repr", "LEAF"]

#: the spec of a leaf
LEAF = ("*",)


def tree_flatten(tree: Any) -> tuple[list, tuple]:
    """``(leaves, spec)``: the leaves in PyTorch's order (depth first) and the structure."""
    leaves: list = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree: Any, leaves: list) -> tuple:
    t = type(tree)
    if t is tuple or t is list:
        return (t, None, tuple(_flatten(x, leaves) for x in tree))
    if t is dict:
        keys = tuple(tree)
        return (dict, keys, tuple(_flatten(tree[k], leaves) for k in keys))
    leaves.append(tree)
    return LEAF


def tree_unflatten(leaves, spec: tuple) -> Any:
    """The tree of ``spec`` with ``leaves`` (an iterable, used in order) at its leaf places."""
    it = iter(leaves)
    return _unflatten(it, spec)


def _unflatten(it, spec: tuple) -> Any:
    if spec is LEAF:
        return next(it)
    kind = spec[0]
    children = [_unflatten(it, s) for s in spec[2]]
    if kind is dict:
        return dict(zip(spec[1], children))
    return kind(children)


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``fn`` applied to every leaf, in the same structure."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def spec_str(spec: tuple) -> str:
    """PyTorch's ``treespec_pprint`` of a spec: ``*`` for a leaf, the container's brackets around children."""
    if spec is LEAF:
        return "*"
    kind = spec[0]
    parts = [spec_str(s) for s in spec[2]]
    if kind is dict:
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(spec[1], parts)) + "}"
    if kind is tuple:
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return "[" + ", ".join(parts) + "]"


def treespec_repr(spec: tuple, indent: int = 0) -> str:
    """``str(TreeSpec)`` as PyTorch 2.13 prints it (``TreeSpec(tuple, None, [*,\\n  *])``), which functorch's
    structure errors quote."""
    if spec is LEAF:
        return "*"
    kind, keys, children = spec
    context = None if kind is not dict else list(keys)
    text = f"TreeSpec({kind.__name__}, {context}, ["
    if children:
        indent += 2
        text += treespec_repr(children[0], indent) + ("," if len(children) > 1 else "")
        text += ",".join("\n" + " " * indent + treespec_repr(c, indent) for c in children[1:])
    return text + "])"
