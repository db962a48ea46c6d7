"""ctc_loss: PyTorch 2.13's CPU kernel (aten/src/ATen/native/LossCTC.cpp), in its arithmetic order.

Forward: per batch item the log-space alpha recursion of Graves et al. eq (6)-(8) in ``scalar_t``
(``log(exp(la1 - m) + exp(la2 - m) + exp(la3 - m)) + m + log_probs[t][l'(s)]``, each row over s at once:
a row depends only on the previous one).  Backward (CtcLossBackward0): the beta recursion, the alpha * beta
sums collected per character in descending s order (several s share the blank, and a log-add rounds in that
order), then ``(exp(lp) - exp(collected + nll - lp)) * grad``; rows past an input length are 0, and with
``zero_infinity`` an infinite loss gives a zero gradient.  ``_ctc_loss_backward`` has no derivative: under
``create_graph`` its result hangs off a NotImplemented node.  The wrapper (``ctc_loss_impl``): an unbatched
(T, C) input is unsqueezed, ``zero_infinity`` zeroes infinite losses with ``where``, 'mean' divides each loss by
its target length clamped at 1, then means.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ArgumentTypeError, error_class
from ._core import Node, Tensor, dt, record, saved
from .elementwise import record_not_implemented
from .nn import _need_tensor, _reduction, _runtime
from .registry import register

__all__ = ["ctc_loss"]


def _lengths(v: Any, name: str) -> list:
    if isinstance(v, Tensor):
        if v._dtype.is_floating_point or v._dtype is dt.bool_:
            raise _runtime(f"{name} must be integral")
        return [int(n) for n in v._data.reshape(-1)]
    if isinstance(v, (list, tuple)):
        return [int(n) for n in v]
    raise ArgumentTypeError(f"ctc_loss(): argument '{name}' must be tuple of ints, not {type(v).__name__}")


_SIGNATURES = ("Tensor log_probs, Tensor targets, tuple of ints input_lengths, tuple of ints target_lengths, int blank = 0, "
               "int reduction = at::Reduction::Mean, bool zero_infinity = False",
               "Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank = 0, "
               "int reduction = at::Reduction::Mean, bool zero_infinity = False")


def _arg_desc(v: Any) -> str:
    """How PyTorch's argument parser names a value in its 'didn't match' line."""
    if isinstance(v, Tensor):
        return "Tensor"
    if isinstance(v, list):
        return "list of [" + ", ".join(_arg_desc(e) for e in v) + "]"
    if isinstance(v, tuple):
        return "tuple of (" + ", ".join(_arg_desc(e) for e in v) + ")"
    if isinstance(v, dt.dtype):
        return "torch.dtype"
    return type(v).__name__


def _check_flags(args: tuple) -> None:
    """PyTorch's TypeError when ``blank`` is not an int or ``zero_infinity`` not a bool: F.ctc_loss passes
    all seven arguments positionally to ``torch.ctc_loss``, whose parser then matches neither signature.
    Which arguments the message marks with ``!`` was measured against PyTorch 2.13: from input_lengths on
    for the tuple-of-ints signature, and for the Tensor one from the first length that is not a Tensor, or
    from blank."""
    blank, zero_infinity = args[4], args[6]
    blank_ok = (isinstance(blank, int) and not isinstance(blank, bool)) or (
        isinstance(blank, Tensor) and blank.dim() == 0 and not blank._dtype.is_floating_point
        and blank._dtype is not dt.bool_)
    if blank_ok and isinstance(zero_infinity, bool):
        return
    got = ", ".join(_arg_desc(a) if isinstance(a, Tensor) else
                    ("torch.dtype" if isinstance(a, dt.dtype) else type(a).__name__) for a in args)
    descs = [_arg_desc(a) for a in args]
    first_tensor = next((i for i in (2, 3) if not isinstance(args[i], Tensor)), 4)
    text = f"ctc_loss() received an invalid combination of arguments - got ({got}), but expected one of:\n"
    for sig, start in zip(_SIGNATURES, (2, first_tensor)):
        marked = ", ".join(d if i < start else f"!{d}!" for i, d in enumerate(descs))
        text += f" * ({sig})\n      didn't match because some of the arguments have invalid types: ({marked})\n"
    raise ArgumentTypeError(text)


def _targets_prime(targets: np.ndarray, offsets: list, lengths: list, b: int, blank: int) -> np.ndarray:
    """l' of item b: blank, l1, blank, l2, ..., blank."""
    tl = lengths[b]
    if targets.ndim == 1:
        labels = targets[offsets[b]:offsets[b] + tl]
    else:
        labels = targets[b, :tl]
    prime = np.full(2 * tl + 1, blank, dtype=np.int64)
    prime[1::2] = labels
    return prime


