"""gradcli's optimizers give PyTorch's bytes after several steps (data/update_cases.json, record_updates.py).

Against PyTorch with a correctly rounded square root (``exact_sqrt``) every parameter and state tensor must be
equal to the bit; against PyTorch as it is (``real``, whose MKL sqrt is not correctly rounded) within SPEC §1's
tolerances, and exactly for SGD.  No PyTorch needed."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import api, optim
from gradcli.autograd import dtypes as dt
from gradcli.autograd.tensor import Tensor

HERE = Path(__file__).resolve().parent
DATA = json.loads((HERE / "data" / "update_cases.json").read_text(encoding="utf-8"))
SHAPES = [tuple(s) for s in DATA["shapes"]]

api.torch_namespace()  # registers the ops


def values(n: int, salt: int, lo: float, hi: float, dtype: str) -> np.ndarray:
    """n values in [lo, hi): a multiplicative hash of the index (the same in the recorder and the test)."""
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(salt * 40503 + 12345)) % np.uint64(1 << 32)
    u = h.astype(np.float64) / float(1 << 32)
    return (lo + (hi - lo) * u).astype(dtype)


def grad_values(step: int, k: int, n: int, dtype: str) -> np.ndarray | None:
    """The gradient of parameter k at a step (None: parameter 1 gets no gradient at step 2)."""
    if k == 1 and step == 2:
        return None
    return values(n, 1000 + 17 * step + k, -1.5, 1.5, dtype)


def _case_spec():
    """The recorder's case table, read from its source (the recorder itself imports torch)."""
    src = (HERE / "record_updates.py").read_text(encoding="utf-8")
    start = src.index("CASES = {")
    end = src.index("\n}\n", start) + 3
    ns: dict = {}
    exec(src[start:end], ns)  # noqa: S102 - the recorder's literal case table
    return ns["CASES"], src


CASES, RECORDER_SRC = _case_spec()


def test_recorder_and_test_build_the_same_inputs():
    mine = Path(__file__).read_text(encoding="utf-8")
    for fn in ("def values(", "def grad_values("):
        body = RECORDER_SRC[RECORDER_SRC.index(fn):RECORDER_SRC.index("\n\n\n", RECORDER_SRC.index(fn))]
        assert body in mine


def run(name: str, dtype: str):
    cls_name, options, groups = CASES[name]
    d = getattr(dt, dtype)
    params = []
    for k, s in enumerate(SHAPES):
        p = Tensor._from_data(values(int(np.prod(s)), 10 + k, -2, 2, dtype).reshape(s), d)
        p.requires_grad_(True)
        params.append(p)
    cls = getattr(optim, cls_name)
    if groups is None:
        opt = cls(params, **options)
    else:
        opt = cls([{"params": params[:1], **groups[0]}, {"params": params[1:], **groups[1]}], **options)
    for step in range(DATA["steps"]):
        for k, p in enumerate(params):
            g = grad_values(step, k, p.numel(), dtype)
            p.grad = None if g is None else Tensor._from_data(g.reshape(p._data.shape), d)
        opt.step()
    return params, opt


def _bytes(t: Tensor) -> bytes:
    return np.ascontiguousarray(t._data).tobytes()


def _check_exact(t: Tensor, blob: dict, what: str) -> None:
    data = _bytes(t)
    if "hex" in blob:
        if data.hex() != blob["hex"]:
            want = np.frombuffer(bytes.fromhex(blob["hex"]), dtype=t._data.dtype)
            got = np.frombuffer(data, dtype=t._data.dtype)
            bad = np.nonzero(got != want)[0]
            pytest.fail(f"{what}: {len(bad)} elements differ, first {bad[:5]}: {got[bad[:3]]} vs {want[bad[:3]]}")
    else:
        assert hashlib.sha256(data).hexdigest() == blob["sha256"], what


def _ids():
    return [f"{c['name']}-{c['dtype']}" for c in DATA["cases"]]


@pytest.mark.parametrize("case", DATA["cases"], ids=_ids())
def test_bit_for_bit_with_pytorchs_ops(case):
    params, opt = run(case["name"], case["dtype"])
    want = case["exact_sqrt"]
    for k, p in enumerate(params):
        _check_exact(p, want["params"][k], f"param {k}")
        st = opt.state[p]
        assert list(st) == list(want["state"][k]), f"state keys of param {k}"
        for key, blob in want["state"][k].items():
            _check_exact(st[key], blob, f"state[{k}][{key!r}]")


@pytest.mark.parametrize("case", DATA["cases"], ids=_ids())
def test_close_to_pytorch_as_it_is(case):
    """Real PyTorch: within SPEC §1's tolerances (its MKL sqrt differs in last bits); bit for bit for SGD, which
    takes no square root."""
    params, opt = run(case["name"], case["dtype"])
    real = case["real"]
    sgd = CASES[case["name"]][0] == "SGD"
    for k, p in enumerate(params):
        blob = real["params"][k]
        if sgd or "hex" not in blob:
            if sgd:
                _check_exact(p, blob, f"param {k}")
            continue
        want = np.frombuffer(bytes.fromhex(blob["hex"]), dtype=p._data.dtype).reshape(p._data.shape)
        f32 = p._data.dtype == np.float32
        np.testing.assert_allclose(p._data, want, rtol=1e-5 if f32 else 1e-10, atol=1e-6 if f32 else 1e-12)
