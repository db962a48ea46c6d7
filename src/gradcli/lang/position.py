"""Where the running program is: the (line, col) the warning sink and the error path read.

The interpreter stores the position of the innermost running statement (and,
in a multi-line statement, of each call/attribute read) in :data:`position`;
a user function called from Python code restores it when it returns.  It is
one attribute store per statement, cheap enough for the hot path.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["Position", "position"]


# one object shared with the engine, which stamps each new node with it
from ..autograd.graph import Position, source_position as position  # noqa: E402
