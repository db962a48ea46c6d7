"""Shared fixtures of the CLI tests."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest
from typer.testing import CliRunner


@pytest.fixture
def runner(monkeypatch) -> CliRunner:
    for k in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(k, raising=False)
    return CliRunner()


def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(resources.files("gradcli").joinpath(f"schemas/{name}.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="session")
def run_schema() -> jsonschema.Draft202012Validator:
    return _validator("run")


@pytest.fixture(scope="session")
def graph_schema() -> jsonschema.Draft202012Validator:
    return _validator("graph")


@pytest.fixture(scope="session")
def ops_schema() -> jsonschema.Draft202012Validator:
    return _validator("ops")