def _alpha(lp: np.ndarray, prime: np.ndarray, input_length: int) -> tuple[np.ndarray, Any]:
    """log_alpha (T x S) and the item's negative log likelihood, in scalar_t."""
    f = lp.dtype.type
    neginf = f(-np.inf)
    S = prime.size
    la = np.full((lp.shape[0], S), neginf, dtype=lp.dtype)
    if input_length == 0:
        return la, -(f(0) if S == 1 else neginf)
    la[0, 0] = lp[0, prime[0]]
    if S > 1:
        la[0, 1] = lp[0, prime[1]]
    skip = np.zeros(S, dtype=bool)  # s > 1 and l'(s-2) != l'(s)
    skip[2:] = prime[:-2] != prime[2:]
    with np.errstate(invalid="ignore", over="ignore"):
        for t in range(1, input_length):
            prev = la[t - 1]
            la1 = prev
            la2 = np.concatenate(([neginf], prev[:-1]))
            la3 = np.where(skip, np.concatenate(([neginf, neginf], prev[:-2])) if S > 2 else neginf, neginf)
            lamax = np.maximum(np.maximum(la1, la2), la3)
            lamax = np.where(lamax == neginf, f(0), lamax)
            total = (np.exp(la1 - lamax) + np.exp(la2 - lamax)) + np.exp(la3 - lamax)
            la[t] = (np.log(total) + lamax) + lp[t, prime]
    if S == 1:
        return la, -la[input_length - 1, 0]
    l1 = la[input_length - 1, S - 1]
    l2 = la[input_length - 1, S - 2]
    m = max(l1, l2)
    m = f(0) if m == neginf else m
    with np.errstate(over="ignore", divide="ignore"):
        ll = np.log(f(np.exp(l1 - m) + np.exp(l2 - m))) + m
    return la, -f(ll)


def _log_add(a, b, f):
    if a == f(-np.inf):
        return b
    m = max(a, b)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return f(np.log(f(np.exp(f(a - m)) + np.exp(f(b - m)))) + m)


class CtcLossBackward0(Node):
    __slots__ = ("blank", "zero_infinity", "input_lengths", "target_lengths", "offsets", "alphas", "nll")
    formula = "log_probs: _ctc_loss_backward (LossCTC.cpp): exp(lp) - exp(collected alpha*beta + nll - lp), times grad"

    def apply(self, grads):
        go = grads[0]
        lpt = self._unpack(0)
        targets = self._unpack(1)._data
        lp_all = lpt._data  # (T, N, C)
        f = lp_all.dtype.type
        neginf = f(-np.inf)
        T, N, C = lp_all.shape
        grad = np.full((T, N, C), neginf, dtype=lp_all.dtype)
        gout = go._data.reshape(-1).astype(lp_all.dtype)
        for b in range(N):
            nll = self.nll[b]
            if self.zero_infinity and nll == f(np.inf):
                grad[:, b, :] = 0
                continue
            lp = lp_all[:, b, :]
            il = self.input_lengths[b]
            prime = _targets_prime(targets, self.offsets, self.target_lengths, b, self.blank)
            S = prime.size
            la = self.alphas[b]
            lb = np.full((T, S), neginf, dtype=lp.dtype)
            g = grad[:, b, :]
            if il > 0:
                lb[il - 1, S - 1] = lp[il - 1, self.blank]
                g[il - 1, self.blank] = la[il - 1, S - 1] + lb[il - 1, S - 1]
                if S > 1:
                    lb[il - 1, S - 2] = lp[il - 1, prime[S - 2]]
                    g[il - 1, prime[S - 2]] = la[il - 1, S - 2] + lb[il - 1, S - 2]
            skip = np.zeros(S, dtype=bool)  # s < 2 tl - 1 and l'(s+2) != l'(s)
            if S > 2:
                skip[:-2] = prime[2:] != prime[:-2]
            with np.errstate(invalid="ignore", over="ignore"):
                for t in range(il - 2, -1, -1):
                    nxt = lb[t + 1]
                    lb1 = nxt
                    lb2 = np.concatenate((nxt[1:], [neginf]))
                    lb3 = np.where(skip, np.concatenate((nxt[2:], [neginf, neginf])) if S > 2 else neginf, neginf)
                    lbmax = np.maximum(np.maximum(lb1, lb2), lb3)
                    lbmax = np.where(lbmax == neginf, f(0), lbmax)
                    total = (np.exp(lb1 - lbmax) + np.exp(lb2 - lbmax)) + np.exp(lb3 - lbmax)
                    lb[t] = (np.log(total) + lbmax) + lp[t, prime]
                    lab = la[t] + lb[t]
                    row = g[t]
                    for s in range(S - 1, -1, -1):  # collected in descending s, as the kernel
                        c = prime[s]
                        row[c] = _log_add(row[c], lab[s], f)
            gr = gout[b]
            with np.errstate(over="ignore", invalid="ignore"):
                g[:il] = (np.exp(lp[:il]) - np.exp((g[:il] + nll) - lp[:il])) * gr
            g[il:] = 0
        out, _ = record_not_implemented("_ctc_loss_backward", grad, lpt._dtype, (go, lpt))
        return (out,)


