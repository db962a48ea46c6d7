"""Linear algebra: matmul / ``@``, mm, mv, dot, bmm, outer, addmm, F.linear.

The primitives (``mm`` MmBackward0, ``mv`` MvBackward0, ``dot``
DotBackward0, ``bmm`` BmmBackward0, ``addmm`` AddmmBackward0) each compute
their forward with numpy and record one node whose rules are PyTorch's
(tools/autograd/derivatives.yaml, FunctionsManual.cpp ``mm_mat1_backward`` /
``mm_mat2_backward``), written with gradcli ops so ``create_graph=True``
works.

``matmul`` is not a primitive in PyTorch: it is the composite
``at::native::_matmul_impl`` (aten/src/ATen/native/LinearAlgebra.cpp), and the
grad_fn a user sees is whatever primitive that decomposition ends with
(``SqueezeBackward4`` for 1-d @ 2-d, ``UnsafeViewBackward0`` after folding a
batch into ``mm``/``mv``, ``UnsafeViewBackward0`` over ``BmmBackward0`` for
broadcast batches, ``CloneBackward0`` when a 2-d @ 3-d product is transposed
back).  This module follows that decomposition step by step, including
``should_fold`` (which depends on requires_grad and strides), so the graph,
the gradients and the shape errors are PyTorch's.

``F.linear`` likewise follows ``at::native::linear``: ``addmm`` for 2-d input
with bias, ``_flatten_nd_linear`` (reshape -> addmm -> view) for contiguous
input with a 1-d bias, else ``matmul(input, weight.t())`` plus an in-place
``add_`` of the bias.

Errors: size mismatches are ``shape`` errors carrying PyTorch's text ("mat1 and
mat2 shapes cannot be multiplied (2x4 and 3x4)", "size mismatch, got input
(2), mat (2x3), vec (4)", "inconsistent tensor size", "Expected size for first
two dimensions of batch2 tensor"); wrong dimensionality and dtype mismatches
are ``runtime`` errors, as PyTorch raises plain RuntimeErrors for them.
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentTypeError, error_class
from . import gemm_order as _gemm_order
from . import parallel as _parallel
from ._core import Node, Tensor, check_numel, dt, record, saved, shape_error
from .registry import register
from .shape import (
    CloneBackward0,
    UnsafeViewBackward0,
    expand,
    reshape,
    squeeze,
    transpose,
    unsqueeze,
)
from .shape import t as _t

__all__ = ["addmm", "bmm", "dot", "linear", "matmul", "mm", "mv", "outer", "unsafe_view"]

_CPP = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
        "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}
_TN = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int", "int16": "Short",
       "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _runtime(msg: str):
    return error_class("runtime")(msg)


def _shape_err(msg: str, hint: str | None = None):
    return error_class("shape")(msg, hint)


def _need_tensor(fn: str, name: str, pos: int, x) -> None:
    if not isinstance(x, Tensor):
        raise ArgumentTypeError(f"{fn}(): argument '{name}' (position {pos}) must be Tensor, not {type(x).__name__}")


def _maybe_mul(t: Tensor, s):
    """PyTorch's maybe_multiply: t * s (a Scalar multiply, MulBackward1) unless s == 1."""
    if s == 1:
        return t
    from .nn import _mul_scalar

    return _mul_scalar(t, s)


def _numel(shape) -> int:
    n = 1
    for s in shape:
        n *= int(s)
    return n


def _mm_data(a: np.ndarray, b: np.ndarray, dtype, exact_k1: bool = False) -> np.ndarray:
    """The product's values.  With an inner size of 1 PyTorch's CPU gemm writes each product itself, so a
    -0.0 product stays -0.0 (numpy's matmul gives +0.0): for a 2-d (m x 1) @ (1 x n) with m, n > 1 (smaller
    ones take PyTorch's gemv path, +0.0), and always when ``exact_k1`` (addmm: the products are added to the
    bias one by one).  Checked in PyTorch 2.13 on mm/matmul/linear/addmm/bmm/mv shapes."""
    if a.shape[-1] == 0:
        return np.zeros(a.shape[:-1] + (b.shape[-1:] if b.ndim >= 2 else ()), dtype=dtype.np)  # a vector b: (n,)
    if a.ndim == 2 and b.ndim == 2 and a.shape[1] == 1 and (exact_k1 or (a.shape[0] > 1 and b.shape[1] > 1)):
        return np.multiply(a, b, dtype=dtype.np)
    if a.ndim == 2 and b.ndim == 2 and dtype is dt.float32 and not exact_k1 and a.shape[1] > 1:
        r = _gemm_order.sgemm(a, b, _blas_transposed(b))  # MKL's summation order, where reproduced
        if r is not None:
            return r
    return _parallel.matmul(a, b).astype(dtype.np, copy=False)


