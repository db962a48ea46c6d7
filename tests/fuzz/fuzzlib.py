"""Input generation and the pass/fail rule of gradcli's fuzzing (issue 8, Must have 1).

Three sources of inputs, all driven by a ``random.Random``-like object ``rnd``
(a seeded ``random.Random`` in the long run, hypothesis's ``st.randoms()`` in
the test suite, so failures shrink and replay from a seed):

* :func:`gen_program` -- grammar-aware generation: statements and expressions
  of the language (SPEC §2) over the real op names of the registry and the
  tensor methods, with odd arguments (huge/negative ints, nan, dtypes, wrong
  types, keywords), control flow, user functions, hooks, custom Functions and
  backward calls; optionally made *almost valid* by one token-level mutation;
* :func:`mutate_program` -- mutation of real programs (``samples/``, the
  conformance cases, the language tests' data): AST-level (swap a constant,
  a name, an attribute for another public name, an operator; drop, duplicate,
  wrap or move statements) and text-level (cut, insert a token, swap lines);
* :func:`mutate_bytes` -- byte-level mutation (flips, interesting bytes such
  as NUL/BOM/invalid UTF-8/CR, truncation, splicing two files, repeated
  chunks).

:func:`check_source` runs one input through the real entry point
(``run_file``) and then through the CLI's own renderers (JSON document, human
tables and panels, graph builder) and returns a failure description, or None:
every input must end with a result whose error kind (if any) is a SPEC §4
kind, warnings of SPEC §4 kinds, nothing written to the real stdout/stderr,
and no exception -- an exception is exactly what the CLI would show as an
internal error with a traceback under ``--debug``.  :func:`check_cli` does the
same through the ``gradcli`` command in a subprocess: exit status 0/1/2, no
``Traceback`` on either stream, valid JSON with a SPEC §4 kind, in time.
"""

from __future__ import annotations

import ast
import io
import json
import os
import random
import signal
import subprocess
import sys
import traceback
import warnings
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

from gradcli.errors import ERROR_KINDS, WARNING_KINDS  # noqa: E402
from gradcli.lang.result import RunOptions  # noqa: E402
from gradcli.lang.run import InvocationError, run_file  # noqa: E402

__all__ = [
    "corpus",
    "gen_program",
    "mutate_program",
    "mutate_bytes",
    "random_options",
    "make_input",
    "check_source",
    "check_cli",
    "Hang",
    "FUZZ_LIMITS",
]

#: limits of a fuzzed run: small enough that every input ends in well under a second
FUZZ_LIMITS = dict(max_steps=20_000, timeout=3.0, max_elements=200_000)


# ---------------------------------------------------------------------------------------------
# the corpus
# ---------------------------------------------------------------------------------------------
_CORPUS: list[str] = []
_HELPERS = {"casefiles.py", "conftest.py", "record.py", "conformance_util.py"}


def corpus() -> list[str]:
    """The real programs mutation starts from (samples, conformance cases, language test data)."""
    if _CORPUS:
        return _CORPUS
    dirs = [ROOT / "samples", ROOT / "tests" / "conformance", ROOT / "tests" / "lang" / "data"]
    shared = ROOT.parent / "shared" / "conformance"
    if shared.is_dir():
        dirs.append(shared)
    seen = set()
    for d in dirs:
        for p in sorted(d.glob("**/*.py")):
            if p.name in _HELPERS or p.name.startswith("test_") or "tools" in p.parts:
                continue
            if "conformance" in p.parts and not p.with_suffix(".expected.json").exists():
                continue  # a helper module beside the cases, not a case
            try:
                text = p.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if text not in seen:
                seen.add(text)
                _CORPUS.append(text)
    if not _CORPUS:  # pragma: no cover - a checkout without data
        _CORPUS.append("x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\ny.backward()\nprint(x.grad)\n")
    return _CORPUS


# ---------------------------------------------------------------------------------------------
# the vocabulary (from the registry, so new ops are fuzzed as they arrive)
# ---------------------------------------------------------------------------------------------
_VOCAB: dict[str, list[str]] = {}


def vocab() -> dict[str, list[str]]:
    if _VOCAB:
        return _VOCAB
    try:
        from gradcli.autograd.tensor import tensor_public_names
        from gradcli.ops import registry

        _VOCAB["torch"] = sorted(dict(registry.torch_functions()))
        _VOCAB["F"] = sorted(dict(registry.f_functions()))
        _VOCAB["method"] = sorted(n for n in tensor_public_names() if not n.startswith("_"))
    except Exception:  # pragma: no cover - engine missing
        _VOCAB["torch"] = ["ones", "zeros", "tensor", "exp", "sum"]
        _VOCAB["F"] = ["relu"]
        _VOCAB["method"] = ["sum", "exp", "backward"]
    _VOCAB["torch"] += ["no_grad", "enable_grad", "is_grad_enabled", "get_default_dtype", "is_tensor", "numel",
                        "allclose", "equal", "isclose", "Size", "Tensor", "set_default_dtype",
                        "autograd.grad", "autograd.backward", "autograd.functional.jacobian",
                        "autograd.functional.hessian", "autograd.functional.vjp", "autograd.functional.jvp",
                        "autograd.gradcheck", "utils.checkpoint.checkpoint", "autograd.detect_anomaly",
                        "autograd.set_detect_anomaly", "set_grad_enabled", "inference_mode"]
    return _VOCAB


NAMES = ["x", "y", "z", "w", "a", "b", "t", "h", "out", "loss"]
DTYPES = ["torch.float32", "torch.float64", "torch.int64", "torch.int32", "torch.bool", "torch.float16",
          "torch.long", "torch.double", "torch.uint8", "torch.int8"]
INTS = ["0", "1", "2", "3", "-1", "-2", "4", "5", "6", "10", "100", "2**31", "2**63", "-2**63", "10**9",
        "10**20", "True", "False", "7", "-3"]