def _ctc_core(log_probs: Tensor, targets: Tensor, il: list, tl: list, blank: int, zero_infinity: bool) -> Tensor:
    """aten::_ctc_loss: the per-item negative log likelihoods (CtcLossBackward0)."""
    if log_probs._data.ndim != 3:
        raise _runtime(f"Expected 3-dimensional tensor, but got {log_probs._data.ndim}-dimensional tensor for "
                       "argument #1 'log_probs' (while checking arguments for ctc_loss_allocate_outputs)")
    T, N, C = log_probs._data.shape
    if not (0 <= blank < C):
        raise _runtime("blank must be in label range")
    if len(il) != N:
        raise _runtime("input_lengths must be of size batch_size")
    if len(tl) != N:
        raise _runtime("target_lengths must be of size batch_size")
    tg = targets._data
    if tg.ndim == 1:
        offsets, pos = [], 0
        for n in tl:
            offsets.append(pos)
            pos += n
    else:
        offsets = [0] * N
    for n in il:
        if n < 0 or n > T:
            raise _runtime(f"Expected input_lengths to have value at {'least 0' if n < 0 else 'most ' + str(T)}, but "
                           f"got value {n} (while checking arguments for ctc_loss_allocate_outputs)")
    lp = log_probs._data
    nll = np.empty(N, dtype=lp.dtype)
    alphas = []
    for b in range(N):
        prime = _targets_prime(tg, offsets, tl, b, blank)
        if prime.size and (prime.min() < 0 or prime.max() >= C):
            # PyTorch's kernel does not check the labels: it reads log_probs out of bounds (other memory)
            raise error_class("unsupported")(
                f"ctc_loss: target label {int(prime[(prime < 0) | (prime >= C)][0])} of batch item {b} is outside "
                f"[0, {C}): PyTorch does not check it and reads memory outside log_probs, so its result is "
                "undefined and gradcli does not make one up")
        la, nll[b] = _alpha(lp[:, b, :], prime, il[b])
        alphas.append(la)
    out, node = record(CtcLossBackward0, nll, log_probs._dtype, (log_probs,))
    if node is not None:
        node.blank, node.zero_infinity = blank, zero_infinity
        node.input_lengths, node.target_lengths, node.offsets = il, tl, offsets
        node.alphas, node.nll = alphas, nll
        node._save(saved(log_probs), saved(targets))
    return out


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int = 0, reduction: str = "mean",
             zero_infinity: bool = False):
    """The Connectionist Temporal Classification loss of log-probabilities (T, N, C) or (T, C)."""
    from .creation import tensor, zeros
    from .elementwise import where

    _need_tensor("ctc_loss", "log_probs", 1, log_probs)
    _need_tensor("ctc_loss", "targets", 2, targets)
    reduction = _reduction(reduction)
    _check_flags((log_probs, targets, input_lengths, target_lengths, blank, 1, zero_infinity))
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    if not log_probs._dtype.is_floating_point:
        raise _runtime(f"\"ctc_loss_cpu\" not implemented for '{log_probs._dtype.name}'",
                       torch_type=NotImplementedError)
    batched = log_probs.dim() == 3
    lp = log_probs if batched else log_probs.unsqueeze(1)
    res = _ctc_core(lp, targets, il, tl, int(blank), bool(zero_infinity))
    if zero_infinity:
        res = where(res == float("inf"), zeros((), dtype=res._dtype), res)
    if reduction == "mean":
        lengths = tensor(tl, dtype=res._dtype).clamp_min(1)
        return (res / lengths).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)


register("ctc_loss", ctc_loss, "nn", torch=(), F=("ctc_loss",), methods=(), nodes=("CtcLossBackward0",),
         formula=CtcLossBackward0.formula, twice_differentiable=False,
         notes="no gradcheck sample: PyTorch's gradient is the one through a log_softmax (exp(lp) - posterior), not "
               "the raw log_probs' (a gradcheck on raw inputs fails in PyTorch too); recorded cases check it")
