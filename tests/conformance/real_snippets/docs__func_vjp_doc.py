# source: https://docs.pytorch.org/docs/stable/generated/torch.func.vjp.html (docstring in pytorch/pytorch torch/_functorch/eager_transforms.py: its five examples in order; REPL -> script with the import the page assumes)
import torch

x = torch.randn([5])
f = lambda x: x.sin().sum()
(_, vjpfunc) = torch.func.vjp(f, x)
grad = vjpfunc(torch.tensor(1.0))[0]
assert torch.allclose(grad, torch.func.grad(f)(x))

x = torch.randn([5])
f = lambda x: (x.sin(), x.cos())
(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
assert torch.allclose(vjps[0], x.cos() + -x.sin())

x = torch.randn([5])
f = lambda x: {"first": x.sin(), "second": x.cos()}
(_, vjpfunc) = torch.func.vjp(f, x)
cotangents = {"first": torch.ones([5]), "second": torch.ones([5])}
vjps = vjpfunc(cotangents)
assert torch.allclose(vjps[0], x.cos() + -x.sin())

x, y = torch.randn([5, 4]), torch.randn([4, 5])
(_, vjpfunc) = torch.func.vjp(torch.matmul, x, y)
cotangents = torch.randn([5, 5])
vjps = vjpfunc(cotangents)
assert len(vjps) == 2
assert torch.allclose(vjps[0], torch.matmul(cotangents, y.transpose(0, 1)))
assert torch.allclose(vjps[1], torch.matmul(x.transpose(0, 1), cotangents))

x = torch.randn([5])
def f(x, scale=4.):
  return x * scale

(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc(torch.ones_like(x))
assert torch.allclose(vjps[0], torch.full(x.shape, 4.0))
