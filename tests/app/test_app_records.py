"""gradcli.run/1 records: values as PyTorch's tolist() gives them (checked against torch 2.13:
torch.tensor([0.1, nan, inf, -inf]).tolist() == [0.10000000149011612, nan, inf, -inf])."""

import json
import math
from importlib import resources

import jsonschema
import numpy as np
import pytest

from app_fakes import ErrorRecord, FakeTensor, WarningRecord, result, simple_chain
from gradcli.app.records import SCHEMA, run_document, tensor_record, tensor_values
from gradcli.app.render.jsonout import dumps


@pytest.fixture(scope="module")
def run_validator():
    schema = json.loads(resources.files("gradcli").joinpath("schemas/run.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_float32_values_are_the_exact_float32_numbers():
    assert tensor_values(np.array([0.1], dtype=np.float32)) == [0.10000000149011612]
    assert tensor_values(np.array(0.1, dtype=np.float64)) == 0.1


def test_non_finite_become_strings_at_any_depth():
    a = np.array([[0.1, np.nan], [np.inf, -np.inf]], dtype=np.float32)
    assert tensor_values(a) == [[0.10000000149011612, "nan"], ["inf", "-inf"]]
    assert tensor_values(np.array(np.nan, dtype=np.float32)) == "nan"
    assert tensor_values(np.array(-np.inf)) == "-inf"


def test_ints_bools_and_0d():
    assert tensor_values(np.array([3, 4], dtype=np.int64)) == [3, 4]
    assert tensor_values(np.array([[True, False]])) == [[True, False]]
    assert tensor_values(np.array(2.5, dtype=np.float32)) == 2.5
    assert tensor_values(np.zeros((0, 3), dtype=np.float32)) == []


def test_truncated_summary_above_the_limit():
    a = np.arange(10, dtype=np.float32).reshape(2, 5)
    assert tensor_values(a, max_elements=10) == a.tolist()
    s = tensor_values(a, max_elements=9)
    assert s == {"truncated": True, "shape": [2, 5], "min": 0.0, "max": 9.0, "mean": 4.5}
    s = tensor_values(np.array([1.0, np.nan]), max_elements=1)
    assert s["min"] == "nan" and s["mean"] == "nan"
    s = tensor_values(np.array([1, 2, 4], dtype=np.int64), max_elements=2)
    assert s["min"] == 1 and isinstance(s["min"], int) and s["mean"] == pytest.approx(7 / 3)


def test_tensor_record_fields_and_raw_grad():
    x, y, s = simple_chain()
    rec = tensor_record("x", x)
    assert rec == {"name": "x", "shape": [2], "dtype": "float32", "requires_grad": True, "is_leaf": True,
                   "grad_fn": None, "retains_grad": False, "data": [1.0, 2.0], "grad": [2.0, 2.0]}
    rec = tensor_record("s", s)
    assert rec["shape"] == [] and rec["data"] == 6.0 and rec["grad_fn"] == "SumBackward0"
    assert rec["is_leaf"] is False and rec["grad"] is None


def test_run_document_matches_spec_and_schema(run_validator):
    x, y, s = simple_chain()
    err = ErrorRecord(kind="second_backward", message="twice", hint="use retain_graph", line=4, col=0,
                      torch_message="Trying to backward")
    res = result([("x", x), ("y", y), ("s", s)], ok=False, stdout="tensor([2., 2.])\n",
                 warnings=[WarningRecord(kind="non_leaf_grad", message="m", line=3)], error=err)
    doc = run_document(res)
    # SPEC §5's keys in its order, then what issue 19 adds: the names bound before the file, the backward run
    assert list(doc) == ["schema", "file", "ok", "stdout", "tensors", "warnings", "error", "inputs", "backward"]
    assert doc["inputs"] == [] and doc["backward"] is None
    assert doc["schema"] == SCHEMA == "gradcli.run/1"
    assert doc["warnings"] == [{"kind": "non_leaf_grad", "line": 3, "message": "m"}]
    assert doc["error"] == {"kind": "second_backward", "line": 4, "col": 0, "message": "twice",
                            "hint": "use retain_graph", "torch_message": "Trying to backward"}
    run_validator.validate(doc)
    text = dumps(doc)
    assert json.loads(text) == doc


def test_schema_rejects_what_spec_forbids(run_validator):
    x, _, _ = simple_chain()
    doc = run_document(result([("x", x)]))
    run_validator.validate(doc)
    bad = json.loads(json.dumps(doc))
    bad["tensors"][0]["data"] = ["NaN"]  # only "nan", "inf", "-inf" spell non-finite numbers
    assert not run_validator.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["ok"] = False  # ok false needs an error object
    assert not run_validator.is_valid(bad)
    bad = json.loads(json.dumps(doc))
    bad["extra"] = 1
    assert not run_validator.is_valid(bad)


def test_big_tensor_is_truncated_in_document(run_validator):
    big = FakeTensor(np.ones((400, 300)), requires_grad=True, grad=np.full((400, 300), 2.0))
    doc = run_document(result([("w", big)]), max_elements=100_000)
    assert doc["tensors"][0]["data"] == {"truncated": True, "shape": [400, 300], "min": 1.0, "max": 1.0,
                                         "mean": 1.0}
    assert doc["tensors"][0]["grad"]["mean"] == 2.0
    run_validator.validate(doc)


def test_dumps_is_strict_json():
    with pytest.raises(ValueError):
        dumps({"a": [math.nan]})
    assert dumps({"a": [1, [2, 3]], "b": [{"c": None}]}) == '{\n  "a": [1, [2, 3]],\n  "b": [\n    {\n      "c": null\n    }\n  ]\n}'


def test_trace_table_renders_events_generically():
    from rich.console import Console

    from gradcli.app.render.human import render_run

    x, y, s = simple_chain()
    events = [{"node": "SumBackward0", "grad_in": [x], "grads_out": [y]},
              {"node": "MulBackward0", "grad_in": [y], "grads_out": [None, x]}]
    res = result([("x", x)], trace=events)
    con = Console(width=100, color_system=None, record=True, file=__import__("io").StringIO())
    render_run(res, con, trace=True)
    text = con.export_text()
    assert "backward trace" in text and "SumBackward0" in text and "incoming gradient" in text
    assert "outgoing gradients" in text and "[2., 4.]" in text and "None" in text
