"""Recurrent cells: ``torch.rnn_tanh_cell`` / ``rnn_relu_cell`` / ``lstm_cell`` / ``gru_cell`` and
``unsafe_chunk`` / ``unsafe_split`` (UnsafeSplitBackward0).

As ATen's composite cells of PyTorch 2.13 (aten/src/ATen/native/RNN.cpp, the CPU path), op for op, so the
graph has PyTorch's nodes in PyTorch's order and the values are those of the engine's ops:

* ``linear_ih(x) = F.linear(x, w_ih, b_ih)`` (AddmmBackward0 over TBackward0; MmBackward0 without bias);
* RNN cell: ``tanh(linear_hh(h).add_(linear_ih(x)))`` (``relu`` for nonlinearity='relu');
* LSTM cell: ``gates = linear_hh(hx).add_(linear_ih(x))``, ``gates.unsafe_chunk(4, 1)``; ``sigmoid_`` /
  ``sigmoid_`` / ``tanh_`` / ``sigmoid_`` in place on the chunks; ``cy = (forgetgate * cx).add_(ingate *
  cellgate)``, ``hy = outgate * cy.tanh()``;
* GRU cell: ``linear_ih(x).unsafe_chunk(3, 1)``, ``linear_hh(h).unsafe_chunk(3, 1)``; ``r = hh[0].add_(ih[0]
  ).sigmoid_()``, ``z = hh[1].add_(ih[1]).sigmoid_()``, ``n = ih[2].add(hh[2].mul_(r)).tanh_()``, ``h' = (h -
  n).mul_(z).add_(n)``.

With ``pre_compute_input`` (the layers of gradcli.nn.rnn) ``x`` is already ``linear_ih`` of the step input.
``unsafe_chunk`` returns pieces that are not views (an in-place op on one does not rebase the others),
one UnsafeSplitBackward0 node for all of them.  The input checks are ATen's, with its messages
(``input has inconsistent input_size: got 2 expected 3``, ``Input batch size 2 doesn't match hidden0 batch
size 3`` ...).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ..errors import ArgumentTypeError, error_class, python_errors
from ._core import Node, Tensor, dt, mode, saved
from .registry import register
from .shape import SplitBackward0, _wrap

__all__ = ["unsafe_split", "unsafe_chunk", "rnn_tanh_cell", "rnn_relu_cell", "lstm_cell", "gru_cell"]


def _runtime(msg: str) -> Exception:
    return error_class("runtime")(msg)


class UnsafeSplitBackward0(SplitBackward0):
    """unsafe_split/unsafe_chunk's node: split's backward (the outputs' grads concatenated) under its own
    name, as PyTorch names it."""

    __slots__ = ()


def unsafe_split(input: Tensor, split_size: int, dim: int = 0) -> tuple:
    """``torch.unsafe_split(input, split_size, dim=0)``: split's pieces, not views (UnsafeSplitBackward0);
    inside inference_mode split's views."""
    from ._core import edge

    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"unsafe_split(): argument 'input' (position 1) must be Tensor, not "
                                f"{type(input).__name__}")
    if isinstance(split_size, Tensor) and split_size.numel() == 1 and not split_size._dtype.is_floating_point:
        split_size = int(split_size._data.reshape(-1)[0])  # PyTorch's int parser takes a one-element int tensor
    nd = input._data.ndim
    d = dim + nd if dim < 0 else dim
    n = input._data.shape[d]
    if split_size <= 0 and n:
        raise _runtime(f"split expects split_size be non-negative, but got split_size={split_size}")
    sizes = [min(split_size, n - i) for i in range(0, n, split_size)] if n else [0]
    if mode.inference:
        # inside inference_mode no autograd kernel runs, so nothing is "unsafe": split's own views, made in
        # inference mode (an in-place op on one outside is the inference-view error; measured, 2.13)
        from .shape import split

        return tuple(split(input, split_size, d))
    node = None
    if mode.enabled and input.requires_grad:
        node = UnsafeSplitBackward0()
        node.next_functions = (edge(input),)
        node._meta = ((input._data.shape, input._dtype),)
        node._needs = (True,)
        node.num_outputs, node.dim, node.sizes = len(sizes), d, sizes
        node.shape, node.dtype = input._data.shape, input._dtype
    outs = []
    start = 0
    for i, s in enumerate(sizes):
        key = (slice(None),) * d + (slice(start, start + s),)
        start += s
        o = Tensor._from_data(np.ascontiguousarray(input._data[key]), input._dtype)
        if node is not None:
            o._grad_fn, o._output_nr, o._requires_grad = node, i, True
        outs.append(o)
    return tuple(outs)


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    """``torch.unsafe_chunk(input, chunks, dim=0)``: chunk's pieces, not views (UnsafeSplitBackward0)."""
    if not isinstance(input, Tensor):
        raise ArgumentTypeError(f"unsafe_chunk(): argument 'input' (position 1) must be Tensor, not "
                                f"{type(input).__name__}")
    if chunks <= 0:
        raise _runtime(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    nd = input._data.ndim
    if nd == 0:
        raise _runtime("chunk expects at least a 1-dimensional tensor")
    d = _wrap(dim, nd)  # (PyTorch's dimension check: IndexError, kind index)
    n = input._data.shape[d]
    size = -(-n // chunks) if n else 1
    return unsafe_split(input, size, d)


# --- the cells ---------------------------------------------------------------------------------------------


def _linear(x: Tensor, w: Tensor, b: Optional[Tensor]) -> Tensor:
    from .linalg import linear

    return linear(x, w, b)


def _size(t: Tensor, d: int) -> int:
    return t.size(d)  # (Tensor.size's IndexError for a dim the tensor lacks, as ATen's sym_size)


def check_cell_input(input: Tensor, input_size: int) -> None:
    """ATen's check_rnn_cell_forward_input."""
    if _size(input, 1) != input_size:
        raise _runtime(f"input has inconsistent input_size: got {_size(input, 1)} expected {input_size}")


def check_cell_hidden(input: Tensor, hx: Tensor, hidden_size: int, label: int) -> None:
    """ATen's check_rnn_cell_forward_hidden."""
    if _size(input, 0) != _size(hx, 0):
        raise _runtime(f"Input batch size {_size(input, 0)} doesn't match hidden{label} batch size {_size(hx, 0)}")
    if _size(hx, 1) != hidden_size:
        raise _runtime(f"hidden{label} has inconsistent hidden_size: got {_size(hx, 1)}, expected {hidden_size}")


def simple_cell(x: Tensor, h: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor], b_hh: Optional[Tensor],
                relu: bool, pre_compute_input: bool = False) -> Tensor:
    """SimpleCell: ``tanh`` (or ``relu``) of ``linear_hh(h).add_(linear_ih(x))``."""
    from .elementwise import relu as _relu
    from .elementwise import tanh as _tanh

    gates = _linear(h, w_hh, b_hh).add_(x if pre_compute_input else _linear(x, w_ih, b_ih))
    return _relu(gates) if relu else _tanh(gates)


def lstm_step(x: Tensor, hx: Tensor, cx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor],
              b_hh: Optional[Tensor], pre_compute_input: bool = False) -> tuple:
    """LSTMCell::operator() (the CPU path): (hy, cy)."""
    gates = _linear(hx, w_hh, b_hh).add_(x if pre_compute_input else _linear(x, w_ih, b_ih))
    chunked = unsafe_chunk(gates, 4, 1)
    ingate = chunked[0].sigmoid_()
    forgetgate = chunked[1].sigmoid_()
    cellgate = chunked[2].tanh_()
    outgate = chunked[3].sigmoid_()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    return hy, cy


