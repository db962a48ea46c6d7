"""Every branch chosen by probing the machine runs here, on any host (issue 16; the list is in
docs/ARCHITECTURE.md "Machine probes").  gradcli.host's probes are in tests/test_host.py, the libm probe of the
random module in tests/autograd/test_random.py, glibc's allocator in tests/autograd/test_malloc.py; this file
forces the others: /proc/self/statm missing, the RLIMIT_DATA backstop without /proc, O_TMPFILE missing, no
fork().
"""

from __future__ import annotations

import os

import pytest

from gradcli.app import graph as G
from gradcli.autograd import limits as L
from gradcli.lang import run as R


def test_resident_bytes_without_proc(monkeypatch):
    real_open = os.open

    def no_proc(path, *a, **k):
        if str(path).startswith("/proc/"):
            raise FileNotFoundError(path)
        return real_open(path, *a, **k)

    monkeypatch.setattr(L, "_statm", [None])
    monkeypatch.setattr(L.os, "open", no_proc)
    assert L.resident_bytes() == 0  # no live-memory reading: the explicit checks then count nothing


def test_resident_bytes_with_proc():
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("no /proc/self/statm on this system: the other branch is the one above")
    assert L.resident_bytes() > 0


def test_data_limit_without_proc_status(monkeypatch):
    import builtins

    real_open = builtins.open

    def no_proc(path, *a, **k):
        if str(path).startswith("/proc/"):
            raise FileNotFoundError(path)
        return real_open(path, *a, **k)

    monkeypatch.setattr(builtins, "open", no_proc)
    with R._DataLimit(1 << 30) as d:
        assert d.old is None  # nothing set, nothing to restore


def test_data_limit_with_proc_status():
    resource = pytest.importorskip("resource")
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc/self/status on this system: the other branch is the one above")
    before = resource.getrlimit(resource.RLIMIT_DATA)
    with R._DataLimit(1 << 30):
        soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
        assert soft != resource.RLIM_INFINITY or before[0] != resource.RLIM_INFINITY
    assert resource.getrlimit(resource.RLIMIT_DATA) == before


@pytest.mark.parametrize("tmpfile", ["O_TMPFILE", "no O_TMPFILE"])
def test_atomic_write_both_ways(tmp_path, monkeypatch, tmpfile):
    if tmpfile == "no O_TMPFILE":
        monkeypatch.delattr(G.os, "O_TMPFILE", raising=False)  # macOS, or an old kernel
    elif not hasattr(os, "O_TMPFILE"):
        pytest.skip("this system has no O_TMPFILE: the other parameter covers its branch")
    target = tmp_path / "g.dot"
    target.write_text("old")
    G.write_atomic(str(target), b"digraph {}\n")
    assert target.read_bytes() == b"digraph {}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.dot"]  # no temporary file left


@pytest.mark.torch
@pytest.mark.parametrize("fork", [True, False], ids=["fork", "fresh-interpreter"])
def test_oracle_child_with_and_without_fork(fork):
    from gradcli.app import oracle
    from gradcli.lang.result import RunOptions

    if not oracle.torch_available():
        pytest.skip("PyTorch is not installed (pip install torch==2.13.0)")
    if fork and not hasattr(os, "fork"):
        pytest.skip("no fork() on this system: the fresh-interpreter parameter covers it")
    doc = oracle.run_isolated("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\n"
                              "y.backward()\nprint(x.grad)\n", "f.py", RunOptions(), timeout=120, fork=fork)
    assert doc["ok"] is True and doc["stdout"] == "tensor([2., 4.])\n"
    assert [t["grad"] for t in doc["tensors"] if t["name"] == "x"] == [[2.0, 4.0]]