FLOATS = ["0.0", "-0.0", "1.0", "0.5", "-1.5", "2.5", "1e-8", "1e30", "1e308", "float('nan')", "float('inf')",
          "-float('inf')", "3.14"]
OTHERS = ["None", "'s'", "''", "()", "[]", "[1, 2]", "[[1.0, 2.0], [3.0, 4.0]]", "(2, 3)", "[True, False]",
          "{}", "{'a': 1}", "slice(None)", "...", "b'x'", "1j", "range(3)", "print", "len", "torch", "F"]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">",
          ">=", "and", "or", "is", "is not", "in"]
KEYWORDS = ["dim", "keepdim", "dtype", "requires_grad", "alpha", "min", "max", "p", "retain_graph",
            "create_graph", "inputs", "allow_unused", "grad_outputs", "gradient", "use_reentrant", "reduction",
            "negative_slope", "out", "beta", "threshold", "weight", "bias", "start", "end", "steps", "size",
            "correction", "unbiased", "exponent", "other", "value", "num_classes", "approximate", "index",
            "mode", "check_nan", "eps", "atol", "strict", "vectorize", "create_graph", "is_grads_batched",
            "materialize_grads", "force", "memory_format", "non_blocking", "copy"]
TOKENS = ["(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "+", "-", "*", "**", "/", "@", "\n", "    ", "\t",
          "x", "y", "torch", "F", "1", "0.5", "'", '"', "#", "\\", "lambda", "def", "for", "in", "if", "else",
          "while", "return", "with", "not", "and", "class", "import", "None", "print", "backward()", ".grad",
          "_", "__class__", "f'{x}'", "*", "yield", "try:", "del", "global", ";", "\x00", "\r", "\ufeff",
          "é", "𝔁", "\u2028", "0x", "1_000", "9" * 40, "(" * 30, ")" * 30]


