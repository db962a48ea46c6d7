"""Record PyTorch 2.13's behaviour for custom Functions, anomaly mode, checkpoint, functional and gradcheck.

Run with PyTorch 2.13 installed (the reference version):

    python tests/autograd/record_autograd_extras.py

Each case is a small Python snippet written against the ``torch`` API.  The
recorder runs it under real PyTorch and stores, beside the source, what it
printed, the value of its ``result`` variable (tensors as shape, dtype, data and
autograd flags), the error it raised (kind as SPEC §4 maps it, type and
message) and its warnings, in ``data/<group>_cases.json``.  The tests
(test_function.py, test_checkpoint.py, test_functional.py, test_gradcheck.py)
run the same snippets against gradcli's ``torch`` namespace -- no torch needed.

The helpers below (``encode``, ``run_snippet`` ...) are shared with the tests,
so this module imports torch only in :func:`main`.

PyTorch runs with ATEN_CPU_CAPABILITY=avx2 (set before torch is imported: gradcli.host.pin_torch), so the
expectations are PyTorch's AVX2 kernels on any host (SPEC §2b Hosts).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data")

# SPEC §4 kinds from PyTorch's exception type and message (as shared/conformance/tools/torch_run.py)
MESSAGE_KINDS = [
    ("second_backward", r"Trying to backward through the graph a second time"),
    ("non_scalar_backward", r"grad can be implicitly created only for scalar outputs"),
    ("no_grad_fn", r"element \d+ of tensors does not require grad and does not have a grad_fn"),
    ("grad_shape", r"Mismatch in shape: grad_output\[\d+\] has a shape of"),
    ("unused_input", r"appears to not have been used in the graph"),
    ("input_no_grad", r"One of the differentiated Tensors does not require grad"),
    ("leaf_inplace", r"a leaf Variable that requires grad is being used in an in-place operation"),
    ("inplace_modified", r"has been modified by an inplace operation"),
    ("non_leaf_requires_grad", r"you can only change requires_grad flags of leaf variables"),
    ("retain_grad_no_grad", r"can't retain_grad on Tensor that has requires_grad=False"),
    ("requires_grad_dtype", r"[Oo]nly Tensors of floating point( and complex)? dtype can require gradients"),
    ("numpy_requires_grad", r"Can't call numpy\(\) on Tensor that requires grad"),
    ("item_non_scalar", r"cannot be converted to Scalar"),
    ("detach_view", r"Can't detach views in-place"),
    ("shape", r"The size of tensor a \(\d+\) must match the size of tensor b|shapes cannot be multiplied"
              r"|is invalid for input of size"),
]


def torch_error_kind(exc: BaseException) -> str:
    if isinstance(exc, AssertionError):
        return "assertion"
    if isinstance(exc, NameError):
        return "name"
    if isinstance(exc, TypeError):
        return "type"
    if isinstance(exc, IndexError):
        return "index"
    msg = str(exc)
    for kind, pat in MESSAGE_KINDS:
        if re.search(pat, msg):
            return kind
    return "runtime"


def gradcli_error_kind(exc: BaseException) -> str:
    kind = getattr(exc, "kind", None)
    if isinstance(kind, str):
        return kind
    return torch_error_kind(exc)


def normalize_text(s: str) -> str:
    """Drop object addresses (gradcli prints ``<X object>``, PyTorch ``<X object at 0x...>``)."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", s)


def normalize_warning(msg: str) -> str:
    """The first line, without C++'s "(Triggered internally at ...)" suffix."""
    first = msg.split("\n", 1)[0]
    first = re.sub(r"\s*\(Triggered internally at .*$", "", first)
    return first.rstrip()


def _num(v: float) -> Any:
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def _clean(v: Any) -> Any:
    if isinstance(v, list):
        return [_clean(x) for x in v]
    return _num(v)


def _is_tensor(v: Any) -> bool:
    return type(v).__name__ in ("Tensor", "Parameter") and hasattr(v, "grad_fn") and hasattr(v, "tolist")


def _grad_fn_name(fn: Any) -> str | None:
    return None if fn is None else type(fn).__name__


def encode(v: Any, depth: int = 0) -> Any:
    """A JSON form of a result: tensors with data and flags, nested tuples/lists, numbers, strings."""
    if _is_tensor(v):
        rec = {
            "shape": list(v.shape),
            "dtype": str(v.dtype).replace("torch.", ""),
            "data": _clean(v.detach().tolist()),
            "requires_grad": bool(v.requires_grad),
            "is_leaf": bool(v.is_leaf),
            "grad_fn": _grad_fn_name(v.grad_fn),
        }
        if depth == 0 and v.is_leaf and v.grad is not None:
            rec["grad"] = encode(v.grad, depth + 1)
        return {"tensor": rec}
    if isinstance(v, tuple):
        return {"tuple": [encode(x, depth) for x in v]}
    if isinstance(v, list):
        return {"list": [encode(x, depth) for x in v]}
    if isinstance(v, dict):
        return {"dict": {str(k): encode(x, depth) for k, x in v.items()}}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return {"float": _num(v)}
    return {"repr": normalize_text(repr(v))}


def run_snippet(src: str, torch_ns: Any, warnings_capture: Callable, error_kind: Callable) -> dict:
    """Run ``src`` with ``torch``/``F`` bound; return stdout, encoded ``result``, error and warnings."""
    ns: dict = {"torch": torch_ns, "F": torch_ns.nn.functional, "__name__": "__main__"}
    out = io.StringIO()
    error = None
    with warnings_capture() as warned:
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(src, "<case>", "exec"), ns)
            except Exception as e:  # noqa: BLE001 - the error is part of the record
                error = {"kind": error_kind(e), "type": type(e).__name__, "message": str(e)}
        result = encode(ns.get("result"))
    return {"stdout": normalize_text(out.getvalue()), "result": result, "error": error,
            "warnings": [normalize_warning(w) for w in warned]}


