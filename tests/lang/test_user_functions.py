"""User functions as the engine sees them: signatures, decorated Function methods, checkpoint early stop."""

from __future__ import annotations

import inspect

import pytest
from conftest import needs_engine


def test_signature_has_parameters_kinds_and_defaults(run):
    r = run(
        """
        def f(a, b=2, /, c=3, *args, d, e=5, **kw):
            return a
        g = lambda x, y=[1]: x
        def h():
            pass
        """
    )
    assert r.ok, r.error
    ns = r.namespace

    def py(a, b=2, /, c=3, *args, d, e=5, **kw):
        return a

    assert str(inspect.signature(ns["f"])) == str(inspect.signature(py))
    assert str(inspect.signature(ns["g"])) == "(x, y=[1])"
    assert str(inspect.signature(ns["h"])) == "()"
    # the defaults are the evaluated objects themselves
    assert inspect.signature(ns["g"]).parameters["y"].default is not None
    sig = inspect.signature(ns["f"])
    assert sig.bind(1, d=4).arguments == {"a": 1, "d": 4}


def test_signature_is_not_reachable_from_the_file(run):
    r = run("def f(a=1):\n    pass\ns = f.__signature__\n")
    assert not r.ok and r.error.kind == "unsupported"
    r = run("def f(a=1):\n    pass\ns = f.signature\n")
    assert not r.ok and r.error.kind == "runtime"


@needs_engine
def test_setup_context_sees_forward_defaults(run):
    # PyTorch binds forward's defaults before setup_context (bind_default_args)
    r = run(
        """
        class Scale(torch.autograd.Function):
            @staticmethod
            def forward(x, k=3.0):
                return x * k
            @staticmethod
            def setup_context(ctx, inputs, output):
                x, k = inputs
                ctx.k = k
            @staticmethod
            def backward(ctx, g):
                return g * ctx.k, None
        x = torch.ones(2, requires_grad=True)
        Scale.apply(x).sum().backward()
        print(x.grad)
        """
    )
    assert r.ok, r.error
    assert r.stdout == "tensor([3., 3.])\n"


ONCE = """
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    {decorators}
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = torch.tensor([1., 2.], requires_grad=True)
gy = torch.ones(2, requires_grad=True)
g, = torch.autograd.grad(Sq.apply(x), x, gy, create_graph=True)
print(g)
g.sum().backward()
"""


@needs_engine
@pytest.mark.parametrize(
    "decorators",
    [
        "@staticmethod\n    @torch.autograd.function.once_differentiable",
        "@torch.autograd.function.once_differentiable\n    @staticmethod",
        "@staticmethod\n    @once_differentiable",
    ],
)
def test_once_differentiable_on_a_function_method(run, decorators):
    src = ONCE.format(decorators=decorators)
    if "@once_differentiable" in decorators:
        src = "once_differentiable = torch.autograd.function.once_differentiable\n" + src
    r = run(src)
    # as PyTorch 2.13: the gradient's grad_fn is the Error node, differentiating it fails
    assert r.stdout == "tensor([2., 4.], grad_fn=<Error>)\n"
    assert r.error.kind == "runtime"
    assert "marked with @once_differentiable" in r.error.message
    assert r.error.source_line == "g.sum().backward()"


@needs_engine
def test_decorator_of_the_file_on_a_function_method(run):
    r = run(
        """
        def twice(f):
            return lambda ctx, g: f(ctx, g) * 2
        class Tw(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 3
            @staticmethod
            @twice
            def backward(ctx, g):
                return g * 3
        x = torch.ones(2, requires_grad=True)
        Tw.apply(x).sum().backward()
        print(x.grad)
        """
    )
    assert r.ok, r.error
    assert r.stdout == "tensor([6., 6.])\n"


def test_method_decorators_are_checked(run):
    # a Python builtin as decorator: refused statically; two staticmethods: refused; none: a plain def, which
    # PyTorch calls through the class as a static method (the class statement runs in PyTorch 2.13 too)
    r = run("class A(torch.autograd.Function):\n    @staticmethod\n    @eval\n    def forward(ctx):\n        pass\n")
    assert r.error.kind == "unsupported" and "eval" in r.error.message
    r = run("class A(torch.autograd.Function):\n    @staticmethod\n    @staticmethod\n    def forward(ctx):\n"
            "        pass\n")
    assert r.error.kind == "unsupported"
    r = run("class A(torch.autograd.Function):\n    @torch.autograd.function.once_differentiable\n"
            "    def forward(ctx):\n        pass\n")
    assert r.error is None


@needs_engine
def test_method_decorator_of_a_plain_value_is_refused_at_its_line(run):
    r = run("d = 3\nclass A(torch.autograd.Function):\n    @staticmethod\n    @d\n    def forward(ctx):\n"
            "        pass\n")
    assert r.error.kind == "unsupported" and r.error.line == 4 and "decorator" in r.error.message


@needs_engine
def test_checkpoint_early_stop_passes_through_user_code(run):
    # non-reentrant checkpoint stops the recomputation with a BaseException raised inside the file's own
    # functions (nested calls, a with block, a loop, a comprehension); the interpreter must let it through
    # and leave its call depth intact: 20 backwards through a 150-deep recursion would hit the call-depth
    # limit (200) if the depth leaked
    r = run(
        """
        def inner(t):
            with torch.enable_grad():
                for i in range(3):
                    t = torch.sin(t) * 2
            return t
        def fn(a, b):
            c = inner(a) * b
            d = [c.exp() for _ in range(2)]
            return d[0] + d[1] + c.sum()
        def deep(n, t):
            if n == 0:
                return t * t
            return deep(n - 1, t) + 0
        x = torch.tensor([0.5, 1.0], requires_grad=True)
        w = torch.tensor([2.0, 3.0], requires_grad=True)
        torch.utils.checkpoint.checkpoint(fn, x, w, use_reentrant=False).sum().backward()
        print(x.grad, w.grad)
        for i in range(20):
            x.grad = None
            torch.utils.checkpoint.checkpoint(deep, 150, x, use_reentrant=False).sum().backward()
        print(x.grad)
        """
    )
    assert r.ok, r.error
    first, second = r.stdout.splitlines()
    assert first.startswith("tensor([-58.884") and "tensor([219.99" in first
    assert second == "tensor([1., 2.])"


def test_stop_recomputation_is_not_converted():
    from gradcli.autograd.checkpoint import StopRecomputation
    from gradcli.lang import errmap

    assert not issubclass(StopRecomputation, Exception)
    e = StopRecomputation()
    assert errmap.convert(e) is e
