"""``grad_fn._saved_*`` and ``_raw_saved_*``: what a backward node saved, as PyTorch 2.13 names and shows it.

PyTorch gives every generated node class one attribute per value its derivative formula saves
(tools/autograd/derivatives.yaml): ``MulBackward0._saved_self`` / ``_saved_other``, ``ExpBackward0._saved_result``,
``SumBackward1._saved_dim`` ..., and for each saved tensor a ``_raw_saved_*`` twin (the SavedVariable
itself, a ``torch._C._autograd.SavedTensor``).  Which names a class has is :data:`saved_names.SAVED_NAMES`,
recorded from live PyTorch (``dir(grad_fn)``); where gradcli keeps each value is :data:`SPECS`:

* ``"sI"``: the node's saved entry I (``node._saved[I]``): a saved tensor is unpacked as the getter does
  (``SavedVariable::unpack``: the second-backward error once freed, the version error after an in-place
  change; a saved input is the tensor itself, a saved output a new tensor whose grad_fn is the node), an
  entry the node did not save is None, a Python number is the wrapped 0-d tensor PyTorch saves for it;
* ``"a:NAME"``: the node's attribute NAME (ints, tuples of ints, bools), kept after backward; negative ints
  come out as PyTorch's getters show an int64 field: as the unsigned 64-bit number (``-1`` ->
  18446744073709551615); ``"a:NAME:scalar"``: a Scalar argument as given (``alpha``, ``min`` ...);
  ``"a:NAME:reduction"``: the loss's ``reduction`` as PyTorch's enum (none 0, mean 1, sum 2);
  ``"a:NAME:numel"``: the product of a shape.

Not kept (so ``unsupported``): the attributes whose value gradcli normalises before storing it (a dim given
as ``-1``; Scalars whose default gradcli stores as a float) or does not store at all.  A name PyTorch gives the class that gradcli does not keep is an ``unsupported``
error naming it; a name PyTorch does not have is Python's AttributeError.  Checked value by value against
PyTorch's recorded attributes by tests/autograd/test_saved_fields.py.
"""

from __future__ import annotations

from typing import Any

from ..errors import GradcliError, error_class, torch_text
from .saved_names import SAVED_NAMES

__all__ = ["SPECS", "read", "RawSavedTensor"]