def gru_step(x: Tensor, h: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor], b_hh: Optional[Tensor],
             pre_compute_input: bool = False) -> Tensor:
    """GRUCell::operator() (the CPU path)."""
    igates = unsafe_chunk(x if pre_compute_input else _linear(x, w_ih, b_ih), 3, 1)
    hgates = unsafe_chunk(_linear(h, w_hh, b_hh), 3, 1)
    reset_gate = hgates[0].add_(igates[0]).sigmoid_()
    input_gate = hgates[1].add_(igates[1]).sigmoid_()
    new_gate = igates[2].add(hgates[2].mul_(reset_gate)).tanh_()
    return (h - new_gate).mul_(input_gate).add_(new_gate)


def _tensors(fn: str, names: Sequence[str], values: Sequence[Any], optional: Sequence[bool]) -> None:
    for pos, (name, v, opt) in enumerate(zip(names, values, optional), start=1):
        if v is None and opt:
            continue
        if not isinstance(v, Tensor):
            raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not "
                                    f"{type(v).__name__}")


_CELL_ARGS = ("input", "hx", "w_ih", "w_hh", "b_ih", "b_hh")
_CELL_OPT = (False, False, False, False, True, True)


@python_errors
def rnn_tanh_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor] = None,
                  b_hh: Optional[Tensor] = None) -> Tensor:
    """``torch.rnn_tanh_cell``: ``tanh(x w_ih^T + b_ih + h w_hh^T + b_hh)`` for (N, in) and (N, hidden)."""
    _tensors("rnn_tanh_cell", _CELL_ARGS, (input, hx, w_ih, w_hh, b_ih, b_hh), _CELL_OPT)
    check_cell_input(input, _size(w_ih, 1))
    check_cell_hidden(input, hx, _size(w_hh, 1), 0)
    return simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh, relu=False)


