"""nn.Module's protocol, checked on gradcli's own objects: registration, walks, hooks, state, exposure."""

from __future__ import annotations

import pytest


@pytest.fixture
def run():
    """run(source, **RunOptions fields) -> RunResult (source is dedented)."""
    import textwrap

    from gradcli.lang.result import RunOptions
    from gradcli.lang.run import run_file

    def _run(source: str, **options):
        return run_file(textwrap.dedent(source), "test.py", RunOptions(**options))

    return _run


def test_setattr_registers_parameters_and_modules(run):
    r = run("""
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(2, 2)
                self.w = nn.Parameter(torch.ones(3))
                self.t = torch.ones(1)          # a plain tensor: an attribute, not a parameter
                self.k = 3
        n = Net()
        print([p for p, _ in n.named_parameters()], [m for m, _ in n.named_children()], n.k)
        n.a = None
        print([p for p, _ in n.named_parameters()])
    """)
    assert r.ok, r.error
    assert r.stdout == "['w', 'a.weight', 'a.bias'] ['a'] 3\n['w']\n"


def test_shared_parameters_and_modules_are_listed_once(run):
    r = run("""
        import torch.nn as nn
        lin = nn.Linear(2, 2)
        m = nn.Sequential(lin, nn.ReLU(), lin)
        print(len(list(m.parameters())), [n for n, _ in m.named_modules()], len(list(m.modules())))
        print([n for n, _ in m.named_parameters(remove_duplicate=False)])
    """)
    assert r.ok, r.error
    assert r.stdout == "2 ['', '0', '1'] 3\n['0.weight', '0.bias', '2.weight', '2.bias']\n"


def test_module_parameters_follow_the_module_in_the_tensor_list(run):
    r = run("""
        import torch.nn as nn
        a = torch.ones(1)
        model = nn.Sequential(nn.Linear(2, 1))
        b = torch.zeros(1)
        other = model
    """)
    assert r.ok, r.error
    assert [n for n, _ in r.tensors] == ["a", "model.0.weight", "model.0.bias", "b", "other.0.weight",
                                         "other.0.bias"]


def test_hooks_prepend_with_kwargs_and_handles(run):
    r = run("""
        import torch.nn as nn
        m = nn.Identity()
        def a(mod, args):
            print("a")
        def b(mod, args):
            print("b")
        def kw(mod, args, kwargs, out):
            print("kw", len(args), sorted(kwargs))
            return out * 2
        ha = m.register_forward_pre_hook(a)
        hb = m.register_forward_pre_hook(b, prepend=True)
        hk = m.register_forward_hook(kw, with_kwargs=True)
        y = m(torch.ones(1))
        print(y, ha.id < hb.id)
        with ha:
            pass
        hb.remove()
        hb.remove()
        hk.remove()
        print(m(torch.ones(1)))
    """)
    assert r.ok, r.error
    assert r.stdout == "b\na\nkw 1 []\ntensor([2.]) True\ntensor([1.])\n"


def test_module_holding_itself_is_a_clear_error(run):
    for stmt, line in (("print(m)", 4), ("m.train()", 4), ("m.apply(print)", 4), ("sd = m.state_dict()", 4)):
        r = run(f"import torch.nn as nn\nm = nn.Sequential(nn.ReLU())\nm.me = m\n{stmt}\n")
        assert r.error.kind == "runtime" and r.error.line == line, (stmt, r.error)
        assert "holds itself" in r.error.message
    ok = run("import torch.nn as nn\nm = nn.Sequential(nn.ReLU())\nm.me = m\nprint(len(list(m.modules())))\n")
    assert ok.ok and ok.stdout == "2\n"  # named_modules has a memo, as PyTorch's


def test_recursion_between_modules_is_a_limit(run):
    r = run("""
        import torch.nn as nn
        class A(nn.Module):
            def forward(self, x):
                return self.other(x)
        class B(nn.Module):
            def forward(self, x):
                return self.other(x)
        a = A()
        b = B()
        a.other = b
        b.other = a
        y = a(torch.ones(1))
    """)
    assert r.error.kind == "limit" and r.error.line in (5, 8), r.error
    assert "recursion" in r.error.message


