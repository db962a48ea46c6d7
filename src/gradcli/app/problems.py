"""Problems of the invocation itself (exit status 2), as opposed to problems of the file.

A :class:`UsageProblem` is raised by services when the command line cannot be
honoured: a missing or unreadable file, a malformed ``--set``, an unknown
``--expect-error`` kind, an ``--output`` path that cannot be written.  The CLI
wrapper turns it into a short message on stderr and exit status 2.
:class:`ToolMissing` (a subclass) is raised when an external program such as
Graphviz's ``dot`` is needed and absent.  Import-free, like ``status``.
"""

from __future__ import annotations

__all__ = ["UsageProblem", "ToolMissing"]


class UsageProblem(Exception):
    """The invocation was wrong; ``message`` says what, ``hint`` how to fix it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class ToolMissing(UsageProblem):
    """An external program gradcli needs for this request is not installed."""

    def __init__(self, program: str, purpose: str, hint: str = "") -> None:
        super().__init__(f"the program {program!r} is needed {purpose} but was not found on PATH", hint)
        self.program = program
