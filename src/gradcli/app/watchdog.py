"""The command's watchdog process: a hard deadline that always fires (issue 20, Must have 3).

A run stops itself at ``--timeout`` between two steps (lang/limits.py), and the CLI's waiting thread
abandons a run stuck in one long engine operation one second later (lang/run.py, ``HARD_GRACE``).  Neither
can act while one C call holds the interpreter lock -- hashing a tuple of 10^12 shared items, ``==`` of two
such lists, ``str`` of a huge big int: no other thread runs until it returns, which can be hours.  So the
``gradcli`` script runs each command that runs a file (:data:`COMMANDS`) in a forked child and waits for it
here, in the parent, which holds no lock the child can take:

* the child exits by itself (the usual case): the parent exits with its status, having written nothing;
* the child is still computing at ``--timeout`` + :data:`KILL_AFTER` seconds of the command: the parent
  kills it and renders the command's own output -- the ``limit`` panel, or the ``--json`` document -- by
  running the same command line with every run reported as stopped at the time limit
  (``lang.limits.EXPIRED``: nothing is parsed or run), within ``--timeout`` + 2 s;
* the child has started writing its output (a shared flag set by its first write to stdout/stderr): the
  parent waits for it (output is bounded by ``--max-output``; the child's faulthandler last resort,
  app/run.py, still ends it);
* the child was killed by a signal (a crash, the kernel's OOM killer): the parent reports an internal
  error (exit status 70) instead of a silent 139.

``--timeout`` is read from the command line here as typer will read it (default: :data:`COMMANDS`); an
invalid value runs the command without a watchdog, and the command itself refuses it (exit status 2).
``GRADCLI_NO_WATCHDOG=1`` turns it off (debugging with a tracer).
"""

from __future__ import annotations

import math
import mmap
import os
import signal
import struct
import sys
import time
from typing import Optional

__all__ = ["COMMANDS", "KILL_AFTER", "timeout_of", "supervise"]

#: commands that run the file, and the time limit of the whole command when no --timeout is given: each run
#: still has 60 s (lang/limits.py); the command, as many runs as it makes (``check`` reruns the file twice per
#: checked element: an LSTM's 904 reruns take 30-160 s; ``modes`` runs its variants, ``why`` reruns once or
#: twice, ``compare`` adds PyTorch's 120 s).  An explicit --timeout bounds the whole command
COMMANDS = {"run": 60.0, "graph": 60.0, "why": 120.0, "modes": 300.0, "check": 600.0, "compare": 180.0,
            "report": 120.0}
#: seconds past the command's --timeout at which a child still computing is killed (the run's own hard
#: deadline is at 1 s); the parent's output follows within the 2 s the issue allows
KILL_AFTER = 1.5
#: seconds before the kill at which the parent loads what it needs to render (only when the child is late)
PRELOAD_BEFORE = 1.0
#: seconds the child may take to start its first run (gradcli's imports, the parse of a 1 MB file) beyond
#: --timeout: the command's clock starts with the file's execution (lang/limits.py)
STARTUP = 10.0
#: the shared page after its first byte: the running (line, col), 0 = none, and when the first run started
_AT = struct.Struct("qqd")


def timeout_of(args: list) -> Optional[float]:
    """The whole command's time limit for ``args`` (argv without the program name), or None for a command
    that runs no file, a ``--help``, or a ``--timeout`` that is not a finite number of seconds."""
    if not args or args[0] not in COMMANDS:
        return None
    value = COMMANDS[args[0]]
    for i, a in enumerate(args):
        if a == "--":
            break
        if a in ("-h", "--help"):
            return None
        if a == "--timeout":
            text = args[i + 1] if i + 1 < len(args) else ""
        elif a.startswith("--timeout="):
            text = a.split("=", 1)[1]
        else:
            continue
        try:
            value = float(text)
        except ValueError:
            return None
    if not (value >= 0) or math.isinf(value):
        return None
    return value


class _Marking:
    """A text stream that sets the shared flag at its first write (the child has started its output)."""

    def __init__(self, stream, flag: mmap.mmap) -> None:
        self._stream = stream
        self._flag = flag

    def write(self, text):  # noqa: D401 - the stream's own
        self._flag[0] = 1
        return self._stream.write(text)

    def writelines(self, lines):
        self._flag[0] = 1
        return self._stream.writelines(lines)

    def __getattr__(self, name):
        return getattr(self._stream, name)


#: when the parent got SIGINT (monotonic time; 0: not), and whether it passed it on to the child
_INTERRUPT = [0.0, False]
#: seconds the child has to act on a Ctrl-C by itself (the terminal sends it to both) before the parent passes
#: on a SIGINT sent to it alone (``kill -INT``)
FORWARD_AFTER = 0.3