def test_forward_error_names_the_forward_line_and_the_call(run):
    r = run("""
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 2)
            def forward(self, x):
                h = x * 2
                return self.fc(h)
        net = Net()
        y = net(torch.ones(4, 5))
    """)
    assert r.error.kind == "shape" and r.error.line == 9
    assert [f[0] for f in r.error.frames] == [11, 9]


def test_dataset_like_user_class_works_with_len_and_index(run):
    r = run("""
        class Squares:
            def __init__(self, n):
                self.n = n
            def __len__(self):
                return self.n
            def __getitem__(self, i):
                if i >= self.n:
                    raise_me = [][i]
                return torch.tensor(float(i * i))
        ds = Squares(3)
        print(len(ds), ds[2], [float(ds[i]) for i in range(len(ds))])
        bad = ds[5]
    """)
    assert r.error.kind == "index" and r.error.line == 9, r.error
    assert r.stdout == "3 tensor(4.) [0.0, 1.0, 4.0]\n"


def test_wrong_layer_arguments(run):
    for src, kind in (("nn.Linear(3)", "type"), ("nn.Linear(3, 2, foo=1)", "type"), ("nn.Linear(3.5, 2)", "type"),
                      ("nn.Linear(-1, 2)", "runtime"), ("nn.Tanh(1)", "type"), ("nn.Hardtanh(1.0, -1.0)", "assertion"),
                      ("nn.Sequential(1)", "type"), ("nn.MSELoss(reduction='x')(torch.ones(1), torch.ones(1))",
                                                      "runtime")):
        r = run(f"import torch.nn as nn\nm = {src}\n")
        assert not r.ok and r.error.kind == kind and r.error.line == 2, (src, r.error)


def test_module_attributes_are_readable_as_pytorchs(run):
    r = run("""
        import torch.nn as nn
        m = nn.Linear(3, 2, bias=False)
        print(m.in_features, m.out_features, m.bias, m.training, m.weight.shape)
        m.eval()
        print(m.training, nn.Linear, nn.Module)
    """)
    assert r.ok, r.error
    assert r.stdout == ("3 2 None True torch.Size([2, 3])\nFalse <class 'torch.nn.modules.linear.Linear'> "
                        "<class 'torch.nn.modules.module.Module'>\n")


@pytest.mark.parametrize("name", ["_parameters", "_modules", "__dict__", "_call_with_hooks"])
def test_gate_refuses_private_names_of_modules(name):
    from gradcli.lang.access import get_attr
    from gradcli.nn.linear import Linear
    from gradcli.errors import GradcliError

    with pytest.raises(GradcliError):
        get_attr(Linear(2, 2), name)


def test_named_modules_without_memo_stops_at_a_cycle(run):
    r = run("import torch.nn as nn\nm = nn.Sequential(nn.ReLU())\nm.me = m\nx = list(m.named_modules(remove_duplicate=False))\n")
    assert r.error.kind == "runtime" and r.error.line == 4 and "holds itself" in r.error.message
    r = run("import torch.nn as nn\nm = nn.Sequential(nn.ReLU())\nm.me = m\nx = list(m.named_modules(remove_duplicate=False))\n"
            "print(m[0])\n")
    assert r.error.line == 4


@pytest.mark.parametrize("src", [
    "y = nn.BCELoss()(torch.ones(1) * 0.5, torch.ones(1), torch.ones(1))\n",
    "y = nn.Linear(1, 1)()\n",
    "m = nn.Linear(1, 1)\nh = m.register_forward_hook(len)\ny = m(torch.ones(1))\n",
    "m = nn.Linear(1, 1)\nm.apply(abs)\n",
])
def test_wrong_arguments_to_forward_or_a_hook_are_type_errors(run, src):
    r = run("import torch.nn as nn\n" + src)
    assert r.error is not None and r.error.kind == "type", r.error
