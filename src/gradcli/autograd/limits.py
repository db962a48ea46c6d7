"""Resource limits the engine enforces itself (SPEC §3 ``--max-elements``, ``--max-memory``, ``--timeout``).

The language layer sets them per run; the engine checks before allocating:

* elements: an op about to create a tensor of ``n`` elements calls :func:`check_numel` first, so
  ``torch.zeros(10**10)`` is a ``limit`` error, not a MemoryError or a swapping machine;
* live bytes: :func:`check_numel` also counts the bytes the new tensor needs against the memory the
  run already holds (tensors, graph, saved tensors, Python objects alike: the process's resident
  size above what it was when the run started, read from ``/proc/self/statm``, with the heap's retained
  free memory handed back first: ``malloc.trim``).  Only allocations of
  :data:`BIG` bytes or more read it, so small ops pay one multiplication and one compare; the
  language layer's step budget also calls :func:`check_memory` every few hundred steps, which
  catches memory filled by many small objects.  ``run_file`` adds the kernel-enforced backstop
  (``RLIMIT_DATA``) for what no check here sees, e.g. a broadcast of two small tensors;
* time: the backward engine counts nodes down inline (one decrement and compare per node); every
  :data:`CHECK_EVERY` nodes :func:`backward_step` runs the language layer's clock check
  (:data:`on_check`), so a long backward pass stops at ``--timeout`` too.

Each refusal is a ``limit`` error naming the limit and the option that raises it.
"""

from __future__ import annotations

import os
from typing import Callable, Optional

from ..errors import error_class
from . import malloc as _malloc

__all__ = [
    "DEFAULT_MAX_ELEMENTS", "DEFAULT_MAX_BYTES", "BIG", "CHECK_EVERY", "set_max_elements", "set_max_bytes",
    "check_numel", "check_bytes", "check_memory", "resident_bytes", "start_run", "backward_step", "on_check",
    "format_bytes", "on_build", "python_objects",
]

DEFAULT_MAX_ELEMENTS = 100_000_000
#: live memory of one run: 4 GiB keeps a 24 GiB machine responsive with several runs side by side
DEFAULT_MAX_BYTES = 4 << 30
#: allocations from this size read the process's resident size before they happen
BIG = 1 << 20
#: resident bytes above the lowest run zero from which a run's start trims the heap first
TRIM_ABOVE = 32 << 20
_floor: list = [None]  # the lowest run zero taken in this process
#: backward nodes between two clock checks
CHECK_EVERY = 256

max_elements = DEFAULT_MAX_ELEMENTS
max_bytes = DEFAULT_MAX_BYTES
_base = [0]  # resident bytes when the run started
#: called every CHECK_EVERY backward nodes (the language layer installs its clock check); None: nothing
on_check: list = [None]
_countdown = [CHECK_EVERY]

try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
    _PAGE = 4096
_statm: list = [None]


def format_bytes(n: int) -> str:
    """``4 GiB``, ``512 MiB``, ``1.5 GiB`` ..."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


def resident_bytes() -> int:
    """The process's resident memory in bytes (0 where ``/proc/self/statm`` does not exist)."""
    fd = _statm[0]
    try:
        if fd is None:
            fd = _statm[0] = os.open("/proc/self/statm", os.O_RDONLY)
        return int(os.pread(fd, 128, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        _statm[0] = None
        return 0


def set_max_elements(n: Optional[int]) -> None:
    """Set the largest tensor (in elements) an op may create; None restores the default."""
    global max_elements
    max_elements = DEFAULT_MAX_ELEMENTS if n is None else int(n)


def set_max_bytes(n: Optional[int]) -> None:
    """Set the live memory (bytes) a run may hold; None restores the default."""
    global max_bytes
    max_bytes = DEFAULT_MAX_BYTES if n is None else int(n)


def start_run() -> None:
    """Take the current resident size as the run's zero (called when a run starts), after handing back the
    free memory the heap keeps from earlier runs (malloc.py) -- when there can be some: the process's resident
    size is ``TRIM_ABOVE`` or more above the lowest zero taken so far (a fresh process's first run skips
    ``malloc_trim``, 7-15 ms of walking the heap the imports left; memory a previous run freed is handed back,
    so the heap cannot hide it from this run's count)."""
    now = resident_bytes()
    if _floor[0] is not None and now - _floor[0] >= TRIM_ABOVE and _malloc.trim():
        now = resident_bytes()
    if _floor[0] is None or now < _floor[0]:
        _floor[0] = now
    _base[0] = now
    _countdown[0] = CHECK_EVERY


def _memory_error(used: int, more: int) -> Exception:
    what = f"{format_bytes(used)} in use" + (f" and {format_bytes(more)} more needed" if more else "")
    err = error_class("limit")(
        f"the program would hold more than the memory limit of {format_bytes(max_bytes)} ({what})",
        "Raise it with --max-memory SIZE (e.g. --max-memory 8G) if the program really needs more.",
    )
    err.limit = "max_memory"  # type: ignore[attr-defined]
    return err


def _held(more: int) -> int:
    """Bytes the run holds (resident size above the run's zero); when that plus ``more`` is over the limit, the
    heap's retained free memory (malloc.py), resident but not held, is handed back and the size read again."""
    used = max(0, resident_bytes() - _base[0])
    if used + more > max_bytes and _malloc.trim():
        used = max(0, resident_bytes() - _base[0])
    return used


def check_bytes(nbytes: int) -> None:
    """Raise a ``limit`` error if allocating ``nbytes`` more would exceed the run's memory limit."""
    used = _held(nbytes)
    if used + nbytes > max_bytes:
        raise _memory_error(used, nbytes)


def check_memory() -> None:
    """Raise a ``limit`` error if the run already holds more than its memory limit."""
    used = _held(0)
    if used > max_bytes:
        raise _memory_error(used, 0)


def check_numel(n: int, itemsize: int = 8) -> None:
    """Raise a ``limit`` error if a tensor of ``n`` elements may not be created (elements, then bytes).

    ``itemsize``: bytes per element when known (default 8, the widest dtype: a conservative count).
    """
    if n > max_elements:
        err = error_class("limit")(
            f"creating a tensor of {n:,} elements exceeds the limit of {max_elements:,} elements",
            "Raise it with --max-elements N if the program really needs tensors this big.",
        )
        err.limit = "max_elements"  # type: ignore[attr-defined]
        raise err
    nbytes = n * itemsize
    if nbytes >= BIG:
        check_bytes(nbytes)


#: ``fn(n, what)`` the language layer installs: checks a Python container of ``n`` items against its
#: limits and charges its steps (building one costs steps in proportion to its size); None: no check
on_build: list = [None]


def python_objects(n: int, what: str = "list") -> None:
    """Before an engine method builds ``n`` Python objects (``tolist()``; ``what="tensors"``: one tensor
    each, as ``unbind``/``split`` make): the language layer's size and step accounting, as for the
    containers a program builds itself (a tensor costs a whole step)."""
    fn = on_build[0]
    if fn is not None:
        fn(n, what)


def backward_step() -> None:
    """Called by the engine when its node countdown (:data:`_countdown`, decremented inline per node)
    runs out: refill it and run the installed clock check."""
    _countdown[0] = CHECK_EVERY
    fn: Optional[Callable[[], None]] = on_check[0]
    if fn is not None:
        fn()