def _close(a: Any, b: Any, dtype: str) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(_close(x, y, dtype) for x, y in zip(a, b)))
    if isinstance(a, str) or isinstance(b, str) or isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if dtype not in ("float16", "float32", "float64"):
        return a == b
    rtol, atol = (1e-10, 1e-12) if dtype == "float64" else ((1e-3, 1e-3) if dtype == "float16" else (1e-5, 1e-6))
    return abs(a - b) <= atol + rtol * abs(b)


def compare_values(got: Any, exp: Any, where: str = "result") -> list:
    """Differences between two encoded results (floats with SPEC §1's tolerances)."""
    if isinstance(exp, dict) and isinstance(got, dict):
        if set(exp) != set(got):
            return [f"{where}: expected {exp!r}, got {got!r}"]
        if "tensor" in exp:
            e, g = exp["tensor"], got["tensor"]
            diffs = []
            for key in ("shape", "dtype", "requires_grad", "is_leaf", "grad_fn"):
                if e.get(key) != g.get(key):
                    diffs.append(f"{where}.{key}: expected {e.get(key)!r}, got {g.get(key)!r}")
            if not _close(g["data"], e["data"], e["dtype"]):
                diffs.append(f"{where}.data: expected {e['data']!r}, got {g['data']!r}")
            if ("grad" in e) != ("grad" in g):
                diffs.append(f"{where}.grad: expected {e.get('grad')!r}, got {g.get('grad')!r}")
            elif "grad" in e:
                diffs += compare_values(g["grad"], e["grad"], where + ".grad")
            return diffs
        if "float" in exp:
            return [] if _close(got["float"], exp["float"], "float64") else [f"{where}: expected {exp}, got {got}"]
        diffs = []
        for k in exp:
            a, b = exp[k], got[k]
            if isinstance(a, list) and isinstance(b, list) and k in ("tuple", "list"):
                if len(a) != len(b):
                    return [f"{where}: expected {len(a)} items, got {len(b)}"]
                for i, (x, y) in enumerate(zip(b, a)):
                    diffs += compare_values(x, y, f"{where}[{i}]")
            elif isinstance(a, dict):
                for kk in a:
                    diffs += compare_values(b.get(kk), a[kk], f"{where}.{kk}")
            elif a != b:
                diffs.append(f"{where}: expected {a!r}, got {b!r}")
        return diffs
    return [] if got == exp else [f"{where}: expected {exp!r}, got {got!r}"]


def _strip(s: str) -> str:
    return "\n".join(line.rstrip() for line in s.split("\n")).rstrip()


def compare(got: dict, exp: dict) -> list:
    """Differences between a gradcli run and the recorded PyTorch run of the same snippet."""
    diffs = []
    if _strip(got["stdout"]) != _strip(exp["stdout"]):
        diffs.append(f"stdout: expected {exp['stdout']!r}, got {got['stdout']!r}")
    ee, ge = exp["error"], got["error"]
    if (ee is None) != (ge is None):
        diffs.append(f"error: expected {ee!r}, got {ge!r}")
    elif ee is not None:
        if ee["kind"] != ge["kind"]:
            diffs.append(f"error kind: expected {ee['kind']!r}, got {ge['kind']!r} ({ge['message']})")
        elif exp.get("options", {}).get("msg", True) and ee["message"] != ge["message"]:
            diffs.append(f"error message: expected {ee['message']!r}, got {ge['message']!r}")
    if got["warnings"] != exp["warnings"]:
        diffs.append(f"warnings: expected {exp['warnings']!r}, got {got['warnings']!r}")
    diffs += compare_values(got["result"], exp["result"])
    return diffs


def run_gradcli(src: str) -> dict:
    """Run a snippet against gradcli's ``torch`` namespace, from PyTorch's start-up state."""
    from gradcli import errors
    from gradcli.api import make_globals
    from gradcli.autograd import anomaly, dtypes, engine, grad_mode

    grad_mode.reset()
    anomaly.reset()
    engine.reset()
    dtypes.set_default_dtype(dtypes.float32)
    g = make_globals()
    g["torch"].manual_seed(0)
    _ensure_anomaly_queries(g["torch"])

    @contextlib.contextmanager
    def capture():
        got: list = []
        old = errors.set_warning_sink(lambda kind, msg: got.append(msg))
        try:
            yield got
        finally:
            errors.set_warning_sink(old)

    return run_snippet(src, g["torch"], capture, gradcli_error_kind)


def _ensure_anomaly_queries(torch_ns: Any) -> None:
    """torch.is_anomaly_enabled & co. live in gradcli.autograd.anomaly; add them if api.py does not (yet)."""
    from gradcli.autograd import anomaly

    extra = {n: getattr(anomaly, n) for n in ("is_anomaly_enabled", "is_anomaly_check_nan_enabled",
                                             "set_anomaly_enabled") if n not in torch_ns._gradcli_public}
    for n, f in extra.items():
        object.__setattr__(torch_ns, n, f)
    if extra:
        torch_ns._gradcli_public = frozenset(torch_ns._gradcli_public | set(extra))


def load(group: str) -> list:
    """The recorded cases of a group, as pytest params (id = case name)."""
    data = json.loads((DATA / f"{group}_cases.json").read_text(encoding="utf-8"))
    return data["cases"]


# ---------------------------------------------------------------------------------------------------
# the cases: (name, source[, options]).  options: "msg": False = compare only the error kind.
# ---------------------------------------------------------------------------------------------------

_DOUBLE = '''
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        print("forward grad enabled:", torch.is_grad_enabled())
        return a * 2
    @staticmethod
    def backward(ctx, g):
        print("backward grad enabled:", torch.is_grad_enabled())
        return g * 2
'''

_EXP = '''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        r = a.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r
'''

_CUBE = '''
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3
    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 3 * a ** 2
'''


def _bad(name: str, fwd: str, bwd: str, args: str = "a") -> str:
    return f'''
class {name}(torch.autograd.Function):
    @staticmethod
    def forward(ctx, {args}):
        return {fwd}
    @staticmethod
    def backward(ctx, g):
        return {bwd}
'''


