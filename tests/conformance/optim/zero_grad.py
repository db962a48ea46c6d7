# zero_grad() sets grads to None (set_to_none=True is the default); zero_grad(set_to_none=False) zeroes them in place
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
(w * 3).sum().backward()
g = w.grad
opt.zero_grad(set_to_none=False)
print(w.grad, w.grad is g)
(w * 3).sum().backward()
print(w.grad)
opt.zero_grad()
print(w.grad)
