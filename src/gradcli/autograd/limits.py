"""Resource limits the engine enforces itself (SPEC §3 --max-elements).

The language layer sets them per run; the engine checks element counts
*before* allocating, so a huge ``torch.zeros(10**10)`` is a ``limit`` error,
not a MemoryError or a swapping machine.
"""

from __future__ import annotations

from ..errors import error_class

DEFAULT_MAX_ELEMENTS = 100_000_000

max_elements = DEFAULT_MAX_ELEMENTS


def set_max_elements(n: int | None) -> None:
    """Set the largest tensor (in elements) an op may create; None restores the default."""
    global max_elements
    max_elements = DEFAULT_MAX_ELEMENTS if n is None else int(n)


def check_numel(n: int) -> None:
    """Raise a ``limit`` error if a tensor of ``n`` elements may not be created."""
    if n > max_elements:
        raise error_class("limit")(
            f"creating a tensor of {n:,} elements exceeds the limit of {max_elements:,} elements",
            "Pass a larger --max-elements if the program really needs tensors this big.",
        )