# ---------------------------------------------------------------------------------------------
# grammar-aware generation
# ---------------------------------------------------------------------------------------------
class _Gen:
    """Generates one program; ``rnd`` decides everything."""

    def __init__(self, rnd: Any, max_depth: int = 3) -> None:
        self.rnd = rnd
        self.max_depth = max_depth
        self.v = vocab()
        self.indent = 0
        self.in_loop = 0
        self.in_func = 0

    def p(self, prob: float) -> bool:
        return self.rnd.random() < prob

    def pick(self, seq: list) -> Any:
        return seq[self.rnd.randrange(len(seq))]

    # -- expressions ---------------------------------------------------------------------------
    def shape_args(self) -> str:
        n = self.rnd.randrange(0, 4)
        dims = [self.pick(["1", "2", "3", "4", "0", "2", "3"]) for _ in range(n)]
        if self.p(0.05):
            dims.append(self.pick(["-1", "10**6", "1000", "2**40", "10**10"]))
        return ", ".join(dims)

    def creation(self) -> str:
        r = self.rnd.random()
        kw = ""
        if self.p(0.4):
            kw += ", requires_grad=" + self.pick(["True", "True", "False", "1"])
        if self.p(0.25):
            kw += ", dtype=" + self.pick(DTYPES)
        if r < 0.3:
            vals = self.pick(["[1.0, 2.0, 3.0]", "[[1.0, -2.0], [3.0, 0.5]]", "2.0", "[0.0, 1.0]", "[1, 2, 3]",
                              "[[1.0], [2.0]]", "[float('nan'), 1.0]", "[True, False]", "[]", "[[]]",
                              "[1e30, -1e30]", "3", "[[1, 2], [3]]", "[x]" if self.p(0.2) else "-0.5"])
            return f"torch.tensor({vals}{kw})"
        if r < 0.6:
            fn = self.pick(["ones", "zeros", "randn", "rand", "empty", "full", "eye", "arange", "linspace",
                            "randint"])
            if fn == "full":
                return f"torch.full(({self.shape_args()}), {self.scalar()}{kw})"
            if fn == "arange":
                return f"torch.arange({self.pick(['6.0', '5', '0, 4', '1, 10, 2', '-3.0, 3.0, 0.5', '10**9'])}{kw})"
            if fn == "linspace":
                return f"torch.linspace(0, 1, {self.pick(['5', '1', '0', '-1', '10**8'])}{kw})"
            if fn == "randint":
                return f"torch.randint(0, 10, ({self.shape_args()},){kw})"
            if fn == "eye":
                return f"torch.eye({self.pick(['2', '3', '0', '-1'])}{kw})"
            return f"torch.{fn}({self.shape_args()}{kw})"
        if r < 0.8:
            fn = self.pick(["ones_like", "zeros_like", "randn_like", "full_like", "rand_like", "empty_like"])
            extra = f", {self.scalar()}" if fn == "full_like" else ""
            return f"torch.{fn}({self.tensor(1)}{extra}{kw})"
        return self.pick(NAMES)

    def scalar(self) -> str:
        r = self.rnd.random()
        if r < 0.5:
            return self.pick(INTS)
        if r < 0.85:
            return self.pick(FLOATS)
        return self.pick(OTHERS)

    def arg(self, depth: int) -> str:
        r = self.rnd.random()
        if r < 0.35:
            return self.pick(INTS[:12])
        if r < 0.55:
            return self.tensor(depth + 1)
        if r < 0.7:
            return self.pick(FLOATS)
        if r < 0.78:
            return self.pick(DTYPES)
        if r < 0.88:
            return "(" + ", ".join(self.pick(INTS[:8]) for _ in range(self.rnd.randrange(0, 4))) + ",)"
        if r < 0.93:
            return "[" + ", ".join(self.tensor(depth + 1) for _ in range(self.rnd.randrange(0, 3))) + "]"
        return self.pick(OTHERS)

    def args(self, depth: int) -> str:
        parts = [self.arg(depth) for _ in range(self.rnd.choice([0, 1, 1, 1, 2, 2, 3]))]
        for _ in range(self.rnd.choice([0, 0, 0, 1, 1, 2])):
            parts.append(f"{self.pick(KEYWORDS)}={self.arg(depth)}")
        if self.p(0.03):
            parts.append("*" + self.pick(["[1, 2]", "()", "x.shape", "range(3)"]))
        if self.p(0.03):
            parts.append("**" + self.pick(["{'dim': 0}", "{}", "{'keepdim': True}"]))
        return ", ".join(parts)

    def tensor(self, depth: int = 0) -> str:
        if depth >= self.max_depth:
            return self.pick(NAMES) if self.p(0.7) else self.creation()
        r = self.rnd.random()
        if r < 0.2:
            return self.pick(NAMES)
        if r < 0.32:
            return self.creation()
        if r < 0.5:
            fn = self.pick(self.v["torch"])
            return f"torch.{fn}({self.args(depth)})"
        if r < 0.56:
            fn = self.pick(self.v["F"])
            return f"F.{fn}({self.args(depth)})"
        if r < 0.75:
            m = self.pick(self.v["method"])
            base = self.tensor(depth + 1)
            if self.p(0.2):
                return f"{base}.{m}"
            return f"{base}.{m}({self.args(depth)})"
        if r < 0.87:
            op = self.pick(BINOPS[:9] if self.p(0.8) else BINOPS)
            left = self.tensor(depth + 1)
            right = self.tensor(depth + 1) if self.p(0.6) else self.scalar()
            return f"({left} {op} {right})"
        if r < 0.92:
            return f"({self.pick(['-', 'not ', '~', '+'])}{self.tensor(depth + 1)})"
        if r < 0.97:
            idx = self.pick(["0", "-1", "1:", ":, 0", "..., 1", "None", "::2", "x > 0", "[0, 0]", "1, 1",
                             "torch.tensor([0, 1])", "5", "::-1", "True", "0.5", "'a'", ":, None"])
            return f"{self.tensor(depth + 1)}[{idx}]"
        return f"({self.tensor(depth + 1)} if {self.cond(depth + 1)} else {self.tensor(depth + 1)})"

    def cond(self, depth: int) -> str:
        r = self.rnd.random()
        if r < 0.3:
            return self.pick(["True", "False", "x.requires_grad", "torch.is_grad_enabled()", "i > 1", "n < 3"])
        if r < 0.6:
            return f"{self.tensor(depth)}.sum() > {self.pick(FLOATS[:6])}"
        return f"{self.tensor(depth)}.{self.pick(['is_leaf', 'requires_grad', 'grad is None', 'dim() == 1'])}"

    def fstring(self) -> str:
        spec = self.pick(["", "", ":.3f", ":>8", "!r", ":e", ":08.2f", ":,", ":x", ":99999"])
        return f"f'{{{self.tensor(1)}{spec}}} and {{{self.pick(NAMES)}}}'"

    # -- statements ----------------------------------------------------------------------------
    def line(self, text: str) -> list[str]:
        return ["    " * self.indent + text]

    def block(self, n: int) -> list[str]:
        self.indent += 1
        out: list[str] = []
        for _ in range(n):
            out += self.stmt()
        if not out:
            out = self.line("pass")
        self.indent -= 1
        return out

    def stmt(self) -> list[str]:
        r = self.rnd.random()
        deep = self.indent >= 3
        if r < 0.28:
            return self.line(f"{self.pick(NAMES)} = {self.tensor()}")
        if r < 0.33:
            return self.line(f"{self.pick(NAMES)} {self.pick(['+=', '-=', '*=', '/=', '**=', '@=', '//='])} "
                             f"{self.tensor(1)}")
        if r < 0.43:
            kw = self.pick(["", "", "retain_graph=True", "create_graph=True", "gradient=torch.ones_like(y)",
                            "inputs=[x]", "torch.ones(2)", "retain_graph=True, create_graph=True"])
            return self.line(f"{self.tensor(1)}.backward({kw})")
        if r < 0.5:
            what = self.pick(["grad", "grad_fn", "is_leaf", "requires_grad", "shape", "dtype", "data", "T"])
            return self.line(f"print({self.tensor(1)}.{what}" + (f", {self.fstring()})" if self.p(0.3) else ")"))
        if r < 0.54:
            return self.line(f"print({self.fstring()})")
        if r < 0.58:
            target = f"{self.pick(NAMES)}.{self.pick(['grad', 'requires_grad', 'data'])}"
            return self.line(f"{target} = {self.pick(['None', 'True', 'False', self.tensor(1)])}")
        if r < 0.62:
            idx = self.pick(["0", ":", "1:", "x > 0", "..., 0", "[0, 1]", "5"])
            return self.line(f"{self.pick(NAMES)}[{idx}] = {self.pick([self.scalar(), self.tensor(1)])}")
        if r < 0.66:
            body = self.pick(["g * 2", "None", "g + 1", "print(g)", "g.sum()", "g[0]", "torch.zeros(3)",
                              "x.grad", "g.backward()"])
            fn = self.pick(["register_hook", "register_post_accumulate_grad_hook", "grad_fn.register_hook",
                            "grad_fn.register_prehook"])
            return self.line(f"h = {self.pick(NAMES)}.{fn}(lambda g, *r: {body})")
        if r < 0.7:
            call = self.pick([
                "torch.autograd.grad({o}, {i})", "torch.autograd.grad({o}, [{i}], create_graph=True)",
                "torch.autograd.grad([{o}], [{i}, {i}], allow_unused=True, retain_graph=True)",
                "torch.autograd.backward({o}, inputs=[{i}])",
                "torch.autograd.functional.jacobian(lambda q: q * {o}, {i})",
                "torch.autograd.functional.hessian(lambda q: (q ** 3).sum(), {i})",
                "torch.autograd.functional.vjp(lambda q: q.exp(), {i}, {o})",
                "torch.utils.checkpoint.checkpoint(lambda q: q.sin() * 2, {i}, use_reentrant={b})",
                "torch.autograd.gradcheck(lambda q: q * 2, ({i},))",
            ])
            text = call.format(o=self.tensor(1), i=self.pick(NAMES), b=self.pick(["True", "False"]))
            return self.line(f"{self.pick(NAMES)} = {text}")
        if deep:
            return self.line(f"{self.pick(NAMES)} = {self.tensor(1)}")
        if r < 0.75:
            head = self.pick(["for i in range({n}):", "for i in [1, 2]:", "for t in {t}:",
                              "for i, t in enumerate({t}):", "for n in range({n}):"])
            out = self.line(head.format(n=self.pick(["3", "2", "0", "10", "100000", "-1"]), t=self.tensor(1)))
            self.in_loop += 1
            out += self.block(self.rnd.randrange(1, 3))
            if self.p(0.2):
                out += self.block(0)[:0] + ["    " * (self.indent + 1) + self.pick(["break", "continue"])]
            self.in_loop -= 1
            return out
        if r < 0.78:
            out = self.line("n = 0")
            out += self.line(f"while n < {self.pick(['3', '5', '10**9'])}:")
            self.indent += 1
            out += self.line("n += 1")
            self.indent -= 1
            self.in_loop += 1
            out += self.block(1)
            self.in_loop -= 1
            return out
        if r < 0.83:
            out = self.line(f"if {self.cond(1)}:")
            out += self.block(self.rnd.randrange(1, 3))
            if self.p(0.5):
                out += self.line("else:")
                out += self.block(1)
            return out
        if r < 0.88:
            mgr = self.pick(["torch.no_grad()", "torch.enable_grad()", "torch.set_grad_enabled(False)",
                             "torch.inference_mode()", "torch.autograd.detect_anomaly()",
                             "torch.autograd.set_detect_anomaly(True)", "x", "torch.no_grad"])
            out = self.line(f"with {mgr}:")
            out += self.block(self.rnd.randrange(1, 3))
            return out
        if r < 0.94:
            name = self.pick(["f", "g", "step"])
            params = self.pick(["a", "a, b=2", "*args", "a, *, k=1", "a, /, b", "", "a, **kw"])
            out = self.line(f"def {name}({params}):")
            self.in_func += 1
            self.indent += 1
            for _ in range(self.rnd.randrange(0, 3)):
                out += self.stmt()
            out += self.line(f"return {self.pick(['a', self.tensor(1), 'None', name + '(a)'])}")
            self.indent -= 1
            self.in_func -= 1
            out += self.line(f"{self.pick(NAMES)} = {name}({self.args(1)})")
            return out
        if r < 0.98:
            return self.function_class()
        return self.line(self.pick(["pass", "assert x.is_leaf", "import torch", "torch.manual_seed(0)",
                                    "torch.set_default_dtype(torch.float64)", "x.retain_grad()",
                                    "x.requires_grad_()", "x.detach_()", "x.zero_()", "y.grad.zero_()",
                                    "print(torch.get_default_dtype())", "x = x.clone().detach()"]))

    def function_class(self) -> list[str]:
        out = self.line("class Fn(torch.autograd.Function):")
        self.indent += 1
        out += self.line("@staticmethod")
        if self.p(0.2):
            out += self.line("@torch.autograd.function.once_differentiable")
        out += self.line("def forward(ctx, a, k=2.0):")
        self.indent += 1
        out += self.line(self.pick(["ctx.save_for_backward(a)", "ctx.k = k", "ctx.mark_dirty(a)",
                                    "ctx.mark_non_differentiable(a)", "ctx.set_materialize_grads(False)",
                                    "ctx.num_outputs = 10**12", "ctx.name = 3", "ctx.apply = 1",
                                    "ctx.saved = ctx", "ctx.save_for_backward(a, 3)"]))
        out += self.line(f"return {self.pick(['a * k', 'a', 'a.clone()', '(a * 2, a * 3)', 'a.mul_(2)', '3'])}")
        self.indent -= 1
        out += self.line("@staticmethod")
        out += self.line("def backward(ctx, g, *rest):")
        self.indent += 1
        out += self.line(self.pick(["s = ctx.saved_tensors", "print(ctx.needs_input_grad)", "pass",
                                    "ctx.saved_tensors[0].mul_(2)", "ctx.k = ctx"]))
        out += self.line(f"return {self.pick(['g * 2, None', 'g', 'g, None', 'None', '1', '(g, g, g)', 'g.sum()'])}")
        self.indent -= 2
        out += self.line(f"y = Fn.apply({self.pick(NAMES)}{self.pick(['', ', 3.0', ', x'])})")
        return out

    def program(self) -> str:
        lines: list[str] = []
        for name in self.rnd.sample(NAMES[:6], self.rnd.randrange(1, 4)):
            lines.append(f"{name} = {self.creation()}")
        for _ in range(self.rnd.randrange(1, 9)):
            lines += self.stmt()
        return "\n".join(lines) + "\n"


