"""The C allocator's settings for a run's large numpy arrays (glibc only; elsewhere nothing changes).

Why (issue 9, measured on the 2-core benchmark machine with numpy 2.4 and glibc 2.36): glibc serves an
allocation above its mmap threshold (128 KiB at first, at most 32 MiB after its own adjustment) with a fresh
mapping and unmaps it on free, so every large temporary of an elementwise chain faults its pages in again;
numpy asks for transparent huge pages on such arrays, and with the kernel's ``defrag=madvise`` their first
fault compacts memory: 60-70 ms for a 40 MB float32 array, against 12 ms for the same ``a * 2`` into reused
memory.  A run executes on a worker thread (``lang.run``), whose allocations go to a separate arena, which
maps large blocks the same way.

``tune()`` sets, once per process (and turns numpy's huge-page advice off, below):

* ``M_MMAP_THRESHOLD`` = 1 GiB: arrays up to 1 GiB come from the heap, and a freed one is reused;
* ``M_TRIM_THRESHOLD`` = 1 GiB: up to 1 GiB of free memory at the heap's top stays in the process;
* ``M_ARENA_MAX`` = 1: the worker thread allocates from that same heap.

Live memory (``--max-memory``, ``limits.py``) is read as resident size, which then also holds freed memory the
heap keeps: a run therefore starts from a trimmed heap (``trim()`` in ``limits.start_run``), and a check that finds
the limit exceeded trims and measures again before it refuses.

The numpy-only chain of ``benchmarks/workloads/elementwise_10m.py`` on a worker thread ran in 0.29-0.32 s with
these settings against 0.44-0.58 s without, with the same peak RSS (187 MB).

Reuse does not help an array that grows the heap: numpy still asks for huge pages on every array of 4 MiB or
more (``madvise(MADV_HUGEPAGE)``), and with ``defrag=madvise`` the first fault of such pages compacts memory
whenever the system's free memory is fragmented -- after another process freed a few hundred MB, as PyTorch
does right before gradcli in a side-by-side benchmark.  ``tune()`` therefore also turns numpy's advice off
(``numpy._core.multiarray._set_madvise_hugepage(False)``; PyTorch's CPU allocator gives none either unless
``THP_MEM_ALLOC_ENABLE`` is set).  Measured 2026-12-02, engine view right after a PyTorch run of the same
file, 3 pairs each: ``elementwise_bwd_10m`` 0.70-0.79 s -> 0.22-0.26 s, ``cross_entropy`` 0.21-0.24 s ->
0.08-0.09 s, ``elementwise_10m`` 0.54-0.57 s -> 0.29-0.34 s.  On an unfragmented machine huge pages were
faster (``elementwise_bwd_10m`` 0.15 s against 0.23 s), but a run cannot know which machine it has, and the
stall is the larger and the more common cost.  Values do not depend on it.  The cost: memory freed during a
run is not handed back to the system until the process ends (a ``gradcli run`` process is one run), and peak RSS
is what it was.
"""

from __future__ import annotations

import os
import sys

_M_TRIM_THRESHOLD = -1  # glibc <malloc.h> parameter numbers
_M_MMAP_THRESHOLD = -3
_M_ARENA_MAX = -8
_GiB = 1 << 30

_done = [False]
_trim: list = [None]  # glibc's malloc_trim, once tune() has succeeded


def tune() -> bool:
    """Apply the settings above through glibc's ``mallopt``; True when all three were accepted.

    Idempotent; never raises (another C library, or no ctypes: False and nothing changes).
    """
    if _done[0]:
        return True
    _no_hugepage_advice()
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (ImportError, OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    ok = all([mallopt(_M_MMAP_THRESHOLD, _GiB), mallopt(_M_TRIM_THRESHOLD, _GiB), mallopt(_M_ARENA_MAX, 1)])
    _done[0] = ok
    if ok:
        trim = libc.malloc_trim
        trim.argtypes = (ctypes.c_size_t,)
        trim.restype = ctypes.c_int
        _trim[0] = trim
    return ok


def _no_hugepage_advice() -> bool:
    """Turn numpy's ``MADV_HUGEPAGE`` advice on new arrays off (see above); True when it is off.

    Before numpy's import, through the ``NUMPY_MADVISE_HUGEPAGE=0`` it reads then (importing numpy here would
    load it for commands that never need it); after, through its switch.  An explicit
    ``NUMPY_MADVISE_HUGEPAGE`` in the environment is the user's choice and is kept.  Never raises: a numpy
    without the (private) switch keeps its default."""
    if "NUMPY_MADVISE_HUGEPAGE" in os.environ:
        return os.environ["NUMPY_MADVISE_HUGEPAGE"] == "0"
    np = sys.modules.get("numpy")
    if np is None:
        os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"
        return True
    switch = getattr(getattr(getattr(np, "_core", None), "multiarray", None), "_set_madvise_hugepage", None)
    if switch is None:
        return False
    switch(False)
    return True


def trim() -> bool:
    """Hand the heap's free memory back to the system (glibc ``malloc_trim(0)``: the top and whole free pages
    inside); True when some was released.  Nothing (False) unless ``tune()`` has taken effect."""
    fn = _trim[0]
    return bool(fn(0)) if fn is not None else False
