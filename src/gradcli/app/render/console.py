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

__all__ = ["make_console", "no_color"]


def no_color() -> bool:
    """True when the NO_COLOR convention asks for plain output."""
    return bool(os.environ.get("NO_COLOR"))


def make_console(file: Optional[IO[str]] = None, *, stderr: bool = False, width: Optional[int] = None) -> Any:
    """A rich Console writing to ``file`` (default: the current stdout/stderr)."""
    from rich.console import Console

    kwargs: dict = {}
    if no_color():
        kwargs["color_system"] = None
    return Console(
        file=file,
        stderr=stderr,
        markup=False,
        highlight=False,
        emoji=False,
        width=width,
        **kwargs,
    )
