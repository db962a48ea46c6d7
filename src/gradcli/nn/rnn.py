"""torch.nn.RNN, LSTM, GRU and RNNCell, LSTMCell, GRUCell (``torch/nn/modules/rnn.py``).

As PyTorch 2.13's Python code: ``RNNBase.__init__``'s checks and messages, the parameters
``weight_ih_l{k}{_reverse}``, ``weight_hh_l...``, ``bias_ih_l...``, ``bias_hh_l...`` registered in PyTorch's
order and initialised by ``reset_parameters`` (``uniform_(-1/sqrt(hidden_size), 1/sqrt(hidden_size))`` for
every parameter in that order: PyTorch's draws after ``torch.manual_seed``); ``forward``'s checks
(``check_forward_args``), zero initial states, unbatched inputs (unsqueezed and squeezed back), and
``extra_repr``.  ``proj_size`` and packed sequences are not supported by gradcli.

The computation (gradcli.ops.rnn) is ATen's CPU path: RNN and GRU -- and LSTM in float64 -- are its
composite layers over the cells (``linear`` of the whole sequence, ``unbind``, one cell per step,
``stack``; ``cat`` of the two directions; ``transpose_`` back for ``batch_first``), so their graphs and
values are the engine ops'.  A float32 LSTM runs PyTorch's oneDNN kernel there, one MkldnnRnnLayerBackward0
node per layer and direction: gradcli computes that layer in float64 and rounds the outputs once, within
SPEC §1's float32 tolerance of oneDNN's results on the recorded cases; its second derivative is not
supported.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from ..autograd.tensor import Tensor
from ..errors import error_class, python_errors, warn
from ..ops import creation
from ..ops import rnn as _R
from . import init
from ._errors import nn_error
from .module import Module
from .parameter import Parameter, tracked_after_init

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_MOD = "torch.nn.modules.rnn"


def _dim(t: Any) -> int:
    if not isinstance(t, Tensor):
        raise nn_error(AttributeError, f"'{type(t).__name__}' object has no attribute 'dim'")
    return t._data.ndim


class RNNBase(Module):
    """The layers' shared parameters, checks and ``extra_repr`` (torch.nn.RNNBase)."""

    __module__ = _MOD

    @python_errors
    @tracked_after_init
    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise nn_error(ValueError, "dropout should be a number in range [0, 1] representing the probability of "
                           "an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warn("other", "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                 f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
        if not isinstance(bias, bool):
            raise nn_error(TypeError, f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise nn_error(TypeError, f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise nn_error(TypeError, f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise nn_error(ValueError, "input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise nn_error(TypeError, f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise nn_error(ValueError, "hidden_size must be greater than zero")
        if num_layers <= 0:
            raise nn_error(ValueError, "num_layers must be greater than zero")
        if proj_size < 0:
            raise nn_error(ValueError, "proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise nn_error(ValueError, "proj_size has to be smaller than hidden_size")
        if proj_size > 0:
            raise error_class("unsupported")("nn.LSTM(proj_size=...) is not supported by gradcli",
                                             "Use proj_size=0 (the default).")
        gate_size = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}[mode] * hidden_size
        factory = {} if dtype is None else {"dtype": dtype}
        names: list = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else hidden_size * num_directions
                w_ih = Parameter(creation.empty((gate_size, layer_input_size), **factory))
                w_hh = Parameter(creation.empty((gate_size, hidden_size), **factory))
                b_ih = Parameter(creation.empty(gate_size, **factory))
                b_hh = Parameter(creation.empty(gate_size, **factory))
                params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                suffix = "_reverse" if direction == 1 else ""
                pnames = ["weight_ih_l{}{}", "weight_hh_l{}{}"] + (["bias_ih_l{}{}", "bias_hh_l{}{}"] if bias else [])
                for name, param in zip([n.format(layer, suffix) for n in pnames], params):
                    setattr(self, name, param)
                    names.append(name)
        object.__setattr__(self, "_flat_weights_names", names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every parameter ``uniform_(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``, in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, n) if hasattr(self, n) else None for n in self._flat_weights_names]

    def flatten_parameters(self) -> None:
        """A no-op on CPU, as in PyTorch."""

    def check_input(self, input: Tensor, batch_sizes: Any) -> None:
        w0 = self._flat_weights[0]
        if input.dtype != w0.dtype:
            raise nn_error(ValueError, f"RNN input dtype ({input.dtype}) does not match weight dtype ({w0.dtype}). "
                           f"Convert input: input.to({w0.dtype}), or convert model: model.to({input.dtype})")
        if input.dim() != 3:
            raise nn_error(RuntimeError, f"input must have 3 dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise nn_error(RuntimeError, f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                           f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Any) -> tuple:
        mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_hidden_size(self, hx: Tensor, expected: tuple, msg: str = "Expected hidden size {}, got {}") -> None:
        if tuple(hx.size()) != tuple(expected):
            raise nn_error(RuntimeError, msg.format(expected, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Any) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _prepare(self, input: Any, hx: Any, name: str) -> tuple:
        nd = _dim(input)
        if nd not in (2, 3):
            raise nn_error(ValueError, f"{name}: Expected input to be 2D or 3D, got {nd}D tensor instead")
        is_batched = nd == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if _dim(hx) != 2:
                    raise nn_error(RuntimeError, f"For unbatched 2-D input, hx should also be 2-D but got "
                                   f"{hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and _dim(hx) != 3:
            raise nn_error(RuntimeError, f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        return input, hx, is_batched, batch_dim

    def _zeros(self, input: Tensor) -> Tensor:
        num_directions = 2 if self.bidirectional else 1
        batch = input.size(0) if self.batch_first else input.size(1)
        return creation.zeros(self.num_layers * num_directions, batch, self.hidden_size, dtype=input.dtype)

    @python_errors
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> tuple:
        input, hx, is_batched, batch_dim = self._prepare(input, hx, "RNN" if self.mode.startswith("RNN") else
                                                         self.mode)
        if hx is None:
            hx = self._zeros(input)
        self.check_forward_args(input, hx, None)
        output, hidden = _R.rnn_layers(self.mode, input, hx, self._flat_weights, self.bias, self.num_layers,
                                       self.dropout, self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """An Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh)`` (or relu)."""

    __module__ = _MOD

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise nn_error(ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self_nl = args[3]
            args = args[:3] + args[4:]
        else:
            self_nl = kwargs.pop("nonlinearity", "tanh")
        if self_nl == "tanh":
            mode = "RNN_TANH"
        elif self_nl == "relu":
            mode = "RNN_RELU"
        else:
            raise nn_error(ValueError, f"Unknown nonlinearity '{self_nl}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = self_nl


class GRU(RNNBase):
    """A gated recurrent unit layer stack (reset, update and new gates)."""

    __module__ = _MOD

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise nn_error(ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    @python_errors
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> tuple:
        input, hx, is_batched, batch_dim = self._prepare(input, hx, "GRU")
        if hx is None:
            hx = self._zeros(input)
        self.check_forward_args(input, hx, None)
        output, hidden = _R.rnn_layers("GRU", input, hx, self._flat_weights, self.bias, self.num_layers,
                                       self.dropout, self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


class LSTM(RNNBase):
    """A long short-term memory layer stack; ``forward`` returns ``output, (h_n, c_n)``."""

    __module__ = _MOD

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:
        self.check_input(input, batch_sizes)
        expected = self.get_expected_hidden_size(input, batch_sizes)
        self.check_hidden_size(hidden[0], expected, "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], expected, "Expected hidden[1] size {}, got {}")

    @python_errors
    def forward(self, input: Tensor, hx: Any = None) -> tuple:
        nd = _dim(input)
        if nd not in (2, 3):
            raise nn_error(ValueError, f"LSTM: Expected input to be 2D or 3D, got {nd}D instead")
        is_batched = nd == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            hx = (self._zeros(input), self._zeros(input))
            self.check_forward_args(input, hx, None)
        else:
            if is_batched:
                if _dim(hx[0]) != 3 or _dim(hx[1]) != 3:
                    raise nn_error(RuntimeError, "For batched 3-D input, hx and cx should also be 3-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            else:
                if _dim(hx[0]) != 2 or _dim(hx[1]) != 2:
                    raise nn_error(RuntimeError, "For unbatched 2-D input, hx and cx should also be 2-D but got "
                                   f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            self.check_forward_args(input, hx, None)
        weights = self._flat_weights
        if input.dtype.is_floating_point and input._dtype.name == "float32" and input._data.size:
            output, h, c = _R.lstm_mkldnn(input, hx, weights, self.bias, self.num_layers, self.dropout,
                                          self.training, self.bidirectional, self.batch_first)
        else:
            output, h, c = _R.rnn_layers("LSTM", input, hx, weights, self.bias, self.num_layers, self.dropout,
                                         self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h, c = h.squeeze(1), c.squeeze(1)
        return output, (h, c)


class RNNCellBase(Module):
    """The cells' parameters (weight_ih, weight_hh, bias_ih, bias_hh), init and ``extra_repr``."""

    __module__ = _MOD

    @python_errors
    @tracked_after_init
    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        factory = {} if dtype is None else {"dtype": dtype}
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(creation.empty((num_chunks * hidden_size, input_size), **factory))
        self.weight_hh = Parameter(creation.empty((num_chunks * hidden_size, hidden_size), **factory))
        if bias:
            self.bias_ih = Parameter(creation.empty(num_chunks * hidden_size, **factory))
            self.bias_hh = Parameter(creation.empty(num_chunks * hidden_size, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nl = self.__dict__.get("nonlinearity", "tanh")
        if nl != "tanh":
            s += f", nonlinearity={nl}"
        return s

    def reset_parameters(self) -> None:
        """Every parameter ``uniform_(-1/sqrt(hidden_size), 1/sqrt(hidden_size))``, in registration order."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batch(self, name: str, input: Any, hx: Any, label: str = "hidden") -> tuple:
        nd = _dim(input)
        if nd not in (1, 2):
            raise nn_error(ValueError, f"{name}: Expected input to be 1D or 2D, got {nd}D instead")
        if hx is not None and label == "hidden" and _dim(hx) not in (1, 2):
            raise nn_error(ValueError, f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = nd == 2
        if not is_batched:
            input = input.unsqueeze(0)
        return input, is_batched

    def _zeros(self, input: Tensor) -> Tensor:
        return creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)


class RNNCell(RNNCellBase):
    """One Elman RNN step: ``tanh(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (or relu)."""

    __module__ = _MOD

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    @python_errors
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        input, is_batched = self._batch("RNNCell", input, hx)
        hx = self._zeros(input) if hx is None else (hx.unsqueeze(0) if not is_batched else hx)
        if self.nonlinearity == "tanh":
            ret = _R.rnn_tanh_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        elif self.nonlinearity == "relu":
            ret = _R.rnn_relu_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        else:
            raise nn_error(RuntimeError, f"Unknown nonlinearity: {self.nonlinearity}")
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h, c) -> (h', c')``."""

    __module__ = _MOD

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    @python_errors
    def forward(self, input: Tensor, hx: Any = None) -> tuple:
        nd = _dim(input)
        if nd not in (1, 2):
            raise nn_error(ValueError, f"LSTMCell: Expected input to be 1D or 2D, got {nd}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if _dim(value) not in (1, 2):
                    raise nn_error(ValueError, f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D "
                                   "instead")
        is_batched = nd == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = self._zeros(input)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else hx
        ret = _R.lstm_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if not is_batched:
            ret = (ret[0].squeeze(0), ret[1].squeeze(0))
        return ret


class GRUCell(RNNCellBase):
    """One GRU step: ``h -> h'``."""

    __module__ = _MOD

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    @python_errors
    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        input, is_batched = self._batch("GRUCell", input, hx)
        hx = self._zeros(input) if hx is None else (hx.unsqueeze(0) if not is_batched else hx)
        ret = _R.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if is_batched else ret.squeeze(0)