FUNCTION_CASES = [
    ("basic_print", _DOUBLE + '''
x = torch.tensor([1.0], requires_grad=True)
y = Double.apply(x)
print(y)
print(y.grad_fn)
print(y.grad_fn.name(), y.grad_fn.next_functions)
print(Double)
y.sum().backward()
result = (y, x, x.grad)
'''),
    ("no_input_requires_grad", _DOUBLE + '''
z = Double.apply(torch.ones(2))
result = (z, z.grad_fn is None)
'''),
    ("under_no_grad", _DOUBLE + '''
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    z = Double.apply(x)
result = z
'''),
    ("wrong_number_of_gradients", _bad("Wrong", "a * b", "g", "a, b") + '''
a = torch.ones(2, requires_grad=True); b = torch.ones(2, requires_grad=True)
Wrong.apply(a, b).sum().backward()
'''),
    ("extra_none_gradients_allowed", _bad("Extra", "a * 2", "g, None, None") + '''
a = torch.ones(2, requires_grad=True)
Extra.apply(a).sum().backward()
result = a.grad
'''),
    ("extra_tensor_gradient", _bad("Extra", "a * 2", "g, g") + '''
a = torch.ones(2, requires_grad=True)
Extra.apply(a).sum().backward()
'''),
    ("invalid_gradient_shape", _bad("Shape", "a * 2", "torch.ones(3)") + '''
a = torch.ones(2, requires_grad=True)
Shape.apply(a).sum().backward()
'''),
    ("gradient_summed_to_input_shape", _bad("Shape", "a.sum()", "torch.ones(3, 2)") + '''
a = torch.ones(2, requires_grad=True)
Shape.apply(a).backward()
result = a.grad
'''),
    ("scalar_gradient_for_vector", _bad("Shape", "a.sum()", "g") + '''
a = torch.ones(2, requires_grad=True)
Shape.apply(a).backward()
'''),
    ("invalid_shape_index_counts_tensor_inputs", '''
class Shape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, k, a, b):
        return a * b * k
    @staticmethod
    def backward(ctx, g):
        return None, g, torch.ones(3)
a = torch.ones(2, requires_grad=True)
Shape.apply(2, a, a).sum().backward()
'''),
    ("gradient_dtype_cast", _bad("DT", "a * 2", "g.double()") + '''
a = torch.ones(2, requires_grad=True)
DT.apply(a).sum().backward()
result = a.grad
'''),
    ("gradient_for_non_tensor_input", '''
class NT(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        ctx.k = k
        print("needs", ctx.needs_input_grad)
        return a * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, g
a = torch.ones(2, requires_grad=True)
NT.apply(a, 3).sum().backward()
'''),
    ("backward_returns_int", _bad("R", "a * 2", "3") + '''
a = torch.ones(2, requires_grad=True)
R.apply(a).sum().backward()
'''),
    ("backward_returns_list", _bad("R", "a * 2", "[g]") + '''
a = torch.ones(2, requires_grad=True)
R.apply(a).sum().backward()
'''),
    ("backward_returns_none", _bad("R", "a * 2", "None") + '''
a = torch.ones(2, requires_grad=True)
R.apply(a).sum().backward()
result = a.grad
'''),
    ("saved_tensors_freed_after_backward", _EXP + '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
print(y.grad_fn.saved_tensors, y.grad_fn.needs_input_grad)
y.sum().backward()
print(x.grad)
y.grad_fn.saved_tensors
'''),
    ("second_backward", _EXP + '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
s = y.sum()
s.backward()
s.backward()
'''),
    ("retain_graph_then_second", _EXP + '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
y.sum().backward(retain_graph=True)
y.sum().backward()
result = x.grad
'''),
    ("saved_output_modified_in_place", _EXP + '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
y.mul_(2)
y.sum().backward()
''', {"msg": False}),
    ("saved_input_modified_in_place", '''
class SaveIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return 2 * a * g
x = torch.tensor([0.0, 1.0], requires_grad=True)
h = x * 1
y = SaveIn.apply(h)
h.add_(1)
y.sum().backward()
''', {"msg": False}),
    ("save_non_tensor", '''
class SaveBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a, 3)
        return a * a
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.ones(2, requires_grad=True)
SaveBad.apply(x)
'''),
    ("save_none_and_saved_in_forward", '''
class SaveNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a, None)
        print("in forward:", ctx.saved_tensors)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, n = ctx.saved_tensors
        print("saved:", a, n)
        return g * 2 * a
x = torch.tensor([1.0, 2.0], requires_grad=True)
SaveNone.apply(x).sum().backward()
result = x.grad
'''),
    ("saved_output_has_the_node_as_grad_fn", '''
class SaveOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a.exp()
        ctx.save_for_backward(out, a)
        return out
    @staticmethod
    def backward(ctx, g):
        o, a = ctx.saved_tensors
        print("saved out:", o.grad_fn, o.requires_grad, a.grad_fn, a.is_leaf)
        return g * o
x = torch.tensor([0.0, 1.0], requires_grad=True)
SaveOut.apply(x).sum().backward()
result = x.grad
'''),
    ("two_outputs_unused_one_materialized", '''
class Multi(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, a * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print("grads:", g1, g2)
        return g1 * 2 + g2 * 3
x = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = Multi.apply(x)
print(p.grad_fn is q.grad_fn, p.grad_fn.next_functions)
p.sum().backward()
result = (p, q, x.grad)
'''),
    ("set_materialize_grads_false", '''
class Multi(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2, a * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print("grads:", g1, g2)
        return g1 * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = Multi.apply(x)
p.sum().backward()
result = x.grad
'''),
    ("mark_non_differentiable", '''
class ND(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        idx = torch.tensor([1, 0])
        m = a * 3
        ctx.mark_non_differentiable(idx, m)
        return a * 2, idx, m
    @staticmethod
    def backward(ctx, g1, g2, g3):
        print("grads:", g1, g2, g3)
        return g1 * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
o, i, m = ND.apply(x)
o.sum().backward()
result = (o, i, m, x.grad)
'''),
    ("integer_output_not_differentiable", '''
class IntOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.long(), a * 2
    @staticmethod
    def backward(ctx, g1, g2):
        print("grads:", g1, g2)
        return g2
x = torch.tensor([1.0, 2.0], requires_grad=True)
o1, o2 = IntOut.apply(x)
o2.sum().backward()
result = (o1, o2, x.grad)
'''),
    ("input_returned_is_a_view", '''
class Ident(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a
    @staticmethod
    def backward(ctx, g):
        return g * 5
x = torch.tensor([1.0, 2.0], requires_grad=True)
r = Ident.apply(x)
print(r is x, r.grad_fn)
r.sum().backward()
result = (r, x.grad)
'''),
    ("mark_dirty_on_leaf", '''
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        a.mul_(2)
        ctx.mark_dirty(a)
        return a
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
Dirty.apply(x)
'''),
    ("mark_dirty_on_non_leaf", '''
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        a.mul_(2)
        ctx.mark_dirty(a)
        return a
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 1
r = Dirty.apply(h)
print(r is h, h.grad_fn, h.grad_fn.next_functions)
r.sum().backward()
result = (h, x.grad)
'''),
    ("mark_dirty_not_returned", '''
class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        a.mul_(2)
        ctx.mark_dirty(a)
        return a * 1
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.0, 2.0], requires_grad=True)
Dirty.apply(x * 1)
'''),
    ("mark_dirty_not_an_input_warns", '''
class DirtyOther(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        t = a * 2
        ctx.mark_dirty(t)
        return t
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([1.0, 2.0], requires_grad=True)
result = DirtyOther.apply(x)
'''),
    ("non_tensor_output", '''
class NTO(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, 5
    @staticmethod
    def backward(ctx, g, g2):
        print("grads:", g, g2)
        return g
x = torch.tensor([1.0, 2.0], requires_grad=True)
out = NTO.apply(x)
out[0].sum().backward()
result = (out, x.grad)
'''),
    ("ctx_attributes_persist", '''
class Ret(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.foo = 5
        ctx.scale = 2.0
        print(ctx)
        return a + 1
    @staticmethod
    def backward(ctx, g):
        print("foo", ctx.foo)
        return g * ctx.scale
x = torch.tensor(2.0, requires_grad=True)
y = Ret.apply(x)
print(y.grad_fn.foo)
y.backward(retain_graph=True)
y.backward()
y.backward()
result = x.grad
'''),
    ("ctx_missing_attribute", '''
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return ctx.bar
    @staticmethod
    def backward(ctx, g):
        return g
G.apply(torch.ones(1, requires_grad=True))
'''),
    ("ctx_read_only_attribute", '''
class G(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.saved_tensors = 1
        return a
    @staticmethod
    def backward(ctx, g):
        return g
G.apply(torch.ones(1, requires_grad=True))
'''),
    ("needs_input_grad_mixed_inputs", '''
class Mixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, c, d):
        print("needs", ctx.needs_input_grad)
        return a * b
    @staticmethod
    def backward(ctx, g):
        return g, g, None, None
x = torch.tensor(2.0, requires_grad=True)
y = Mixed.apply(x, torch.ones(()), 3, None)
print(len(y.grad_fn.next_functions), y.grad_fn.next_functions[1])
y.backward()
result = x.grad
'''),
    ("create_graph_second_derivative", _CUBE + '''
x = torch.tensor(2.0, requires_grad=True)
y = Cube.apply(x)
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g, g.grad_fn)
(h,) = torch.autograd.grad(g, x)
result = (g, h)
'''),
    ("once_differentiable_plain_grad", '''
class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        print("backward grad enabled:", torch.is_grad_enabled())
        return g * 3 * a ** 2
x = torch.tensor(2.0, requires_grad=True)
(g,) = torch.autograd.grad(CubeOnce.apply(x), x, create_graph=True)
print(g, g.grad_fn, g.requires_grad)
(g2,) = torch.autograd.grad(CubeOnce.apply(x), x)
result = (g, g2)
'''),
    ("once_differentiable_error_node", '''
class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 3 * a ** 2
x = torch.tensor(2.0, requires_grad=True)
y = CubeOnce.apply(x)
(g,) = torch.autograd.grad(y * y, x, create_graph=True)
print(g, g.grad_fn, g.grad_fn.next_functions)
torch.autograd.grad(g, x)
''', {"msg": False}),
    ("once_differentiable_backward_through_error", '''
class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 3 * a ** 2
x = torch.tensor(2.0, requires_grad=True)
y = CubeOnce.apply(x)
(g,) = torch.autograd.grad(y * y, x, create_graph=True)
g.backward()
'''),
    ("setup_context_style", '''
class SC(torch.autograd.Function):
    @staticmethod
    def forward(a, k=2.0):
        print("forward grad enabled:", torch.is_grad_enabled())
        return a * k
    @staticmethod
    def setup_context(ctx, inputs, output):
        a, k = inputs
        print("setup_context:", len(inputs), k, output, torch.is_grad_enabled())
        ctx.k = k
        ctx.save_for_backward(a)
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
x = torch.tensor(2.0, requires_grad=True)
y = SC.apply(x)
y.backward()
y3 = SC.apply(x, k=3.0)
result = (y, y3, x.grad)
'''),
    ("keyword_arguments_without_setup_context", '''
class KW(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k=2.0):
        return a * k
    @staticmethod
    def backward(ctx, g):
        return g * 2, None
x = torch.tensor(2.0, requires_grad=True)
result = KW.apply(x, k=3.0)
'''),
    ("error_in_backward_propagates", '''
class Err(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom")
x = torch.tensor(2.0, requires_grad=True)
Err.apply(x).backward()
'''),
    ("no_backward_defined", '''
class NB(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2
x = torch.tensor(2.0, requires_grad=True)
NB.apply(x).backward()
'''),
    ("no_forward_defined", '''
class NF(torch.autograd.Function):
    @staticmethod
    def backward(ctx, g):
        return g
NF.apply(torch.tensor(2.0, requires_grad=True))
'''),
    ("instance_call_is_legacy", _DOUBLE + '''
Double()(torch.ones(1))
'''),
    ("straight_through_estimator", '''
class STESign(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return torch.sign(a)
    @staticmethod
    def backward(ctx, g):
        return g
x = torch.tensor([-0.5, 0.0, 2.0], requires_grad=True)
y = STESign.apply(x)
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
result = (y, x.grad)
'''),
    # --- anomaly mode ---------------------------------------------------------------------------
    ("anomaly_nan_in_log_backward", '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
print(torch.is_anomaly_enabled())
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    z = (x.log() * x).sum()
    z.backward()
'''),
    ("anomaly_nan_index_of_output", '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    torch.autograd.grad((x / x).sum(), x)
'''),
    ("anomaly_nan_in_custom_function", '''
class NaNF(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1
    @staticmethod
    def backward(ctx, g):
        return g * float("nan")
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    NaNF.apply(x).sum().backward()
'''),
    ("anomaly_check_nan_false", '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly(check_nan=False):
    (x / x).sum().backward()
result = (x.grad, torch.is_anomaly_enabled())
'''),
    ("set_detect_anomaly_function_and_block", '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
with torch.autograd.set_detect_anomaly(True):
    print("inside", torch.is_anomaly_enabled())
print("after", torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    (x / x).sum().backward()
result = x.grad
'''),
    ("anomaly_other_error_warns_too", '''
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    s = (x * 2).sum()
    y = (x * 2).exp()
    y.sum().backward()
    y.sum().backward()
''', {"msg": False}),
]