def _blas_transposed(b: np.ndarray) -> bool:
    """Does PyTorch hand the right operand of a row-major product to BLAS transposed?  Its stride test in
    addmm_impl_cpu_ (LinearAlgebra.cpp): row-major (strides (>= n, 1)) is passed as it is, column-major
    (strides (1, >= k)) transposed, anything else is first copied row-major."""
    k, n = b.shape
    s0, s1 = (x // b.itemsize for x in b.strides)
    if s1 == 1 and s0 >= max(1, n):
        return False
    return s0 == 1 and s1 >= max(1, k)


_MM_HINT = "The inner sizes must agree: (n x k) @ (k x m). Check the shapes, or transpose one operand (.t() / .mT)."


# --- mm -----------------------------------------------------------------------------------------------


def _column_major(a: np.ndarray) -> bool:
    """PyTorch's test in mm_mat1/mat2_backward: strides (1, rows), in elements."""
    st = [x // a.itemsize for x in a.strides]
    return st[0] == 1 and st[1] == a.shape[0]


class MmBackward0(Node):
    __slots__ = ("cols",)
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: grad.mm(mat2.t()); mat2: self.t().mm(grad) (transposed forms for a column-major operand)"

    def apply(self, grads):
        # PyTorch (mm_mat1_backward / mm_mat2_backward) returns a column-major operand's gradient as the
        # transpose of a product, so with create_graph its grad_fn is TBackward0
        g = grads[0]
        n = self._needs
        c1, c2 = getattr(self, "cols", (False, False))
        ga = gb = None
        if n[0]:
            ga = self._unpack(1).mm(g.t()).t() if c1 else g.mm(self._unpack(1).t())
        if n[1]:
            gb = g.t().mm(self._unpack(0)).t() if c2 else self._unpack(0).t().mm(g)
        return (ga, gb)


def _check_mm(a: Tensor, b: Tensor) -> None:
    if a._data.ndim != 2:
        raise _runtime("self must be a matrix")
    if b._data.ndim != 2:
        raise _runtime("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise _shape_err(
            f"mat1 and mat2 shapes cannot be multiplied ({a._data.shape[0]}x{a._data.shape[1]} and "
            f"{b._data.shape[0]}x{b._data.shape[1]})", _MM_HINT)
    if a._dtype is not b._dtype:
        raise _runtime(f"expected m1 and m2 to have the same dtype, but got: {_CPP[a._dtype.name]} != "
                       f"{_CPP[b._dtype.name]}")


def mm(input, mat2):
    """Matrix product of (n x k) and (k x m) matrices -> (n x m) (MmBackward0).

    Both operands must be 2-d of the same dtype (no broadcasting, no promotion), as torch.mm.
    """
    _need_tensor("mm", "input", 1, input)
    _need_tensor("mm", "mat2", 2, mat2)
    _check_mm(input, mat2)
    check_numel(input._data.shape[0] * mat2._data.shape[1])
    data = _mm_data(input._data, mat2._data, input._dtype)
    out, node = record(MmBackward0, data, input._dtype, (input, mat2))
    if node is not None:
        node._save(saved(input, mat2._requires_grad), saved(mat2, input._requires_grad))
        node.cols = (_column_major(input._data), _column_major(mat2._data))
    return out


# --- mv -------------------------------------------------------------------------------------------------


class MvBackward0(Node):
    __slots__ = ()
    formula = "self: grad.outer(vec); vec: self.t().mv(grad)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        ga = outer(g, self._unpack(1)) if n[0] else None
        gb = self._unpack(0).t().mv(g) if n[1] else None
        return (ga, gb)


def mv(input, vec):
    """Matrix-vector product (n x k) @ (k,) -> (n,) (MvBackward0)."""
    _need_tensor("mv", "input", 1, input)
    _need_tensor("mv", "vec", 2, vec)
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise _runtime(f"vector + matrix @ vector expected, got 1, {input._data.ndim}, {vec._data.ndim}")
    n, k = input._data.shape
    if vec._data.shape[0] != k:
        raise _shape_err(f"size mismatch, got input ({n}), mat ({n}x{k}), vec ({vec._data.shape[0]})", _MM_HINT)
    if input._dtype is not vec._dtype:
        raise _runtime(f"addmv input tensors must have the same dtype, but got {_TN[input._dtype.name]}, "
                       f"{_TN[input._dtype.name]}, and {_TN[vec._dtype.name]}")
    data = _mm_data(input._data, vec._data, input._dtype)
    out, node = record(MvBackward0, data, input._dtype, (input, vec))
    if node is not None:
        node._save(saved(input, vec._requires_grad), saved(vec, input._requires_grad))
    return out


# --- dot ------------------------------------------------------------------------------------------------


class DotBackward0(Node):
    __slots__ = ()
    formula = "self: grad * tensor; tensor: grad * self"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        return (g * self._unpack(1) if n[0] else None, g * self._unpack(0) if n[1] else None)


def dot(input, tensor):
    """Inner product of two 1-d tensors of the same size and dtype -> 0-d (DotBackward0)."""
    _need_tensor("dot", "input", 1, input)
    _need_tensor("dot", "tensor", 2, tensor)
    a, b = input._data, tensor._data
    if a.ndim != 1 or b.ndim != 1:
        raise _runtime(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape[0] != b.shape[0]:
        raise _shape_err(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have the same "
            f"number of elements, but got {a.shape[0]} and {b.shape[0]} elements respectively", _MM_HINT)
    if input._dtype is not tensor._dtype:
        raise _runtime(f"dot : expected both vectors to have same dtype, but found {_TN[input._dtype.name]} and "
                       f"{_TN[tensor._dtype.name]}")
    r = np.dot(a, b)
    if input._dtype.is_floating_point:
        r = r + r.dtype.type(0)  # BLAS's dot sums from +0.0, so a lone -0.0 product gives +0.0 (numpy keeps it)
    data = np.asarray(r).astype(input._dtype.np, copy=False)
    out, node = record(DotBackward0, data, input._dtype, (input, tensor))
    if node is not None:
        node._save(saved(input, tensor._requires_grad), saved(tensor, input._requires_grad))
    return out


# --- bmm ------------------------------------------------------------------------------------------------


class BmmBackward0(Node):
    __slots__ = ()
    _pack_order = (1, 0)  # PyTorch saves inputs by name
    formula = "self: grad.bmm(mat2.transpose(1, 2)); mat2: self.transpose(1, 2).bmm(grad)"

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        ga = g.bmm(self._unpack(1).transpose(1, 2)) if n[0] else None
        gb = self._unpack(0).transpose(1, 2).bmm(g) if n[1] else None
        return (ga, gb)


def bmm(input, mat2):
    """Batched matrix product (b x n x k) @ (b x k x m) -> (b x n x m) (BmmBackward0); no broadcasting."""
    _need_tensor("bmm", "input", 1, input)
    _need_tensor("bmm", "mat2", 2, mat2)
    a, b = input._data, mat2._data
    if a.ndim != 3:
        raise _runtime("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise _runtime("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise _shape_err(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] but got: "
            f"[{b.shape[0]}, {b.shape[1]}].", _MM_HINT)
    if input._dtype is not mat2._dtype:
        raise _runtime(f"expected scalar type {_TN[input._dtype.name]} but found {_TN[mat2._dtype.name]}")
    check_numel(a.shape[0] * a.shape[1] * b.shape[2])
    data = _mm_data(a, b, input._dtype)
    out, node = record(BmmBackward0, data, input._dtype, (input, mat2))
    if node is not None:
        node._save(saved(input, mat2._requires_grad), saved(mat2, input._requires_grad))
    return out


# --- addmm ---------------------------------------------------------------------------------------------


class AddmmBackward0(Node):
    __slots__ = ("alpha", "beta", "cols")
    formula = ("self: grad * beta; mat1: grad.mm(mat2.t()) * alpha; mat2: mat1.t().mm(grad) * alpha "
               "(transposed forms for a column-major operand)")

    def apply(self, grads):
        g = grads[0]
        n = self._needs
        if self._freed and any(s is not None for s in self._saved or ()):
            self._unpack(0)  # PyTorch's apply unpacks mat1/mat2 first: freed, it fails even for the bias alone
        gs = _maybe_mul(g, self.beta) if n[0] else None
        # mm_mat1_backward / mm_mat2_backward: a column-major operand's gradient is the transpose of a product
        # (F.linear's mat2 is weight.t(): its gradient is (grad.t() @ input).t(), another MKL call's bits)
        c1, c2 = getattr(self, "cols", (False, False))
        g1 = g2 = None
        if n[1]:
            m2 = self._unpack(1)
            g1 = _maybe_mul(m2.mm(g.t()).t() if c1 else g.mm(m2.t()), self.alpha)
        if n[2]:
            m1 = self._unpack(0)
            g2 = _maybe_mul(g.t().mm(m1).t() if c2 else m1.t().mm(g), self.alpha)
        return (gs, g1, g2)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2), input broadcast to (n x m) (AddmmBackward0).

    With beta == 0 the values of input are ignored (nan/inf do not propagate), as in PyTorch.
    """
    _need_tensor("addmm", "input", 1, input)
    _need_tensor("addmm", "mat1", 2, mat1)
    _need_tensor("addmm", "mat2", 3, mat2)
    for n_, v_ in (("beta", beta), ("alpha", alpha)):
        if not isinstance(v_, (int, float)):
            raise ArgumentTypeError(f"addmm(): argument '{n_}' must be Number, not {type(v_).__name__}")
    if mat1._data.ndim != 2:
        raise _runtime("mat1 must be a matrix, got " f"{mat1._data.ndim}-D tensor")
    if mat2._data.ndim != 2:
        raise _runtime("mat2 must be a matrix, got " f"{mat2._data.ndim}-D tensor")
    if mat1._data.shape[1] != mat2._data.shape[0]:
        raise _shape_err(
            f"mat1 and mat2 shapes cannot be multiplied ({mat1._data.shape[0]}x{mat1._data.shape[1]} and "
            f"{mat2._data.shape[0]}x{mat2._data.shape[1]})", _MM_HINT)
    target = (mat1._data.shape[0], mat2._data.shape[1])
    shp = input._data.shape
    ok = len(shp) <= 2 and all(s == 1 or s == target[len(target) - len(shp) + i] for i, s in enumerate(shp))
    if not ok:
        lead = len(target) - len(shp)
        for i in range(len(shp) - 1, -1, -1):
            if lead + i >= 0 and shp[i] != 1 and shp[i] != target[lead + i]:
                raise _shape_err(
                    f"The expanded size of the tensor ({target[lead + i]}) must match the existing size ({shp[i]}) at "
                    f"non-singleton dimension {lead + i}.  Target sizes: [{target[0]}, {target[1]}].  Tensor sizes: "
                    f"{list(shp)}")
        raise _runtime(f"expand: the number of sizes provided (2) must be greater or equal to the number of "
                       f"dimensions in the tensor ({len(shp)})")
    dtype = mat1._dtype
    if mat2._dtype is not dtype or input._dtype is not dtype:
        other = mat2._dtype if mat2._dtype is not dtype else input._dtype
        raise _runtime(f"expected m1 and m2 to have the same dtype, but got: {_CPP[dtype.name]} != "
                       f"{_CPP[other.name]}")
    data = None
    if dtype is dt.float32 and alpha == 1 and beta == 1 and mat1._data.shape[1] > 1:
        # PyTorch copies input into the result, then sgemm with beta = 1 adds the product's k blocks to it
        data = _gemm_order.sgemm(mat1._data, mat2._data, _blas_transposed(mat2._data), c=input._data)
    if data is None:
        prod = _mm_data(mat1._data, mat2._data, dtype, exact_k1=True)
        if alpha != 1:
            prod = (prod * alpha).astype(dtype.np, copy=False)
        if beta == 0:
            data = prod
        else:
            data = prod + (input._data if beta == 1 else input._data * beta)
    out, node = record(AddmmBackward0, np.asarray(data, dtype=dtype.np), dtype, (input, mat1, mat2))
    if node is not None:
        node.alpha, node.beta = alpha, beta
        node.cols = (_column_major(mat1._data), _column_major(mat2._data))
        node._save(saved(mat1, mat2._requires_grad), saved(mat2, mat1._requires_grad))
    return out


# --- pieces of the matmul decomposition ------------------------------------------------------------------


def unsafe_view(input: Tensor, shape) -> Tensor:
    """at::_unsafe_view: a reshape of a fresh result that is not tracked as a view (UnsafeViewBackward0)."""
    out, node = record(UnsafeViewBackward0, input._data.reshape(tuple(shape)), input._dtype, (input,))
    if node is not None:
        node.shape = input._data.shape
    return out


class SqueezeBackward4(Node):
    """The in-place ``squeeze_(dim)`` PyTorch applies to the mm result of a 1-d @ 2-d product."""

    __slots__ = ("dim", "shape")
    formula = "self: grad.unsqueeze(dim)"

    def apply(self, grads):
        return (grads[0].unsqueeze(self.dim),)


def _squeeze_inplace0(r: Tensor) -> Tensor:
    """r.squeeze_(0) on a fresh result whose dim 0 has size 1: grad_fn becomes SqueezeBackward4."""
    out, node = record(SqueezeBackward4, r._data.reshape(r._data.shape[1:]), r._dtype, (r,))
    out._version[0] = r._version[0] + 1  # type: ignore[attr-defined]  # the same tensor, changed in place
    if node is not None:
        node.shape = r._data.shape
        node.dim = 0
    return out


def _contiguous(t: Tensor) -> Tensor:
    if t._data.flags.c_contiguous:
        return t
    out, _ = record(CloneBackward0, np.ascontiguousarray(t._data), t._dtype, (t,))
    return out


def _strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides) if a.itemsize else tuple(0 for _ in a.strides)


def _should_fold(t1: Tensor, t2: Tensor) -> bool:
    """at::native::should_fold (no out=): fold the batch of the larger operand into mm/mv?"""
    larger = t1._data.ndim >= t2._data.ndim
    big = t1 if larger else t2
    dim_big = big._data.ndim
    dim_small = t2._data.ndim if larger else t1._data.ndim
    if not (dim_big >= 3 and dim_small <= 2):
        return False
    small_requires_grad = t2._requires_grad if larger else t1._requires_grad
    if small_requires_grad:
        return True
    if t1._data.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    shape = big._data.shape
    st = _strides(big._data)
    if not larger:  # big is tensor2.mT: swap the last two strides/sizes
        shape = shape[:-2] + (shape[-1], shape[-2])
        st = st[:-2] + (st[-1], st[-2])
    for i in range(dim_big - 2):
        if st[i] != st[i + 1] * shape[i + 1]:
            return False
    return True


def _mT(t: Tensor) -> Tensor:
    return transpose(t, -2, -1)


def _matmul(tensor1: Tensor, tensor2: Tensor) -> Tensor:
    d1, d2 = tensor1._data.ndim, tensor2._data.ndim
    if d1 == 0 or d2 == 0:
        raise _runtime(f"both arguments to matmul need to be at least 1D, but they are {d1}D and {d2}D")
    if d1 == 1 and d2 == 1:
        return dot(tensor1, tensor2)
    if d1 == 2 and d2 == 1:
        return mv(tensor1, tensor2)
    if d1 == 1 and d2 == 2:
        return _squeeze_inplace0(mm(unsqueeze(tensor1, 0), tensor2))
    if d1 == 2 and d2 == 2:
        return mm(tensor1, tensor2)
    if _should_fold(tensor1, tensor2):
        transpose_ = d2 > d1
        t1 = _mT(tensor2) if transpose_ else tensor1
        t2 = (_t(tensor1) if d1 == 2 else tensor1) if transpose_ else tensor2
        sizes_1 = t1._data.shape
        output_shape = list(sizes_1[:-1])
        folded = _numel(output_shape)
        t2_is_matrix = t2._data.ndim == 2
        if t2_is_matrix:
            output_shape.append(t2._data.shape[1])
        t1_folded = reshape(t1, (folded, sizes_1[-1]))
        if t2_is_matrix:
            output = unsafe_view(mm(t1_folded, t2), output_shape)
            return _contiguous(_mT(output)) if transpose_ else output
        return unsafe_view(mv(t1_folded, t2), output_shape)
    s1, s2 = tensor1._data.shape, tensor2._data.shape
    n = s1[-2] if d1 > 1 else 1
    m1 = s1[-1]
    batch1 = s1[:max(d1 - 2, 0)]
    m2 = s2[-2] if d2 > 1 else s2[0]
    p = s2[-1] if d2 > 1 else 1
    batch2 = s2[:max(d2 - 2, 0)]
    if d1 == 3 and d2 == 3 and batch1[0] != batch2[0]:
        if batch1[0] == 1 and tensor1._requires_grad:
            return _matmul(squeeze(tensor1, 0), tensor2)
        if batch2[0] == 1 and tensor2._requires_grad:
            return _matmul(tensor1, squeeze(tensor2, 0))
    try:
        output_shape = list(np.broadcast_shapes(batch1, batch2))
    except ValueError:
        raise shape_error(batch1, batch2) from None
    prod = _numel(output_shape)
    check_numel(prod * n * max(m1, p))
    t1e = reshape(expand(tensor1, tuple(output_shape) + (n, m1)), (prod, n, m1))
    vector_rhs = d2 == 1
    if vector_rhs:
        t2e = unsqueeze(reshape(expand(tensor2, tuple(output_shape) + (m2,)), (prod, m2)), 2)
    else:
        t2e = reshape(expand(tensor2, tuple(output_shape) + (m2, p)), (prod, m2, p))
    if d1 > 1:
        output_shape.append(n)
    if d2 > 1:
        output_shape.append(p)
    r = bmm(t1e, t2e)
    if vector_rhs:
        r = squeeze(r, -1)
    return unsafe_view(r, output_shape)


def matmul(input, other):
    """Matrix product with PyTorch's broadcasting rules (torch.matmul / ``@``).

    1-d @ 1-d -> dot (DotBackward0); 2-d @ 1-d -> mv (MvBackward0); 1-d @ 2-d ->
    unsqueeze/mm/squeeze_ (SqueezeBackward4); 2-d @ 2-d -> mm (MmBackward0);
    n-d with a 1-d/2-d operand -> folded into mm/mv when PyTorch folds
    (UnsafeViewBackward0); otherwise broadcast batches through bmm
    (UnsafeViewBackward0 over BmmBackward0).  The exact chain of views/copies
    PyTorch's ``_matmul_impl`` builds is reproduced.
    """
    _need_tensor("matmul", "input", 1, input)
    _need_tensor("matmul", "other", 2, other)
    return _matmul(input, other)


def _matmul_op(self, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    return _matmul(self, other)


def _rmatmul_op(self, other):
    if not isinstance(other, Tensor):
        return NotImplemented
    return _matmul(other, self)


# --- outer ---------------------------------------------------------------------------------------------


def outer(input, vec2):
    """Outer product of two 1-d tensors (PyTorch: input.reshape(-1, 1) * vec2, so MulBackward0)."""
    _need_tensor("outer", "input", 1, input)
    _need_tensor("outer", "vec2", 2, vec2)
    if input._data.ndim != 1:
        raise _runtime(f"outer: Expected 1-D argument self, but got {input._data.ndim}-D")
    if vec2._data.ndim != 1:
        raise _runtime(f"outer: Expected 1-D argument vec2, but got {vec2._data.ndim}-D")
    check_numel(input._data.shape[0] * vec2._data.shape[0])
    return reshape(input, (input._data.shape[0], 1)) * vec2


# --- F.linear --------------------------------------------------------------------------------------------


def _flatten_nd_linear(input: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
    sizes = input._data.shape
    flat = _numel(sizes[:-1])
    inp = reshape(input, (flat, sizes[-1]))
    result = addmm(bias, inp, _t(weight))
    return result.view(tuple(sizes[:-1]) + (result._data.shape[1],))


def linear(input, weight, bias=None):
    """y = input @ weight.T + bias (torch.nn.functional.linear), decomposed as at::native::linear.

    2-d input with bias: AddmmBackward0; contiguous input with a 1-d bias (or 3-d input): ViewBackward0 over
    AddmmBackward0; no bias: matmul(input, weight.t()) (MmBackward0 for 2-d input); otherwise matmul then an
    in-place add of the bias (AddBackward0).
    """
    _need_tensor("linear", "input", 1, input)
    _need_tensor("linear", "weight", 2, weight)
    if bias is not None:
        _need_tensor("linear", "bias", 3, bias)
    nd = input._data.ndim
    if weight._data.ndim > 2:
        raise _runtime(f"t() expects a tensor with <= 2 dimensions, but self is {weight._data.ndim}D")
    if nd == 2 and bias is not None:
        return addmm(bias, input, _t(weight))
    if bias is not None and input._data.flags.c_contiguous and (nd == 3 or bias._data.ndim == 1) and nd >= 1:
        return _flatten_nd_linear(input, weight, bias)
    output = _matmul(input, _t(weight))
    if bias is not None:
        output = output.add_(bias)
    return output


# --- registration ------------------------------------------------------------------------------------------


def _f64(*shape, lo=-1.0, hi=1.0, seed=0):
    from .creation import tensor

    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    from ..autograd import dtypes as dt

    return tensor(rng.uniform(lo, hi, size=shape).tolist(), dtype=dt.float64, requires_grad=True)


def _sample_mm():
    return (_f64(2, 3), _f64(3, 4, seed=1)), {}


def _sample_mv():
    return (_f64(2, 3), _f64(3, seed=1)), {}


def _sample_dot():
    return (_f64(3), _f64(3, seed=1)), {}


def _sample_bmm():
    return (_f64(2, 2, 3), _f64(2, 3, 2, seed=1)), {}


def _sample_matmul():
    return (_f64(2, 1, 2, 3), _f64(3, 3, 2, seed=1)), {}


def _sample_outer():
    return (_f64(3), _f64(2, seed=1)), {}


def _sample_addmm():
    return (_f64(2), _f64(3, 4, seed=1), _f64(4, 2, seed=2)), {"beta": 0.5, "alpha": 2.0}


def _sample_linear():
    return (_f64(2, 4, 3), _f64(2, 3, seed=1), _f64(2, seed=2)), {}


_MATMUL_NODES = ("DotBackward0", "MvBackward0", "SqueezeBackward4", "MmBackward0", "UnsafeViewBackward0",
                 "BmmBackward0", "CloneBackward0")
register("matmul", matmul, "linalg", methods=("matmul",), nodes=_MATMUL_NODES,
         formula="decomposed as PyTorch's _matmul_impl into dot / mv / mm / bmm plus views", sample=_sample_matmul)
register("matmul_op", _matmul_op, "linalg", torch=(), methods=("__matmul__",), nodes=_MATMUL_NODES,
         formula="self @ other: matmul")
register("rmatmul", _rmatmul_op, "linalg", torch=(), methods=("__rmatmul__",), nodes=_MATMUL_NODES,
         formula="other @ self: matmul")
register("mm", mm, "linalg", nodes=("MmBackward0",), formula=MmBackward0.formula, sample=_sample_mm)
register("mv", mv, "linalg", nodes=("MvBackward0",), formula=MvBackward0.formula, sample=_sample_mv)
register("dot", dot, "linalg", nodes=("DotBackward0",),
         formula=DotBackward0.formula, sample=_sample_dot)
register("bmm", bmm, "linalg", nodes=("BmmBackward0",), formula=BmmBackward0.formula, sample=_sample_bmm)
register("outer", outer, "linalg", torch=("outer", "ger"), methods=("outer", "ger"), nodes=("MulBackward0",),
         formula="input.reshape(-1, 1) * vec2 (MulBackward0 over ViewBackward0)", sample=_sample_outer)
register("addmm", addmm, "linalg", nodes=("AddmmBackward0",), formula=AddmmBackward0.formula, sample=_sample_addmm)
register("linear", linear, "linalg", torch=(), F=("linear",), methods=(),
         nodes=("AddmmBackward0", "ViewBackward0", "MmBackward0", "UnsafeViewBackward0", "SqueezeBackward4",
                "AddBackward0"),
         formula="input @ weight.t() + bias (addmm / matmul as at::native::linear)", sample=_sample_linear)