@python_errors
def rnn_relu_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor] = None,
                  b_hh: Optional[Tensor] = None) -> Tensor:
    """``torch.rnn_relu_cell``: ``relu(x w_ih^T + b_ih + h w_hh^T + b_hh)``."""
    _tensors("rnn_relu_cell", _CELL_ARGS, (input, hx, w_ih, w_hh, b_ih, b_hh), _CELL_OPT)
    check_cell_input(input, _size(w_ih, 1))
    check_cell_hidden(input, hx, _size(w_hh, 1), 0)
    return simple_cell(input, hx, w_ih, w_hh, b_ih, b_hh, relu=True)


@python_errors
def lstm_cell(input: Tensor, hx: Any, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor] = None,
              b_hh: Optional[Tensor] = None) -> tuple:
    """``torch.lstm_cell(input, (h, c), w_ih, w_hh, b_ih, b_hh)``: (hy, cy)."""
    _tensors("lstm_cell", ("input", "w_ih", "w_hh", "b_ih", "b_hh"), (input, w_ih, w_hh, b_ih, b_hh),
             (False, False, False, True, True))
    if not isinstance(hx, (list, tuple)) or not all(isinstance(t, Tensor) for t in hx):
        raise ArgumentTypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                                f"{type(hx).__name__}")
    if len(hx) != 2:
        raise _runtime("lstm_cell expects two hidden states")
    check_cell_input(input, _size(w_ih, 1))
    hidden = _size(w_hh, 1)
    check_cell_hidden(input, hx[0], hidden, 0)
    check_cell_hidden(input, hx[1], hidden, 1)
    return lstm_step(input, hx[0], hx[1], w_ih, w_hh, b_ih, b_hh)


@python_errors
def gru_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor] = None,
             b_hh: Optional[Tensor] = None) -> Tensor:
    """``torch.gru_cell``: the GRU update of (N, hidden) ``hx`` from (N, in) ``input``."""
    _tensors("gru_cell", _CELL_ARGS, (input, hx, w_ih, w_hh, b_ih, b_hh), _CELL_OPT)
    check_cell_input(input, _size(w_ih, 1))
    check_cell_hidden(input, hx, _size(w_hh, 1), 0)
    return gru_step(input, hx, w_ih, w_hh, b_ih, b_hh)


def _f64_leaf(*shape: int, seed: int = 0) -> Tensor:
    t = Tensor._from_data(np.random.default_rng(seed + sum(shape)).uniform(-1, 1, size=shape), dt.float64)
    t.requires_grad_(True)
    return t