CHECKPOINT_CASES = [
    ("non_reentrant_graph_and_recompute", '''
calls = []
def f(h):
    calls.append(torch.is_grad_enabled())
    return torch.relu(h * 3 - 1)
x = torch.tensor([0.1, 0.5, 1.0], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
print(y, y.grad_fn, y.grad_fn.next_functions)
print(len(calls))
y.sum().backward()
result = (y, x.grad, calls)
'''),
    ("non_reentrant_early_stop_and_order", '''
def f(h):
    print("start", torch.is_grad_enabled())
    a = h * 3
    print("mid")
    b = a.exp()
    print("after exp")
    c = b + 1
    print("end")
    return c
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
y.register_hook(lambda g: print("hook y"))
print("backward")
y.sum().backward()
result = x.grad
'''),
    ("non_reentrant_between_tracked_ops", '''
def mlp(h):
    return torch.relu(h * 3 - 1)
x = torch.tensor([0.1, 0.5, 1.0], requires_grad=True)
h = x * 2
y = torch.utils.checkpoint.checkpoint(mlp, h, use_reentrant=False)
z = (y ** 2).sum()
z.backward()
result = (h, y, z, x.grad)
'''),
    ("reentrant_basic", '''
calls = []
def f(h):
    calls.append(torch.is_grad_enabled())
    return torch.relu(h * 3 - 1)
x = torch.tensor([0.1, 0.5, 1.0], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=True)
print(y, y.grad_fn, y.grad_fn.next_functions)
y.sum().backward()
result = (y, x.grad, calls)
'''),
    ("use_reentrant_not_passed", '''
def f(h):
    return h * 2
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x)
y.sum().backward()
result = (y, x.grad)
'''),
    ("no_grad_inputs", '''
def f(t):
    return t * 2
c = torch.ones(2)
y = torch.utils.checkpoint.checkpoint(f, c, use_reentrant=False)
y2 = torch.utils.checkpoint.checkpoint(f, c, use_reentrant=True)
result = (y, y2)
'''),
    ("second_backward_non_reentrant", '''
def f(h):
    print("f")
    return h.exp()
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
y.sum().backward()
y.sum().backward()
''', {"msg": False}),
    ("second_backward_reentrant", '''
def f(h):
    print("f")
    return h.exp()
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=True)
y.sum().backward()
y.sum().backward()
'''),
    ("retain_graph_recomputes_each_backward", '''
def f(h):
    print("f")
    return h.exp()
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
y.sum().backward(retain_graph=True)
y.sum().backward()
result = x.grad
'''),
    ("autograd_grad_non_reentrant", '''
def f(h):
    return h.exp() * h
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
result = torch.autograd.grad(y.sum(), x)
'''),
    ("autograd_grad_reentrant_refused", '''
def f(h):
    return h.exp() * h
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=True)
torch.autograd.grad(y.sum(), x)
'''),
    ("backward_inputs_reentrant_refused", '''
def f(h):
    return h.exp() * h
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=True)
y.sum().backward(inputs=[x])
'''),
    ("under_no_grad", '''
def f(h):
    print("f", torch.is_grad_enabled())
    return h * 2
x = torch.tensor([0.1, 0.5], requires_grad=True)
with torch.no_grad():
    y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
result = y
'''),
    ("keyword_arguments", '''
def g(a, b=1.0):
    return a * b
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(g, x, b=torch.tensor(2.0), use_reentrant=False)
y.sum().backward()
result = (y, x.grad)
'''),
    ("keyword_arguments_reentrant", '''
def g(a, b=1.0):
    return a * b
x = torch.tensor([0.1, 0.5], requires_grad=True)
torch.utils.checkpoint.checkpoint(g, x, b=2.0, use_reentrant=True)
'''),
    ("tuple_outputs", '''
def m(a):
    return a * 2, a.sum()
x = torch.tensor([0.1, 0.5], requires_grad=True)
r1 = torch.utils.checkpoint.checkpoint(m, x, use_reentrant=False)
r2 = torch.utils.checkpoint.checkpoint(m, x, use_reentrant=True)
(r1[0].sum() + r1[1] + r2[0].sum() + r2[1]).backward()
result = (r1, r2, x.grad)
'''),
    ("non_tensor_argument", '''
def n(a, k):
    return a * k
x = torch.tensor([0.1, 0.5], requires_grad=True)
r1 = torch.utils.checkpoint.checkpoint(n, x, 3, use_reentrant=False)
r2 = torch.utils.checkpoint.checkpoint(n, x, 3, use_reentrant=True)
(r1 + r2).sum().backward()
result = (r1, r2, x.grad)
'''),
    ("create_graph_non_reentrant", '''
x = torch.tensor([0.1, 0.5, 1.0], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(lambda a: a ** 3, x, use_reentrant=False)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(h,) = torch.autograd.grad(g.sum(), x)
result = (g, h)
'''),
    ("input_modified_after_checkpoint", '''
def g(h):
    return (h * 2).exp()
x = torch.tensor([0.1, 0.5], requires_grad=True)
h = x * 1
y = torch.utils.checkpoint.checkpoint(g, h, use_reentrant=False)
with torch.no_grad():
    h.add_(1)
y.sum().backward()
''', {"msg": False}),
    ("inplace_inside_region_after_save", '''
def g(h):
    a = h.exp()
    a.add_(1)
    return a
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(g, x, use_reentrant=False)
y.sum().backward()
result = x.grad
'''),
    ("inplace_inside_region_without_checkpoint", '''
def g(h):
    a = h.exp()
    a.add_(1)
    return a
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = g(x)
y.sum().backward()
''', {"msg": False}),
    ("random_inside_is_replayed", '''
torch.manual_seed(0)
def r(h):
    n = torch.randn(2)
    print("noise", n)
    return h * n
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(r, x, use_reentrant=False)
y.sum().backward()
after = torch.randn(1)
y2 = torch.utils.checkpoint.checkpoint(r, x, use_reentrant=True)
y2.sum().backward()
after2 = torch.randn(1)
result = (x.grad, after, after2)
'''),
    ("recomputation_saves_differently", '''
count = [0]
def g(h):
    count[0] += 1
    if count[0] == 1:
        return h.exp()
    return h * 2
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(g, x, use_reentrant=False)
y.sum().backward()
'''),
    ("reentrant_kwargs_context_fn_debug", '''
x = torch.tensor([0.1, 0.5], requires_grad=True)
torch.utils.checkpoint.checkpoint(lambda a: a * 2, x, use_reentrant=True, debug=True)
'''),
    ("custom_function_inside_checkpoint", _EXP + '''
def f(h):
    print("f")
    return Exp.apply(h * 2)
x = torch.tensor([0.1, 0.5], requires_grad=True)
y = torch.utils.checkpoint.checkpoint(f, x, use_reentrant=False)
y.sum().backward()
result = (y, x.grad)
'''),
]

