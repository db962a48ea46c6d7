"""``gradcli lint`` on real snippets written by others (issue 23, item 7): each lint kind is shown on snippets
from GitHub issues, pull-request reviews and tutorials (tests/conformance/real_snippets/, each with its
``# source:`` line), and the claim the lint makes is then checked against live PyTorch 2.13, in a subprocess
per claim: the values asserted come from PyTorch, never from gradcli's output.

Claims checked:
  requires_grad_on_result  after the file's backward, the tensors the history was cut from have grad None
  attribute_typo           the tensor's real ``requires_grad`` is the same with and without the typo line, and
                           the typo made a new Python attribute
  zero_grad_missing        the .grad the optimizer's 2nd step uses is the sum of the 1st and 2nd iterations'
                           own gradients (not the 2nd's alone)
  eval_keeps_grad          after ``model.eval()``, the module is not training and ``y = model(x)`` still
                           requires grad and has a grad_fn
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gradcli.app.lint import lint_source

SNIPPETS = Path(__file__).resolve().parents[1] / "conformance" / "real_snippets"

#: (kind, snippet, line the lint reports, what the PyTorch check needs)
CASES = [
    ("requires_grad_on_result", "gh_issues__issue_92586_detach_requires_grad_true.py", 7, {"cut_from": ["t"]}),
    ("requires_grad_on_result", "gh_issues__issue_2512_detach_then_requires_grad.py", 13, {"cut_from": ["W"]}),
    ("requires_grad_on_result", "gh_issues__speechbrain_issue_735_variable_loss.py", 9, {"cut_from": ["weight"]}),
    ("attribute_typo", "gh_issues__benchmark_pr_1771_require_grad_typo.py", 6, {"tensor": "pe",
                                                                                 "attr": "require_grad"}),
    ("attribute_typo", "gh_issues__time_series_library_pr_743_fixed_embedding_require_grad.py", 5,
     {"tensor": "w", "attr": "require_grad"}),
    ("attribute_typo", "gh_issues__torch_dct_issue_10_linear_dct_require_grad.py", 8,
     {"tensor": "layer.weight", "attr": "require_grad"}),
    ("zero_grad_missing", "gh_issues__ecc_pr_3122_loop_without_zero_grad.py", 17, {"optimizer": "optimizer"}),
    ("zero_grad_missing", "gh_issues__ganalyze_issue_7_loop_without_zero_grad.py", 28, {"optimizer": "optimizer"}),
    ("zero_grad_missing", "gh_issues__textclassification_issue_20_zero_grad_before_loop.py", 18,
     {"optimizer": "optimizer"}),
    ("eval_keeps_grad", "tutorial__taourl_eval_vs_no_grad_linear.py", 8, {"model": "model", "out": "y"}),
    ("eval_keeps_grad", "tutorial__taourl_eval_gradients_dropout.py", 20, {"model": "model",
                                                                           "out": "output_eval"}),
    ("eval_keeps_grad", "tutorial__theneuralbase_eval_alone_still_tracks.py", 10, {"model": "model",
                                                                                   "out": "predictions"}),
    ("retain_graph_unused", "gh_issues__issue_23395_where_sqrt_grad.py", 15, None),
    ("retain_graph_unused", "hooks_checkpoint__register_multi_grad_hook_doc.py", 15, None),
    ("retain_graph_unused", "qa_semantics__so_63816321_jacobian_one_hot_backward.py", 9, None),
]

KINDS = ("requires_grad_on_result", "attribute_typo", "zero_grad_missing", "eval_keeps_grad",
         "retain_graph_unused")

# The PyTorch side: the snippet runs with exec() under real torch in a fresh interpreter, and the script
# prints what PyTorch says as JSON.  (Mode is the kind; ARGS its parameters.)
_PROBE = textwrap.dedent(r'''
    import json, sys
    import torch
    src, mode, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    text = open(src, encoding="utf-8").read()
    out = {}
    if mode == "requires_grad_on_result":
        ns = {"__name__": "__main__"}
        exec(compile(text, src, "exec"), ns)
        out["grads"] = {n: (None if ns[n].grad is None else ns[n].grad.tolist()) for n in args["cut_from"]}
        out["requires_grad"] = {n: ns[n].requires_grad for n in args["cut_from"]}
    elif mode == "attribute_typo":
        lines = text.split("\n")
        line = int(args["line"])
        without = "\n".join(lines[:line - 1] + ["pass"] + lines[line:])
        ns1 = {"__name__": "__main__"}
        exec(compile(without, src, "exec"), ns1)
        ns2 = {"__name__": "__main__"}
        exec(compile(text, src, "exec"), ns2)
        def resolve(ns, dotted):  # a name, or a name's attributes ("layer.weight")
            first, *rest = dotted.split(".")
            obj = ns[first]
            for a in rest:
                obj = getattr(obj, a)
            return obj

        t1, t2 = resolve(ns1, args["tensor"]), resolve(ns2, args["tensor"])
        out["without_typo"] = t1.requires_grad
        out["with_typo"] = t2.requires_grad
        out["new_attribute"] = args["attr"] in vars(t2) if hasattr(t2, "__dict__") else hasattr(t2, args["attr"])
        out["had_attribute_before"] = hasattr(t1, args["attr"])
    elif mode == "zero_grad_missing":
        ns = {"__name__": "__main__"}
        fresh, used = [], []
        orig_backward = torch.Tensor.backward

        def params():
            opt = ns[args["optimizer"]]
            return [p for g in opt.param_groups for p in g["params"]]

        def backward(self, *a, **k):
            ps = params()
            gs = torch.autograd.grad(self, ps, retain_graph=True, allow_unused=True)
            fresh.append([None if g is None else g.clone() for g in gs])
            return orig_backward(self, *a, **k)

        def pre_step(opt, a, k):
            used.append([None if p.grad is None else p.grad.clone() for p in params()])

        torch.Tensor.backward = backward
        from torch.optim.optimizer import register_optimizer_step_pre_hook
        register_optimizer_step_pre_hook(pre_step)
        exec(compile(text, src, "exec"), ns)
        out["iterations"] = len(used)
        if len(used) >= 2:
            out["step2_is_sum"] = all(torch.allclose(u, f1 + f2) for u, f1, f2 in zip(used[1], fresh[0], fresh[1]))
            out["step2_is_own"] = all(torch.allclose(u, f2) for u, f2 in zip(used[1], fresh[1]))
    elif mode == "eval_keeps_grad":
        ns = {"__name__": "__main__"}
        exec(compile(text, src, "exec"), ns)
        y = ns[args["out"]]
        out["training"] = ns[args["model"]].training
        out["requires_grad"] = y.requires_grad
        out["grad_fn"] = None if y.grad_fn is None else type(y.grad_fn).__name__
    print(json.dumps(out))
''')


def pytorch(src: Path, mode: str, args: dict) -> dict:
    proc = subprocess.run([sys.executable, "-c", _PROBE, str(src), mode, json.dumps(args)],
                          capture_output=True, text=True, timeout=120, cwd=src.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind, name, line, args", CASES, ids=[f"{k}:{n}" for k, n, _, _ in CASES])
def test_lint_reports_the_kind_at_the_line(kind, name, line, args):
    src = SNIPPETS / name
    assert src.read_text(encoding="utf-8").startswith("# source: http"), "a real snippet names its source"
    findings = lint_source(src.read_text(encoding="utf-8"), name).findings
    assert (kind, line) in [(f.kind, f.line) for f in findings], [(f.kind, f.line) for f in findings]


@pytest.mark.parametrize("kind, name, line, args", [c for c in CASES if c[3] is not None],
                         ids=[f"{k}:{n}" for k, n, _, a in CASES if a is not None])
def test_the_claim_holds_in_pytorch(kind, name, line, args):
    src = SNIPPETS / name
    got = pytorch(src, kind, dict(args, line=line))
    if kind == "requires_grad_on_result":
        for n in args["cut_from"]:
            assert got["requires_grad"][n] is True  # it does require grad ...
            assert got["grads"][n] is None  # ... and the backward never reached it
    elif kind == "attribute_typo":
        assert got["with_typo"] == got["without_typo"]  # the typo changed nothing autograd sees
        assert got["new_attribute"] and not got["had_attribute_before"]  # it only made a Python attribute
    elif kind == "zero_grad_missing":
        assert got["iterations"] >= 2
        assert got["step2_is_sum"] is True
        assert got["step2_is_own"] is False
    elif kind == "eval_keeps_grad":
        assert got["training"] is False  # eval() did switch the module ...
        assert got["requires_grad"] is True and got["grad_fn"] is not None  # ... and the graph is still recorded




@pytest.mark.parametrize("kind", KINDS)
def test_at_least_three_real_snippets_per_kind(kind):
    names = {n for k, n, _, _ in CASES if k == kind}
    assert all((SNIPPETS / n).exists() for n in names)
    assert len(names) >= 3, (kind, sorted(names))
