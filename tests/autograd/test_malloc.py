"""autograd/malloc.py: glibc's allocator settings for large arrays (issue 9)."""

import platform
import subprocess
import sys

import pytest

from gradcli.autograd import malloc

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's; elsewhere tune() changes nothing")
def test_tune_is_accepted_by_glibc_in_a_fresh_process():
    # a fresh interpreter: importing the run module applies the settings once, and glibc accepts each
    code = ("import gradcli.lang.run\nfrom gradcli.autograd import malloc\n"
            "print(malloc._done[0], malloc.tune())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]


def test_tune_without_glibc_changes_nothing(monkeypatch):
    import ctypes

    def no_libc(*args, **kwargs):
        raise OSError("libc.so.6: cannot open shared object file")

    monkeypatch.setattr(malloc, "_done", [False])
    monkeypatch.setattr(ctypes, "CDLL", no_libc)
    assert malloc.tune() is False
    assert malloc._done == [False]


def test_tune_off_linux_changes_nothing(monkeypatch):
    monkeypatch.setattr(malloc, "_done", [False])
    monkeypatch.setattr(malloc.sys, "platform", "darwin")
    assert malloc.tune() is False


def test_numpy_huge_page_advice_is_off_in_a_run_process():
    # numpy's own default is on (NUMPY_MADVISE_HUGEPAGE unset, a Linux kernel >= 4.6); the switch returns the
    # previous value, so True first shows the default and False after the run module's import shows tune()'s
    code = ("import numpy as np\nsw = np._core.multiarray._set_madvise_hugepage\nfirst = sw(True)\n"
            "import gradcli.lang.run\nprint(first, sw(True))")
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    default, after = out.split()
    if sys.platform.startswith("linux") and tuple(map(int, platform.release().split(".")[:2])) >= (4, 6):
        assert default == "True"
    assert after == "False"


def test_huge_page_advice_off_without_numpy_switch(monkeypatch):
    from numpy._core import multiarray

    monkeypatch.delattr(multiarray, "_set_madvise_hugepage")
    assert malloc._no_hugepage_advice() is False
