"""The JSON of ``gradcli why``, ``lint`` and ``modes`` (--json) validates against the schemas shipped in
src/gradcli/schemas (``gradcli.why/1``, ``gradcli.lint/1``, ``gradcli.modes/1``; they refer to the run
schema's definitions of values, notes and story lines)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _schema(name: str) -> dict:
    return json.loads(resources.files("gradcli").joinpath(f"schemas/{name}.schema.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def validator():
    run = _schema("run")
    registry = Registry().with_resource(run["$id"], Resource.from_contents(run))

    def make(name: str) -> jsonschema.Draft202012Validator:
        schema = _schema(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        return jsonschema.Draft202012Validator(schema, registry=registry)

    return make


def sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["w", "x", "s", "u"])
def test_why_json(cli, validator, name):
    code, out, _ = cli(sample("why_no_grad.py"), "why", "{file}", name, "--json")
    assert code == 0
    doc = json.loads(out)
    validator("why").validate(doc)
    assert doc["schema"] == "gradcli.why/1" and doc["name"] == name
    assert (doc["why"] is None) == (name == "x")  # x.grad is set


@pytest.mark.parametrize("file, ok", [("lint_mistakes.py", False), ("retain_grad.py", True)])
def test_lint_json(cli, validator, file, ok):
    code, out, _ = cli(sample(file), "lint", "{file}", "--json")
    assert code == (0 if ok else 1)
    doc = json.loads(out)
    validator("lint").validate(doc)
    assert doc["ok"] is ok and (doc["findings"] == []) is ok


def test_lint_json_of_a_file_that_does_not_parse(cli, validator):
    code, out, _ = cli("x = (\n", "lint", "{file}", "--json")
    doc = json.loads(out)
    validator("lint").validate(doc)
    assert code == 1 and doc["error"]["kind"] == "syntax"


def test_modes_json(cli, validator):
    code, out, _ = cli(sample("modes_demo.py"), "modes", "{file}", "--target", "h", "--json")
    assert code == 0
    doc = json.loads(out)
    validator("modes").validate(doc)
    assert next(m for m in doc["modes"] if m["mode"] == "requires_grad_(False)")["error"] == \
        {"kind": "non_leaf_requires_grad", "line": 4}
    assert doc["modes"][-1]["mode"] == ".data" and doc["modes"][-1]["summary"].startswith("like detach()")