def _cell_sample(chunks: int, lstm: bool = False):
    def make():
        x, h = _f64_leaf(2, 3), _f64_leaf(2, 4, seed=1)
        hx = (h, _f64_leaf(2, 4, seed=2)) if lstm else h
        return (x, hx, _f64_leaf(chunks * 4, 3, seed=3), _f64_leaf(chunks * 4, 4, seed=4),
                _f64_leaf(chunks * 4, seed=5), _f64_leaf(chunks * 4, seed=6)), {}
    return make


register("unsafe_split", unsafe_split, "rnn", nodes=("UnsafeSplitBackward0",), formula=UnsafeSplitBackward0.formula,
         sample=lambda: ((_f64_leaf(5, 3), 2, 0), {}))
register("unsafe_chunk", unsafe_chunk, "rnn", nodes=("UnsafeSplitBackward0",), formula=UnsafeSplitBackward0.formula,
         sample=lambda: ((_f64_leaf(4, 6), 3, 1), {}))
register("rnn_tanh_cell", rnn_tanh_cell, "rnn", methods=(), nodes=("TanhBackward0",),
         formula="composite: linear, add_, tanh", sample=_cell_sample(1))
register("rnn_relu_cell", rnn_relu_cell, "rnn", methods=(), nodes=("ReluBackward0",),
         formula="composite: linear, add_, relu", sample=_cell_sample(1))
register("lstm_cell", lstm_cell, "rnn", methods=(), nodes=("MulBackward0",),
         formula="composite: linear, add_, unsafe_chunk, sigmoid_/tanh_, mul, add_", sample=_cell_sample(4, True))
register("gru_cell", gru_cell, "rnn", methods=(), nodes=("AddBackward0",),
         formula="composite: linear, unsafe_chunk, add_, sigmoid_, mul_, tanh_, sub", sample=_cell_sample(3))


# --- the layers (torch.rnn_tanh / rnn_relu / gru / lstm, the CPU path) -----------------------------------------


class TransposeBackward1(Node):
    """``transpose_`` (in place) of the layers' output with ``batch_first``."""

    __slots__ = ("dim0", "dim1")
    formula = "self: grad.transpose(dim0, dim1)"

    def apply(self, grads):
        return (grads[0].transpose(self.dim0, self.dim1),)


def _transpose_(t: Tensor, d0: int, d1: int) -> Tensor:
    """ATen's ``result.transpose_(0, 1)`` on the layers' own (unshared) output: the same tensor transposed in
    place, its version counter moved, TransposeBackward1 over its history."""
    from ._core import record

    out, node = record(TransposeBackward1, np.swapaxes(t._data, d0, d1), t._dtype, (t,))
    if node is not None:
        node.dim0, node.dim1 = d0, d1
    out._version[0] = t._version[0] + 1
    return out


def _cell_fn(mode: str):
    if mode == "RNN_TANH":
        return lambda x, h, p: simple_cell(x, h, *p, relu=False, pre_compute_input=True)
    if mode == "RNN_RELU":
        return lambda x, h, p: simple_cell(x, h, *p, relu=True, pre_compute_input=True)
    if mode == "GRU":
        return lambda x, h, p: gru_step(x, h, *p, pre_compute_input=True)
    return lambda x, h, p: lstm_step(x, h[0], h[1], *p, pre_compute_input=True)


def _direction(mode: str, layer_input: Tensor, hidden: Any, p: tuple, reverse: bool) -> tuple:
    """FullLayer / the reverse half of FullBidirectionalLayer: (stacked outputs, final hidden)."""
    from .shape import stack, unbind

    cell = _cell_fn(mode)
    steps = list(unbind(_linear(layer_input, p[0], p[2]), 0))
    if not steps:
        raise _runtime("Expected sequence length to be larger than 0 in RNN")
    if reverse:
        steps.reverse()
    outputs = []
    for x in steps:
        hidden = cell(x, hidden, p)
        outputs.append(hidden[0] if mode == "LSTM" else hidden)
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), hidden


