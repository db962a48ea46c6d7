"""Keep the shipped JSON Schemas self-contained (issue 19, must-have 8).

Every schema in ``src/gradcli/schemas/`` validates on its own with a plain ``jsonschema.validate``: it
references only its own ``$defs`` (``#/$defs/NAME``).  The definitions several schemas share (a line, an
error, a why-note, tensor values ...) are written once, in ``run.schema.json``; the others hold copies.

    python tests/explain/bundle_schemas.py          # rewrite the copies from run.schema.json
    python tests/explain/bundle_schemas.py --check  # exit 1 when a copy differs (the tests run this)

A schema asks for a shared definition by listing its name in ``"x-shared"`` (top level); this script puts
that definition and every definition it uses into the schema's ``$defs``, exactly as in run.schema.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parents[2] / "src" / "gradcli" / "schemas"
SOURCE = "run.schema.json"


def _refs(node, out: set) -> set:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            ref = n.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                out.add(ref[len("#/$defs/"):])
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return out


def closure(defs: dict, names) -> list[str]:
    """``names`` and every definition of ``defs`` they use, in ``defs``' order."""
    want, todo = set(), list(names)
    while todo:
        n = todo.pop()
        if n in want:
            continue
        want.add(n)
        todo.extend(_refs(defs[n], set()))
    return [n for n in defs if n in want]


def bundled(schema: dict, source: dict) -> dict:
    """``schema`` with the shared definitions it names in ``x-shared`` copied from ``source``."""
    shared = schema.get("x-shared") or []
    if not shared:
        return schema
    out = dict(schema)
    own = {k: v for k, v in (schema.get("$defs") or {}).items() if k not in source["$defs"]}
    defs = {n: source["$defs"][n] for n in closure(source["$defs"], shared)}
    defs.update(own)
    out["$defs"] = defs
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    source = json.loads((SCHEMAS / SOURCE).read_text("utf-8"))
    stale = 0
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        if path.name == SOURCE:
            continue
        schema = json.loads(path.read_text("utf-8"))
        new = bundled(schema, source)
        if new != schema:
            stale += 1
            if args.check:
                print(f"stale: {path.name} (python tests/explain/bundle_schemas.py rewrites it)")
            else:
                path.write_text(json.dumps(new, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
                print(f"rewrote {path.name}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
