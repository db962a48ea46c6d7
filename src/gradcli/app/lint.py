"""``gradcli lint FILE``: autograd mistakes found before running, without computing anything.

The file is parsed and checked like ``run`` does, then *interpreted abstractly*:
every tensor is an :class:`AbsTensor` that knows only what autograd cares about
(requires_grad, is_leaf, retains_grad, its shape when the source fixes it, its
version counter, and the graph node that made it); every op makes an
:class:`AbsNode` that knows which tensors it saved for backward (and at which
version) when the op is in the table of :data:`SAVES`; a backward walks the
abstract graph, checks it, and marks the nodes it freed.  No numbers are
computed.

Findings (``Finding.kind``) and what ``run`` then does:

========================= ==================================================================
second_backward           a backward through nodes an earlier backward freed (no retain_graph)
                          -> run fails with ``second_backward`` at the second backward
leaf_inplace              an in-place write to a leaf that requires grad (or a view of one)
                          with grad on -> run fails with ``leaf_inplace`` at that line
inplace_saved             an in-place write to a tensor saved for backward -> run fails with
                          ``inplace_modified`` at the backward that needs it
non_scalar_backward       ``backward()`` / ``autograd.grad`` without gradient on a tensor whose
                          shape is not one element -> run fails with ``non_scalar_backward``
non_leaf_grad             ``.grad`` read on a non-leaf without ``retain_grad()`` -> run warns
                          ``non_leaf_grad`` at that line (the value is None)
grad_accumulates          a backward in a loop with no zeroing of ``.grad`` in the loop:
                          ``.grad`` sums over the iterations (no error)
non_leaf_requires_grad    ``requires_grad_(False)`` / ``.requires_grad = False`` on a non-leaf
                          -> run fails with ``non_leaf_requires_grad``
data_use                  ``.data``: a tensor outside autograd whose in-place changes escape the
                          version checks (no error: silently wrong gradients are possible)
unknown_name              a name neither gradcli nor PyTorch 2.13 has on a module or tensor (a typo:
                          ``y.summ()``) -> run fails with ``runtime`` (AttributeError) at that line
requires_grad_on_result   ``loss.requires_grad = True`` / ``requires_grad_()`` on a tensor computed under
                          no_grad or through detach() from tensors that require grad, or
                          ``Variable(loss, requires_grad=True)``: it becomes a new leaf, so backward runs
                          but never reaches them (the forums' "fix" for no_grad_fn)
attribute_typo            ``x.require_grad = True``, ``x.retain_graph = True`` ...: a new Python attribute on
                          the tensor, not the autograd setting (TorchFix TOR002)
zero_grad_missing         an optimizer's ``step()`` in a loop with ``backward()`` and no ``zero_grad()``:
                          each step uses the gradients summed over the iterations (no error)
eval_keeps_grad           ``y = model(x)`` after ``model.eval()`` with grad on: eval() is not no_grad, ``y``
                          still has a grad_fn (no error)
retain_graph_unused       ``backward(retain_graph=True)`` whose graph no later backward uses: memory kept for
                          nothing (the forums' blanket "fix" for second_backward)
========================= ==================================================================

Where the analysis cannot decide (a branch on a value, a loop whose count is
not in the source, an op outside the table, a shape not fixed by the source)
the finding says "may" (``certain`` False).  ``Finding.expect`` states what
``run`` does when the finding is certain; tests check that it does.  No rich here.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field
from typing import Any, Optional

from .srcinfo import SourceInfo, dotted, grad_switch_of

__all__ = ["Finding", "KINDS", "lint_source", "LintResult", "SAVES", "SCHEMA"]

SCHEMA = "gradcli.lint/1"

_VARIABLE = "torch.autograd.Variable"

KINDS = ("second_backward", "leaf_inplace", "inplace_saved", "non_scalar_backward", "non_leaf_grad",
         "grad_accumulates", "non_leaf_requires_grad", "data_use", "unknown_name", "requires_grad_on_result",
         "attribute_typo", "zero_grad_missing", "eval_keeps_grad", "retain_graph_unused")

#: what an op saves for its backward (as gradcli's engine and PyTorch do):
#: "none" nothing; "result" its output; "self" its first tensor input; "inputs" every input (tensors and
#: constant operands); "mul" / "div": mul's rule (self if other requires grad, other if self requires grad),
#: div's (other always, self when other requires grad).  Ops not listed: unknown ("may").
SAVES: dict[str, str] = {}
for _n in ("add", "sub", "neg", "negative", "sum", "mean", "view", "reshape", "flatten", "squeeze", "unsqueeze",
           "t", "transpose", "permute", "expand", "expand_as", "contiguous", "clone", "cat", "stack", "split",
           "chunk", "select", "narrow", "view_as", "reshape_as", "unbind", "movedim", "swapaxes", "sign",
           "to", "float", "double", "half", "getitem", "repeat", "positive", "rsub", "diag", "tril", "triu",
           "trace", "cumsum", "flip", "roll", "floor", "ceil", "round",
           "broadcast_to", "squeeze_", "unsqueeze_", "t_", "transpose_",
           "trunc", "frac", "copy_", "zero_", "fill_", "add_", "sub_", "neg_", "detach"):
    SAVES[_n] = "none"
for _n in ("exp", "sigmoid", "tanh", "relu", "sqrt", "rsqrt", "reciprocal", "softmax", "log_softmax", "expm1",
           "exp2", "tan", "exp_", "sigmoid_", "tanh_", "relu_", "sqrt_"):
    SAVES[_n] = "result"
for _n in ("log", "log1p", "log2", "log10", "sin", "cos", "abs", "clamp", "clip", "clamp_min", "clamp_max",
           "square", "atan", "asin", "acos", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "gelu", "silu",
           "softplus", "leaky_relu", "hardtanh", "relu6", "mish", "logsigmoid", "pow", "elu", "sin_", "cos_",
           "log_", "abs_", "clamp_", "pow_"):
    SAVES[_n] = "self"
for _n in ("mse_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "maximum", "minimum", "atan2"):
    SAVES[_n] = "inputs"
for _n in ("norm", "std", "prod", "max", "min", "amax", "amin", "logsumexp", "cumprod"):
    SAVES[_n] = "inputs+result"
# index / condition tensors are saved (an in-place change to them fails the backward), gather's input too
SAVES["gather"] = "inputs"
SAVES["index_select"] = "not_first"
SAVES["masked_fill"] = "not_first"
SAVES["where"] = "self"  # torch.where(condition, x, y): the condition
SAVES["hypot"] = "own+result"  # each operand only for its own derivative (g * x / result), and the result
SAVES["var"] = "self"  # VarBackward0 reads only its input
SAVES["div_rounded"] = "none"  # div(..., rounding_mode=...): DivBackward2, zero gradients, nothing saved
# composites whose nodes save intermediate values (so a second backward fails) but none of the caller's tensors
for _n in ("cross_entropy", "nll_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div"):
    SAVES[_n] = "temps"
for _n in ("mul", "matmul", "mm", "bmm", "mv", "dot", "outer", "linear", "mul_", "inner", "vdot"):
    SAVES[_n] = "mul"
for _n in ("div", "true_divide", "divide", "div_"):
    SAVES[_n] = "div"

_VIEWS = frozenset({"view", "reshape", "flatten", "squeeze", "unsqueeze", "t", "transpose", "permute", "expand",
                    "expand_as", "select", "narrow", "view_as", "reshape_as", "unbind", "split", "chunk",
                    "movedim", "swapaxes", "getitem", "T", "mT", "diagonal", "unfold", "unflatten"})
_REDUCTIONS = frozenset({"sum", "mean", "prod", "max", "min", "amax", "amin", "norm", "std", "var", "logsumexp",
                         "all", "any", "median", "nansum", "nanmean", "count_nonzero", "dot", "vdot", "inner",
                         "trace", "dist"})
_LOSSES = frozenset({"mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
                     "cross_entropy", "nll_loss", "smooth_l1_loss", "huber_loss", "kl_div"})
_ELEMENTWISE = frozenset({
    "div_rounded", "add", "sub", "mul", "div", "true_divide", "divide", "pow", "neg", "negative", "abs", "sqrt", "exp", "log",
    "log1p", "log2", "log10", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "clamp", "clip", "clamp_min",
    "clamp_max", "maximum", "minimum", "where", "sign", "reciprocal", "square", "rsqrt", "expm1", "exp2",
    "atan", "asin", "acos", "sinh", "cosh", "erf", "gelu", "silu", "softplus", "leaky_relu", "elu", "hardtanh",
    "relu6", "mish", "logsigmoid", "floor", "ceil", "round", "trunc", "frac", "atan2", "hypot", "remainder",
    "fmod", "floor_divide", "softmax", "log_softmax", "clone", "contiguous", "to", "float", "double", "half",
    "positive", "masked_fill", "cumsum", "cumprod", "flip", "roll", "rsub", "detach", "tril", "triu",
})
_CREATION = frozenset({"tensor", "ones", "zeros", "full", "empty", "randn", "rand", "randint", "arange",
                       "linspace", "eye", "ones_like", "zeros_like", "full_like", "empty_like", "randn_like",
                       "rand_like", "as_tensor", "from_numpy", "logspace", "randperm", "scalar_tensor"})
#: ops whose result never requires grad (comparisons, predicates, integer results)
_NONDIFF = frozenset({"lt", "le", "gt", "ge", "eq", "ne", "less", "less_equal", "greater", "greater_equal",
                      "equal", "not_equal", "isinf", "isnan", "isfinite", "isposinf", "isneginf", "isclose",
                      "logical_not", "logical_and", "logical_or", "logical_xor", "argmax", "argmin", "argsort",
                      "nonzero", "all", "any", "count_nonzero", "bitwise_not", "bitwise_and", "bitwise_or",
                      "bitwise_xor", "signbit", "randint_like", "bucketize", "searchsorted", "allclose",
                      "is_nonzero", "zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
                      "randn_like", "heaviside", "isin"})
#: ops whose result is surely a new non-leaf when an input requires grad (never the input itself)
_KNOWN = ((frozenset(SAVES) | _ELEMENTWISE | _REDUCTIONS | _VIEWS | _LOSSES | {"getitem", "rsub", "neg", "op"})
          - {"contiguous", "to", "float", "double", "half", "type", "sum_to_size", "positive", "floor_divide"})
_NOT_INPLACE = frozenset({"requires_grad_", "detach_", "retain_grad", "share_memory_", "register_hook",
                          "backward", "zero_grad"})
_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.MatMult: "matmul",
           ast.Pow: "pow", ast.Mod: "remainder", ast.FloorDiv: "floor_divide"}
_IBINOPS = {"add": "add_", "sub": "sub_", "mul": "mul_", "div": "div_", "pow": "pow_", "matmul": "matmul_",
            "remainder": "remainder_", "floor_divide": "floor_divide_"}


# --- three-valued logic ----------------------------------------------------------------------------
def t_or(*vs: Optional[bool]) -> Optional[bool]:
    if any(v is True for v in vs):
        return True
    if all(v is False for v in vs):
        return False
    return None


def t_and(*vs: Optional[bool]) -> Optional[bool]:
    if any(v is False for v in vs):
        return False
    if all(v is True for v in vs):
        return True
    return None


def t_not(v: Optional[bool]) -> Optional[bool]:
    return None if v is None else not v


def t_merge(a: Optional[bool], b: Optional[bool]) -> Optional[bool]:
    return a if a == b else None


# --- the abstract domain -------------------------------------------------------------------------------
class _Unknown:
    def __repr__(self) -> str:
        return "?"


UNK = _Unknown()


class Box:
    """A version counter (shared by a tensor, its views and its detach()es)."""

    __slots__ = ("version", "bumps")

    def __init__(self) -> None:
        self.version = 0
        self.bumps: list[tuple] = []  # (line, col, version after, sure, op)


_SEQ = itertools.count()


class AbsNode:
    __slots__ = ("op", "line", "col", "parents", "saves", "saves_any", "freed", "freed_sure", "tensor", "phi",
                 "known", "seq")

    def __init__(self, op: str, line: int, col: int, parents: list, tensor: Any = None, phi: bool = False) -> None:
        self.op = op
        self.line = line
        self.col = col
        self.parents = parents  # [AbsNode]
        self.saves: list[tuple] = []  # (box, version, sure, label)
        self.saves_any: Optional[bool] = False
        self.freed: Optional[tuple] = None  # (line, col) of the backward that freed it
        self.freed_sure = False
        self.tensor = tensor  # the leaf of an AccumulateGrad node
        self.phi = phi  # a join of two histories (after a branch): what is behind it is uncertain
        self.known = True  # an op of the tables: its backward surely runs on to its inputs
        self.seq = next(_SEQ)  # creation order, as PyTorch's sequence_nr


class AbsTensor:
    __slots__ = ("rg", "leaf", "shape", "dtype", "node", "box", "retains", "base", "acc", "grad", "name",
                 "base_sure", "nograd_view", "inference", "cut", "releafed", "opaque")

    def __init__(self, rg: Optional[bool], leaf: Optional[bool], shape: Any, box: Optional[Box] = None,
                 node: Optional[AbsNode] = None, dtype: Optional[str] = None) -> None:
        self.rg = rg
        self.leaf = leaf
        self.shape = shape  # tuple of ints, or None (unknown)
        self.dtype = dtype
        self.node = node
        self.box = box if box is not None else Box()
        self.retains: Optional[bool] = False
        self.base: Optional[AbsTensor] = None
        self.base_sure = True  # False: it may be a copy rather than a view of base (an index not fixed by the source)
        self.nograd_view: Optional[bool] = False  # a view made while grad mode was off (None: may have been)
        self.acc: Optional[AbsNode] = None
        self.grad: Any = None
        self.name: Optional[str] = None
        self.inference = False  # created inside inference_mode (an inference tensor)
        # computed from a tensor that requires grad with its history cut (under no_grad, through detach(), from
        # such a tensor): (line, how) of the cut, or None
        self.cut: Optional[tuple] = None
        # requires_grad switched on after such a cut: (the statement, the cut, sure), reported by a backward
        # that reaches this new leaf (requires_grad_on_result)
        self.releafed: Optional[tuple] = None
        # computed from a value the analysis does not know (a module's output, an unknown call): it may have
        # a history its rg does not show
        self.opaque = False

    def numel(self) -> Optional[int]:
        if self.shape is None:
            return None
        n = 1
        for s in self.shape:
            n *= s
        return n


@dataclass
class Func:
    node: ast.FunctionDef
    scope: "Scope"


@dataclass
class Namespace:
    path: str


class Scope:
    def __init__(self, parent: Optional["Scope"] = None) -> None:
        self.vars: dict[str, Any] = {}
        self.parent = parent

    def get(self, name: str) -> Any:
        s: Optional[Scope] = self
        while s is not None:
            if name in s.vars:
                return s.vars[name]
            s = s.parent
        if name in ("torch", "F"):
            return Namespace("torch" if name == "torch" else "torch.nn.functional")
        return UNK


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


@dataclass
class Finding:
    """One autograd mistake found before running.

    certain: False when the analysis could not decide ("may"); expect: what ``run`` does at the finding
    when it is certain: ``{"error": KIND, "line": N}``, ``{"warning": KIND, "line": N}``,
    ``{"accumulates": [names], "iterations": N|None}`` or None (no observable failure).
    """

    kind: str
    line: int
    col: int
    certain: bool
    message: str
    hint: str
    expect: Optional[dict] = None
    related: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "line": self.line, "col": self.col, "certain": self.certain,
                "message": self.message, "hint": self.hint, "expect": self.expect,
                "related": [dict(r) for r in self.related]}


@dataclass
class LintResult:
    file: str
    findings: list[Finding]
    error: Any = None  # the static error (syntax/unsupported/limit) when the file could not be checked


def _shape_of_literal(v: Any) -> Optional[tuple]:
    if isinstance(v, (int, float, bool)):
        return ()
    if isinstance(v, (list, tuple)):
        if not v:
            return (0,)
        inner = _shape_of_literal(v[0])
        return None if inner is None else (len(v),) + inner
    return None


def _broadcast(a: Any, b: Any) -> Any:
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(pa, pb):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return tuple(out)


class Linter:
    """The abstract interpreter of one file."""

    MAX_CALL_DEPTH = 6
    MAX_UNROLL = 8

    def __init__(self, source: str, filename: str) -> None:
        self.src = SourceInfo(source)
        self.file = filename
        self.findings: dict[tuple, Finding] = {}
        self.grad_on: Optional[bool] = True
        self.inference = False  # inside torch.inference_mode(): nothing records a graph
        self.hooked = False  # inside saved-tensor hooks (torch.autograd.graph): saves are not version-checked
        self.sure = True
        self.depth = 0
        self.loops: list[dict] = []
        # backward(retain_graph=True) calls: the graph nodes they kept, and whether a later backward used them
        self.retained_graphs: list[dict] = []
        self.backward_calls: set = set()  # the call nodes the analysis ran as backward / autograd.grad
        self.module = Scope()
        self.stmt: Optional[ast.stmt] = None

    # --- findings ---------------------------------------------------------------------------------
    def report(self, kind: str, node: ast.AST, certain: bool, message: str, hint: str,
               expect: Optional[dict] = None, related: Optional[list] = None, line: Optional[int] = None,
               col: Optional[int] = None) -> None:
        line = line if line is not None else node.lineno
        col = col if col is not None else node.col_offset
        key = (kind, line)
        old = self.findings.get(key)
        if old is not None and (old.certain or not certain):
            return
        if not certain:
            # a plain first word is lowercased after "May: "; a code name (``Variable(...)``) is kept as written
            first = message.split(" ", 1)[0]
            message = "May: " + (message[0].lower() + message[1:] if first.isalpha() else message)
        self.findings[key] = Finding(kind, line, col, certain, message, hint, expect if certain else None,
                                     list(related or []))

    def rel(self, role: str, line: Optional[int], col: Optional[int], text: str) -> dict:
        return {"role": role, "line": line, "col": col, "text": text}

    # --- entry ------------------------------------------------------------------------------------------
    def run(self) -> list[Finding]:
        tree = self.src.tree
        if tree is None:
            return []
        try:
            self.block(tree.body, self.module)
        except _Return:
            pass
        except RecursionError:  # pragma: no cover - deeply nested files: report what was found
            pass
        self.data_uses(tree)
        self.steps_without_zero_grad(tree)
        self.eval_as_no_grad(tree)
        # a call that may run a backward the analysis did not follow (a bare grad() imported from
        # torch.autograd, torch.func, gradcheck, a checkpoint...) could be the one that reuses a kept graph
        unfollowed = any(isinstance(n, ast.Call) and id(n) not in self.backward_calls and _may_backward(n)
                         for n in ast.walk(tree))
        for rec in self.retained_graphs:
            if rec["used"] is not True and not unfollowed:  # (no finding at all where one may reuse it)
                call = rec["call"]
                self.report(
                    "retain_graph_unused", call, rec["sure"] and rec["used"] is False,
                    f"This {rec['kind']} keeps its graph (retain_graph=True), but no later backward or "
                    "autograd.grad goes through it: the saved tensors stay in memory for nothing.",
                    "Drop retain_graph=True here (it is needed only when a second backward reuses the same graph).",
                    {"unused": True}, line=call.lineno, col=call.col_offset)
        return sorted(self.findings.values(), key=lambda f: (f.line, f.col, f.kind))

    def eval_as_no_grad(self, tree: ast.AST) -> None:
        """``eval_keeps_grad``: ``y = model(x)`` after ``model.eval()`` with grad recording on: eval() only
        switches Dropout/BatchNorm-like layers to evaluation behaviour (Module.train(False)), the call still
        records a graph, so ``y`` has a grad_fn.  Top-level statements only; certain when the module is bound
        at top level from a torch.nn layer or a file class, nothing in the file freezes parameters, and the
        call is not under a grad switch."""
        body = getattr(tree, "body", [])
        modules: set = set()
        classes = {st.name for st in body if isinstance(st, ast.ClassDef)}
        # only a switch that may turn requires_grad off can make the call's result not require grad
        frozen = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "requires_grad_"
                     and not _turns_on(n.args[0] if n.args else None, bare=True)
                     or isinstance(n, ast.Assign) and not _turns_on(n.value) and any(
                         isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in n.targets)
                     or isinstance(n, (ast.AugAssign, ast.AnnAssign)) and isinstance(n.target, ast.Attribute)
                     and n.target.attr == "requires_grad"
                     or isinstance(n, ast.Call) and (dotted(n.func) or "").endswith("set_grad_enabled")
                     for n in ast.walk(tree))
        evaluated: dict = {}
        for st in body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and isinstance(st.value, ast.Call):
                d = dotted(st.value.func) or ""
                if d.startswith(("nn.", "torch.nn.")) or d in classes:
                    modules.add(st.targets[0].id)
                    evaluated.pop(st.targets[0].id, None)
            if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
                    and isinstance(st.value.func.value, ast.Name) and st.value.func.attr in ("eval", "train"):
                name = st.value.func.value.id
                if st.value.func.attr == "eval" and not st.value.args:
                    evaluated[name] = st.lineno
                else:
                    evaluated.pop(name, None)
                continue
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) \
                    and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name) \
                    and st.value.func.id in evaluated:
                m, out, at = st.value.func.id, st.targets[0].id, evaluated[st.value.func.id]
                self.report(
                    "eval_keeps_grad", st, m in modules and not frozen and self.sure,
                    f"`{m}.eval()` (line {at}) switches layers such as Dropout and BatchNorm to their evaluation "
                    f"behaviour; it does not turn gradient recording off: this call still records a graph, so "
                    f"`{out}` has a grad_fn and keeps the activations for a backward.",
                    "For inference, also run it under `with torch.no_grad():` (or torch.inference_mode()).",
                    {"tensor": out, "eval_line": at}, related=[self.rel("eval", at, None, f"{m}.eval()")])

    def steps_without_zero_grad(self, tree: ast.AST) -> None:
        """``zero_grad_missing``: a loop that calls ``backward()`` and an optimizer's ``step()`` but nothing that
        resets the gradients (``zero_grad()``, ``.grad = None``, ``.grad.zero_()``): each step uses the sum of
        every iteration's gradients so far (torch.optim reads ``p.grad`` as it is).  Certain for a top-level
        ``for _ in range(N)``, N >= 2, whose body has no branch or ``break``; else "may"."""
        optimizers = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and len(n.targets) == 1 \
                    and isinstance(n.targets[0], ast.Name):
                d = dotted(n.value.func) or ""
                if d.startswith(("torch.optim.", "optim.")) and "lr_scheduler" not in d:
                    optimizers.add(n.targets[0].id)
        if not optimizers:
            return
        top = set(id(st) for st in getattr(tree, "body", []))
        for loop in ast.walk(tree):
            if not isinstance(loop, (ast.For, ast.While)):
                continue
            calls = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)]
            steps = [c for c in calls if c.func.attr == "step" and isinstance(c.func.value, ast.Name)
                     and c.func.value.id in optimizers]
            if not steps or not any(c.func.attr == "backward" for c in calls):
                continue
            if _zeroed_names(loop) is None or any(c.func.attr == "zero_grad" for c in calls) or \
                    any(_grad_base(c.func.value) for c in calls if c.func.attr in ("zero_", "fill_")) or \
                    any(isinstance(n, ast.Attribute) and n.attr == "grad" and isinstance(n.ctx, ast.Store)
                        for n in ast.walk(loop)):
                continue
            count = _range_count(loop)
            plain = not any(isinstance(n, (ast.If, ast.Break, ast.Continue, ast.Try, ast.While)) for n in
                            ast.walk(loop) if n is not loop)
            certain = id(loop) in top and count is not None and count >= 2 and plain
            step = steps[0]
            name = step.func.value.id
            self.report(
                "zero_grad_missing", step, certain,
                f"`{name}.step()` runs in a loop that never resets the gradients: backward() adds each "
                "iteration's gradient into .grad, so every step after the first uses the sum of all the "
                "iterations so far, not this iteration's gradient.",
                f"Call {name}.zero_grad() in the loop, before the backward (or after the step).",
                {"optimizer": name, "iterations": count}, line=step.lineno, col=step.col_offset)

    def data_uses(self, tree: ast.AST) -> None:
        parent: dict = {}
        for n in ast.walk(tree):
            for c in ast.iter_child_nodes(n):
                parent[c] = n
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Attribute) and n.attr == "data"):
                continue
            up = parent.get(n)
            changes = (isinstance(n.ctx, ast.Store)
                       or (isinstance(up, ast.Attribute) and up.attr.endswith("_") and isinstance(parent.get(up),
                                                                                              ast.Call))
                       or (isinstance(up, ast.Subscript) and isinstance(up.ctx, ast.Store)))
            if isinstance(up, ast.AugAssign) and up.target is n:
                changes = True
            if changes:
                what = "Assigning .data" if isinstance(n.ctx, ast.Store) and not isinstance(up, ast.AugAssign) \
                    else "Changing a tensor through .data"
                message = (f"{what} works on the tensor's values outside autograd: the change is not "
                           "version-checked, so a backward that needs the old values silently computes wrong "
                           "gradients instead of failing.")
            else:
                message = (".data reads the tensor's values outside autograd: the result has no history and "
                           "does not require grad, and an in-place change made through it later would escape "
                           "the version checks (silently wrong gradients instead of an error).")
            self.report(
                "data_use", n, True, message,
                "Use x.detach() for a value without history (in-place changes stay checked), and "
                "`with torch.no_grad():` for updates such as w -= lr * w.grad.",
                None, line=n.lineno, col=n.col_offset)

    # --- statements ---------------------------------------------------------------------------------------
    def block(self, body: list, scope: Scope) -> None:
        for st in body:
            self.stmt = st
            self.statement(st, scope)

    def statement(self, st: ast.stmt, scope: Scope) -> None:
        m = getattr(self, "s_" + type(st).__name__, None)
        if m is not None:
            m(st, scope)
        else:
            for child in ast.iter_child_nodes(st):
                if isinstance(child, ast.expr):
                    self.ev(child, scope)

    def s_Expr(self, st: ast.Expr, scope: Scope) -> None:
        v = st.value
        if isinstance(v, ast.Call):
            sw = grad_switch_of(v, "call")
            if sw is not None and dotted(v.func).endswith("set_grad_enabled"):
                self.grad_on = True if sw.kind == "enable_grad" else (False if sw.off else None)
                return
        self.ev(v, scope)

    def s_Assign(self, st: ast.Assign, scope: Scope) -> None:
        value = self.ev(st.value, scope)
        for tgt in st.targets:
            self.store(tgt, value, scope, st)

    def s_AnnAssign(self, st: ast.AnnAssign, scope: Scope) -> None:
        if st.value is not None:
            self.store(st.target, self.ev(st.value, scope), scope, st)

    def s_AugAssign(self, st: ast.AugAssign, scope: Scope) -> None:
        op = _BINOPS.get(type(st.op), "op")
        rhs = self.ev(st.value, scope)
        if isinstance(st.target, ast.Name):
            cur = scope.get(st.target.id)
            if isinstance(cur, AbsTensor):
                self.inplace(cur, _IBINOPS.get(op, op + "_"), [rhs], st)
                return
            self.assign_name(st.target.id, self.binop(op, cur, rhs, st), scope)
            return
        if isinstance(st.target, ast.Subscript):
            base = self.ev(st.target.value, scope)
            self.ev(st.target.slice, scope)
            if isinstance(base, AbsTensor):
                view = self.view_of(base, "getitem", None, st)
                self.inplace(view, _IBINOPS.get(op, op + "_"), [rhs], st)
            return
        if isinstance(st.target, ast.Attribute):
            obj = self.ev(st.target.value, scope)
            if isinstance(obj, AbsTensor) and st.target.attr == "grad":
                g = self.grad_value(obj)
                if isinstance(g, AbsTensor):
                    self.inplace(g, _IBINOPS.get(op, op + "_"), [rhs], st)

    def s_If(self, st: ast.If, scope: Scope) -> None:
        test = self.ev(st.test, scope)
        if isinstance(test, bool) or (isinstance(test, (int, float)) and not isinstance(test, bool)):
            self.block(st.body if test else st.orelse, scope)
            return
        saved_sure, before = self.sure, dict(scope.vars)
        self.sure = False
        self.block(st.body, scope)
        after_body = dict(scope.vars)
        scope.vars = dict(before)
        self.block(st.orelse, scope)
        after_else = scope.vars
        merged = {}
        for k in set(after_body) | set(after_else):
            a, b = after_body.get(k, UNK), after_else.get(k, UNK)
            merged[k] = a if a is b else self.join(a, b, st)
        scope.vars = merged
        self.sure = saved_sure

    def iterations(self, it: Any) -> tuple[Optional[int], Optional[list]]:
        """(count, values) of a loop's iterable when the source fixes them."""
        if isinstance(it, (list, tuple)):
            return len(it), list(it)
        if isinstance(it, range):
            return len(it), None
        return None, None

    def s_For(self, st: ast.For, scope: Scope) -> None:
        it = self.ev(st.iter, scope)
        count, values = self.iterations(it)
        self.loop(st, scope, count, values, target=st.target)

    def s_While(self, st: ast.While, scope: Scope) -> None:
        test = self.ev(st.test, scope)
        if test is False or test == 0:
            return
        self.loop(st, scope, None, None, target=None)

    def loop(self, st: Any, scope: Scope, count: Optional[int], values: Optional[list], target: Any) -> None:
        saved_sure = self.sure
        ctx: dict = {"node": st, "backwards": []}
        self.loops.append(ctx)
        try:
            if values is not None and count is not None and count <= self.MAX_UNROLL:
                for v in values:
                    if target is not None:
                        self.store(target, v, scope, st)
                    self.body_once(st, scope)
            else:
                passes = 2 if count is None or count >= 2 else count
                if count is None:
                    self.sure = False
                for _ in range(passes):
                    if target is not None:
                        self.store(target, UNK, scope, st)
                    self.body_once(st, scope)
        finally:
            self.loops.pop()
            self.sure = saved_sure
        self.check_accumulation(st, ctx, count, scope)

    def body_once(self, st: Any, scope: Scope) -> None:
        try:
            self.block(st.body, scope)
        except _Break:
            pass

    def s_Break(self, st: ast.Break, scope: Scope) -> None:
        raise _Break()

    def s_Continue(self, st: ast.Continue, scope: Scope) -> None:
        raise _Break()

    def switch(self, sw: Any) -> None:
        """Apply a grad-mode switch: inference mode stays on inside it whatever set_grad_enabled says."""
        self.grad_on = True if sw.kind == "enable_grad" else (False if sw.off else None)
        if sw.kind == "inference_mode":
            self.inference = True

    def s_With(self, st: ast.With, scope: Scope) -> None:
        saved = self.grad_on, self.inference, self.hooked
        for item in st.items:
            sw = grad_switch_of(item.context_expr, "with")
            if sw is not None:
                self.switch(sw)
            else:
                ce = item.context_expr
                fn = ce.func if isinstance(ce, ast.Call) else ce
                if isinstance(fn, ast.Attribute) and fn.attr in ("saved_tensors_hooks", "save_on_cpu",
                                                                 "allow_mutation_on_saved_tensors"):
                    # PyTorch checks no version through saved-tensor hooks (allow_mutation_on_saved_tensors
                    # is a pair of them that clones a saved tensor before it is changed)
                    self.hooked = True
                v = self.ev(item.context_expr, scope)
                if item.optional_vars is not None:
                    self.store(item.optional_vars, v, scope, st)
        try:
            self.block(st.body, scope)
        finally:
            self.grad_on, self.inference, self.hooked = saved

    def s_FunctionDef(self, st: ast.FunctionDef, scope: Scope) -> None:
        scope.vars[st.name] = Func(st, scope)

    def s_ClassDef(self, st: ast.ClassDef, scope: Scope) -> None:
        scope.vars[st.name] = Namespace("class:" + st.name)

    def s_Return(self, st: ast.Return, scope: Scope) -> None:
        raise _Return(self.ev(st.value, scope) if st.value is not None else None)

    def s_Assert(self, st: ast.Assert, scope: Scope) -> None:
        self.ev(st.test, scope)

    def s_Import(self, st: Any, scope: Scope) -> None:
        return None

    def s_ImportFrom(self, st: ast.ImportFrom, scope: Scope) -> None:
        # only Variable is followed (requires_grad_on_result); other imported names stay unknown calls
        if st.module in ("torch.autograd", "torch.autograd.variable"):
            for a in st.names:
                if a.name == "Variable":
                    scope.vars[a.asname or a.name] = Namespace(_VARIABLE)

    def s_Pass(self, st: Any, scope: Scope) -> None:
        return None

    # --- stores -------------------------------------------------------------------------------------
    def assign_name(self, name: str, value: Any, scope: Scope) -> None:
        if isinstance(value, AbsTensor) and value.name is None:
            value.name = name
        scope.vars[name] = value

    def store(self, tgt: ast.AST, value: Any, scope: Scope, st: Any) -> None:
        if isinstance(tgt, ast.Name):
            self.assign_name(tgt.id, value, scope)
        elif isinstance(tgt, (ast.Tuple, ast.List)):
            vals = list(value) if isinstance(value, (list, tuple)) and len(value) == len(tgt.elts) else None
            for i, e in enumerate(tgt.elts):
                self.store(e, vals[i] if vals is not None else UNK, scope, st)
        elif isinstance(tgt, ast.Subscript):
            base = self.ev(tgt.value, scope)
            self.ev(tgt.slice, scope)
            if isinstance(base, AbsTensor):
                self.inplace(base, "copy_", [value], st)
            elif isinstance(base, list) and isinstance(tgt.slice, ast.Constant) and isinstance(tgt.slice.value, int):
                if -len(base) <= tgt.slice.value < len(base):
                    base[tgt.slice.value] = value
        elif isinstance(tgt, ast.Attribute):
            obj = self.ev(tgt.value, scope)
            if not isinstance(obj, AbsTensor):
                # ``layer.weight.require_grad = False``: the lint does not model modules, but ``.weight`` /
                # ``.bias`` is a module's parameter, where the typo is the same new Python attribute ("may": a
                # user's own object could have such a field)
                meant = _ATTRIBUTE_TYPOS.get(tgt.attr)
                if obj is UNK and meant is not None and meant[0] == "requires_grad" and \
                        isinstance(tgt.value, ast.Attribute) and tgt.value.attr in ("weight", "bias"):
                    self.report(
                        "attribute_typo", st, False,
                        f"`{_src_name(tgt.value)}.{tgt.attr} = ...` sets a new Python attribute on the parameter "
                        f"(PyTorch allows any): it is not `{meant[0]}`, which stays as it was (a parameter's "
                        "requires_grad is True: it is still trained).",
                        meant[2].format(x=_src_name(tgt.value)), {"attribute": tgt.attr},
                        line=st.lineno, col=st.col_offset)
                return
            meant = _ATTRIBUTE_TYPOS.get(tgt.attr)
            if meant is not None:
                raises = tgt.attr in _READ_ONLY
                what = ("is read-only: this assignment raises (AttributeError)" if raises else
                        "sets a new Python attribute on the tensor (PyTorch allows any)")
                self.report(
                    "attribute_typo", st, self.sure,
                    f"`{_src_name(tgt.value)}.{tgt.attr} = ...` {what}: it is not `{meant[0]}`. {meant[1]}",
                    meant[2].format(x=_src_name(tgt.value)),
                    {"error": "runtime", "line": st.lineno} if raises else {"attribute": tgt.attr},
                    line=st.lineno, col=st.col_offset)
            if tgt.attr == "requires_grad":
                self.set_requires_grad(obj, value, st)
            elif tgt.attr == "grad":
                obj.grad = value if isinstance(value, AbsTensor) else None
            elif tgt.attr == "data" and isinstance(value, AbsTensor):
                obj.shape = value.shape

    # --- expressions --------------------------------------------------------------------------------
    def ev(self, node: Optional[ast.AST], scope: Scope) -> Any:
        if node is None:
            return None
        m = getattr(self, "e_" + type(node).__name__, None)
        if m is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.ev(child, scope)
            return UNK
        return m(node, scope)

    def e_Constant(self, node: ast.Constant, scope: Scope) -> Any:
        return node.value

    def e_Name(self, node: ast.Name, scope: Scope) -> Any:
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        return scope.get(node.id)

    def e_List(self, node: ast.List, scope: Scope) -> Any:
        return [self.ev(e, scope) for e in node.elts]

    def e_Tuple(self, node: ast.Tuple, scope: Scope) -> Any:
        return tuple(self.ev(e, scope) for e in node.elts)

    def e_UnaryOp(self, node: ast.UnaryOp, scope: Scope) -> Any:
        v = self.ev(node.operand, scope)
        if isinstance(v, AbsTensor):
            if isinstance(node.op, ast.UAdd):
                return v  # +x is torch.positive(x): x itself
            return self.op("neg", [v], node) if isinstance(node.op, ast.USub) else self.op("op", [v], node)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.Not) and isinstance(v, bool):
            return not v
        return UNK

    def e_BinOp(self, node: ast.BinOp, scope: Scope) -> Any:
        a, b = self.ev(node.left, scope), self.ev(node.right, scope)
        return self.binop(_BINOPS.get(type(node.op), "op"), a, b, node)

    def binop(self, op: str, a: Any, b: Any, node: Any) -> Any:
        if isinstance(a, AbsTensor) or isinstance(b, AbsTensor):
            if op == "sub" and not isinstance(a, AbsTensor):
                op = "rsub"
            return self.op(op, [a, b], node)
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            try:
                return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "div": lambda: a / b,
                        "floor_divide": lambda: a // b, "remainder": lambda: a % b,
                        "pow": lambda: a ** b if abs(b) < 64 else UNK}.get(op, lambda: UNK)()
            except Exception:
                return UNK
        return UNK

    def e_Compare(self, node: ast.Compare, scope: Scope) -> Any:
        vals = [self.ev(node.left, scope)] + [self.ev(c, scope) for c in node.comparators]
        if len(vals) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            a, b = vals
            f = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b, ast.NotEq: a != b}
            return f.get(type(node.ops[0]), UNK)
        return UNK

    def e_BoolOp(self, node: ast.BoolOp, scope: Scope) -> Any:
        for v in node.values:
            self.ev(v, scope)
        return UNK

    def e_IfExp(self, node: ast.IfExp, scope: Scope) -> Any:
        t = self.ev(node.test, scope)
        if isinstance(t, bool):
            return self.ev(node.body if t else node.orelse, scope)
        saved, self.sure = self.sure, False
        a, b = self.ev(node.body, scope), self.ev(node.orelse, scope)
        self.sure = saved
        return a if a is b else self.join(a, b, node)

    def e_Lambda(self, node: ast.Lambda, scope: Scope) -> Any:
        return UNK

    def e_Attribute(self, node: ast.Attribute, scope: Scope) -> Any:
        obj = self.ev(node.value, scope)
        if isinstance(obj, Namespace):
            return Namespace(obj.path + "." + node.attr)
        if isinstance(obj, AbsTensor):
            return self.tensor_attr(obj, node.attr, node)
        return UNK

    def e_Subscript(self, node: ast.Subscript, scope: Scope) -> Any:
        obj = self.ev(node.value, scope)
        key = self.ev(node.slice, scope)
        if isinstance(obj, AbsTensor):
            kind = _index_kind(node.slice, key)
            if kind == "copy":
                return self.op("index", [obj], node, shape=None)
            view = self.view_of(obj, "getitem", key, node)
            if kind == "unknown":
                view.base_sure = False
            return view
        if isinstance(obj, (list, tuple)) and isinstance(key, int) and not isinstance(key, bool):
            if -len(obj) <= key < len(obj):
                return obj[key]
        return UNK

    def e_Starred(self, node: ast.Starred, scope: Scope) -> Any:
        self.ev(node.value, scope)
        return UNK

    def e_JoinedStr(self, node: ast.JoinedStr, scope: Scope) -> Any:
        for v in node.values:
            self.ev(v, scope)
        return UNK

    def e_FormattedValue(self, node: ast.FormattedValue, scope: Scope) -> Any:
        self.ev(node.value, scope)
        return UNK

    def e_Call(self, node: ast.Call, scope: Scope) -> Any:
        func = node.func
        if isinstance(func, ast.Attribute):
            recv = self.ev(func.value, scope)
            args = [self.ev(a, scope) for a in node.args]
            kwargs = {k.arg: self.ev(k.value, scope) for k in node.keywords if k.arg}
            if isinstance(recv, AbsTensor):
                return self.method(recv, func.attr, args, kwargs, node)
            if isinstance(recv, Namespace):
                return self.function(recv.path + "." + func.attr, args, kwargs, node)
            if isinstance(recv, list) and func.attr == "append" and args:
                recv.append(args[0])
                return None
            return UNK
        f = self.ev(func, scope)
        args = [self.ev(a, scope) for a in node.args]
        kwargs = {k.arg: self.ev(k.value, scope) for k in node.keywords if k.arg}
        if isinstance(f, Func):
            return self.call_user(f, args, kwargs, node)
        if isinstance(f, Namespace) and f.path == _VARIABLE:
            return self.function(f.path, args, kwargs, node)
        if isinstance(func, ast.Name):
            name = func.id
            if name == "range":
                ints = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
                if len(ints) == len(args) and 1 <= len(args) <= 3:
                    try:
                        return range(*ints)
                    except (ValueError, TypeError):
                        return UNK
                return UNK
            if name in ("list", "tuple") and len(args) == 1 and isinstance(args[0], (list, tuple)):
                return list(args[0]) if name == "list" else tuple(args[0])
            if name == "len" and len(args) == 1 and isinstance(args[0], (list, tuple)):
                return len(args[0])
            if name in ("float", "int") and len(args) == 1 and isinstance(args[0], (int, float)):
                return float(args[0]) if name == "float" else int(args[0])
            if name == "print":
                return None
        return UNK

    # --- user functions --------------------------------------------------------------------------
    def call_user(self, f: Func, args: list, kwargs: dict, node: Any) -> Any:
        if self.depth >= self.MAX_CALL_DEPTH:
            return UNK
        fn = f.node
        local = Scope(parent=f.scope)
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
        defaults = fn.args.defaults
        for i, p in enumerate(params):
            if i < len(args):
                local.vars[p] = args[i]
            elif p in kwargs:
                local.vars[p] = kwargs[p]
            else:
                j = i - (len(params) - len(defaults))
                local.vars[p] = self.ev(defaults[j], f.scope) if 0 <= j < len(defaults) else UNK
        for a in fn.args.kwonlyargs:
            local.vars[a.arg] = kwargs.get(a.arg, UNK)
        if fn.args.vararg:
            local.vars[fn.args.vararg.arg] = tuple(args[len(params):])
        saved_grad, saved_stmt, saved_inf = self.grad_on, self.stmt, self.inference
        for dec in fn.decorator_list:
            sw = grad_switch_of(dec, "decorator")
            if sw is not None:
                self.switch(sw)
        self.depth += 1
        try:
            self.block(fn.body, local)
            return None
        except _Return as r:
            return r.value
        finally:
            self.depth -= 1
            self.grad_on, self.stmt, self.inference = saved_grad, saved_stmt, saved_inf

    # --- tensors --------------------------------------------------------------------------------------
    def leaf_node(self, t: AbsTensor) -> AbsNode:
        if t.acc is None:
            t.acc = AbsNode("AccumulateGrad", 0, 0, [], tensor=t)
        return t.acc

    def grad_node(self, t: AbsTensor) -> Optional[AbsNode]:
        if t.rg is False:
            return None
        if t.node is not None:
            return t.node
        if t.leaf is not False:
            return self.leaf_node(t)
        return None

    def new_tensor(self, rg: Optional[bool], shape: Any, node: Optional[AbsNode] = None, box: Optional[Box] = None,
                   dtype: Optional[str] = None) -> AbsTensor:
        leaf = True if rg is False else (False if node is not None and rg is True else (None if rg is None else False))
        if rg is False:
            node = None
        return AbsTensor(rg, leaf, shape, box=box, node=node, dtype=dtype)

    def op(self, name: str, inputs: list, node: Any, shape: Any = "auto", view_of: Optional[AbsTensor] = None,
           dtype: Any = "auto") -> AbsTensor:
        tensors = [x for x in inputs if isinstance(x, AbsTensor)]
        rg = t_or(*[x.rg for x in tensors]) if tensors else False
        if name in _NONDIFF or self.inference:
            rg = False
        known = name in _KNOWN
        if self.grad_on is False:
            rg = False
        elif self.grad_on is None and rg is True:
            rg = None
        if shape == "auto":
            shape = self.result_shape(name, inputs)
        if dtype == "auto":
            dtype = next((x.dtype for x in tensors), None)
        n = None
        if rg is not False:
            parents = [p for p in (self.grad_node(x) for x in tensors) if p is not None]
            n = AbsNode(name, getattr(node, "lineno", 0), getattr(node, "col_offset", 0), parents)
        box = view_of.box if view_of is not None else None
        out = self.new_tensor(rg, shape, n, box=box, dtype=dtype)
        if rg is False and name not in _NONDIFF:
            line = getattr(node, "lineno", 0)
            if self.grad_on is False and not self.inference and any(x.rg is True for x in tensors):
                out.cut = (line, "no_grad")
            else:
                out.cut = next((x.cut for x in tensors if x.cut is not None), None)
        out.opaque = any(x is UNK for x in inputs) or any(x.opaque for x in tensors)
        if not known and rg is not False:
            out.leaf = None  # an op outside the tables may return its input itself (PyTorch's no-op cases)
        if view_of is not None:
            out.base = view_of.base or view_of
            out.nograd_view = t_not(self.grad_on) if self.grad_on is not None else None
        if n is not None:
            n.known = known
            self.record_saves(name, n, inputs, out)
        return out

    def record_saves(self, name: str, n: AbsNode, inputs: list, out: AbsTensor) -> None:
        if self.hooked:  # saved through saved-tensor hooks: an in-place change later is no error
            n.saves_any = None
            return
        rule = SAVES.get(name.rstrip("_") if name not in SAVES else name)
        if rule is None:
            n.saves_any = None
            for x in inputs:
                if isinstance(x, AbsTensor):
                    n.saves.append((x.box, x.box.version, False, x))
            return
        tens = [x for x in inputs]

        def save(x: Any, label: str, sure: bool = True) -> None:
            if isinstance(x, AbsTensor):
                n.saves.append((x.box, x.box.version, sure, x))
            n.saves_any = True if sure else t_or(n.saves_any, None)

        if rule == "none":
            return
        if rule == "temps":
            n.saves_any = True
            return
        if rule == "inputs+result":
            save(out, "result")
            rule = "inputs"
        if rule == "own+result":
            save(out, "result")
            for i, x in enumerate(tens):
                if isinstance(x, AbsTensor) and x.rg is not False:
                    save(x, f"input {i}", x.rg is True)
            return
        if rule == "result":
            save(out, "result")
        elif rule in ("self", "first"):
            if tens:
                save(tens[0], "self")
        elif rule == "inputs":
            for i, x in enumerate(tens):
                if x is not None:
                    save(x, f"input {i}")
        elif rule == "not_first":
            for i, x in enumerate(tens[1:], 1):
                if isinstance(x, AbsTensor):
                    save(x, f"input {i}")
        elif rule in ("mul", "div"):
            a = tens[0] if tens else None
            b = tens[1] if len(tens) > 1 else None
            arg = a if isinstance(a, AbsTensor) else b
            other = b if arg is a else a
            other_rg = other.rg if isinstance(other, AbsTensor) else False
            arg_rg = arg.rg if isinstance(arg, AbsTensor) else False
            if rule == "mul":
                if other_rg is not False:
                    save(arg, "self", other_rg is True)
                if arg_rg is not False:
                    save(other, "other", arg_rg is True)
            else:
                save(b, "other")
                if isinstance(b, AbsTensor) and b.rg is not False:
                    save(a, "self", b.rg is True)

    def result_shape(self, name: str, inputs: list) -> Any:
        tensors = [x for x in inputs if isinstance(x, AbsTensor)]
        if not tensors:
            return None
        shapes = []
        for x in inputs:
            if isinstance(x, AbsTensor):
                shapes.append(x.shape)
            elif isinstance(x, (int, float, bool)):
                shapes.append(())
        if name in _ELEMENTWISE or name.rstrip("_") in _ELEMENTWISE:
            if name in ("where", "masked_fill", "clamp", "clip", "softmax", "log_softmax", "cumsum", "cumprod",
                        "flip", "roll", "tril", "triu", "to", "float", "double", "half", "clone", "contiguous",
                        "detach"):
                return tensors[0].shape if name != "where" else None
            out: Any = ()
            for s in shapes:
                out = _broadcast(out, s)
            return out
        if name in ("matmul", "mm", "mv", "dot", "linear"):
            a = tensors[0].shape
            b = tensors[1].shape if len(tensors) > 1 else None
            if a is None or b is None:
                return None
            if name == "linear":
                return None
            if len(a) == 1 and len(b) == 1:
                return ()
            if len(a) == 2 and len(b) == 2:
                return (a[0], b[1])
            if len(a) == 2 and len(b) == 1:
                return (a[0],)
            if len(a) == 1 and len(b) == 2:
                return (b[1],)
            return None
        if name == "outer":
            a, b = tensors[0].shape, tensors[1].shape if len(tensors) > 1 else None
            return None if a is None or b is None else (a[0] if a else 1, b[0] if b else 1)
        return None

    def reduction_shape(self, t: AbsTensor, name: str, args: list, kwargs: dict) -> Any:
        dim = kwargs.get("dim", args[0] if args else None)
        if name in ("max", "min") and args and isinstance(args[0], AbsTensor):
            return _broadcast(t.shape, args[0].shape)
        if dim is None:
            return ()
        keep = kwargs.get("keepdim", args[1] if len(args) > 1 else False)
        if t.shape is None or not isinstance(dim, int) or isinstance(dim, bool) or not isinstance(keep, bool):
            return None
        nd = len(t.shape)
        if not -max(nd, 1) <= dim < max(nd, 1):
            return None
        d = dim % max(nd, 1)
        if keep:
            return t.shape[:d] + (1,) + t.shape[d + 1:]
        return t.shape[:d] + t.shape[d + 1:]

    def view_of(self, t: AbsTensor, name: str, key: Any, node: Any) -> AbsTensor:
        shape = None
        if t.shape is not None and isinstance(key, int) and not isinstance(key, bool) and t.shape:
            shape = t.shape[1:]
        return self.op("getitem", [t], node, shape=shape, view_of=t)

    def tensor_attr(self, t: AbsTensor, attr: str, node: ast.Attribute) -> Any:
        if attr == "grad":
            if isinstance(node.ctx, ast.Load):
                self.grad_read(t, node)
            return self.grad_value(t)
        if attr == "data":
            return AbsTensor(False, True, t.shape, dtype=t.dtype)
        if attr in ("T", "mT"):
            shape = tuple(reversed(t.shape)) if t.shape is not None else None
            return self.op("t", [t], node, shape=shape, view_of=t)
        if attr == "shape":
            return tuple(t.shape) if t.shape is not None else UNK
        if attr == "requires_grad":
            return t.rg if t.rg is not None else UNK
        if attr == "is_leaf":
            return t.leaf if t.leaf is not None else UNK
        if attr == "dtype":
            return UNK
        return UNK

    def grad_value(self, t: AbsTensor) -> Any:
        if t.grad is None:
            t.grad = AbsTensor(False, True, t.shape, dtype=t.dtype)
        return t.grad

    def grad_read(self, t: AbsTensor, node: ast.AST) -> None:
        nonleaf = t_not(t.leaf)
        warn = t_and(nonleaf, t_not(t.retains))
        if warn is False:
            return
        certain = warn is True and self.sure
        line = node.lineno
        self.report(
            "non_leaf_grad", node, certain,
            f"{self.label(t)} is not a leaf (it has a grad_fn) and retain_grad() was not called: its .grad is "
            "None, and reading it warns. backward() fills .grad only for leaves.",
            f"Call {t.name or 'it'}.retain_grad() before the backward (or pass --retain-grad "
            f"{t.name or 'NAME'}), or read the gradient of a leaf.",
            {"warning": "non_leaf_grad", "line": line})

    @staticmethod
    def label(t: AbsTensor) -> str:
        return f"`{t.name}`" if t.name else "this tensor"

    # --- methods and functions ----------------------------------------------------------------------
    def method(self, t: AbsTensor, name: str, args: list, kwargs: dict, node: ast.Call) -> Any:
        if name == "backward":
            gradient = kwargs.get("gradient", args[0] if args else None)
            retain = kwargs.get("retain_graph", args[1] if len(args) > 1 else None)
            create = kwargs.get("create_graph", args[2] if len(args) > 2 else False)
            inputs = kwargs.get("inputs", args[3] if len(args) > 3 else None)
            self.backward([t], gradient, retain, create, inputs, node, "backward")
            return None
        if name == "requires_grad_":
            flag = kwargs.get("requires_grad", args[0] if args else True)
            self.set_requires_grad(t, flag, node)
            return t
        if name == "retain_grad":
            if t.leaf is not True:
                t.retains = True if t.retains is not True and t.rg is not False else t.retains
            return None
        if name == "detach":
            out = AbsTensor(False, True, t.shape, box=t.box, dtype=t.dtype)
            if t.rg is True:
                out.cut = (node.lineno, "detach")
            return out
        if name == "detach_":
            t.rg, t.leaf, t.node, t.retains = False, True, None, False
            return t
        if name in ("item", "tolist", "numpy", "size", "dim", "numel", "register_hook", "is_floating_point",
                    "element_size", "stride", "is_contiguous", "register_post_accumulate_grad_hook", "ndimension",
                    "nelement", "__len__"):
            return UNK
        if name.endswith("_") and name not in _NOT_INPLACE and not name.startswith("_"):
            self.inplace(t, name, args, node)
            return t
        if name in ("float", "double", "half", "to", "type", "long", "int", "bool"):
            target = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32",
                      "bool": "bool"}.get(name)
            if name in ("to", "type"):
                a = args[0] if args else kwargs.get("dtype")
                target = a.path.rsplit(".", 1)[-1] if isinstance(a, Namespace) else None
                target = {"float": "float32", "double": "float64", "long": "int64", "half": "float16"}.get(
                    target or "", target)
            if target is not None and t.dtype is not None and target == t.dtype:
                return t  # PyTorch returns the tensor itself when nothing changes
            out = self.op("to", [t], node, shape=t.shape, dtype=target)
            if target in ("int64", "int32", "bool"):
                out.rg, out.leaf, out.node = False, True, None
            return out
        if name in ("div", "divide", "true_divide") and kwargs.get("rounding_mode") is not None:
            return self.op("div_rounded", [t] + list(args), node)
        if name in _REDUCTIONS:
            return self.op(name, [t] + [a for a in args if isinstance(a, AbsTensor)], node,
                           shape=self.reduction_shape(t, name, args, kwargs))
        if name in _VIEWS:
            return self.op(name, [t], node, shape=self.view_shape(t, name, args), view_of=t)
        if name == "clone":
            return self.op("clone", [t], node, shape=t.shape)
        return self.op(name, [t] + list(args) + list(kwargs.values()), node)

    def view_shape(self, t: AbsTensor, name: str, args: list) -> Any:
        ints = [a for a in args if isinstance(a, int) and not isinstance(a, bool)]
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            ints = [a for a in args[0] if isinstance(a, int) and not isinstance(a, bool)]
            args = list(args[0])
        if name in ("view", "reshape") and len(ints) == len(args) and ints:
            n = t.numel()
            if -1 in ints:
                if n is None or ints.count(-1) > 1:
                    return None
                known = 1
                for i in ints:
                    if i != -1:
                        known *= i
                if known == 0:
                    return None
                ints = [n // known if i == -1 else i for i in ints]
            return tuple(ints)
        if name == "flatten" and t.shape is not None and not args:
            return (t.numel(),)
        if name in ("t", "T") and t.shape is not None:
            return tuple(reversed(t.shape))
        if name == "unsqueeze" and t.shape is not None and len(ints) == 1:
            d = ints[0] % (len(t.shape) + 1)
            return t.shape[:d] + (1,) + t.shape[d:]
        if name == "squeeze" and t.shape is not None and not args:
            return tuple(s for s in t.shape if s != 1)
        return None

    def function(self, path: str, args: list, kwargs: dict, node: ast.Call) -> Any:
        short = path.rsplit(".", 1)[-1]
        if path in ("torch.autograd.backward",):
            tensors = args[0] if args else kwargs.get("tensors")
            grads = kwargs.get("grad_tensors", args[1] if len(args) > 1 else None)
            retain = kwargs.get("retain_graph", args[2] if len(args) > 2 else None)
            create = kwargs.get("create_graph", args[3] if len(args) > 3 else False)
            inputs = kwargs.get("inputs", args[5] if len(args) > 5 else None)
            roots = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
            self.backward(roots, grads, retain, create, inputs, node, "backward")
            return None
        if path in ("torch.autograd.grad",):
            outs = args[0] if args else kwargs.get("outputs")
            ins = args[1] if len(args) > 1 else kwargs.get("inputs")
            gouts = kwargs.get("grad_outputs", args[2] if len(args) > 2 else None)
            retain = kwargs.get("retain_graph", args[3] if len(args) > 3 else None)
            create = kwargs.get("create_graph", args[4] if len(args) > 4 else False)
            roots = list(outs) if isinstance(outs, (list, tuple)) else [outs]
            self.backward(roots, gouts, retain, create, ins, node, "grad")
            insl = list(ins) if isinstance(ins, (list, tuple)) else [ins]
            # with create_graph the gradients require grad only when they depend on the inputs (not for a
            # linear function: grad((2 * x).sum(), x) is a constant), which the source does not fix
            return tuple(AbsTensor(None if create is True else False, None,
                                   x.shape if isinstance(x, AbsTensor) else None) for x in insl)
        if path in (_VARIABLE, "torch.autograd.variable.Variable"):
            return self.variable(args, kwargs, node)
        if path.startswith("torch.") and short in _CREATION and path.count(".") == 1:
            return self.create(short, args, kwargs, node)
        if short in ("no_grad", "enable_grad", "inference_mode", "set_grad_enabled", "manual_seed",
                     "is_grad_enabled", "set_default_dtype", "get_default_dtype"):
            return UNK
        if path.startswith("class:") or short == "apply":
            return self.op("apply", list(args), node)
        tensors = [a for a in args if isinstance(a, AbsTensor)]
        if not tensors:
            flat = [x for a in args if isinstance(a, (list, tuple)) for x in a if isinstance(x, AbsTensor)]
            if flat and short in ("cat", "stack", "concat", "hstack", "vstack"):
                return self.op(short, flat, node, shape=None)
            return UNK
        t = tensors[0]
        if short in ("div", "divide", "true_divide") and kwargs.get("rounding_mode") is not None:
            return self.op("div_rounded", list(args), node)
        if short in _REDUCTIONS and isinstance(args[0], AbsTensor):
            rest = args[1:]
            return self.op(short, [t] + [a for a in rest if isinstance(a, AbsTensor)], node,
                           shape=self.reduction_shape(t, short, rest, kwargs))
        if short in _LOSSES:
            red = kwargs.get("reduction", "mean")
            shape = () if red in ("mean", "sum") else None
            if red == "none" and t.shape is not None:
                if short in ("cross_entropy", "nll_loss"):  # the batch shape: the class dim (1) goes
                    shape = () if len(t.shape) <= 1 else t.shape[:1] + t.shape[2:]
                else:
                    others = [a.shape for a in args[1:2] if isinstance(a, AbsTensor)]
                    shape = _broadcast(t.shape, others[0]) if others else t.shape
            return self.op(short, list(args), node, shape=shape)
        if short in _VIEWS:
            return self.op(short, [t], node, shape=self.view_shape(t, short, list(args[1:])), view_of=t)
        return self.op(short, list(args) + list(kwargs.values()), node)

    def variable(self, args: list, kwargs: dict, node: Any) -> Any:
        """``Variable(t, requires_grad=True)`` (PyTorch >= 0.4): a new leaf sharing ``t``'s values, never its
        history -- the 2018 forums' fix for no_grad_fn (``loss = Variable(loss, requires_grad=True)``); a
        backward then stops at it (requires_grad_on_result, "may" when what made ``t`` is not known)."""
        t = args[0] if args else kwargs.get("data")
        rg = kwargs.get("requires_grad", args[1] if len(args) > 1 else False)
        if t is UNK:  # what made it is not known (a module's output): it may have had a history
            out = AbsTensor(rg if isinstance(rg, bool) else None, True, None)
            had: Optional[bool] = None
        elif isinstance(t, AbsTensor):
            out = AbsTensor(rg if isinstance(rg, bool) else None, True, t.shape, box=t.box, dtype=t.dtype)
            had = True if t.rg is True or t.cut is not None else (
                False if t.rg is False and t.leaf is True and not t.opaque else None)
        else:
            return UNK
        if rg is True and had is not False:
            cut = (node.lineno, "variable") if t is UNK or t.rg is True or t.cut is None else t.cut
            out.releafed = (node, cut, self.sure and had is True)
        return out

    def create(self, name: str, args: list, kwargs: dict, node: Any) -> AbsTensor:
        rg_arg = kwargs.get("requires_grad", False)
        rg = rg_arg if isinstance(rg_arg, bool) else None
        shape: Any = None
        dtype = None
        if name in ("tensor", "as_tensor", "scalar_tensor") and args:
            shape = _shape_of_literal(args[0]) if not isinstance(args[0], AbsTensor) else args[0].shape
            if name == "scalar_tensor":
                shape = ()
            lit = args[0]
            flat = []
            stack = [lit]
            while stack:
                x = stack.pop()
                if isinstance(x, (list, tuple)):
                    stack.extend(x)
                else:
                    flat.append(x)
            if flat and all(isinstance(x, int) for x in flat) and not any(isinstance(x, float) for x in flat):
                dtype = "int64" if not all(isinstance(x, bool) for x in flat) else "bool"
            elif flat and all(isinstance(x, (int, float)) for x in flat):
                dtype = "float32"
        elif name.endswith("_like") and args and isinstance(args[0], AbsTensor):
            shape = args[0].shape
            dtype = args[0].dtype
        elif name in ("ones", "zeros", "empty", "randn", "rand", "full"):
            dims = args[0] if args and isinstance(args[0], (list, tuple)) else (args if name != "full" else args[:1])
            if name == "full" and args and isinstance(args[0], (list, tuple)):
                dims = args[0]
            if all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
                shape = tuple(dims)
            dtype = "float32"
        elif name == "eye" and args and isinstance(args[0], int):
            shape = (args[0], args[1] if len(args) > 1 and isinstance(args[1], int) else args[0])
            dtype = "float32"
        elif name in ("arange", "linspace"):
            dtype = None
        d = kwargs.get("dtype")
        if isinstance(d, Namespace):
            dtype = {"float": "float32", "double": "float64", "long": "int64"}.get(
                d.path.rsplit(".", 1)[-1], d.path.rsplit(".", 1)[-1])
        t = AbsTensor(rg if rg is not None else None, True, shape, dtype=dtype)
        t.inference = bool(self.inference)
        return t

    # --- autograd actions -------------------------------------------------------------------------
    def report_releafed(self, t: AbsTensor) -> None:
        """requires_grad_on_result, once a backward reaches the tensor made a new leaf after its history was cut."""
        node, (line, how), sure = t.releafed
        if how == "variable":
            self.report(
                "requires_grad_on_result", node, sure and self.sure,
                f"Variable(..., requires_grad=True) makes {self.label(t)} a new leaf that shares the values of "
                "the tensor it wraps but not its history (PyTorch >= 0.4): backward() then runs without the "
                "no_grad_fn error, but no gradient reaches the tensors that made that tensor.",
                "Drop the Variable(...) wrapper and call backward() on the tensor itself (tensors carry "
                "autograd on their own since PyTorch 0.4); if that raises no_grad_fn, find where its history "
                "was cut (torch.no_grad(), .detach(), .data, .item()).",
                {"leaf": t.name, "cut_line": line})
            return
        why = ("under torch.no_grad()" if how == "no_grad" else "through detach()")
        self.report(
            "requires_grad_on_result", node, sure and self.sure,
            f"{self.label(t)} was computed {why} (line {line}) from tensors that require grad, so it has no "
            "grad_fn; setting requires_grad makes it a new leaf: backward() then runs without the "
            "no_grad_fn error, but no gradient reaches the tensors that made it.",
            f"Remove this line and compute {t.name or 'it'} with grad on from the tensors that require grad "
            f"(no torch.no_grad(), .detach(), .data or .item() on the way).",
            {"leaf": t.name, "cut_line": line}, related=[self.rel("history cut", line, None, why)])

    def set_requires_grad(self, t: AbsTensor, flag: Any, node: Any) -> None:
        if not isinstance(flag, bool):
            flag = None
        if flag is True and t.rg is False and t.leaf is True and t.cut is not None:
            t.releafed = (node, t.cut, self.sure)  # (x.detach().requires_grad_() alone is PyTorch's idiom)
        if flag is False or flag is None:
            bad = t_not(t.leaf)
            if bad is not False:
                certain = bad is True and flag is False and self.sure
                self.report(
                    "non_leaf_requires_grad", node, certain,
                    f"{self.label(t)} is not a leaf (it was computed from tensors that require grad): "
                    "requires_grad can only be switched off on leaves, so this raises.",
                    f"Use {t.name or 'y'} = {t.name or 'y'}.detach() for a tensor without history, or compute it "
                    "under torch.no_grad().",
                    {"error": "non_leaf_requires_grad", "line": node.lineno})
                if certain:
                    return
        if t.leaf is True or t.leaf is None:
            if flag is True and t.leaf is True:
                t.rg = True
            elif flag is False and t.leaf is True:
                t.rg = False
            else:
                t.rg = None if t.rg is not flag else t.rg

    def inplace(self, t: AbsTensor, name: str, args: list, node: Any) -> None:
        base = t.base
        if (t.inference or (base is not None and base.inference)) and not self.inference:
            # an inference tensor changed outside inference_mode: PyTorch fails (runtime) with or without the
            # leaf check before it, depending on the other inputs -- not a finding of lint's
            return
        if name in _NOT_RECORDED_INPLACE:  # logical_and_ ...: PyTorch records nothing, only bumps the version
            t.box.version += 1
            t.box.bumps.append((node.lineno, node.col_offset, t.box.version, self.sure, name))
            return
        if base is not None and t.nograd_view is not False and base.rg is not False and self.grad_on is not False:
            # a view made under no_grad, changed in place with grad on: PyTorch refuses it with its own
            # (runtime) error -- not leaf_inplace, and not a finding of lint's
            if t.nograd_view is True and base.rg is True and self.grad_on is True:
                return
            base = None  # it may be that error instead: no certain finding through the base
        leafy = t_and(t.leaf, t.rg)
        if base is not None:
            via_base = t_and(base.leaf, base.rg, True if t.base_sure else None)
            leafy = t_or(leafy, via_base) if leafy is not True else True
        check = t_and(leafy, self.grad_on, not self.inference)
        if check is not False:
            certain = check is True and self.sure
            who = self.label(t) if base is None else f"a view of {self.label(base)}"
            self.report(
                "leaf_inplace", node, certain,
                f"In-place {name}() on {who}, a leaf that requires grad, with grad recording on: PyTorch "
                "refuses it, because the leaf's original value is what its gradient is taken against.",
                "Do the update under `with torch.no_grad():` (as optimizers do), or compute a new tensor out of "
                "place (x = x + 1).",
                {"error": "leaf_inplace", "line": node.lineno})
            if certain:
                return
        box = t.box
        box.version += 1
        box.bumps.append((node.lineno, node.col_offset, box.version, self.sure, name))
        others = [a for a in args if isinstance(a, AbsTensor)]
        rg = t_or(t.rg, *[a.rg for a in others])
        if self.grad_on is not False and rg is not False and not self.inference:
            parents = [p for p in (self.grad_node(x) for x in [t] + others) if p is not None]
            n = AbsNode(name, node.lineno, node.col_offset, parents)
            op = name.rstrip("_") if name not in SAVES else name
            n.known = op in _KNOWN or name in _KNOWN
            # an in-place op that needs t's old value saves a copy of it (its own version counter); one that
            # needs its result saves t itself, at the version after the change
            before = AbsTensor(t.rg, t.leaf, t.shape, dtype=t.dtype)
            before.name = t.name
            self.record_saves(op if op in SAVES else name, n, [before] + list(args), t)
            t.node = n
            t.rg = True if self.grad_on is True and rg is True else None
            t.leaf = False if t.rg is True else None
            if base is not None:
                bn = AbsNode("CopySlices", node.lineno, node.col_offset,
                             [p for p in (self.grad_node(base), n) if p is not None])
                base.node = bn
                base.rg = t_or(base.rg, t.rg)
                base.leaf = t_not(base.rg) if base.rg is not None else None

    def reach(self, roots: list) -> dict:
        """Abstract nodes reachable from ``roots``, each with whether the path to it is certain."""
        out: dict = {}
        stack = [(r, True) for r in roots if r is not None]
        while stack:
            n, sure = stack.pop()
            if n in out and (out[n] or not sure):
                continue
            out[n] = sure
            for p in n.parents:
                stack.append((p, sure and not n.phi and n.known))
        return out

    def runs_with_inputs(self, reach: dict, inputs: Any, kind: str = "backward") -> Optional[dict]:
        """With ``inputs=`` (or autograd.grad's inputs) PyTorch runs only the nodes from which an input is
        reachable (its exec_info): for each node of ``reach``, True when it surely runs, None when it may,
        False when it surely does not.  None when the inputs are not known tensors.  backward(inputs=)
        also runs a non-leaf input's own grad_fn (to accumulate its .grad); autograd.grad only captures
        the gradient flowing into it."""
        xs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        if not xs or not all(isinstance(x, AbsTensor) for x in xs):
            return None
        targets = {self.grad_node(x) for x in xs} - {None}
        memo: dict = {}

        def leads(n: AbsNode) -> Optional[bool]:
            if n in memo:
                return memo[n]
            memo[n] = False  # a cycle guard: the graph is a DAG
            sure_edges = not n.phi and n.known
            out: Optional[bool] = False
            for p in n.parents:
                r = True if p in targets else leads(p)
                if r is True and sure_edges:
                    out = True
                    break
                if r is not False:
                    out = None
            memo[n] = out
            return out

        return {n: True if kind == "backward" and n in targets else leads(n) for n in reach}

    @staticmethod
    def gradient_shapes_match(roots: list, gradient: Any) -> Optional[bool]:
        """Whether every given gradient has its output's shape: True surely, False surely not, None unknown
        (PyTorch's rule: ``torch.autograd.__init__._make_grads`` requires equal shapes)."""
        grads = list(gradient) if isinstance(gradient, (list, tuple)) else [gradient]
        if len(grads) != len(roots):
            return None
        out: Optional[bool] = True
        for r, g in zip(roots, grads):
            if g is None:
                continue
            if not (isinstance(r, AbsTensor) and isinstance(g, AbsTensor)) or r.shape is None or g.shape is None:
                out = None
            elif tuple(r.shape) != tuple(g.shape):
                return False
        return out

    def backward(self, roots: list, gradient: Any, retain: Any, create: Any, inputs: Any, node: ast.Call,
                 kind: str) -> None:
        """``gradient`` is the call's gradient= / grad_tensors= / grad_outputs= value (None when absent)."""
        line, col = node.lineno, node.col_offset
        gradient_given = gradient is not None
        # torch.autograd's _make_grads checks each gradient's shape against its output before the engine
        # runs, so a mismatch ("Mismatch in shape") comes before any freed-graph error
        shapes_match = self.gradient_shapes_match(roots, gradient) if gradient_given else True
        if shapes_match is False:
            return
        self.backward_calls.add(id(node))
        where = "torch.autograd.grad" if kind == "grad" else "backward()"
        troots = [r for r in roots if isinstance(r, AbsTensor)]
        for r in troots:
            if not gradient_given and r.rg is not False:
                n = r.numel()
                if n is not None and n != 1:
                    certain = r.rg is True and self.sure
                    self.report(
                        "non_scalar_backward", node, certain,
                        f"{where} on {self.label(r)}, which has shape {list(r.shape)} ({n} elements), without "
                        "a gradient: autograd can create the starting gradient only for a one-element tensor.",
                        f"Reduce it first ({r.name or 'y'}.sum().backward()), or pass gradient= of the same shape "
                        f"(e.g. torch.ones_like({r.name or 'y'})): that computes the vector-Jacobian product.",
                        {"error": "non_scalar_backward", "line": line})
                    if certain:
                        return
        if any(r.rg is False for r in troots):
            return  # no_grad_fn: nothing runs
        reach = self.reach([self.grad_node(r) for r in troots])
        for n in reach:
            t = n.tensor
            if t is not None and t.releafed is not None:
                self.report_releafed(t)
        for rec in self.retained_graphs:
            if not rec["used"] and any(n in rec["nodes"] for n in reach):
                rec["used"] = True if self.sure else rec["used"] or None
        pruned = inputs is not None
        runs = self.runs_with_inputs(reach, inputs, kind) if pruned else None
        # a second backward through freed nodes (with inputs=: through those it runs)
        freed = [(n, self.sure and path_sure and n.freed_sure and n.saves_any is True and shapes_match is True
                  and (not pruned or (runs is not None and runs[n] is True)))
                 for n, path_sure in reach.items() if n.freed is not None and n.saves_any is not False
                 and not (runs is not None and runs[n] is False)]
        freed.sort(key=lambda nc: not nc[1])  # a certain one first
        pending: list = []  # (graph node, certain, report arguments)
        for n, certain in freed[:1]:
            fl, fc = n.freed
            pending.append((n, certain, (
                "second_backward", node,
                f"This {where} goes through the {n.op} made at line {n.line}, whose saved tensors the "
                f"backward at line {fl} freed (it had no retain_graph=True).",
                f"Pass retain_graph=True to the backward at line {fl}, or recompute the graph before this "
                "backward.",
                {"error": "second_backward", "line": line},
                [self.rel("built", n.line, n.col, f"{n.op} saved tensors for its backward"),
                 self.rel("freed", fl, fc, "this backward freed them")]), {}))
        # saved tensors changed in place since they were saved
        done = False
        for n, path_sure in reach.items():
            if done:
                break
            for box, version, save_sure, label in n.saves:
                if box is None or box.version <= version:
                    continue
                bumps = [b for b in box.bumps if version < b[2]]
                first = bumps[0] if bumps else None
                bl, bc = (first[0], first[1]) if first else (line, col)
                certain = (self.sure and path_sure and save_sure and bool(first) and all(b[3] for b in bumps)
                           and n.freed is None and not pruned)
                holder = label.name if isinstance(label, AbsTensor) else None
                if holder is None:
                    holder = next((t.name for t in self.module.vars.values()
                                   if isinstance(t, AbsTensor) and t.box is box and t.name), None)
                what = f"`{holder}`" if holder else "a tensor"
                pending.append((n, certain, (
                    "inplace_saved", node,
                    f"In-place {first[4] if first else 'change'}() at line {bl} changes {what}, which the "
                    f"{n.op} made at line {n.line} saved for its backward; the backward at line {line} needs the "
                    "old value.",
                    "Make the change out of place (y = y * 2), or clone() the tensor before changing it.",
                    {"error": "inplace_modified", "line": line},
                    [self.rel("saved", n.line, n.col, f"{n.op} saved it at version {version}"),
                     self.rel("backward", line, col, "this backward needs the saved value")]),
                    {"line": bl, "col": bc}))
                done = True
                break
        # both certain: the backward stops at the first failing node it runs, and PyTorch's engine runs the
        # ready node made last first (its ready queue orders by sequence number) -- the other is only a "may"
        sure = [p for p in pending if p[1]]
        first_run = max(sure, key=lambda p: p[0].seq) if len(sure) > 1 else None
        for n, certain, args, kw in pending:
            kind_, at, message, hint, expect, related = args
            self.report(kind_, at, certain and (first_run is None or n is first_run[0]), message, hint, expect,
                        related, **kw)
        # bookkeeping: grads, retained non-leaf inputs, loops, freeing
        if inputs is not None:
            for x in (inputs if isinstance(inputs, (list, tuple)) else [inputs]):
                if isinstance(x, AbsTensor) and x.leaf is False:
                    x.retains = True
        if kind == "backward" and self.loops:
            leaves = [n.tensor for n in reach if n.tensor is not None]
            if isinstance(inputs, (list, tuple)):
                leaves = [x for x in leaves if any(x is i for i in inputs)]
            self.loops[-1]["backwards"].append((node, leaves))
        if retain is None:  # the default: retain_graph = create_graph
            retained = create if isinstance(create, bool) else None
        else:
            retained = retain if isinstance(retain, bool) else None
        if retained is True:
            kept = {n for n in reach if n.tensor is None and n.saves_any is not False}
            if retain is True and kept:
                self.retained_graphs.append({"call": node, "nodes": kept, "used": False, "kind": where,
                                             "sure": self.sure and not self.loops and self.depth == 0})
            return
        for n in reach:
            if n.tensor is None and n.saves_any is not False and n.freed is None:
                if runs is not None and runs[n] is False:
                    continue  # not run by this backward: PyTorch frees only the buffers of the nodes it runs
                n.freed = (line, col)
                n.freed_sure = (self.sure and reach[n] and retained is not None
                                and (not pruned or (runs is not None and runs[n] is True)))

    def check_accumulation(self, loop: Any, ctx: dict, count: Optional[int], scope: Scope) -> None:
        if not ctx["backwards"]:
            return
        zeroed = _zeroed_names(loop)
        if zeroed is None:  # zero_grad() (or a loop over parameters) resets every gradient each pass
            return
        for call, leaves in ctx["backwards"][:1]:
            names = []
            for t in leaves:
                if t.name and t.name not in names and t.name not in zeroed and t.rg is not False:
                    names.append(t.name)
            if not names or zeroed is None:
                continue
            certain = count is not None and count >= 2 and self.sure
            listed = ", ".join(f"`{n}.grad`" for n in names)
            self.report(
                "grad_accumulates", call, certain,
                f"This backward runs in a loop ({'%d iterations' % count if count is not None else 'repeatedly'}) "
                f"and nothing in the loop zeroes .grad: {listed} accumulate{'s' if len(names) == 1 else ''} the "
                "sum over the iterations, not this iteration's gradient.",
                "Zero the gradients each iteration (x.grad = None, or x.grad.zero_() after using them), unless "
                "accumulating is what you want.",
                {"accumulates": names, "iterations": count})

    def join(self, a: Any, b: Any, node: Any) -> Any:
        if isinstance(a, AbsTensor) and isinstance(b, AbsTensor):
            parents = [p for p in (a.node or (a.acc if a.rg else None), b.node or (b.acc if b.rg else None))
                       if p is not None]
            n = AbsNode("phi", getattr(node, "lineno", 0), 0, parents, phi=True) if parents else None
            if n is not None:
                n.saves_any = False
            out = AbsTensor(t_merge(a.rg, b.rg), t_merge(a.leaf, b.leaf), a.shape if a.shape == b.shape else None,
                            box=a.box if a.box is b.box else None, node=n, dtype=a.dtype if a.dtype == b.dtype else None)
            out.retains = t_merge(a.retains, b.retains)
            out.name = a.name or b.name
            if out.leaf is True and out.rg is not False:
                out.node = None
            return out
        if a == b and type(a) is type(b) and isinstance(a, (int, float, str, bool)):
            return a
        return UNK


class _Break(Exception):
    pass


#: in-place ops PyTorch does not record (not differentiable): no leaf_inplace check, the version is bumped
_NOT_RECORDED_INPLACE = frozenset({"logical_and_", "logical_or_", "logical_xor_", "logical_not_"})


def _index_kind(slice_node: ast.AST, key: Any) -> str:
    """How ``x[key]`` relates to x: "view" (ints, slices, None, ...), "copy" (a tensor or list index:
    advanced indexing), or "unknown" (an index whose kind the source does not fix)."""
    parts = list(key) if isinstance(key, tuple) else [key]
    nodes = list(slice_node.elts) if isinstance(slice_node, ast.Tuple) else [slice_node]
    if any(isinstance(k, (AbsTensor, list)) for k in parts) or any(isinstance(n, ast.List) for n in nodes):
        return "copy"
    for n, k in zip(nodes, parts):
        if isinstance(n, ast.Slice) or (isinstance(k, int) and not isinstance(k, bool)) or k is None or \
                k is Ellipsis:
            continue
        return "unknown"
    return "view"


#: attribute names written on a tensor that are typos of the autograd API -> (what was meant, what happens,
#: the hint); TorchFix's TOR002 is the first (require_grad)
_ATTRIBUTE_TYPOS: dict = {
    "require_grad": ("requires_grad", "The tensor still does not require grad.",
                     "Write {x}.requires_grad = True (or {x}.requires_grad_())."),
    "requires_grads": ("requires_grad", "The tensor still does not require grad.",
                       "Write {x}.requires_grad = True (or {x}.requires_grad_())."),
    "require_grads": ("requires_grad", "The tensor still does not require grad.",
                      "Write {x}.requires_grad = True (or {x}.requires_grad_())."),
    "retain_grads": ("retain_grad()", "Its .grad stays None after backward.",
                     "Call {x}.retain_grad() before the backward."),
    "retains_grad": ("retain_grad()", "retains_grad only reports whether retain_grad() was called.",
                     "Call {x}.retain_grad() before the backward."),
    "retain_graph": ("backward(retain_graph=True)", "retain_graph is an argument of backward(), not a tensor "
                     "attribute: a second backward still fails.",
                     "Pass it to the call: {x}.backward(retain_graph=True)."),
}


#: of those, the ones PyTorch's Tensor refuses to set (a read-only property)
_READ_ONLY = frozenset({"retains_grad"})


def _src_name(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - ast.unparse handles every expression the parser makes
        return "x"


_BACKWARD_LIKE = ("backward", "grad", "jacobian", "hessian", "vjp", "jvp", "vhp", "hvp", "gradcheck",
                  "gradgradcheck", "checkpoint", "jacrev", "jacfwd", "grad_and_value")


def _turns_on(value: Optional[ast.AST], bare: bool = False) -> bool:
    """Is ``value`` the constant True (``bare``: or absent, as in ``requires_grad_()``)?"""
    return value is None and bare or isinstance(value, ast.Constant) and value.value is True


def _may_backward(call: ast.Call) -> bool:
    """Could this call run a backward pass (by its name: backward, grad, torch.func's transforms...)?"""
    name = (dotted(call.func) or "").rsplit(".", 1)[-1] if not isinstance(call.func, ast.Attribute) else call.func.attr
    return name in _BACKWARD_LIKE


def _range_count(loop: Any) -> Optional[int]:
    """N for ``for _ in range(N)`` / ``range(a, b)`` with constant ints; None otherwise."""
    if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) or dotted(loop.iter.func) != "range":
        return None
    args = loop.iter.args
    if not args or len(args) > 2 or loop.iter.keywords or not all(
            isinstance(a, ast.Constant) and type(a.value) is int for a in args):
        return None
    lo, hi = (0, args[0].value) if len(args) == 1 else (args[0].value, args[1].value)
    return max(0, hi - lo)


def _zeroed_names(loop: Any) -> Optional[set]:
    """Names whose .grad the loop body zeroes or resets; None when it zeroes everything it can't tell
    apart (zero_grad(), a loop over parameters, ...)."""
    names: set = set()
    for n in ast.walk(loop):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            if n.func.attr == "zero_grad":
                return None
            if n.func.attr in ("zero_", "fill_", "mul_") and _grad_base(n.func.value) is not None:
                names.add(_grad_base(n.func.value))
        if isinstance(n, (ast.Assign, ast.AugAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for tg in targets:
                if isinstance(tg, ast.Attribute) and tg.attr == "grad" and isinstance(tg.value, ast.Name):
                    names.add(tg.value.id)
    loop_vars = set()
    for n in ast.walk(loop):
        if isinstance(n, ast.For) and n is not loop:
            for t in ast.walk(n.target):
                if isinstance(t, ast.Name):
                    loop_vars.add(t.id)
    if names & loop_vars:
        return None
    return names


def _grad_base(node: ast.AST) -> Optional[str]:
    """``x`` for ``x.grad`` / ``x.grad.data``."""
    if isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr == "grad" and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def lint_source(source: Any, filename: str) -> LintResult:
    """Check a file (text or bytes) statically; the language's static errors end it first."""
    from ..errors import GradcliError
    from ..lang.run import prepare

    try:
        parsed = prepare(source, filename)
    except GradcliError as e:
        return LintResult(filename, [], error=e)
    text = parsed.text if hasattr(parsed, "text") else (source if isinstance(source, str) else source.decode())
    findings = Linter(text, filename).run() + unknown_name_findings(parsed.tree)
    return LintResult(filename, sorted(findings, key=lambda f: (f.line, f.col, f.kind)))


def unknown_name_findings(tree: ast.AST) -> list[Finding]:
    """``unknown_name``: a name neither gradcli nor PyTorch 2.13 has, on a module or tensor (a typo:
    ``y.summ()``), which ``run`` -- as PyTorch -- reports only when the line runs (lang/apicheck.py).
    Certain when the line surely runs: a top-level statement, not under a lambda, a condition or a loop."""
    from ..lang.apicheck import TORCH_VERSION, unknown_names

    found = unknown_names(tree)
    if not found:
        return []
    # a name the file sets on a tensor is that tensor's own attribute from then on (as on PyTorch's Tensor)
    stored = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)}
    stored |= {n.args[1].value for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id == "setattr" and len(n.args) > 1 and isinstance(n.args[1], ast.Constant)}
    found = [u for u in found if not (u["owner"] == "torch.Tensor" and u["name"] in stored)]
    if not found:
        return []
    sure = _surely_run(tree)
    out = []
    for u in found:
        owner = "Tensor" if u["owner"] == "torch.Tensor" else u["owner"]
        label = f"{owner}.{u['name']}"
        certain = u["node"] in sure
        message = (f"`{label}` is neither in gradcli nor in PyTorch {TORCH_VERSION}: "
                   f"{'this line fails' if certain else 'this line, if it runs, fails'} with an AttributeError, "
                   "as in PyTorch.")
        hint = (f"Did you mean `{owner}.{u['suggestion']}`?" if u["suggestion"] else
                "`gradcli ops` lists the operations gradcli implements.")
        line, col = u["line"], u["col"]
        out.append(Finding("unknown_name", line, col, certain, message, hint,
                           {"error": "runtime", "line": line} if certain else None))
    return out


def _surely_run(tree: ast.AST) -> set:
    """(line, col) of the Attribute nodes that run whenever the file runs to their statement: in top-level
    simple statements, outside lambdas, conditional expressions, ``and``/``or`` and comprehensions."""
    out: set = set()
    compound = (ast.If, ast.For, ast.While, ast.With, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                getattr(ast, "TryStar", ast.Try), getattr(ast, "Match", ast.If), ast.AsyncFor, ast.AsyncWith)
    lazy = (ast.Lambda, ast.IfExp, ast.BoolOp, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    for st in getattr(tree, "body", []):
        if isinstance(st, compound):
            continue
        stack = [st]
        while stack:
            n = stack.pop()
            if isinstance(n, lazy):
                continue
            if isinstance(n, ast.Attribute):
                out.add((n.lineno, n.col_offset))
            stack.extend(ast.iter_child_nodes(n))
    return out


def lint_document(result: LintResult) -> dict:
    """The ``gradcli.lint/1`` JSON object."""
    err = result.error
    return {
        "schema": SCHEMA,
        "file": result.file,
        "ok": not result.findings and err is None,
        "findings": [f.as_dict() for f in result.findings],
        "error": None if err is None else {"kind": err.kind, "line": err.line, "col": err.col,
                                           "message": err.message, "hint": err.hint or ""},
    }
