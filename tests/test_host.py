"""gradcli.host: numpy, OpenBLAS and PyTorch pinned to their AVX2 code, so results are the same on every host.

Each machine-dependent branch is forced here with stand-ins for the machine (architecture, CPU flags, numpy's
version and feature table, an already-loaded numpy or torch), so an AVX2 host runs the AVX-512 branches and
vice versa; the subprocess tests check what a real gradcli process does on this host.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
import warnings

import pytest

from gradcli import host

AVX2 = frozenset({"sse2", "avx", "avx2", "fma"})
AVX512 = AVX2 | {"avx512f", "avx512bw"}


def _pin(**kw):
    env = kw.pop("env", {})
    info = host.pin(env, modules=kw.pop("modules", {}), machine=kw.pop("machine", "x86_64"), **kw)
    return env, info


@pytest.mark.parametrize("flags", [AVX2, AVX512, None], ids=["avx2", "avx512", "unreadable"])
def test_pin_on_x86_64_numpy_2_4(flags):
    env, info = _pin(flags=flags, numpy_version=(2, 4))
    assert env == {"NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR", "OPENBLAS_CORETYPE": "Haswell",
                   "OPENBLAS_NUM_THREADS": "1"}
    assert info["pinned"] == env


def test_pin_names_the_old_numpy_targets():
    env, _ = _pin(flags=AVX512, numpy_version=(1, 26))
    assert env["NPY_DISABLE_CPU_FEATURES"].split() == list(host.NUMPY_AVX512_TARGETS_OLD)
    env, _ = _pin(flags=AVX512, numpy_version=None)  # version unreadable: today's names
    assert env["NPY_DISABLE_CPU_FEATURES"].split() == list(host.NUMPY_AVX512_TARGETS_V24)


def test_pin_without_avx2_keeps_openblas_kernels():
    # Haswell kernels would be illegal instructions on a CPU without AVX2/FMA: only the thread count is fixed
    env, info = _pin(flags=frozenset({"sse2", "sse4_2"}), numpy_version=(2, 4))
    assert "OPENBLAS_CORETYPE" not in env and env["OPENBLAS_NUM_THREADS"] == "1"
    assert info["avx2"] is False


def test_pin_replaces_a_users_numpy_feature_choice():
    env, _ = _pin(env={"NPY_DISABLE_CPU_FEATURES": "X86_V3", "NPY_ENABLE_CPU_FEATURES": "X86_V4", "OTHER": "1"},
                  flags=AVX512, numpy_version=(2, 4))
    assert env["NPY_DISABLE_CPU_FEATURES"] == "X86_V4 AVX512_ICL AVX512_SPR"
    assert "NPY_ENABLE_CPU_FEATURES" not in env and env["OTHER"] == "1"


@pytest.mark.parametrize("machine", ["aarch64", "arm64", "ppc64le"])
def test_pin_off_x86_64_sets_nothing(machine):
    env, info = _pin(machine=machine, flags=AVX512, numpy_version=(2, 4))
    assert env == {} and info["pinned"] == {}


def test_pin_after_numpy_is_too_late():
    env, info = _pin(modules={"numpy": object()}, flags=AVX512, numpy_version=(2, 4))
    assert env == {} and info["numpy_loaded_first"] is True


def test_cpu_flags(tmp_path):
    p = tmp_path / "cpuinfo"
    p.write_text("processor\t: 0\nvendor_id\t: X\nflags\t\t: fpu sse2 avx2 fma avx512f\n\nprocessor\t: 1\n")
    assert host.cpu_flags(str(p)) == frozenset({"fpu", "sse2", "avx2", "fma", "avx512f"})
    assert host.cpu_flags(str(tmp_path / "missing")) is None
    (tmp_path / "noflags").write_text("processor\t: 0\n")
    assert host.cpu_flags(str(tmp_path / "noflags")) is None


def test_numpy_version_is_read_without_importing_numpy():
    code = "import sys, gradcli.host as h; print(h._numpy_version(), 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    import numpy

    assert out[-1] == "False"
    assert out[0].strip("(,") == numpy.__version__.split(".")[0]


DISPATCH_V24 = ["X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR"]


@pytest.mark.parametrize("features, pinned", [
    ({"X86_V3": True, "X86_V4": True, "AVX512_ICL": True}, False),   # an AVX-512 host, unpinned
    ({"X86_V3": True, "X86_V4": False, "AVX512_ICL": False}, True),  # the same host, pinned
    ({"X86_V3": True}, True),                                        # an AVX2 host
    ({"X86_V3": True, "AVX512_SPR": True}, False),
], ids=["avx512-unpinned", "avx512-pinned", "avx2", "spr-only"])
def test_numpy_pinned_reads_numpys_feature_table(features, pinned):
    assert host.numpy_pinned(features, DISPATCH_V24) is pinned
    old = ["AVX512F", "AVX512_SKX"]
    assert host.numpy_pinned({"AVX512F": not pinned, "AVX512_SKX": False}, old) is pinned


def test_check_numpy_warns_once_when_unpinned(monkeypatch):
    monkeypatch.setattr(host, "_warned", [False])
    with pytest.warns(host.HostWarning, match="numpy was imported before gradcli"):
        assert host.check_numpy(pinned=False) is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert host.check_numpy(pinned=False) is False  # once per process
        monkeypatch.setattr(host, "_warned", [False])
        assert host.check_numpy(pinned=True) is True


def test_this_test_process_runs_pinned():
    # tests/conftest.py imports gradcli before anything imports numpy: the suite runs the code the gradcli
    # command runs, on an AVX2 host and on an AVX-512 host alike
    import numpy  # noqa: F401

    assert host.numpy_pinned()
    if host._is_x86_64():
        assert os.environ["NPY_DISABLE_CPU_FEATURES"] == " ".join(host.NUMPY_AVX512_TARGETS_V24)
        assert os.environ["OPENBLAS_NUM_THREADS"] == "1"


def test_a_gradcli_process_is_pinned_and_warns_only_when_numpy_came_first():
    code = ("import warnings, sys\nwarnings.simplefilter('always')\n{first}\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    import gradcli.autograd.tensor\n"
            "from gradcli import host\n"
            "print(host.numpy_pinned(), any(issubclass(x.category, host.HostWarning) for x in w))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NPY_", "OPENBLAS_"))}
    fresh = subprocess.run([sys.executable, "-c", code.format(first="")], capture_output=True, text=True,
                           env=env, check=True).stdout.split()
    assert fresh == ["True", "False"]
    late = subprocess.run([sys.executable, "-c", code.format(first="import numpy")], capture_output=True,
                          text=True, env=env, check=True).stdout.split()
    avx512_host = "avx512f" in (host.cpu_flags() or ())
    assert late == (["False", "True"] if avx512_host and host._is_x86_64() else ["True", "False"])


_F32_FILE = ("torch.manual_seed(3)\nx = torch.randn(40, requires_grad=True)\n"
             "y = (x.exp().sin() + x.tanh() * x.abs().log1p() - x.cos().clamp(-0.5, 0.5)).sum()\n"
             "w = torch.randn(33, 70) @ torch.randn(70, 21, dtype=torch.float32)\n"
             "d = torch.randn(20, dtype=torch.float64).exp().log1p()\n"
             "print(y.item(), w.sum().item(), d.sum().item())\n")


def test_the_same_bits_whatever_numpys_feature_variables_say(tmp_path):
    # the values a user of this host might set (each a value numpy 2.4 accepts, plus a pre-AVX2 one that the
    # pin overrides): gradcli's process always runs the same (pinned) code, so the JSON is identical
    f = tmp_path / "f.py"
    f.write_text(_F32_FILE)
    docs = []
    for value in ["", "X86_V4 AVX512_ICL AVX512_SPR", "AVX512_ICL AVX512_SPR", "AVX512_SPR", "X86_V3"]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NPY_", "OPENBLAS_"))}
        env["NPY_DISABLE_CPU_FEATURES"] = value
        out = subprocess.run([sys.executable, "-m", "gradcli", "run", str(f), "--json"], capture_output=True,
                             text=True, env=env, timeout=60)
        assert out.returncode == 0, out.stderr
        docs.append(json.loads(out.stdout))
    assert all(d == docs[0] for d in docs[1:])


def test_pin_torch_sets_avx2_before_torch_loads():
    env: dict = {}
    assert host.pin_torch(env, modules={}, machine="x86_64") == "AVX2"
    assert env == {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}
    env = {}
    assert host.pin_torch(env, modules={}, machine="aarch64") == "default" and env == {}


def test_pin_torch_reports_an_already_loaded_torch():
    fake = types.SimpleNamespace(backends=types.SimpleNamespace(cpu=types.SimpleNamespace(
        get_cpu_capability=lambda: "AVX512")))
    env: dict = {}
    assert host.pin_torch(env, modules={"torch": fake}) == "AVX512" and env == {}


def test_require_torch_avx2_refuses_avx512_kernels(monkeypatch):
    fake = types.SimpleNamespace(backends=types.SimpleNamespace(cpu=types.SimpleNamespace(
        get_cpu_capability=lambda: "AVX512")))
    monkeypatch.setitem(sys.modules, "torch", fake)
    monkeypatch.setitem(host.state, "info", {"arch": "x86_64"})
    with pytest.raises(RuntimeError, match="ATEN_CPU_CAPABILITY=avx2"):
        host.require_torch_avx2()
    fake.backends.cpu.get_cpu_capability = lambda: "AVX2"
    assert host.require_torch_avx2() == "AVX2"


@pytest.mark.torch
def test_the_oracle_runs_pytorchs_avx2_kernels():
    from gradcli.app import oracle

    if not oracle.torch_available():
        pytest.skip("PyTorch is not installed (pip install torch==2.13.0)")
    oracle._torch()
    ref = oracle.reference()
    assert ref["cpu_capability"] == ("AVX2" if host._is_x86_64() else ref["cpu_capability"])
    assert ref["torch"].startswith("2.13")
