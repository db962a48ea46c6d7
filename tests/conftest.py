"""Root conftest: pin numpy and OpenBLAS before any test module imports numpy, and PyTorch to its AVX2
kernels before any test imports torch (SPEC §2b "Hosts").

``import gradcli`` sets ``NPY_DISABLE_CPU_FEATURES``, ``OPENBLAS_CORETYPE`` and ``OPENBLAS_NUM_THREADS``
(:mod:`gradcli.host`), which numpy reads once, when it loads.  pytest imports this file before the test
modules and the conftests below it, so the in-process tests run the same numpy and BLAS code as the
``gradcli`` command does, on an AVX2 host and on an AVX-512 host alike.  If something (a plugin) loaded numpy
before this file, the pin cannot take effect and the session stops with that reason instead of failing
tests by a last bit.
"""

import sys

_NUMPY_FIRST = "numpy" in sys.modules

import gradcli  # noqa: E402,F401  (the pin)
import pytest  # noqa: E402
from gradcli import host  # noqa: E402

# the PyTorch the differential tests load (lazily) runs its AVX2 kernels, as the cases were recorded
host.pin_torch()

if _NUMPY_FIRST:
    raise pytest.UsageError(
        "numpy was imported before tests/conftest.py, so gradcli could not pin numpy's SIMD dispatch and "
        "OpenBLAS (gradcli.host); run the suite without the plugin that imports numpy, or set "
        "NPY_DISABLE_CPU_FEATURES, OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS as gradcli.host.pin does")