def _poll(pid: int) -> Optional[int]:
    """The wait status of ``pid`` if it has ended, else None (passing on a SIGINT the parent got alone)."""
    got, status = os.waitpid(pid, os.WNOHANG)
    if got == pid:
        return status
    if _INTERRUPT[0] and not _INTERRUPT[1] and time.monotonic() - _INTERRUPT[0] > FORWARD_AFTER:
        _INTERRUPT[1] = True
        try:
            os.kill(pid, signal.SIGINT)
        except OSError:
            pass
    return None


def _preload() -> None:
    """Load what rendering a stopped command needs, while the child still has time (cheap when it ends)."""
    import importlib

    for name in ("gradcli.lang.run", "gradcli.app.run", "gradcli.app.records", "gradcli.app.render.human",
                 "gradcli.app.render.jsonout", "gradcli.app.render.console"):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - only a head start; main() imports what it needs again
            pass


def supervise(args: list) -> None:
    """Fork the command ``args`` into a child that returns from here and runs it; in the parent, wait and
    ``os._exit`` with the child's status -- or return with ``lang.limits.EXPIRED`` set, so the caller runs
    the command line again to render it as stopped at the time limit.  Returns at once (no fork) for a
    command :func:`timeout_of` gives no limit, where ``os.fork`` does not exist, or with
    ``GRADCLI_NO_WATCHDOG`` set."""
    timeout = timeout_of(args)
    if timeout is None or not hasattr(os, "fork") or os.environ.get("GRADCLI_NO_WATCHDOG"):
        return
    started = time.monotonic()
    flag = mmap.mmap(-1, 1 + _AT.size)  # [0]: the child has started its output; then _AT
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed stream: nothing buffered to duplicate
            pass
    try:
        pid = os.fork()
    except OSError:
        return
    if pid == 0:  # the child runs the command
        _child(flag)
        return
    _parent(pid, flag, timeout, started)


def _child(flag: mmap.mmap) -> None:
    """The child's side: tell the parent where the run is, when the first run started, when output began."""
    from ..lang import limits

    at = [0, 0, 0.0]

    def note(loc, _flag=flag, _pack=_AT.pack_into):
        at[0], at[1] = (0, 0) if loc is None else (loc[0] or 0, loc[1] or 0)
        _pack(_flag, 1, *at)

    def begun(now, _flag=flag, _pack=_AT.pack_into):
        at[2] = now
        _pack(_flag, 1, *at)

    limits.ON_POSITION[0] = note
    limits.ON_START[0] = begun
    sys.stdout = _Marking(sys.stdout, flag)
    sys.stderr = _Marking(sys.stderr, flag)


def _parent(pid: int, flag: mmap.mmap, timeout: float, started: float) -> None:
    """Wait for the child; ``os._exit`` with its status, or kill it at the deadline and return (EXPIRED)."""
    def interrupted(signum, frame):  # noqa: ARG001 - Ctrl-C reaches the child too: it reports it
        if not _INTERRUPT[0]:
            _INTERRUPT[0] = time.monotonic()

    old_int = signal.signal(signal.SIGINT, interrupted)

    def forward(signum, frame):  # noqa: ARG001 - a signal handler
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, forward)
    preloaded = False
    while True:
        status = _poll(pid)
        if status is not None:
            break
        run_start = _AT.unpack_from(flag, 1)[2]
        kill_at = (run_start if run_start else started + STARTUP) + timeout + KILL_AFTER
        now = time.monotonic()
        if flag[0]:  # the child is writing its output: let it finish
            kill_at = math.inf
        elif not preloaded and now >= kill_at - PRELOAD_BEFORE:
            _preload()
            preloaded = True
            continue
        if now >= kill_at:
            break
        time.sleep(0.02)
    if status is None:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(pid, 0)
        signal.signal(signal.SIGINT, old_int)
        from ..lang import limits

        line, col, run_start = _AT.unpack_from(flag, 1)
        limits.start_command(timeout, run_start or started)
        limits.EXPIRED[0] = True
        limits.EXPIRED_AT[0] = (line, col) if line > 0 else None
        return
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) not in (signal.SIGINT, signal.SIGPIPE):
        _crashed(os.WTERMSIG(status))
        os._exit(70)
    os._exit(os.waitstatus_to_exitcode(status) if not os.WIFSIGNALED(status) else 128 + os.WTERMSIG(status))


def _crashed(signum: int) -> None:
    """The internal-error panel of a child killed by ``signum`` (a crash is a bug of gradcli, exit 70)."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    try:
        from rich.text import Text

        from .render.console import make_console
        from .render.panels import problem_panel

        make_console(stderr=True).print(problem_panel(
            "internal error", "gradcli itself failed (a bug, not a mistake in your file):",
            "Report it with the file and the command line.",
            extra=Text(f"the process running the command was killed by {name}")))
    except Exception:  # noqa: BLE001 - the panel is a courtesy; the status says it
        sys.stderr.write(f"gradcli: internal error: the process running the command was killed by {name}\n")
    sys.stderr.flush()
