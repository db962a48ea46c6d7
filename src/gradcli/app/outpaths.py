"""Output paths that would overwrite an input: refused before anything runs (issue 20, Must have 6).

``--output`` (graph) and ``--snapshot`` (run) write a file atomically (app/graph.py ``write_atomic``).
A path naming the input file was refused by name; the same file reached another way was not:
``gradcli graph - --output /dev/stdin < FILE`` and ``gradcli run - --snapshot /proc/self/fd/0 < FILE``
replaced FILE.  :func:`refuse_input` compares the file the path resolves to (``os.stat`` follows
symbolic links, ``/dev/stdin`` and ``/proc/self/fd/N`` included) by device and inode with

* the input file named on the command line,
* whatever standard input is (``fstat`` of fd 0: a redirected file, whichever FILE argument was given),
* every other file this process has open for reading (``/proc/self/fd``, where it exists).

A FIFO or a device that is none of these (``/dev/stdout`` to a terminal or a pipe) is still written
into, as before: it holds no content to lose.
"""

from __future__ import annotations

import os
import stat
from typing import Iterator, Optional

from .problems import UsageProblem

__all__ = ["refuse_input"]


def _open_inputs() -> Iterator[tuple[int, int]]:
    """(st_dev, st_ino) of standard input and of every file descriptor open for reading that is a regular
    file or a pipe (a terminal is standard input and output at once: writing to it loses nothing)."""
    fds = [0]
    try:
        fds += [int(n) for n in os.listdir("/proc/self/fd") if n.isdigit() and int(n) > 2]
    except OSError:  # no /proc: standard input only
        pass
    import fcntl

    for fd in fds:
        try:
            mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
            st = os.fstat(fd)
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
        if mode in (os.O_RDONLY, os.O_RDWR) and (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            yield st.st_dev, st.st_ino


def refuse_input(path: Optional[str], source: str, option: str, what: str) -> None:
    """Raise UsageProblem (exit status 2) when ``path`` (``option``'s value) resolves to an input: the file
    ``source`` (``-``: standard input), standard input itself, or a file this process has open for reading.
    ``what`` names the output in the hint ("the graph")."""
    if path is None:
        return
    try:
        target = os.stat(path)
    except OSError:  # does not exist (yet), or unreachable: it is no input
        return
    ident = (target.st_dev, target.st_ino)
    hint = f"Choose another file name for {what}."
    if source != "-":
        try:
            src = os.stat(source)
        except OSError:
            src = None
        if src is not None and (src.st_dev, src.st_ino) == ident:
            raise UsageProblem(f"{option} {path} is the input file; gradcli never overwrites its input", hint)
    if ident in set(_open_inputs()):
        raise UsageProblem(f"{option} {path} is the file gradcli reads as input (standard input or another "
                           "open file); gradcli never overwrites its input", hint)
