"""Rich consoles for gradcli's human output.

Colour only on a terminal: rich already keeps piped output free of escape
codes; ``NO_COLOR`` (any non-empty value, https://no-color.org) turns off
*every* style here, not just colours, so the text is plain.  ``FORCE_COLOR``
is honoured by rich itself.  Markup and automatic highlighting are off: user
text is always passed as :class:`rich.text.Text`, so ``x[i]`` is never eaten
as markup.  Consoles are made per command, so tests can inject a ``StringIO``.
"""

from __future__ import annotations

import os
from typing import IO, Any, Optional

__all__ = ["make_console", "no_color", "StripTrailing", "write_verbatim"]


def no_color() -> bool:
    """True when the NO_COLOR convention asks for plain output."""
    return bool(os.environ.get("NO_COLOR"))


class StripTrailing:
    """A text stream that drops the spaces before each line end: rich pads every row of a table to the
    table's width, which piped output (and a file, a test's buffer) should not carry.

    ``raw`` is the stream underneath, for text that must reach it exactly (what the file printed).
    A partial line is held until its end, or written as it is by :meth:`flush`.
    """

    def __init__(self, raw: IO[str]) -> None:
        self.raw = raw
        self._pending = ""

    def write(self, text: str) -> int:
        data = self._pending + text
        head, sep, self._pending = data.rpartition("\n")
        if sep:
            self.raw.write("\n".join(line.rstrip(" ") for line in head.split("\n")) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.raw.write(self._pending)
            self._pending = ""
        self.raw.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.raw.fileno()

    def __getattr__(self, name: str) -> Any:  # encoding, errors ...: the raw stream's
        return getattr(self.raw, name)


def write_verbatim(out: Any, text: str) -> None:
    """Write ``text`` to the console's stream exactly (no stripping): what the file printed."""
    f = out.file
    if isinstance(f, StripTrailing):
        f.flush()
        f = f.raw
    f.write(text)
    f.flush()


def make_console(file: Optional[IO[str]] = None, *, stderr: bool = False, width: Optional[int] = None) -> Any:
    """A rich Console writing to ``file`` (default: the current stdout/stderr); on anything but a terminal
    the spaces that pad table rows are dropped at each line end (:class:`StripTrailing`)."""
    import sys

    from rich.console import Console

    kwargs: dict = {}
    if no_color():
        kwargs["color_system"] = None
    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    try:
        tty = bool(stream.isatty())
    except (AttributeError, ValueError):
        tty = False
    if not tty and not os.environ.get("FORCE_COLOR") and not os.environ.get("TTY_INTERACTIVE"):
        file = StripTrailing(stream)
    return Console(
        file=file,
        stderr=stderr,
        markup=False,
        highlight=False,
        emoji=False,
        width=width,
        **kwargs,
    )
