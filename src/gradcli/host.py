"""The same bits on every host (SPEC §2b "Hosts"): numpy, OpenBLAS and PyTorch pinned to AVX2 code.

What varies from one x86-64 host to another, measured on an AVX-512 host (AMD EPYC, numpy 2.4.6 with
scipy-openblas 0.3.31) against the AVX2 host the cases were recorded on:

* **numpy's SIMD dispatch.**  numpy compiles many ufunc loops several times (dispatch targets
  ``X86_V3`` = AVX2/FMA3, ``X86_V4`` / ``AVX512_ICL`` / ``AVX512_SPR`` in numpy >= 2.4, ``AVX512F`` /
  ``AVX512_SKX`` ... before) and picks the best the CPU has when it loads.  The AVX-512 loops give other
  last bits for float64 exp/log/log1p/sin/cos (its own code instead of the C library's), float32
  transcendental functions, and the sign of a zero in ``maximum``/``minimum``.  ``NPY_DISABLE_CPU_FEATURES``,
  read once when numpy loads, turns those targets off, so every host runs the AVX2 loops.
* **OpenBLAS's kernels and threads.**  numpy's OpenBLAS (DYNAMIC_ARCH) picks SkylakeX kernels on AVX-512,
  Haswell kernels on AVX2, and splits a product over as many threads as the machine has cores; both change
  the float32 and float64 bits of ``matmul``.  ``OPENBLAS_CORETYPE=Haswell`` and ``OPENBLAS_NUM_THREADS=1``
  fix both; ``ops.linalg`` splits large products over two threads itself, the same way on every host.
* **PyTorch**, for the recorders and ``gradcli compare``: ``ATEN_CPU_CAPABILITY=avx2`` and
  ``MKL_ENABLE_INSTRUCTIONS=AVX2`` (:func:`pin_torch`), so the reference is PyTorch's AVX2 kernels and MKL's
  AVX2 BLAS on every host (measured here: the recorded cases reproduce bit for bit with both set).

The C library's ``exp``/``log``/``sin``... (Python's ``math``, and numpy where it calls them) choose their
FMA variants on every x86-64 host that has AVX2, so they need no pin.  On aarch64 nothing is pinned: numpy
and OpenBLAS have one kind of code there, but its float32/float64 last bits are not those of the x86-64
hosts; results then agree with PyTorch within SPEC §1's tolerances, not bit for bit.

:func:`pin` runs when the ``gradcli`` package is imported, before anything of gradcli imports numpy (the
package's ``__init__`` calls it, and it imports nothing heavy).  It sets the variables in ``os.environ``,
where they also reach the processes gradcli starts.  When numpy was loaded before gradcli (a library user's
own import), the pin cannot take effect: :func:`numpy_pinned` then reports False and :func:`check_numpy`
warns once (``HostWarning``).  The probes of the machine are listed in docs/ARCHITECTURE.md, and the tests
force each branch.
"""

from __future__ import annotations

import os
import sys
import warnings

# (annotations only: typing is not imported, to keep `gradcli --help` fast; MutableMapping / Optional as strings)

__all__ = ["HostWarning", "pin", "pin_torch", "numpy_pinned", "check_numpy", "cpu_flags", "state"]

#: numpy's dispatch targets above AVX2, by numpy's naming (x86-64 levels from numpy 2.4, feature groups before);
#: naming a target a numpy version does not have only makes numpy print an ImportWarning, so each list is exact
NUMPY_AVX512_TARGETS_V24 = ("X86_V4", "AVX512_ICL", "AVX512_SPR")
NUMPY_AVX512_TARGETS_OLD = ("AVX512F", "AVX512CD", "AVX512_KNL", "AVX512_KNM", "AVX512_SKX", "AVX512_CLX",
                            "AVX512_CNL", "AVX512_ICL", "AVX512_SPR")

#: the environment a pinned process runs with (NPY_DISABLE_CPU_FEATURES is added by pin(): it depends on numpy)
OPENBLAS_ENV = {"OPENBLAS_CORETYPE": "Haswell", "OPENBLAS_NUM_THREADS": "1"}


