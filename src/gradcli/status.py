"""Exit statuses of the ``gradcli`` command (SPEC §3).

One enum, used by the single wrapper in :mod:`gradcli.cli` that maps
outcomes and exceptions to the process exit status (httpie's ``ExitStatus``).
Kept import-free so ``gradcli --help`` stays fast.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitStatus"]


class ExitStatus(IntEnum):
    """Process exit status of every gradcli command."""

    #: the run succeeded (or failed exactly as ``--expect-error`` asked)
    SUCCESS = 0
    #: the file failed: any error kind, a failed ``assert``, a ``check`` mismatch,
    #: or ``--expect-error`` not met
    ERROR = 1
    #: the invocation was wrong: unknown option, missing/unreadable file, bad ``--set``
    USAGE = 2
    #: an internal error of gradcli itself (a bug); BSD's EX_SOFTWARE
    INTERNAL = 70
    #: interrupted with Ctrl-C (128 + SIGINT), as shells report it
    INTERRUPTED = 130