#: node class -> PyTorch attribute -> where gradcli keeps it (see the module docstring)
SPECS: dict[str, dict[str, Any]] = {
    'AbsBackward0': {'_saved_self': 's0'},
    'AcosBackward0': {'_saved_self': 's0'},
    'AddBackward0': {'_saved_alpha': 'a:alpha:scalar'},
    'AddmmBackward0': {'_saved_alpha': 'a:alpha:scalar', '_saved_beta': 'a:beta:scalar', '_saved_mat1': 's0', '_saved_mat1_sym_sizes': None, '_saved_mat1_sym_strides': None, '_saved_mat2': 's1', '_saved_mat2_sym_sizes': None, '_saved_mat2_sym_strides': None},
    'AmaxBackward0': {'_saved_keepdim': 'a:keepdim', '_saved_result': 's1', '_saved_self': 's0'},
    'AminBackward0': {'_saved_keepdim': 'a:keepdim', '_saved_result': 's1', '_saved_self': 's0'},
    'AsinBackward0': {'_saved_self': 's0'},
    'Atan2Backward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'AtanBackward0': {'_saved_self': 's0'},
    'BinaryCrossEntropyBackward0': {'_saved_reduction': 'a:reduction:reduction', '_saved_self': 's0', '_saved_target': 's1', '_saved_weight': 's2'},
    'BinaryCrossEntropyWithLogitsBackward0': {'_saved_pos_weight': 's3', '_saved_reduction': 'a:reduction:reduction', '_saved_self': 's0', '_saved_target': 's1', '_saved_weight': 's2'},
    'BmmBackward0': {'_saved_mat2': 's1', '_saved_self': 's0'},
    'CeluBackward0': {'_saved_alpha': 'a:alpha:scalar', '_saved_self': 's0'},
    'ClampBackward0': {'_saved_max': 's2', '_saved_min': 's1', '_saved_self': 's0'},
    'ClampBackward1': {'_saved_max': 'a:max:scalar', '_saved_min': 'a:min:scalar', '_saved_self': 's0'},
    'ClampMaxBackward0': {'_saved_max': 'a:max:scalar', '_saved_self': 's0'},
    'ClampMaxBackward1': {'_saved_max': 's1', '_saved_self': 's0'},
    'ClampMinBackward0': {'_saved_min': 'a:min:scalar', '_saved_self': 's0'},
    'ClampMinBackward1': {'_saved_min': 's1', '_saved_self': 's0'},
    'CosBackward0': {'_saved_self': 's0'},
    'CoshBackward0': {'_saved_self': 's0'},
    'CumprodBackward0': {'_saved_result': 's1', '_saved_self': 's0'},
    'DiagonalBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'DivBackward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'DivBackward1': {'_saved_other': 'a:other:scalar'},
    'DivBackward2': {'_saved_other': 's1', '_saved_rounding_mode': None, '_saved_self': 's0'},
    'DotBackward0': {'_saved_self': 's0', '_saved_tensor': 's1'},
    'EluBackward0': {'_saved_self': 's0'},
    'EluBackward1': {'_saved_result': 's0'},
    'ErfBackward0': {'_saved_self': 's0'},
    'Exp2Backward0': {'_saved_result': 's0'},
    'ExpBackward0': {'_saved_result': 's0'},
    'ExpandBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'Expm1Backward0': {'_saved_result': 's0'},
    'FmaxBackward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'FminBackward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'GatherBackward0': {'_saved_index': 's2', '_saved_self': 's1', '_saved_sparse_grad': None},
    'GeluBackward0': {'_saved_approximate': 'a:approximate', '_saved_self': 's0'},
    'HardsigmoidBackward0': {'_saved_self': 's0'},
    'HardswishBackward0': {'_saved_self': 's0'},
    'HardtanhBackward0': {'_saved_self': 's0'},
    'HardtanhBackwardBackward0': {'_saved_max_val': None, '_saved_min_val': None, '_saved_self': 's0'},
    'HypotBackward0': {'_saved_other': 's1', '_saved_result': 's2', '_saved_self': 's0'},
    'IndexBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'IndexPutBackward0': {'_saved_accumulate': None, '_saved_indices': None},
    'IndexSelectBackward0': {'_saved_index': 's1', '_saved_self_sym_sizes': 'a:shape'},
    'LeakyReluBackward0': {'_saved_negative_slope': 'a:negative_slope:scalar', '_saved_self': 's0'},
    'LeakyReluBackward1': {'_saved_negative_slope': 'a:negative_slope:scalar', '_saved_result': 's0'},
    'LeakyReluBackwardBackward0': {'_saved_negative_slope': None, '_saved_self': 's0'},
    'LerpBackward0': {'_saved_weight': 'a:weight:scalar'},
    'LerpBackward1': {'_saved_end': 's1', '_saved_self': 's0', '_saved_weight': 's2'},
    'LinalgVectorNormBackward0': {'_saved_keepdim': 'a:keepdim', '_saved_result': 's1', '_saved_self': 's0'},
    'Log10Backward0': {'_saved_self': 's0'},
    'Log1PBackward0': {'_saved_self': 's0'},
    'Log2Backward0': {'_saved_self': 's0'},
    'LogBackward0': {'_saved_self': 's0'},
    'LogSigmoidBackward0': {'_saved_buffer': None, '_saved_self': 's0'},
    'LogSoftmaxBackward0': {'_saved_result': 's0'},
    'LogsumexpBackward0': {'_saved_keepdim': 'a:keepdim', '_saved_result': 's1', '_saved_self': 's0'},
    'MaskedFillBackward0': {'_saved_mask': 's0'},
    'MaskedFillBackward1': {'_saved_mask': 's0'},
    'MaxBackward0': {'_saved_indices': 's0', '_saved_keepdim': 'a:keepdim', '_saved_self_sym_sizes': 'a:shape'},
    'MaxBackward1': {'_saved_result': 's1', '_saved_self': 's0'},
    'MaximumBackward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'MeanBackward0': {'_saved_self_sym_numel': 'a:numel', '_saved_self_sym_sizes': 'a:shape'},
    'MeanBackward1': {'_saved_keepdim': 'a:keepdim', '_saved_self_sym_numel': 'a:shape:numel', '_saved_self_sym_sizes': 'a:shape'},
    'MinBackward0': {'_saved_indices': 's0', '_saved_keepdim': 'a:keepdim', '_saved_self_sym_sizes': 'a:shape'},
    'MinBackward1': {'_saved_result': 's1', '_saved_self': 's0'},
    'MinimumBackward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'MishBackward0': {'_saved_self': 's0'},
    'MmBackward0': {'_saved_mat2': 's1', '_saved_mat2_sym_sizes': None, '_saved_mat2_sym_strides': None, '_saved_self': 's0', '_saved_self_sym_sizes': None, '_saved_self_sym_strides': None},
    'MseLossBackward0': {'_saved_reduction': 'a:reduction:reduction', '_saved_self': 's0', '_saved_target': 's1'},
    'MulBackward0': {'_saved_other': 's1', '_saved_self': 's0'},
    'MulBackward1': {'_saved_other': 'a:other:scalar'},
    'MvBackward0': {'_saved_self': 's0', '_saved_vec': 's1'},
    'NllLoss2DBackward0': {'_saved_reduction': 'a:reduction:reduction', '_saved_self': 's0'},
    'NllLossBackward0': {'_saved_reduction': 'a:reduction:reduction', '_saved_self': 's0'},
    'PowBackward0': {'_saved_exponent': 'a:exponent:scalar', '_saved_self': 's0'},
    'PowBackward1': {'_saved_exponent': 's1', '_saved_result': 's2', '_saved_self': 's0'},
    'PowBackward2': {'_saved_exponent': 's0', '_saved_result': 's1', '_saved_self': 'a:base'},
    'ProdBackward0': {'_saved_result': 's1', '_saved_self': 's0'},
    'ProdBackward1': {'_saved_keepdim': 'a:keepdim', '_saved_result': 's1', '_saved_self': 's0'},
    'ReciprocalBackward0': {'_saved_result': 's0'},
    'ReluBackward0': {'_saved_result': 's0'},
    'RemainderBackward1': {'_saved_other': 's1', '_saved_self': 's0'},
    'RepeatBackward0': {'_saved_repeats': 'a:repeats', '_saved_self_sym_sizes': 'a:shape'},
    'ReshapeAliasBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'RsqrtBackward0': {'_saved_result': 's0'},
    'RsubBackward1': {'_saved_alpha': 'a:alpha:scalar'},
    'SelectBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'SgnBackward0': {'_saved_result': 's1', '_saved_self': 's0'},
    'SigmoidBackward0': {'_saved_result': 's0'},
    'SigmoidBackwardBackward0': {'_saved_grad_output': 's0', '_saved_output': 's1'},
    'SiluBackward0': {'_saved_self': 's0'},
    'SinBackward0': {'_saved_self': 's0'},
    'SinhBackward0': {'_saved_self': 's0'},
    'SliceBackward0': {'_saved_end': None, '_saved_self_sym_sizes': 'a:shape', '_saved_start': None},
    'SoftmaxBackward0': {'_saved_result': 's0'},
    'SoftplusBackward0': {'_saved_self': 's0'},
    'SplitBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'SplitWithSizesBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'SqrtBackward0': {'_saved_result': 's0'},
    'SqueezeBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'SqueezeBackward1': {'_saved_dim': None, '_saved_self_sym_sizes': 'a:shape'},
    'SqueezeBackward2': {'_saved_self_sym_sizes': 'a:shape'},
    'SqueezeBackward4': {'_saved_self_sym_sizes': 'a:shape'},
    'StdBackward0': {'_saved_keepdim': 'a:keepdim', '_saved_result': 's1', '_saved_self': 's0'},
    'SubBackward0': {'_saved_alpha': 'a:alpha:scalar'},
    'SumBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'SumBackward1': {'_saved_keepdim': 'a:keepdim', '_saved_self_sym_sizes': 'a:shape'},
    'TanBackward0': {'_saved_result': 's0'},
    'TanhBackward0': {'_saved_result': 's0'},
    'TanhBackwardBackward0': {'_saved_grad_output': 's0', '_saved_output': 's1'},
    'ThresholdBackwardBackward0': {'_saved_self': 's0', '_saved_threshold': 'a:threshold:scalar'},
    'TraceBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'TrilBackward0': {'_saved_diagonal': 'a:diagonal'},
    'TriuBackward0': {'_saved_diagonal': 'a:diagonal'},
    'UnsafeViewBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'VarBackward0': {'_saved_keepdim': 'a:keepdim', '_saved_self': 's0'},
    'ViewBackward0': {'_saved_self_sym_sizes': 'a:shape'},
    'WhereBackward0': {'_saved_condition': 's0'},
}