class HostWarning(RuntimeWarning):
    """numpy was imported before gradcli, so its results may depend on this host's SIMD features."""


#: what the package's own pin() call found and did, under "info": {"arch", "avx2", "numpy_version",
#: "numpy_loaded_first", "pinned": {var: value}}
state: dict = {}
_warned = [False]


def cpu_flags(path: str = "/proc/cpuinfo") -> Optional[frozenset]:
    """The CPU's feature flags (Linux's ``/proc/cpuinfo``, first processor), or None where it is unreadable."""
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return None
    for line in head.split(b"\n"):
        if line.startswith(b"flags"):
            return frozenset(line.split(b":", 1)[1].decode("ascii", "replace").split())
    return None


def _numpy_version() -> Optional[tuple]:
    """numpy's (major, minor) from its ``version.py``, without importing numpy (None: not found)."""
    spec = None
    for finder in sys.meta_path:  # importlib.util.find_spec's loop, without importing importlib.util
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec = find("numpy", None)
        except (ImportError, ValueError):
            return None
        if spec is not None:
            break
    if spec is None or not spec.origin:
        return None
    try:
        with open(os.path.join(os.path.dirname(spec.origin), "version.py"), encoding="utf-8") as f:
            text = f.read(4096)
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key.split(":")[0].strip() in ("version", "short_version"):
            parts = value.strip().strip("'\"").split(".")
            try:
                return int(parts[0]), int(parts[1])
            except (IndexError, ValueError):
                return None
    return None


def _machine() -> str:
    if hasattr(os, "uname"):
        return os.uname().machine
    import platform  # pragma: no cover - Windows

    return platform.machine()  # pragma: no cover


def _is_x86_64(machine: Optional[str] = None) -> bool:
    return (_machine() if machine is None else machine).lower() in ("x86_64", "amd64")


def pin(environ: Optional[MutableMapping[str, str]] = None, *, modules: Optional[dict] = None,
        machine: Optional[str] = None, flags: Optional[frozenset] = None,
        numpy_version: Optional[tuple] = None) -> dict:
    """Set numpy's and OpenBLAS's pins in ``environ`` (default ``os.environ``) before numpy loads.

    On x86-64 only (elsewhere nothing is set).  ``NPY_DISABLE_CPU_FEATURES`` gets numpy's AVX-512 targets
    (a value set before is replaced, and ``NPY_ENABLE_CPU_FEATURES`` removed: the pin is what makes the bits
    the same); the OpenBLAS kernels are pinned to Haswell only when the CPU has AVX2 and FMA (Haswell kernels
    on an older CPU would be illegal instructions).  When numpy is already in ``modules`` (``sys.modules``)
    the pin is too late and nothing is set.  The keyword arguments stand in for the machine in tests.
    Returns (and keeps in :data:`state`) what it found and set; never raises.
    """
    env = os.environ if environ is None else environ
    mods = sys.modules if modules is None else modules
    info: dict = {"arch": _machine() if machine is None else machine,
                  "numpy_loaded_first": "numpy" in mods, "pinned": {}}
    if environ is None:
        state.clear()
        state["info"] = info
    if info["numpy_loaded_first"] or not _is_x86_64(info["arch"]):
        return info
    fl = cpu_flags() if flags is None else flags
    info["avx2"] = fl is None or ("avx2" in fl and "fma" in fl)  # unreadable: an x86-64 host today has both
    ver = _numpy_version() if numpy_version is None else numpy_version
    info["numpy_version"] = ver
    targets = NUMPY_AVX512_TARGETS_V24 if ver is None or ver >= (2, 4) else NUMPY_AVX512_TARGETS_OLD
    values = {"NPY_DISABLE_CPU_FEATURES": " ".join(targets)}
    if info["avx2"]:
        values.update(OPENBLAS_ENV)
    else:
        values["OPENBLAS_NUM_THREADS"] = OPENBLAS_ENV["OPENBLAS_NUM_THREADS"]
    env.pop("NPY_ENABLE_CPU_FEATURES", None)
    for key, value in values.items():
        env[key] = value
    info["pinned"] = values
    return info