def gen_program(rnd: Any, almost_valid: float = 0.25) -> str:
    """A generated program; with probability ``almost_valid`` one token-level mutation is applied."""
    src = _Gen(rnd).program()
    if rnd.random() < almost_valid:
        src = _text_mutation(rnd, src)
    return src


# ---------------------------------------------------------------------------------------------
# mutation of real programs
# ---------------------------------------------------------------------------------------------
class _AstMutator(ast.NodeTransformer):
    def __init__(self, rnd: Any, target: int) -> None:
        self.rnd = rnd
        self.target = target
        self.count = 0
        self.gen = _Gen(rnd, max_depth=2)

    def _hit(self) -> bool:
        self.count += 1
        return self.count == self.target

    def _expr(self, text: str, like: ast.AST) -> ast.AST:
        try:
            node = ast.parse(text, mode="eval").body
        except SyntaxError:
            return like
        return ast.copy_location(node, like) if hasattr(like, "lineno") else node

    def visit_Constant(self, node):
        if self._hit():
            return self._expr(self.gen.scalar() if self.rnd.random() < 0.7 else self.gen.tensor(1), node)
        return node

    def visit_Name(self, node):
        if self._hit() and isinstance(node.ctx, ast.Load):
            return self._expr(self.gen.pick(NAMES + ["torch", "F", "print", "len", "None"]), node)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if self._hit():
            v = self.gen.v
            node.attr = self.gen.pick(v["method"] + v["torch"][:40] + ["grad", "grad_fn", "next_functions",
                                                                         "saved_tensors", "name", "variable"])
            if "." in node.attr:
                node.attr = node.attr.split(".")[-1]
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self._hit():
            node.op = self.rnd.choice([ast.Add(), ast.Sub(), ast.Mult(), ast.Div(), ast.Pow(), ast.MatMult(),
                                       ast.FloorDiv(), ast.Mod(), ast.BitAnd(), ast.LShift()])
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        if self._hit():
            r = self.rnd.random()
            if r < 0.3 and node.args:
                node.args.pop(self.rnd.randrange(len(node.args)))
            elif r < 0.6:
                node.args.append(self._expr(self.gen.arg(1), node))
            elif r < 0.8:
                node.keywords.append(ast.keyword(arg=self.gen.pick(KEYWORDS), value=self._expr(self.gen.arg(1), node)))
            elif node.keywords:
                node.keywords.pop(self.rnd.randrange(len(node.keywords)))
        return node


