# masked_fill_ records MaskedFillBackward0, as the out-of-place op (generator finding)
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * 1
y.masked_fill_(y < 0, 0.0)
y.sum().backward()
print(y.grad_fn, x.grad)
