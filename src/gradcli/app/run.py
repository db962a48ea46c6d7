"""The ``run`` service: read the file, run it through the language layer, judge the outcome.

No rich and no typer here (DESIGN §9): the CLI parses, calls :func:`execute`,
hands the :class:`~gradcli.lang.result.RunResult` to a renderer and exits with
:func:`exit_status`.  ``graph`` reuses :func:`execute` to build its graph.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, BinaryIO, Optional, Sequence

from ..status import ExitStatus
from .problems import UsageProblem

if TYPE_CHECKING:  # pragma: no cover
    from ..lang.result import RunOptions, RunResult

__all__ = ["STDIN_NAME", "read_source", "execute", "exit_status", "explain_name_error"]

#: the ``file`` of a program read from standard input (``gradcli run -``)
STDIN_NAME = "<stdin>"


def _read_limit(max_bytes: Optional[int] = None) -> int:
    """Bytes to read at most: one more than the source-size limit (``--max-source``, else the default),
    so a bigger input (a 10 GB file, ``/dev/zero``, an endless pipe) is refused by that limit instead of
    being read whole."""
    if max_bytes is None:
        from ..lang.limits import DEFAULT_LIMITS  # import-light (errors only)

        max_bytes = DEFAULT_LIMITS.max_source_bytes
    return max(1, int(max_bytes)) + 1


def read_source(path: str, stdin: Optional[BinaryIO] = None,
                max_bytes: Optional[int] = None) -> tuple[bytes, str]:
    """``(source bytes, display name)`` of FILE, or of standard input for ``-``.

    The bytes go to the language layer unchanged: it applies the size limit and
    decodes them as Python would (UTF-8, BOM dropped); text that is not UTF-8
    is a ``syntax`` error of the file there, with its line.  ``max_bytes`` is the
    source-size limit of the run (``--max-source``; None = the default).  Raises
    UsageProblem (exit status 2) for a missing or unreadable file.
    """
    if path == "-":
        from ..lang.limits import EXPIRED

        if EXPIRED[0] and stdin is None:  # the watchdog renders a command it ended: the child read stdin
            return b"", STDIN_NAME
        stream = stdin if stdin is not None else sys.stdin.buffer
        try:
            raw = stream.read(_read_limit(max_bytes))
        except OSError as exc:
            raise UsageProblem(f"cannot read standard input: {exc.strerror or exc}") from None
        if isinstance(raw, str):  # a text stream (tests)
            raw = raw.encode("utf-8")
        return raw, STDIN_NAME
    try:
        with open(path, "rb") as fh:
            raw = fh.read(_read_limit(max_bytes))
    except FileNotFoundError:
        raise UsageProblem(f"no such file: {path}", "Check the path, or pass - to read the program from stdin.") from None
    except IsADirectoryError:
        raise UsageProblem(f"{path} is a directory, not an expression file") from None
    except OSError as exc:
        raise UsageProblem(f"cannot read {path}: {exc.strerror or exc}") from None
    return raw, path


def execute(path: str, options: "RunOptions", stdin: Optional[BinaryIO] = None,
            argv: Optional[Sequence[str]] = None) -> "RunResult":
    """Run FILE (or stdin for ``-``) with ``options``; always returns a RunResult.

    Invocation problems raise UsageProblem or the language layer's
    InvocationError (both exit status 2); errors of the file are in the result.
    ``argv``: the command line (without the program name), quoted in the hint of a name error for a
    free name (:func:`explain_name_error`).
    """
    source, display = read_source(path, stdin, getattr(options, "max_source_bytes", None))
    from ..lang.run import run_file  # the language layer (imports the engine and numpy)

    try:
        from .related import enrich  # issue 7: both ends of an autograd error (error.related)

        with _last_resort(options):
            result = run_file(source, display, options)
        explain_name_error(result, argv)
        return enrich(result, options)
    except _gradcli_error() as err:  # the language layer should capture these; be graceful if not
        from ..lang.result import ErrorRecord, RunResult

        from ..lang.parse import source_text

        text = source_text(source)
        lines = text.splitlines()
        line = getattr(err, "line", None)
        src_line = lines[line - 1] if line and 0 < line <= len(lines) else None
        record = ErrorRecord(
            kind=err.kind, message=err.message, hint=err.hint, line=line,
            col=getattr(err, "col", None), source_line=src_line,
        )
        return RunResult(file=display, source=text, ok=False, stdout="", error=record)


#: seconds past --timeout after which a process whose run still holds the interpreter (one C call that
#: never returns to Python, where even the hard deadline cannot take over) is ended, exit status 1
LAST_RESORT = 30.0


class _last_resort:
    """The last guarantee that ``gradcli`` ends: a watchdog thread in C (faulthandler) that exits the
    process, silently and with status 1, if the run has not come back ``LAST_RESORT`` seconds after its
    hard deadline.  Disarmed as soon as the run returns; never fires in a normal run."""

    def __init__(self, options: "RunOptions") -> None:
        timeout = getattr(options, "timeout", None)
        self.seconds = (60.0 if timeout is None else float(timeout)) + LAST_RESORT
        self.sink: Optional[BinaryIO] = None

    def __enter__(self) -> "_last_resort":
        import faulthandler
        import os

        try:
            self.sink = open(os.devnull, "wb")  # noqa: SIM115 - kept open while armed
            faulthandler.dump_traceback_later(self.seconds, exit=True, file=self.sink)
        except (OSError, ValueError, OverflowError):  # pragma: no cover - no watchdog here
            self.sink = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.sink is not None:
            import faulthandler

            faulthandler.cancel_dump_traceback_later()
            self.sink.close()
            self.sink = None


def _gradcli_error() -> type:
    from ..errors import GradcliError

    return GradcliError


def explain_name_error(result: "RunResult", argv: Optional[Sequence[str]] = None) -> None:
    """A ``name`` error for a name the file reads but never binds: the hint says it looks like an input and
    gives the command line ``argv`` (without the program name) with ``--requires-grad NAME`` added."""
    err = result.error
    if err is None or err.kind != "name":
        return
    m = _NOT_DEFINED.match(err.message or "")
    free = getattr(result, "free_names", None) or []
    if m is None or m.group(1) not in free:
        return
    from ..lang.inputs import input_hint

    err.hint = input_hint(m.group(1), free, argv)


_NOT_DEFINED = re.compile(r"name '([A-Za-z_][A-Za-z0-9_]*)' is not defined")


def exit_status(result: "RunResult", expect_error: Optional[str] = None) -> ExitStatus:
    """SPEC §3: 0 when ok; 1 when the file failed.  With ``--expect-error KIND``:
    0 only when the run failed with exactly that kind, else 1."""
    if expect_error is not None:
        got = result.error.kind if result.error is not None else None
        return ExitStatus.SUCCESS if got == expect_error else ExitStatus.ERROR
    return ExitStatus.SUCCESS if result.ok else ExitStatus.ERROR
