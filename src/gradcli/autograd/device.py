"""torch.device and torch.cuda on a CPU-only engine (PyTorch 2.13's CPU build, SPEC §1).

``torch.device('cpu')``, ``torch.device('cuda', 0)``, ``torch.device('cuda:1')`` are objects as in PyTorch;
``torch.cuda.is_available()`` is False, so the common ``torch.device('cuda' if torch.cuda.is_available() else
'cpu')`` gives the CPU.  Putting a tensor on a CUDA device (``.cuda()``, ``.to('cuda')``, ``device='cuda'``)
fails as PyTorch's CPU build does: an AssertionError "Torch not compiled with CUDA enabled" (kind assertion).
"""

from __future__ import annotations

from typing import Any, Optional

from ..errors import ArgumentTypeError, error_class

__all__ = ["device", "CPU", "check_device", "cuda_namespace_members"]

#: the device types PyTorch 2.13 parses, in its message's order
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
          "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:
    """torch.device(type, index=None) / torch.device('type:index'): where a tensor lives.

    Raises runtime for an unknown device string and for an integer alone (no accelerator on this build).
    """
    __module__ = "torch"  # printed as PyTorch's class

    __slots__ = ("_type", "_index")
    _gradcli_public = frozenset({"type", "index"})
    _gradcli_type_name = "torch.device"

    def __init__(self, type: Any, index: Optional[int] = None) -> None:
        if isinstance(type, device):
            self._type, self._index = type._type, type._index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            raise error_class("runtime")("Cannot access accelerator device when none is available.")
        if not isinstance(type, str):
            raise ArgumentTypeError(f"device() received an invalid combination of arguments - got "
                                    f"({_type_name(type)})")
        name, _, idx = type.partition(":")
        if name not in _TYPES:
            raise error_class("runtime")(f"Expected one of {', '.join(_TYPES)} device type at start of device string: "
                                         f"{type}")
        if idx:
            if not idx.isdigit() or index is not None:
                raise error_class("runtime")(f"Invalid device string: '{type}'")
            index = int(idx)
        if index is not None and (not isinstance(index, int) or isinstance(index, bool) or index < 0):
            raise error_class("runtime")(f"Device index must not be negative")
        self._type = name
        self._index = index

    @property
    def type(self) -> str:
        return self._type

    @property
    def index(self) -> Optional[int]:
        return self._index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, device) and (self._type, self._index) == (other._type, other._index)

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"


def _type_name(x: Any) -> str:
    return getattr(type(x), "_gradcli_type_name", type(x).__name__)


CPU = device("cpu")


def check_device(spec: Any) -> None:
    """Accept a CPU device spec (None, 'cpu', 'cpu:0', torch.device('cpu')); anything on CUDA fails as PyTorch's
    CPU build does (AssertionError, kind assertion)."""
    if spec is None:
        return
    d = spec if isinstance(spec, device) else device(spec)
    if d.type == "cuda":
        raise error_class("assertion")("Torch not compiled with CUDA enabled")
    if d.type != "cpu":
        raise error_class("runtime")(f"Could not run on device type {d.type}: gradcli runs on the CPU only")


def is_available() -> bool:
    """torch.cuda.is_available(): False (a CPU build)."""
    return False


def device_count() -> int:
    """torch.cuda.device_count(): 0."""
    return 0


def cuda_namespace_members() -> dict:
    """The members of the ``torch.cuda`` namespace a file sees."""
    return {"is_available": is_available, "device_count": device_count}