def rnn_layers(mode: str, input: Tensor, hx: Any, params: list, has_biases: bool, num_layers: int,
               dropout_p: float, train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """ATen's ``_rnn_impl`` / ``_lstm_impl`` over the composite cells: (output, h_n) or (output, h_n, c_n)."""
    from .dropout import torch_dropout
    from .shape import cat, stack, unbind

    x = input.transpose(0, 1) if batch_first else input
    stride = 4 if has_biases else 2
    ndir = 2 if bidirectional else 1
    if mode == "LSTM":
        hs, cs = unbind(hx[0], 0), unbind(hx[1], 0)
        hiddens = list(zip(hs, cs))
    else:
        hiddens = list(unbind(hx, 0))
    finals = []
    for layer in range(num_layers):
        outs = []
        for d in range(ndir):
            idx = layer * ndir + d
            w = params[idx * stride:(idx + 1) * stride]
            p = (w[0], w[1], w[2], w[3]) if has_biases else (w[0], w[1], None, None)
            out, final = _direction(mode, x, hiddens[idx], p, reverse=d == 1)
            outs.append(out)
            finals.append(final)
        x = outs[0] if ndir == 1 else cat(outs, outs[0].dim() - 1)
        if dropout_p != 0 and train and layer < num_layers - 1:
            x = torch_dropout(x, dropout_p, True)
    if batch_first:  # _lstm_impl transposes back out of place, _rnn_impl in place
        output = x.transpose(0, 1) if mode == "LSTM" else _transpose_(x, 0, 1)
    else:
        output = x
    if mode == "LSTM":
        return output, stack([f[0] for f in finals], 0), stack([f[1] for f in finals], 0)
    return output, stack(finals, 0)


# --- float32 LSTM: PyTorch's oneDNN layer (MkldnnRnnLayerBackward0) -----------------------------------------------


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-a))


class MkldnnRnnLayerBackward0(Node):
    """One LSTM layer in one direction as one node (PyTorch's ``mkldnn_rnn_layer``: edges input, weight0..3
    (w_ih, w_hh, b_ih, b_hh), hx_, cx_; outputs output, hy, cy), its backward the LSTM's backpropagation
    through time in float64."""

    __slots__ = ("num_outputs", "reverse", "cache")
    formula = "backpropagation through time of the LSTM layer (float64)"

    def apply(self, grads):
        if mode.enabled:
            raise error_class("unsupported")(
                "the second derivative of a float32 LSTM layer (MkldnnRnnLayerBackward0: a backward with "
                "create_graph=True through it) is not supported by gradcli",
                "Use create_graph=False here, or a float64 LSTM, or run this file with PyTorch itself.")
        x = self._unpack(0)
        w_ih = self._unpack(1)._data.astype(np.float64)
        w_hh = self._unpack(2)._data.astype(np.float64)
        xs, h_before, c_before, gates, c_after = self.cache
        steps, batch, hidden = xs.shape[0], h_before[0].shape[0], w_hh.shape[1]
        g_out, g_hy, g_cy = (list(grads) + [None, None, None])[:3]
        dout = np.zeros((steps, batch, hidden)) if g_out is None else g_out._data.astype(np.float64)
        dh = np.zeros((batch, hidden)) if g_hy is None else g_hy._data.astype(np.float64)
        dc = np.zeros((batch, hidden)) if g_cy is None else g_cy._data.astype(np.float64)
        dx = np.zeros(xs.shape)
        dw_ih = np.zeros(w_ih.shape)
        dw_hh = np.zeros(w_hh.shape)
        db = np.zeros(w_ih.shape[0])
        order = list(range(steps - 1, -1, -1) if self.reverse else range(steps))
        for t in reversed(order):  # the processing order, backwards
            i, f, g, o = gates[t]
            tc = np.tanh(c_after[t])
            dh_total = dh + dout[t]
            d_o = dh_total * tc
            dc_total = dc + dh_total * o * (1 - tc * tc)
            d_i, d_g, d_f = dc_total * g, dc_total * i, dc_total * c_before[t]
            dc = dc_total * f
            da = np.concatenate([d_i * i * (1 - i), d_f * f * (1 - f), d_g * (1 - g * g), d_o * o * (1 - o)], axis=1)
            dx[t] = da @ w_ih
            dh = da @ w_hh
            dw_ih += da.T @ xs[t]
            dw_hh += da.T @ h_before[t]
            db += da.sum(axis=0)
        dtype = x._dtype
        wrap = lambda a: Tensor._from_data(np.ascontiguousarray(a, dtype=dtype.np), dtype)  # noqa: E731
        return (wrap(dx), wrap(dw_ih), wrap(dw_hh), wrap(db), wrap(db.copy()), wrap(dh), wrap(dc))