def _stmt_mutation(rnd: Any, tree: ast.Module) -> None:
    bodies: list[list] = []
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            b = getattr(node, field, None)
            if isinstance(b, list) and b and isinstance(b[0], ast.stmt):
                bodies.append(b)
    if not bodies:
        return
    body = rnd.choice(bodies)
    i = rnd.randrange(len(body))
    r = rnd.random()
    if r < 0.25 and len(body) > 1:
        body.pop(i)
    elif r < 0.5:
        body.insert(i, body[i])
    elif r < 0.65:
        j = rnd.randrange(len(body))
        body[i], body[j] = body[j], body[i]
    elif r < 0.85:
        wrapper = ast.parse(rnd.choice(["with torch.no_grad():\n    pass\n", "for _i in range(2):\n    pass\n",
                                        "if True:\n    pass\n", "def _w():\n    pass\n_w()\n",
                                        "with torch.enable_grad():\n    pass\n"])).body
        wrapper[0].body = [body[i]]
        body[i:i + 1] = wrapper
    else:
        try:
            new = ast.parse(_Gen(rnd, 2).stmt()[0].strip()).body
        except SyntaxError:
            return
        body[i:i] = new


def mutate_program(rnd: Any, src: Optional[str] = None) -> str:
    """A mutant of a corpus program (AST-level and text-level mutations)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _mutate_program(rnd, src)


def _mutate_program(rnd: Any, src: Optional[str]) -> str:
    if src is None:
        src = rnd.choice(corpus())
    n = 1 + (rnd.random() < 0.4) + (rnd.random() < 0.2)
    for _ in range(n):
        r = rnd.random()
        if r < 0.65:
            try:
                tree = ast.parse(src)
            except (SyntaxError, ValueError):
                src = _text_mutation(rnd, src)
                continue
            if rnd.random() < 0.6:
                total = sum(1 for _ in ast.walk(tree))
                tree = _AstMutator(rnd, rnd.randrange(1, total + 1)).visit(tree)
            else:
                _stmt_mutation(rnd, tree)
            try:
                ast.fix_missing_locations(tree)
                src = ast.unparse(tree) + "\n"
            except Exception:
                pass
        else:
            src = _text_mutation(rnd, src)
    return src


def _text_mutation(rnd: Any, src: str) -> str:
    if not src:
        return rnd.choice(TOKENS)
    pos = rnd.randrange(len(src) + 1)
    r = rnd.random()
    if r < 0.3:
        return src[:pos] + src[pos + rnd.randint(1, 8):]
    if r < 0.65:
        return src[:pos] + rnd.choice(TOKENS) + src[pos:]
    if r < 0.8:
        lines = src.split("\n")
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if r < 0.9:
        lines = src.split("\n")
        i = rnd.randrange(len(lines))
        lines.insert(i, lines[i])
        return "\n".join(lines)
    return src[:pos] + rnd.choice(["\t", " ", "  ", "\n    "]) + src[pos:]


# ---------------------------------------------------------------------------------------------
# byte-level mutation
# ---------------------------------------------------------------------------------------------
_INTERESTING = [b"\x00", b"\xff", b"\xfe", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\t", b"\x0c", b"\xc3", b"\xe2\x80",
                b"\xed\xa0\x80", b"\xf0\x9f\x98", b"\\", b"'", b'"', b"(", b")", b"#", b"\n", b"\x1b[31m", b"\x85",
                b"\xe2\x80\xa8", b"$", b"`", b"?", b"!"]


def mutate_bytes(rnd: Any, data: Optional[bytes] = None) -> bytes:
    """A byte-level mutant of a corpus file (or of ``data``)."""
    if data is None:
        data = rnd.choice(corpus()).encode("utf-8")
    buf = bytearray(data)
    for _ in range(rnd.choice([1, 1, 2, 3, 5, 8])):
        r = rnd.random()
        pos = rnd.randrange(len(buf) + 1)
        if r < 0.25 and buf:
            i = rnd.randrange(len(buf))
            buf[i] ^= 1 << rnd.randrange(8)
        elif r < 0.45:
            buf[pos:pos] = rnd.choice(_INTERESTING)
        elif r < 0.55 and buf:
            i = rnd.randrange(len(buf))
            buf[i] = rnd.randrange(256)
        elif r < 0.65:
            del buf[pos:pos + rnd.randint(1, 32)]
        elif r < 0.72:
            del buf[pos:]
        elif r < 0.82:
            other = rnd.choice(corpus()).encode("utf-8")
            j = rnd.randrange(len(other) + 1)
            buf[pos:] = other[j:]
        elif r < 0.9 and buf:
            i = rnd.randrange(len(buf))
            chunk = bytes(buf[i:i + rnd.randint(1, 6)])
            buf[i:i] = chunk * rnd.randint(2, 200)
        else:
            buf[pos:pos] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 16)))
    return bytes(buf)


# ---------------------------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------------------------
def random_options(rnd: Any, **limits: Any) -> RunOptions:
    """RunOptions with random program-level options (backward, gradient, repeat, no-grad, sets ...)."""
    lim = dict(FUZZ_LIMITS)
    lim.update(limits)
    opts = RunOptions(**lim)
    if rnd.random() < 0.5:
        return opts
    names = NAMES[:6]
    if rnd.random() < 0.2:
        opts.backward = rnd.choice(names)
    if rnd.random() < 0.15:
        opts.gradient = rnd.choice(["ones", "1.0", "[1.0, 2.0]", "torch.ones(2)", "x", "nan", "[[1]]", "2**70"])
    if rnd.random() < 0.15:
        opts.retain_graph = True
    if rnd.random() < 0.1:
        opts.create_graph = True
    if rnd.random() < 0.15:
        opts.repeat = rnd.choice([0, 2, 3])
    if rnd.random() < 0.1:
        opts.no_grad = True
    if rnd.random() < 0.15:
        opts.dtype = "float64"
    if rnd.random() < 0.15:
        opts.requires_grad = [rnd.choice(names)]
    if rnd.random() < 0.1:
        opts.retain_grad = [rnd.choice(names)]
    if rnd.random() < 0.1:
        opts.inputs = [rnd.choice(names)]
    if rnd.random() < 0.15:
        opts.sets = [(rnd.choice(names), rnd.choice(["2.0", "[1.0, 2.0]", "torch.randn(2, 3)", "torch.tensor(3)",
                                                     "x", "[[1, 2], [3]]", "1e400", "True", "'s'",
                                                     "torch.ones(10**9)"]))]
    if rnd.random() < 0.05:
        opts.seed = rnd.choice([1, -1, 2**64, 2**63 - 1])
    return opts


# ---------------------------------------------------------------------------------------------
# the classes of issue 20: nesting, shared references, big ints, strings, forged objects, hook returns
# ---------------------------------------------------------------------------------------------
#: what a C call may do with a value: hash it, compare it, turn it into text ...
_C_USES = ["d = {{{v}: 1}}", "s = {{{v}}}", "b = {v} == {v}", "b = [{v}] == [{v}]", "r = repr({v})",
           "r = str({v})", "print({v})", "f = f'{{{v}}}'", "f = f'{{{v}!r}}'", "p = '%s' % ({v},)",
           "m = sorted([{v}, {v}], key=str)", "m = max([{v}], key=repr)", "m = min([{v}], key=list)",
           "L = [{v}]\nL.sort(key=str)", "assert False, {v}", "raise ValueError({v})",
           "b = {v} in {{{v}: 1}}", "n = len(str({v}))", "j = ', '.join(str(e) for e in [{v}])",
           "k = list(map(str, [{v}]))", "fz = frozenset([{v}])"]


def _nested(rnd: Any, inner: str) -> str:
    """A display nesting ``inner`` 1-120 levels deep (tuples, lists, dict values, sets of tuples)."""
    depth = rnd.choice([1, 2, 5, 20, 50, 90, 99, 120])
    kind = rnd.choice(["tuple", "list", "dict", "mixed"])
    out = inner
    for i in range(depth):
        k = kind if kind != "mixed" else rnd.choice(["tuple", "list", "dict"])
        out = {"tuple": f"({out},)", "list": f"[{out}]", "dict": f"{{'k': {out}}}"}[k]
    return out


def gen_hardening(rnd: Any) -> str:
    """A program of one of issue 20's classes: deep nesting built in a loop, structures sharing inner
    objects, big ints, long strings, forged engine objects, odd hook returns and ctx fields, each handed to
    the C calls that recurse or loop on it (hash, ==, repr, str, sort with a key, join, %-formatting ...).
    Sizes stay within the fuzz limits' reach, so what ends is a value or a ``limit`` error, never a hang."""
    kind = rnd.choice(["nesting", "shared", "bigint", "string", "forged", "hook", "ctx"])
    lines: list[str] = []
    use = rnd.choice(_C_USES)
    if kind == "nesting":
        loops = rnd.choice([1, 10, 100, 1000, 10**4, 10**5])
        lines += ["t = 0", f"for i in range({loops}):", f"    t = {_nested(rnd, 't')}", use.format(v="t")]
    elif kind == "shared":
        k = rnd.choice([2, 10, 100, 300])  # k**3 work at most in one C call (10**7 at 300 ...)
        base = rnd.choice(["(0,)", "[0]", "'a'", "(0.5, None)", "[[0]]"])
        shape = rnd.choice(["(({b} * {k},) * {k},) * {k}", "[[{b} * {k}] * {k}] * {k}", "[{b} * {k}] * {k}",
                            "{{'a': [{b} * {k}] * {k}}}"])
        lines += [f"v = {shape.format(b=base, k=k)}", use.format(v="v")]
    elif kind == "bigint":
        e = rnd.choice([10, 100, 4300, 4301, 5000, 10**5, 10**6])
        expr = rnd.choice([f"10 ** {e}", f"2 ** ({e} * 3)", f"int('1' * {e})", f"1 << {e}", f"pow(10, {e})",
                           f"-(10 ** {e})", f"abs(-7) ** {e}"])
        lines += [f"n = {expr}", rnd.choice(["s = str(n)", "print(n)", "f = f'{n}'", "f = f'{n:,}'", "r = repr(n)",
                                             "p = '%d' % n", "h = {n: 1}", "m = n % 7", "t = torch.tensor(n)",
                                             "t = torch.ones(2) * n", "b = n == n + 1"])]
    elif kind == "string":
        n = rnd.choice([10, 10**4, 10**6, 10**7, 10**8])
        ch = rnd.choice(["'a'", "'\\ufb03'", "'\\u00df'", "'ab\\n'"])
        lines += [f"s = {ch} * {n}", rnd.choice([
            "u = s.upper()", "u = s.lower()", "u = s.title()", "u = s.swapcase()", "u = s.casefold()",
            "j = s.join(str(i) for i in range(50))", "j = s.join(['x', 'y'])", "print(1, 2, sep=s)",
            "print(1, end=s)", "print(*range(50), sep=s)", "r = s.replace('a', s)", "c = s.center(10**8)",
            "p = '%s%s' % (s, s)", "f = f'{s}{s}'", "assert False, s", "raise KeyError(s)", "z = s.zfill(10**9)",
            "L = s.split()", "e = s.encode()", "q = s * 3", "w = [s] * 1000"])]
    elif kind == "forged":
        lines += [rnd.choice([
            "d = torch.dtype('evil', 'float32', 2, 6)", "d = torch.dtype()", "n = torch.Size.numel(['a', 5 * 10**9])",
            "n = torch.Size.numel((2, 3))", "x = torch.ones(2, requires_grad=True)\na = x.numpy(True)",
            "s = torch.ones(2, 3).shape\nt = s * (6 * 10**8)", "s = torch.ones(2, 3).shape\nt = s + s * 10**9",
            "x = torch.ones(2)\ny = x.new_tensor(x.shape * 10**8)", "s = torch.Size([2, 3])\nprint(s * 2, (1,) + s)",
            "x = torch.ones(2)\nprint(x.numpy(force=True))"])]
    elif kind == "hook":
        ret = rnd.choice(["('abc',)", "'ab'", "range(10)", "[g]", "(g, g)", "None", "g * 2", "1", "torch.ones(3)",
                          "(None,)", "{}", "g.double()", "g.int()", "print"])
        reg = rnd.choice(["y.grad_fn.register_prehook(lambda g: {r})", "y.grad_fn.register_hook(lambda gi, go: {r})",
                          "y.register_hook(lambda g: {r})", "x.register_hook(lambda g: {r})",
                          "x.register_post_accumulate_grad_hook(lambda p: {r})"])
        lines += ["x = torch.ones(2, requires_grad=True)", "y = x * 2", reg.format(r=ret), "y.sum().backward()",
                  "print(x.grad)"]
    else:
        stmt = rnd.choice(["ctx.to_save = 7", "ctx.to_save = [x]", "ctx.to_save = (x, 1)", "ctx.dirty_tensors = 0",
                           "ctx.non_differentiable = 'ab'", "ctx.mark_dirty(1)", "ctx.mark_non_differentiable(None)",
                           "ctx.name = 5", "ctx.saved_tensors = 3", "ctx.needs_input_grad = 1",
                           "ctx.save_for_backward(x, 2)", "ctx.dirty_tensors = (x,)", "ctx.set_materialize_grads(3)"])
        lines += ["class F(torch.autograd.Function):", "    @staticmethod", "    def forward(ctx, x):",
                  f"        {stmt}", "        return x * 2", "", "    @staticmethod", "    def backward(ctx, g):",
                  "        return g", "", "x = torch.ones(2, requires_grad=True)", "y2 = F.apply(x)",
                  rnd.choice(["y2.add_(1)", "y2.sum().backward()", "print(y2.grad_fn.name())", "z = y2 * 3"])]
    return "\n".join(lines) + "\n"