FUNCTIONAL_CASES = [
    ("jacobian_elementwise", '''
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
J = torch.autograd.functional.jacobian(lambda t: t ** 2, x)
result = (J, x.grad)
'''),
    ("jacobian_create_graph", '''
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
J = torch.autograd.functional.jacobian(lambda t: t ** 2, x, create_graph=True)
J.sum().backward()
result = (J, x.grad)
'''),
    ("jacobian_tuple_inputs", '''
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0])
result = torch.autograd.functional.jacobian(lambda p, q: p * q, (a, b))
'''),
    ("jacobian_tuple_outputs", '''
a = torch.tensor([1.0, 2.0])
result = torch.autograd.functional.jacobian(lambda p: (p * 2, p.sum()), a)
'''),
    ("jacobian_tuple_inputs_and_outputs", '''
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0])
result = torch.autograd.functional.jacobian(lambda p, q: (p * q, q ** 2), (a, b))
'''),
    ("jacobian_scalar_output", '''
a = torch.tensor([1.0, 2.0])
result = torch.autograd.functional.jacobian(lambda p: p.sum(), a)
'''),
    ("jacobian_scalar_input", '''
result = torch.autograd.functional.jacobian(lambda p: p * torch.ones(2), torch.tensor(2.0))
'''),
    ("jacobian_constant_output", '''
a = torch.tensor([1.0, 2.0])
result = torch.autograd.functional.jacobian(lambda p: torch.ones(2), a)
'''),
    ("jacobian_constant_output_strict", '''
a = torch.tensor([1.0, 2.0])
torch.autograd.functional.jacobian(lambda p: torch.ones(2), a, strict=True)
'''),
    ("jacobian_independent_input_strict", '''
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0])
torch.autograd.functional.jacobian(lambda p, q: p * 2, (a, b), strict=True)
'''),
    ("jacobian_independent_input", '''
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0])
result = torch.autograd.functional.jacobian(lambda p, q: p * 2, (a, b))
'''),
    ("jacobian_list_inputs_refused", '''
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0])
torch.autograd.functional.jacobian(lambda p, q: p * q, [a, b])
'''),
    ("jacobian_non_tensor_output", '''
torch.autograd.functional.jacobian(lambda p: 3.0, torch.tensor([1.0, 2.0]))
'''),
    ("jacobian_tuple_with_non_tensor", '''
torch.autograd.functional.jacobian(lambda p, q: p, (torch.tensor([1.0]), 2.0))
'''),
    ("jacobian_vectorize_same_result", '''
a = torch.tensor([1.0, 2.0])
result = torch.autograd.functional.jacobian(lambda p: p ** 2, a, vectorize=True)
'''),
    ("jacobian_forward_mode_needs_vectorize", '''
torch.autograd.functional.jacobian(lambda p: p ** 2, torch.tensor([1.0, 2.0]), strategy="forward-mode")
'''),
    ("jacobian_forward_mode_vectorized", '''
result = torch.autograd.functional.jacobian(lambda p: p ** 2, torch.tensor([1.0, 2.0]), strategy="forward-mode",
                                            vectorize=True)
'''),
    ("jacobian_bad_strategy", '''
torch.autograd.functional.jacobian(lambda p: p ** 2, torch.tensor([1.0, 2.0]), strategy="sideways")
'''),
    ("jacobian_integer_input", '''
torch.autograd.functional.jacobian(lambda p: p * 2, torch.tensor([1, 2]))
'''),
    ("jacobian_matrix_shape", '''
J = torch.autograd.functional.jacobian(lambda p: p @ p.T, torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
result = J
'''),
    ("jacobian_of_linear_map", '''
A = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.0, -1.0]])
x = torch.tensor([0.5, -0.5], requires_grad=True)
result = torch.autograd.functional.jacobian(lambda t: A @ t, x)
'''),
    ("hessian_cubic", '''
result = torch.autograd.functional.hessian(lambda p: (p ** 3).sum(), torch.tensor([1.0, 2.0]))
'''),
    ("hessian_tuple_inputs", '''
a = torch.tensor([1.0, 2.0]); b = torch.tensor([3.0])
result = torch.autograd.functional.hessian(lambda p, q: (p ** 2 * q).sum(), (a, b))
'''),
    ("hessian_non_scalar", '''
torch.autograd.functional.hessian(lambda p: p ** 3, torch.tensor([1.0, 2.0]))
'''),
    ("hessian_linear", '''
result = torch.autograd.functional.hessian(lambda p: p.sum(), torch.tensor([1.0, 2.0]))
'''),
    ("hessian_linear_strict", '''
torch.autograd.functional.hessian(lambda p: p.sum(), torch.tensor([1.0, 2.0]), strict=True)
'''),
    ("hessian_one_element", '''
result = torch.autograd.functional.hessian(lambda p: p ** 3, torch.tensor([2.0]))
'''),
    ("hessian_create_graph", '''
x = torch.tensor([1.0, 2.0], requires_grad=True)
H = torch.autograd.functional.hessian(lambda p: (p ** 3).sum(), x, create_graph=True)
H.sum().backward()
result = (H, x.grad)
'''),
    ("vjp_basic", '''
result = torch.autograd.functional.vjp(lambda p: p ** 2, torch.tensor([1.0, 2.0]), torch.ones(2))
'''),
    ("vjp_scalar_without_v", '''
result = torch.autograd.functional.vjp(lambda p: (p ** 2).sum(), torch.tensor([1.0, 2.0]))
'''),
    ("vjp_non_scalar_without_v", '''
torch.autograd.functional.vjp(lambda p: p ** 2, torch.tensor([1.0, 2.0]))
'''),
    ("vjp_tuple_inputs", '''
result = torch.autograd.functional.vjp(lambda p, q: p * q, (torch.tensor([1.0, 2.0]), torch.tensor([3.0])),
                                       torch.ones(2))
'''),
    ("vjp_bad_v_shape", '''
torch.autograd.functional.vjp(lambda p: p ** 2, torch.tensor([1.0, 2.0]), torch.ones(3))
'''),
    ("vjp_v_tuple_wrong_length", '''
torch.autograd.functional.vjp(lambda p: (p, p), torch.tensor([1.0, 2.0]), (torch.ones(2),))
'''),
    ("vjp_create_graph", '''
x = torch.tensor([1.0, 2.0], requires_grad=True)
out, v = torch.autograd.functional.vjp(lambda p: p ** 2, x, torch.ones(2), create_graph=True)
v.sum().backward()
result = (out, v, x.grad)
'''),
    ("jvp_basic", '''
result = torch.autograd.functional.jvp(lambda p: p ** 2, torch.tensor([1.0, 2.0]), torch.ones(2))
'''),
    ("jvp_one_element_without_v", '''
result = torch.autograd.functional.jvp(lambda p: p ** 2, torch.tensor([2.0]))
'''),
    ("jvp_without_v", '''
torch.autograd.functional.jvp(lambda p: p ** 2, torch.tensor([1.0, 2.0]))
'''),
    ("jvp_tuples", '''
result = torch.autograd.functional.jvp(lambda p, q: (p * q, q), (torch.tensor([1.0, 2.0]), torch.tensor([3.0])),
                                       (torch.ones(2), torch.ones(1)))
'''),
    ("jvp_nonlinear", '''
result = torch.autograd.functional.jvp(lambda p: (p.sin() * p.exp()).sum(), torch.tensor([0.3, -1.2]),
                                       torch.tensor([1.0, 2.0]))
'''),
    ("hvp_and_vhp", '''
f = lambda p: (p ** 3).sum()
a = torch.tensor([1.0, 2.0])
result = (torch.autograd.functional.hvp(f, a, torch.ones(2)), torch.autograd.functional.vhp(f, a, torch.ones(2)))
'''),
    ("hvp_non_scalar", '''
torch.autograd.functional.hvp(lambda p: p ** 3, torch.tensor([1.0, 2.0]), torch.ones(2))
'''),
    ("vhp_without_v", '''
torch.autograd.functional.vhp(lambda p: (p ** 3).sum(), torch.tensor([1.0, 2.0]))
'''),
    ("vhp_one_element_without_v", '''
result = torch.autograd.functional.vhp(lambda p: (p ** 3).sum(), torch.tensor([2.0]))
'''),
    ("hvp_mixed_terms", '''
f = lambda p, q: (p * p * q).sum()
result = torch.autograd.functional.hvp(f, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
                                       (torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])))
'''),
    ("grad_untouched_and_calls", '''
calls = []
def f(t):
    calls.append((t.requires_grad, t.is_leaf))
    return t ** 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
torch.autograd.functional.jacobian(f, x)
torch.autograd.functional.jacobian(f, x, create_graph=True)
result = (x.grad, calls)
'''),
    ("float64_jacobian", '''
x = torch.tensor([0.2, 0.7], dtype=torch.float64)
result = torch.autograd.functional.jacobian(lambda t: t.exp() * t.sin(), x)
'''),
]

