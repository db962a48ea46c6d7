"""torch.optim's objects give a file no way out of the sandbox (docs/ARCHITECTURE.md, the exposure protocol).

Each attempt reaches for an object's internals through an optimizer, its state, its groups, a scheduler or
the classes themselves; it must fail with a gradcli error kind, before the ``print`` after it, and leave no
file behind.  The harmless ones (a builtin as an lr_lambda, print as a closure) run and touch nothing.
"""

from __future__ import annotations

import pytest

from gradcli.lang.result import RunOptions
from gradcli.lang.run import run_file

SETUP = ("w = torch.tensor([1.0, 2.0], requires_grad=True)\nopt = torch.optim.Adam([w])\n"
         "(w * w).sum().backward()\nopt.step()\nsched = torch.optim.lr_scheduler.StepLR(opt, 2)\n")

ATTEMPTS = {
    "opt_dict": "d = opt.__dict__\n",
    "opt_class": "c = opt.__class__\n",
    "opt_private_method": "f = opt._step_group\n",
    "opt_private_flag": "opt._scheduled = 5\n",
    "opt_step_self": "s = opt.step.__self__\n",
    "opt_step_func_runtime": "f = opt.step.im_func\n",
    "opt_assign_method": "opt.zero_grad = print\n",
    "opt_assign_state": "opt.state = {}\n",
    "state_default_factory": "f = opt.state.default_factory\n",
    "state_fromkeys": "f = opt.state.fromkeys\n",
    "state_missing_dunder": "f = opt.state.__missing__\n",
    "state_dict_value_class": "c = opt.state_dict()['state'][0]['exp_avg'].__class__\n",
    "group_dict_fromkeys": "f = opt.param_groups[0].fromkeys\n",
    "defaults_class": "c = opt.defaults.__class__.__subclasses__()\n",
    "class_subclasses": "s = torch.optim.Optimizer.__subclasses__()\n",
    "class_mro_runtime": "m = torch.optim.SGD.mro()\n",
    "class_init": "f = torch.optim.SGD.__init__\n",
    "class_globals_via_method": "g = torch.optim.SGD.step.__globals__\n",
    "class_unbound_on_int": "torch.optim.SGD.zero_grad(5)\n",
    "module_walk": "m = torch.optim.optimizer\n",
    "module_private": "m = torch.optim._functional\n",
    "scheduler_dict": "d = sched.__dict__\n",
    "scheduler_optimizer_private": "f = sched.optimizer._opt_called\n",
    "scheduler_private": "n = sched._step_count\n",
    "scheduler_assign_optimizer": "sched.optimizer = 5\n",
    "scheduler_lambda_globals": "s2 = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: e.__class__)\n",
    "lr_scheduler_module_walk": "m = torch.optim.lr_scheduler.math\n",
    "closure_walks_frame": "def c():\n    return c.__code__\nopt.step(c)\n",
}

HARMLESS = {
    "print_as_closure": "opt.step(print)\n",
    "builtin_lr_lambda": "s2 = torch.optim.lr_scheduler.LambdaLR(opt, abs)\nprint(s2.get_last_lr())\n",
    "state_dict_is_plain_data": "sd = opt.state_dict()\nprint(list(sd['param_groups'][0].keys())[:3])\n",
}


def _run(src: str):
    return run_file(src, "test.py", RunOptions(max_steps=100_000, timeout=20))


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_attempt_refused(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = _run(SETUP + ATTEMPTS[name] + "print('the attempt did not stop the run')\n")
    assert not r.ok, f"{name}: the attempt ran to completion"
    assert r.error.kind in {"unsupported", "runtime", "type", "name"}, r.error
    assert "the attempt did not stop the run" not in r.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_harmless(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = _run(SETUP + HARMLESS[name])
    assert r.ok, r.error
    assert list(tmp_path.iterdir()) == []