def make_input(rnd: Any) -> tuple[str, Any]:
    """One fuzz input: (source kind, str or bytes) mixing the sources (issue 20's classes: 15%)."""
    r = rnd.random()
    if r < 0.15:
        return "hard", gen_hardening(rnd)
    if r < 0.45:
        return "gen", gen_program(rnd)
    if r < 0.8:
        return "mut", mutate_program(rnd)
    return "bytes", mutate_bytes(rnd)


#: output paths that resolve to an input (issue 20, Must have 6), for ``check_cli_paths``
_INPUT_PATHS = ["/dev/stdin", "/proc/self/fd/0", "/dev/fd/0", "{input}", "./{name}", "{link}", "{hard}"]


def check_cli_paths(rnd: Any, path: Path, timeout: float = 60.0) -> Optional[str]:
    """``graph --output`` / ``run --snapshot`` naming the input in one of its spellings (through standard
    input too): the command must refuse it (exit 2) and leave the input byte for byte as it was."""
    before = path.read_bytes()
    link, hard = path.with_name("link.py"), path.with_name("hard.py")
    for p in (link, hard):
        if p.exists() or p.is_symlink():
            p.unlink()
    link.symlink_to(path.name)
    os.link(path, hard)
    target = rnd.choice(_INPUT_PATHS).format(input=path, name=path.name, link=link, hard=hard)
    via_stdin = target in ("/dev/stdin", "/proc/self/fd/0", "/dev/fd/0") or rnd.random() < 0.3
    file_arg = "-" if via_stdin and rnd.random() < 0.7 else str(path)
    if rnd.random() < 0.5:
        args = ["graph", file_arg, "--format", rnd.choice(["dot", "json", "mermaid"]), "--output", target]
    else:
        args = ["run", file_arg, "--json", "--snapshot", target]
    if target in ("/dev/stdin", "/proc/self/fd/0", "/dev/fd/0") and not via_stdin:
        return None
    e = dict(os.environ)
    e["PYTHONPATH"] = str(SRC) + os.pathsep + e.get("PYTHONPATH", "")
    with open(path, "rb") as fh:
        proc = subprocess.run([sys.executable, "-m", "gradcli", *args], stdin=fh if via_stdin else subprocess.DEVNULL,
                              capture_output=True, env=e, timeout=timeout, cwd=path.parent)
    if path.read_bytes() != before:
        return f"clobbered: gradcli {' '.join(args)} changed its input"
    if proc.returncode != 2:
        return f"exit status {proc.returncode} for an output naming the input: gradcli {' '.join(args)}"
    return None