def mkldnn_rnn_layer(x: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Optional[Tensor], b_hh: Optional[Tensor],
                     hx: Tensor, cx: Tensor, reverse: bool) -> tuple:
    """(output, hy, cy) of one LSTM layer over a (T, B, in) input, computed in float64 (see the module docstring
    of gradcli.nn.rnn for the tolerance), recorded as one MkldnnRnnLayerBackward0 node."""
    from ._core import record

    xs = x._data.astype(np.float64)
    wi, wh = w_ih._data.astype(np.float64), w_hh._data.astype(np.float64)
    bias = np.zeros(wi.shape[0]) if b_ih is None else b_ih._data.astype(np.float64) + b_hh._data.astype(np.float64)
    steps = xs.shape[0]
    hidden = wh.shape[1]
    h = hx._data.astype(np.float64)
    c = cx._data.astype(np.float64)
    out = np.zeros((steps, h.shape[0], hidden))
    h_before, c_before, c_after, gates = [None] * steps, [None] * steps, [None] * steps, [None] * steps
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    for t in order:
        a = xs[t] @ wi.T + h @ wh.T + bias
        i = _sigmoid(a[:, :hidden])
        f = _sigmoid(a[:, hidden:2 * hidden])
        g = np.tanh(a[:, 2 * hidden:3 * hidden])
        o = _sigmoid(a[:, 3 * hidden:])
        h_before[t], c_before[t] = h, c
        c = f * c + i * g
        h = o * np.tanh(c)
        c_after[t], gates[t] = c, (i, f, g, o)
        out[t] = h
    dtype = x._dtype
    inputs = (x, w_ih, w_hh, b_ih, b_hh, hx, cx)
    o_t, node = record(MkldnnRnnLayerBackward0, np.ascontiguousarray(out, dtype=dtype.np), dtype, inputs)
    hy = Tensor._from_data(np.ascontiguousarray(h, dtype=dtype.np), dtype)
    cy = Tensor._from_data(np.ascontiguousarray(c, dtype=dtype.np), dtype)
    if node is not None:
        node.num_outputs = 3
        node.reverse = reverse
        node.cache = (xs, h_before, c_before, gates, c_after)
        node._save(*(saved(t) for t in inputs))
        for nr, t in ((1, hy), (2, cy)):
            t._grad_fn, t._output_nr, t._requires_grad = node, nr, True
    return o_t, hy, cy


def lstm_mkldnn(input: Tensor, hx: Any, params: list, has_biases: bool, num_layers: int, dropout_p: float,
                train: bool, bidirectional: bool, batch_first: bool) -> tuple:
    """ATen's ``mkldnn_rnn`` for a float32 LSTM: the layers one node each, ``cat`` of the directions,
    dropout between layers, ``stack`` of the final states."""
    from .dropout import torch_dropout
    from .shape import cat, stack

    x = input.transpose(0, 1) if batch_first else input
    x = x.contiguous()
    h_all, c_all = hx[0].contiguous(), hx[1].contiguous()
    stride = 4 if has_biases else 2
    ndir = 2 if bidirectional else 1
    hys, cys = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(ndir):
            idx = layer * ndir + d
            w = params[idx * stride:(idx + 1) * stride]
            b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
            o, hy, cy = mkldnn_rnn_layer(x, w[0], w[1], b_ih, b_hh, h_all[idx], c_all[idx], reverse=d == 1)
            outs.append(o)
            hys.append(hy)
            cys.append(cy)
        x = outs[0] if ndir == 1 else cat(outs, -1)
        if dropout_p != 0 and train and layer < num_layers - 1:
            x = torch_dropout(x, dropout_p, True)
    output = x.transpose(0, 1) if batch_first else x
    return output, stack(hys, 0), stack(cys, 0)
