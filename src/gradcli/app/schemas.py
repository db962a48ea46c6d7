"""The JSON Schemas of the ``--json`` outputs, as shipped in the package (``gradcli schema [NAME]``).

Each file in ``gradcli/schemas/`` is self-contained: its ``$ref``\\ s point only into its own ``$defs``
(the definitions several schemas share are copies of run.schema.json's, kept so by
tests/explain/bundle_schemas.py), so a plain ``jsonschema.validate(document, schema)`` works with no
registry and no network.
"""

from __future__ import annotations

import json
from importlib import resources

from .problems import UsageProblem

__all__ = ["schema_names", "schema_text", "schema_title", "load_schema"]


def _files():
    return resources.files("gradcli").joinpath("schemas")


def schema_names() -> list[str]:
    """``run``, ``graph`` ...: every schema the package ships, sorted."""
    return sorted(p.name[: -len(".schema.json")] for p in _files().iterdir() if p.name.endswith(".schema.json"))


def schema_text(name: str) -> str:
    """The text of schema ``name``; UsageProblem (exit status 2) for a name the package does not ship."""
    key = name.strip().lower().removeprefix("gradcli.").split("/")[0]
    if key not in schema_names():
        raise UsageProblem(f"no schema named {name!r}", "Known schemas: " + ", ".join(schema_names()) + ".")
    return _files().joinpath(f"{key}.schema.json").read_text("utf-8")


def load_schema(name: str) -> dict:
    """Schema ``name`` as a dict."""
    return json.loads(schema_text(name))


def schema_title(name: str) -> str:
    """``gradcli.run/1  The JSON object printed by ...``: the schema string and what it describes."""
    s = load_schema(name)
    return f"{s.get('title', '')}  {s.get('description', '')}".strip()