# ---------------------------------------------------------------------------------------------
# the pass/fail rule
# ---------------------------------------------------------------------------------------------
class Hang(BaseException):
    """Raised by the per-input alarm: the input ran far past its time limit."""


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise Hang()


#: share of inputs whose result also goes through the human report / the graph renderers (JSON: all);
#: the long run lowers them for throughput
RENDER_HUMAN = 0.3
RENDER_GRAPH = 0.2


def _render_all(result: Any, rnd: Optional[Any]) -> None:
    """What the CLI does with a result: JSON document, human report, graph (through its renderers)."""
    from gradcli.app.records import run_document
    from gradcli.app.render.jsonout import dumps

    try:  # issue 7's explainers (the ``related`` lines of an error) run in app.run.execute
        from gradcli.app.related import enrich
    except ImportError:  # pragma: no cover - older checkouts
        enrich = None
    if enrich is not None and (rnd is None or rnd.random() < RENDER_HUMAN):
        enrich(result, None)
    json.loads(dumps(run_document(result, 1000)))
    if rnd is None or rnd.random() < RENDER_HUMAN:
        from gradcli.app.render.console import make_console
        from gradcli.app.render.human import render_run

        render_run(result, make_console(io.StringIO(), width=100), trace=bool(result.trace))
    if rnd is None or rnd.random() < RENDER_GRAPH:
        from gradcli.app.graph import build_graph, graph_document
        from gradcli.app.render import graphfmt

        g = build_graph(result)
        graphfmt.to_tree_text(g, show_saved=True)
        graphfmt.to_dot(g, show_saved=True)
        graphfmt.to_mermaid(g)
        dumps(graph_document(g))