GRADCHECK_CASES = [
    ("composite_float64", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda t: (t.exp() * t.sin()).sum(), (x,))
'''),
    ("single_tensor_input", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda t: t.exp(), x)
'''),
    ("float32_warns_and_fails", '''
x = torch.tensor([0.1, 0.5, -0.3], requires_grad=True)
torch.autograd.gradcheck(lambda t: t.exp(), (x,))
''', {"msg": False}),  # float32 finite differences amplify 1-ulp differences of exp
    ("float32_no_raise", '''
x = torch.tensor([0.1, 0.5, -0.3], requires_grad=True)
result = torch.autograd.gradcheck(lambda t: t.exp(), (x,), raise_exception=False)
'''),
    ("wrong_backward", _bad("Bad", "a * a", "g * 3") + '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(Bad.apply, (x,))
'''),
    ("wrong_backward_no_raise", _bad("Bad", "a * a", "g * 3") + '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(Bad.apply, (x,), raise_exception=False)
'''),
    ("no_input_requires_grad", '''
x = torch.tensor([0.1, 0.5], dtype=torch.float64)
torch.autograd.gradcheck(lambda t: t * 2, (x,))
'''),
    ("two_inputs", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda a, b: a * b.sum(), (x, y))
'''),
    ("second_input_wrong", '''
