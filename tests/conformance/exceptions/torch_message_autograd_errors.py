# str(e) of the other autograd kinds: no_grad_fn, grad_shape, input_no_grad, non_leaf_requires_grad,
# retain_grad_no_grad, numpy_requires_grad, item_non_scalar
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([1.0, 2.0])
def report(f):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)
report(lambda: (c * 2).sum().backward())
report(lambda: torch.autograd.grad((c * 2).sum(), c))
report(lambda: (x * 2).backward(torch.ones(3)))
report(lambda: torch.autograd.grad(x * 2, x, torch.ones(2, 2)))
report(lambda: torch.autograd.grad((x * 2).sum(), [x, c]))
def nonleaf():
    y = x * 2
    y.requires_grad_(False)
report(nonleaf)
def nonleaf_attr():
    y = x * 2
    y.requires_grad = False
report(nonleaf_attr)
report(lambda: c.retain_grad())
report(lambda: x.numpy())
report(lambda: (x * 2).numpy())
report(lambda: x.item())
report(lambda: torch.ones(2, 3).item())
