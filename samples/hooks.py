# register_hook sees (and may replace) the gradient flowing into a tensor.
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print("grad arriving at y:", g))
h = x.register_hook(lambda g: g * 10)   # scales what reaches x.grad
(y ** 2).sum().backward()
print(x.grad)             # 10 * 2 * y * 3
h.remove()
x.grad = None
(x * 1).sum().backward()
print(x.grad)             # hook removed: plain ones
