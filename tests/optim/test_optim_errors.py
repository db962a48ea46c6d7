"""Bad input to torch.optim: a clear error with PyTorch's kind, line and verbatim message, never a traceback.

The messages are PyTorch's own: for the conformance cases under tests/conformance/optim/error_*.py they are
compared with what the oracle recorded from PyTorch 2.13 (``error.message`` of the expected JSON), and a live
test re-runs those files under PyTorch when it is installed.  The other cases here are gradcli's own limits
(``foreach=True`` ...) and Python's errors on values a file put in a parameter group, which PyTorch raises the
same way (its optimizers are Python).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

ROOT = Path(__file__).resolve().parents[1] / "conformance" / "optim"
ERROR_CASES = sorted(p for p in ROOT.glob("error_*.py"))


def run(src: str):
    return run_file(textwrap.dedent(src), "test.py", RunOptions(timeout=30))


@pytest.mark.parametrize("path", ERROR_CASES, ids=[p.stem for p in ERROR_CASES])
def test_message_is_pytorchs(path: Path):
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))["error"]
    r = run_file(path.read_text(encoding="utf-8"), path.name, RunOptions(timeout=30))
    assert not r.ok
    assert (r.error.kind, r.error.line) == (want["kind"], want["line"])
    assert r.error.message == want["message"]


@pytest.mark.parametrize("path", ERROR_CASES, ids=[p.stem for p in ERROR_CASES])
def test_recorded_message_is_still_pytorchs(path: Path):
    from gradcli.app.oracle import run_isolated, torch_available

    if not torch_available():
        pytest.skip("PyTorch is not installed: the live oracle cannot run (pip install torch==2.13.0)")
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))["error"]
    doc = run_isolated(path.read_text(encoding="utf-8"), path.name, RunOptions())
    assert doc["error"]["message"] == want["message"]


BAD = {
    # gradcli's own refusals: the paths PyTorch takes only on other devices, or with autograd through step()
    "foreach": ("opt = torch.optim.Adam([w], foreach=True)", "unsupported", 2, "foreach=True"),
    "fused": ("opt = torch.optim.SGD([w], lr=0.1, fused=True)", "unsupported", 2, "fused=True"),
    "differentiable": ("opt = torch.optim.SGD([w], lr=0.1, differentiable=True)", "unsupported", 2,
                       "differentiable=True"),
    "capturable_group": ("opt = torch.optim.Adam([{'params': [w], 'capturable': True}])", "unsupported", 2,
                         "capturable=True"),
    # PyTorch's messages for values a file gave
    "params_not_iterable": ("opt = torch.optim.SGD(5, lr=0.1)", "type", 2, "'int' object is not iterable"),
    "group_not_dict": ("opt = torch.optim.SGD([w], lr=0.1)\nopt.add_param_group([w])", "type", 3,
                       "param_group must be a dict, but got <class 'list'>"),
    "group_without_params": ("opt = torch.optim.SGD([{'lr': 1.0}], lr=0.1)", "runtime", 2, "KeyError: 'params'"),
    "betas_short": ("opt = torch.optim.Adam([w], betas=(0.9,))", "index", 2, "tuple index out of range"),
    "momentum_negative": ("opt = torch.optim.SGD([w], lr=0.1, momentum=-0.5)", "runtime", 2,
                          "Invalid momentum value: -0.5"),
    "eps_negative": ("opt = torch.optim.RMSprop([w], eps=-1e-8)", "runtime", 2, "Invalid epsilon value: -1e-08"),
    "alpha_negative": ("opt = torch.optim.RMSprop([w], alpha=-0.9)", "runtime", 2, "Invalid alpha value: -0.9"),
    "lr_decay_negative": ("opt = torch.optim.Adagrad([w], lr_decay=-1)", "runtime", 2,
                          "Invalid lr_decay value: -1"),
    "init_acc_negative": ("opt = torch.optim.Adagrad([w], initial_accumulator_value=-1)", "runtime", 2,
                          "Invalid initial_accumulator_value value: -1"),
    "weight_decay_negative": ("opt = torch.optim.AdamW([w], weight_decay=-0.1)", "runtime", 2,
                              "Invalid weight_decay value: -0.1"),
    "int_in_group_at_step": ("opt = torch.optim.SGD([w], lr=0.1)\nopt.param_groups[0]['params'].append(5)\n"
                             "opt.step()", "runtime", 4, "'int' object has no attribute 'grad'"),
    "lr_string_at_step": ("opt = torch.optim.SGD([w], lr=0.1)\nopt.param_groups[0]['lr'] = 'fast'\n"
                          "(w * 2).sum().backward()\nopt.step()", "type", 5, "bad operand type for unary -: 'str'"),
    "lr_deleted": ("opt = torch.optim.Adam([w])\ng = opt.param_groups[0]\ng.pop('lr')\n(w * 2).sum().backward()\n"
                   "opt.step()", "runtime", 6, "KeyError: 'lr'"),
    "load_not_dict": ("opt = torch.optim.SGD([w], lr=0.1)\nopt.load_state_dict([1])", "type", 3, None),
    "load_group_size": ("v = torch.ones(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
                        "sd = torch.optim.SGD([w, v], lr=0.1).state_dict()\nopt.load_state_dict(sd)", "runtime", 5,
                        "loaded state dict contains a parameter group that doesn't match the size of optimizer's "
                        "group"),
    "scheduler_resume_without_initial_lr": ("opt = torch.optim.SGD([w], lr=0.1)\n"
                                            "s = torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3)", "runtime",
                                            3, "param 'initial_lr' is not specified in param_groups[0]"),
    "lambdalr_count": ("opt = torch.optim.SGD([w], lr=0.1)\n"
                       "s = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0])", "runtime", 3,
                       "Expected 1 lr_lambdas, but got 2"),
    "lambdalr_not_optimizer": ("s = torch.optim.lr_scheduler.LambdaLR(5, lambda e: 1.0)", "runtime", 2,
                               "'int' object has no attribute 'param_groups'"),
    "lambda_raises": ("opt = torch.optim.SGD([w], lr=0.1)\n"
                      "s = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 1 / e)", "runtime", 3, "division by zero"),
    "closure_not_callable": ("opt = torch.optim.SGD([w], lr=0.1)\nopt.step(5)", "type", 3,
                             "'int' object is not callable"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_a_clean_error(name):
    src, kind, line, message = BAD[name]
    r = run("w = torch.tensor([1.0, 2.0], requires_grad=True)\n" + src + "\nprint('after')\n")
    assert not r.ok, name
    assert (r.error.kind, r.error.line) == (kind, line), r.error
    if message is not None:
        assert message in r.error.message
    assert "after" not in r.stdout


def test_unsupported_hooks_are_named():
    r = run("w = torch.ones(1, requires_grad=True)\nopt = torch.optim.SGD([w])\nh = opt.register_step_pre_hook\n")
    assert r.error.kind == "unsupported" and "register_step_pre_hook" in r.error.message


def test_private_and_unknown_attributes_are_refused():
    r = run("w = torch.ones(1, requires_grad=True)\nopt = torch.optim.SGD([w])\nf = opt.lr\n")
    assert (r.error.kind, r.error.message) == ("runtime", "'SGD' object has no attribute 'lr'")
    r = run("w = torch.ones(1, requires_grad=True)\nopt = torch.optim.SGD([w])\nopt.step = print\n")
    assert not r.ok
