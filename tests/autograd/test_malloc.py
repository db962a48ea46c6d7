"""autograd/malloc.py: glibc's allocator settings for large arrays (issue 9)."""

import os
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


@pytest.mark.parametrize("numpy_first", [True, False], ids=["numpy-imported-first", "gradcli-first"])
def test_numpy_huge_page_advice_is_off_in_a_run_process(numpy_first):
    # numpy's own default is on (NUMPY_MADVISE_HUGEPAGE unset, a Linux kernel >= 4.6); the switch returns the
    # previous value, so after the run module's import (and numpy's) it shows what is in effect
    code = ("import numpy as np\n" if numpy_first else "") + (
        "import gradcli.lang.run\nimport numpy as np\nsw = np._core.multiarray._set_madvise_hugepage\n"
        "print(sw(True))")
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout
    assert out.split() == ["False"]


def test_numpy_default_is_on_here():
    # what the test above turns off is on by default (else it could not fail)
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    code = "import numpy as np\nprint(np._core.multiarray._set_madvise_hugepage(True))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    if sys.platform.startswith("linux") and tuple(map(int, platform.release().split(".")[:2])) >= (4, 6):
        assert out.split() == ["True"]


def test_an_explicit_environment_setting_is_kept(monkeypatch):
    monkeypatch.setenv("NUMPY_MADVISE_HUGEPAGE", "1")
    assert malloc._no_hugepage_advice() is False
    monkeypatch.setenv("NUMPY_MADVISE_HUGEPAGE", "0")
    assert malloc._no_hugepage_advice() is True


def test_huge_page_advice_off_without_numpy_switch(monkeypatch):
    from numpy._core import multiarray

    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    monkeypatch.delattr(multiarray, "_set_madvise_hugepage")
    assert malloc._no_hugepage_advice() is False


def test_start_run_trims_only_what_an_earlier_run_can_have_left(monkeypatch):
    from gradcli.autograd import limits

    rss = [100 << 20]
    trims = []

    def fake_trim():
        trims.append(rss[0])
        rss[0] = 101 << 20  # what the trim handed back
        return True

    monkeypatch.setattr(limits, "resident_bytes", lambda: rss[0])
    monkeypatch.setattr(limits._malloc, "trim", fake_trim)
    monkeypatch.setattr(limits, "_floor", [None])
    limits.start_run()  # a fresh process's first run: nothing freed yet, no trim
    assert trims == [] and limits._base[0] == 100 << 20
    rss[0] = (100 << 20) + limits.TRIM_ABOVE - 1  # below the threshold: counted as it is
    limits.start_run()
    assert trims == [] and limits._base[0] == rss[0]
    rss[0] = 700 << 20  # a previous run's 600 MB the heap keeps: handed back, then the zero is taken
    limits.start_run()
    assert trims == [700 << 20] and limits._base[0] == 101 << 20
