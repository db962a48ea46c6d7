# gradcli: --expect-error non_scalar_backward
# backward() on a 2x3 tensor does not print grads: it raises, since the gradient would be ambiguous.
# Fix: y.sum().backward(), or y.backward(torch.ones_like(y)) (gradcli run --gradient ones).
x = torch.ones(2, 3, requires_grad=True)
y = x * 2 + 1
y.backward()