class Bad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b.sum()
    @staticmethod
    def backward(ctx, g):
        return g * 0 + 1, None
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
y = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(Bad2.apply, (x, y))
'''),
    ("relu_kink", '''
x = torch.tensor([0.0, 1.0], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(lambda t: t.relu(), (x,))
'''),
    ("tuple_outputs", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda t: (t * 2, t.sum()), (x,))
'''),
    ("non_tensor_argument", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda t, k: t * k, (x, 3.0))
'''),
    ("tight_tolerances_with_large_eps", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(lambda t: t.exp(), (x,), eps=1e-3, atol=1e-9, rtol=1e-9)
'''),
    ("list_inputs", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda t: t.exp(), [x])
'''),
    ("constant_output", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda t: torch.ones(2, dtype=torch.float64), (x,))
'''),
    ("calls_and_prints", '''
calls = []
def f(t):
    calls.append(1)
    return (t * t).sum()
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradcheck(f, (x,))
y = torch.tensor([0.1, 0.5], dtype=torch.float64, requires_grad=True)
ok2 = torch.autograd.gradcheck(lambda a: (a * 2, a ** 2), (y,))
result = (ok, ok2, len(calls), x.grad)
'''),
    ("custom_function_exp", _EXP + '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(Exp.apply, (x,))
'''),
    ("forward_and_backward_calls_of_a_custom_function", '''
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        print("forward")
        r = a.exp()
        ctx.save_for_backward(r)
        return r
    @staticmethod
    def backward(ctx, g):
        print("backward", g)
        (r,) = ctx.saved_tensors
        return g * r
x = torch.tensor([0.1, 0.5], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(Exp.apply, (x,))
'''),
    ("backward_ignores_grad_output", _bad("Ign", "a.sum()", "torch.ones_like(ctx.x)") .replace(
        "        return a.sum()", "        ctx.x = a\n        return a.sum()") + '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(Ign.apply, (x,))
'''),
    ("matrix_inputs", '''
a = torch.tensor([[0.1, 0.2], [0.3, -0.4]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0, -2.0], [0.5, 0.25]], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradcheck(lambda p, q: (p @ q).tanh(), (a, b))
'''),
    ("expanded_input", '''
x = torch.tensor([0.1], dtype=torch.float64, requires_grad=True)
torch.autograd.gradcheck(lambda t: t * 2, (x.expand(3),))
''', {"msg": False}),
    ("gradgradcheck_ok", '''
torch.manual_seed(0)
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
ok = torch.autograd.gradgradcheck(lambda t: t ** 3, (x,))
result = (ok, torch.randn(2))
'''),
    ("gradgradcheck_with_grad_outputs", '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
go = torch.tensor([1.0, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradgradcheck(lambda t: (t.sin() * t), (x,), (go,))
'''),
    ("gradgradcheck_linear_wrong_backward_passes", _bad("Bad", "a * a", "g * 3") + '''
x = torch.tensor([0.1, 0.5, -0.3], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradgradcheck(Bad.apply, (x,))
'''),
    ("gradgradcheck_once_differentiable", '''
class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 3 * a ** 2
x = torch.tensor([0.1, 0.5], dtype=torch.float64, requires_grad=True)
result = torch.autograd.gradgradcheck(CubeOnce.apply, (x,), (torch.ones(2, dtype=torch.float64),),
                                      raise_exception=False)
''', {"msg": False}),
]

GROUPS = {
    "function": FUNCTION_CASES,
    "checkpoint": CHECKPOINT_CASES,
    "functional": FUNCTIONAL_CASES,
    "gradcheck": GRADCHECK_CASES,
}


def main(argv: list[str]) -> int:
    import warnings

    from gradcli import host

    host.pin_torch()
    import torch
    import torch.nn.functional
    import torch.utils.checkpoint
    host.require_torch_avx2()

    @contextlib.contextmanager
    def capture():
        got: list = []
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            yield got
        for w in rec:
            if issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                                       ResourceWarning)):
                continue
            got.append(str(w.message))

    groups = argv or list(GROUPS)
    for group in groups:
        out = []
        for case in GROUPS[group]:
            name, src = case[0], case[1]
            opts = case[2] if len(case) > 2 else {}
            torch.manual_seed(0)
            torch.set_grad_enabled(True)
            torch.autograd.set_detect_anomaly(False)
            rec = run_snippet(src, torch, capture, torch_error_kind)
            out.append({"name": name, "src": src, "options": opts, **rec})
        DATA.mkdir(exist_ok=True)
        path = DATA / f"{group}_cases.json"
        path.write_text(json.dumps({"torch": torch.__version__, "cases": out}, indent=1) + "\n", encoding="utf-8")
        print(f"{path}: {len(out)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
