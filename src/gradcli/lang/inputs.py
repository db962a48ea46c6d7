"""Free inputs: the names a file reads but never binds (SPEC §3, ``--requires-grad``).

The design card's ``y = x*2; z = y*3`` reads ``x`` and binds nothing else that
could give it a value: ``x`` is an *input* of the file.  Named by
``--requires-grad``, ``--retain-grad`` or ``--inputs`` (and not by ``--set``), such a
name is bound before the file as ``torch.tensor(1.0)`` and then flagged
(:mod:`gradcli.lang.run`); without such a flag the file fails with a ``name``
error, whose hint (:func:`input_hint`) says it looks like an input and gives the
command that runs the file.

:func:`free_names` follows the reference oracle's rule exactly
(``conformance/tools/torch_run.py``): every ``Name`` read anywhere minus every
name bound anywhere (assignment and ``for``/``with``/comprehension targets,
``def``/``class`` names, parameters, imports, ``except ... as``), minus the
prelude (``torch``, ``F``) and Python's builtins.
"""

from __future__ import annotations

import ast
import builtins as _builtins
import shlex
from typing import Any, Iterable, Optional, Sequence

__all__ = ["free_names", "free_input_names", "input_hint", "suggested_command", "FREE_VALUE"]

#: the value a free input is bound to (``torch.tensor(1.0)``, of the default dtype)
FREE_VALUE = 1.0

_PRELUDE = frozenset({"torch", "F"})


def free_names(tree: ast.AST) -> set[str]:
    """Names ``tree`` reads but never binds anywhere, that are not the prelude's or Python's builtins."""
    loads: set[str] = set()
    binds: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            (loads if isinstance(n.ctx, ast.Load) else binds).add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                binds.add((a.asname or a.name).split(".")[0])
        elif isinstance(n, ast.arg):
            binds.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            binds.add(n.name)
    return {x for x in loads - binds if x not in _PRELUDE and not hasattr(_builtins, x)}


def free_input_names(options: Any, free: Iterable[str]) -> list[str]:
    """The free names that ``options`` asks gradcli to bind: named by ``--requires-grad``,
    ``--retain-grad`` or ``--inputs`` (in that order, each once) and not by ``--set``."""
    free = set(free)
    given = {n.strip() for n, _ in getattr(options, "sets", ()) or ()}
    flagged = list(getattr(options, "requires_grad", ()) or ()) + list(getattr(options, "retain_grad", ()) or ())
    flagged += [n.strip() for n in (getattr(options, "inputs", None) or ()) if n.strip()]
    return [n for n in dict.fromkeys(flagged) if n in free and n not in given]


def suggested_command(argv: Optional[Sequence[str]], names: Sequence[str]) -> Optional[str]:
    """The command line ``argv`` (without the program name) with ``--requires-grad NAME`` added for each
    of ``names`` not named yet, shell-quoted; None without an ``argv``."""
    if argv is None:
        return None
    args = list(argv)
    have = set()
    for i, a in enumerate(args):
        if a == "--requires-grad" and i + 1 < len(args):
            have.update(p.strip() for p in args[i + 1].split(","))
        elif a.startswith("--requires-grad="):
            have.update(p.strip() for p in a.split("=", 1)[1].split(","))
    for n in names:
        if n not in have:
            args += ["--requires-grad", n]
    return shlex.join(["gradcli", *args])


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def input_hint(name: str, free: Iterable[str], argv: Optional[Sequence[str]] = None) -> str:
    """The hint of ``name 'NAME' is not defined`` when NAME is a free name of the file: it looks like an
    input; ``--requires-grad`` binds it; then the command line ``argv`` with those options added."""
    names = sorted(set(free) | {name})
    names.remove(name)
    names.insert(0, name)  # the failing name first
    listed = _and([f"`{n}`" for n in names])
    flags = " ".join(f"--requires-grad {n}" for n in names)
    sets = " ".join(f"--set {n}=VALUE" for n in names)
    if len(names) > 1:
        text = (f"The file reads {listed} but never assigns them, so they look like inputs: {flags} binds "
                f"each to torch.tensor(1.0) before the file runs and makes it require grad ({sets} gives "
                f"other values).")
    else:
        text = (f"The file reads {listed} but never assigns it, so it looks like an input: {flags} binds it "
                f"to torch.tensor(1.0) before the file runs and makes it require grad ({sets} gives another "
                f"value).")
    command = suggested_command(argv, names)
    return text + (f" Run:\n  {command}" if command else "")
