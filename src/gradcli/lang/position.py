"""Where the running program is: the (line, col) the warning sink and the error path read.

The interpreter stores the position of the innermost running statement (and,
in a multi-line statement, of each call/attribute read) in :data:`position`;
a user function called from Python code restores it when it returns.  It is
one attribute store per statement, cheap enough for the hot path.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["Position", "position"]


class Position:
    """The (line, col) of the innermost statement or operation running now (None outside the file)."""

    __slots__ = ("loc",)

    def __init__(self) -> None:
        self.loc: Optional[tuple[int, int]] = None

    @property
    def line(self) -> Optional[int]:
        return None if self.loc is None else self.loc[0]

    @property
    def col(self) -> Optional[int]:
        return None if self.loc is None else self.loc[1]


#: where the running program is (read by the warning sink of lang.run)
position = Position()