_U64 = 1 << 64
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}  # at::Reduction


def _wrap(v: Any) -> Any:
    """A saved int as PyTorch's getter returns it (int64 read as uint64); tuples element-wise."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v + _U64 if v < 0 else v
    if isinstance(v, (tuple, list)):
        return tuple(_wrap(x) for x in v)
    return v


class RawSavedTensor:
    """``grad_fn._raw_saved_*``: PyTorch's SavedTensor object for one saved slot (opaque here)."""

    __slots__ = ("_node", "_index")
    _gradcli_public: frozenset = frozenset()
    _gradcli_unsupported = frozenset({"register_hooks"})
    _gradcli_type_name = "SavedTensor"

    def __init__(self, node: Any, index: int) -> None:
        self._node, self._index = node, index

    def __repr__(self) -> str:
        return "<torch._C._autograd.SavedTensor object>"


def _no_attr(node: Any, name: str) -> GradcliError:
    return error_class("runtime")(f"'{type(node).__name__}' object has no attribute '{name}'",
                                  torch_type=AttributeError)


def _saved_entry(node: Any, i: int) -> Any:
    from .graph import SavedTensor
    from .tensor import Tensor
    from . import dtypes as dt

    saved = node._saved or ()
    s = saved[i] if i < len(saved) else None
    if s is None:
        return None
    if type(s) is SavedTensor:
        if s._freed:
            raise error_class("second_backward")(
                "Trying to backward through the graph a second time (or directly access saved tensors after they "
                f"have already been freed): {type(node).__name__}'s saved values were freed by an earlier backward.",
                torch_message=torch_text("second_backward"))
        t = s.unpack(node, saved_for=True)
        if s._is_output and not t._dtype.is_floating_point:  # an integer output (max's indices) needs no grad
            t = Tensor._from_data(t._data, t._dtype)
        return t
    if isinstance(s, Tensor):
        return s
    if isinstance(s, bool):
        return Tensor._from_data(__import__("numpy").asarray(s), dt.bool_)
    if isinstance(s, int):
        return Tensor._from_data(__import__("numpy").asarray(s, dtype="int64"), dt.int64)
    if isinstance(s, float):
        return Tensor._from_data(__import__("numpy").asarray(s, dtype="float64"), dt.float64)
    return s


def read(node: Any, name: str) -> Any:
    """``node.<name>`` for ``_saved_*`` / ``_raw_saved_*`` names (lang.access routes them here)."""
    cls = type(node).__name__
    names = SAVED_NAMES.get(cls)
    if names is None or name not in names:
        raise _no_attr(node, name)
    raw = name.startswith("_raw_saved_")
    field = "_saved_" + name[len("_raw_saved_"):] if raw else name
    spec = SPECS.get(cls, {}).get(field)
    if spec is None:
        raise error_class("unsupported")(
            f"'{cls}.{name}' exists in PyTorch but gradcli does not implement it (yet)",
            "Read the values through the tensors themselves, or see `gradcli ops`.")
    if spec.startswith("s"):
        i = int(spec[1:])
        return RawSavedTensor(node, i) if raw else _saved_entry(node, i)
    if raw:  # pragma: no cover - SAVED_NAMES gives _raw_ names only to tensor fields
        raise _no_attr(node, name)
    attr, _, conv = spec[2:].partition(":")
    value = getattr(node, attr, None)
    if conv == "scalar":
        return value
    if conv == "reduction":
        return _REDUCTIONS[value]
    if conv == "numel":
        n = 1
        for d in value:
            n *= d
        return n
    return _wrap(value)