def numpy_pinned(features: Optional[dict] = None, dispatch: Optional[list] = None) -> bool:
    """Does the loaded numpy run no loop above AVX2?  (True off x86-64, where there is nothing to pin.)

    Reads numpy's own record of the targets it enabled (``__cpu_features__`` after the disable list); the
    arguments stand in for it in tests.
    """
    if features is None or dispatch is None:
        if not _is_x86_64(state.get("info", {}).get("arch")):
            return True
        try:
            from numpy._core import _multiarray_umath as m  # numpy >= 2
        except ImportError:  # pragma: no cover - numpy 1.x
            from numpy.core import _multiarray_umath as m  # type: ignore[no-redef]
        features = m.__cpu_features__ if features is None else features
        dispatch = list(m.__cpu_dispatch__) if dispatch is None else dispatch
    above = set(NUMPY_AVX512_TARGETS_V24) | set(NUMPY_AVX512_TARGETS_OLD)
    return not any(features.get(t) for t in dispatch if t in above)


def check_numpy(pinned: Optional[bool] = None) -> bool:
    """Warn once (``HostWarning``) when the loaded numpy runs AVX-512 loops, i.e. numpy was imported before
    gradcli could pin it; return whether it is pinned.  The engine calls this when it loads."""
    ok = numpy_pinned() if pinned is None else pinned
    if not ok and not _warned[0]:
        _warned[0] = True
        warnings.warn(
            "numpy was imported before gradcli on a host with AVX-512, so numpy runs its AVX-512 loops and "
            "gradcli's float results may differ in the last bits from other hosts and from the recorded "
            "PyTorch cases. Import gradcli before numpy, or set NPY_DISABLE_CPU_FEATURES="
            f"'{' '.join(NUMPY_AVX512_TARGETS_V24)}' OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1 "
            "before Python starts.", HostWarning, stacklevel=2)
    return ok


def pin_torch(environ: Optional[MutableMapping[str, str]] = None, *, modules: Optional[dict] = None,
              machine: Optional[str] = None) -> str:
    """``ATEN_CPU_CAPABILITY=avx2`` for a PyTorch about to be imported (the reference is PyTorch's AVX2
    kernels on every host, SPEC §2b); returns the capability PyTorch will use or uses.

    Where torch is already imported it is too late: the capability it chose is returned as it is
    (``torch.backends.cpu.get_cpu_capability()``), and the recorders refuse to record unless it is AVX2.
    Off x86-64 nothing is set ("default").
    """
    env = os.environ if environ is None else environ
    mods = sys.modules if modules is None else modules
    torch = mods.get("torch")
    if torch is not None:
        try:
            return str(torch.backends.cpu.get_cpu_capability())
        except AttributeError:  # pragma: no cover - a torch without backends.cpu
            return "unknown"
    if not _is_x86_64(machine if machine is not None else state.get("info", {}).get("arch")):
        return "default"
    env["ATEN_CPU_CAPABILITY"] = "avx2"
    env["MKL_ENABLE_INSTRUCTIONS"] = "AVX2"  # PyTorch's BLAS (MKL) would pick AVX-512 kernels on Intel hosts
    return "AVX2"


def require_torch_avx2() -> str:
    """For a recorder, after ``import torch``: the capability PyTorch runs with, raising RuntimeError when it
    is not AVX2 on an x86-64 host (torch was imported before :func:`pin_torch`, or the variable was unset),
    since an expectation recorded with AVX-512 kernels differs in float32 last bits."""
    cap = pin_torch()
    if _is_x86_64(state.get("info", {}).get("arch")) and cap.upper() != "AVX2":
        raise RuntimeError(f"PyTorch runs its {cap} kernels; record with ATEN_CPU_CAPABILITY=avx2 set before "
                           "torch is imported (gradcli.host.pin_torch)")
    return cap
