# number % tensor records PyTorch's NotImplemented node (generator finding)
x = torch.tensor([1.5, -2.5], requires_grad=True)
r = 0.25 % x
print(r.grad_fn.name())
r.sum().backward()
