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