def check_source(src: Any, options: Optional[RunOptions] = None, *, rnd: Optional[Any] = None,
                 hang_seconds: float = 20.0) -> Optional[str]:
    """Run one input; None if gradcli handled it as the contract says, else a description of the failure."""
    options = options if options is not None else RunOptions(**FUZZ_LIMITS)
    out, err = io.StringIO(), io.StringIO()
    old = None
    use_alarm = hang_seconds and hasattr(signal, "SIGALRM") and _main_thread()
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, hang_seconds)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                result = run_file(src, "fuzz.py", options)
            except InvocationError:
                return None
            if not result.ok and result.error is None:
                return "result not ok but no error"
            if result.error is not None and result.error.kind not in ERROR_KINDS:
                return f"unknown error kind {result.error.kind!r}"
            for w in result.warnings:
                if w.kind not in WARNING_KINDS:
                    return f"unknown warning kind {w.kind!r}"
            _render_all(result, rnd)
    except Hang:
        return f"hang: no result after {hang_seconds} s"
    except BaseException as e:  # noqa: BLE001 - the point of the check
        if isinstance(e, KeyboardInterrupt):
            raise
        return "exception: " + "".join(traceback.format_exception(e))[-4000:]
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    if out.getvalue() or err.getvalue():
        return f"wrote to the real stdout/stderr: {(out.getvalue() + err.getvalue())[:500]!r}"
    return None


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc; 0 where unknown or ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def check_cli(path: Path, args: list[str], timeout: float = 60.0,
              env: Optional[dict] = None) -> Optional[str]:
    """Run ``gradcli ARGS FILE`` in a subprocess; None if it ended as the contract says."""
    cmd = [sys.executable, "-m", "gradcli", *args[:1], str(path), *args[1:]]
    e = dict(os.environ)
    e["PYTHONPATH"] = str(SRC) + os.pathsep + e.get("PYTHONPATH", "")
    e.pop("FORCE_COLOR", None)
    if env:
        e.update(env)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e)
    wall = 0.0
    while True:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            wall += timeout
            # a hang is `timeout` seconds of the child's own CPU time; on a starved machine (a niced long
            # run behind other jobs) a start-up alone took more than 60 s of wall-clock time
            cpu = _cpu_seconds(proc.pid)
            if cpu >= timeout or wall >= 20 * timeout:
                proc.kill()
                proc.communicate()
                return f"hang: {' '.join(cmd)} did not end in {wall:g} s ({cpu:.0f} s of CPU)"
    text = stdout.decode("utf-8", "replace") + stderr.decode("utf-8", "replace")
    if proc.returncode not in (0, 1, 2):
        return f"exit status {proc.returncode}: {text[-2000:]}"
    if "Traceback (most recent call last)" in text:  # a Python traceback (anomaly mode's message says "Traceback of")
        return f"traceback: {text[-2000:]}"
    if "--json" in args and proc.returncode in (0, 1):
        try:
            doc = json.loads(stdout)
        except ValueError:
            return f"stdout is not JSON: {stdout[:500]!r}"
        err = doc.get("error")
        if err is not None and err.get("kind") not in ERROR_KINDS:
            return f"unknown error kind in JSON: {err!r}"
        if (proc.returncode == 0) != bool(doc.get("ok")) and "--expect-error" not in args:
            return f"exit status {proc.returncode} but ok={doc.get('ok')}"
    return None


def run_many(seed: int, n: int, check: Callable[[Any, RunOptions, Any], Optional[str]] = None,
             **limits: Any) -> list[tuple[int, str, Any, Any, str]]:
    """``n`` inputs from ``seed``: the failures as (index, kind, source, options, description)."""
    rnd = random.Random(seed)
    failures = []
    for i in range(n):
        kind, src = make_input(rnd)
        opts = random_options(rnd, **limits)
        problem = check_source(src, opts, rnd=rnd)
        if problem is not None:
            failures.append((i, kind, src, opts, problem))
    return failures
