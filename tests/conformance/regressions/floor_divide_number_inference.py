# floor_divide with a Python number on an inference tensor outside inference_mode: PyTorch wraps the number in a
# normal tensor, so autograd records its NotImplemented node (exp of the same tensor records nothing; generator finding)
with torch.inference_mode():
    x9 = torch.tensor([-0.5], requires_grad=True)
a = 0.5 // x9
b = x9 // 0.5
c = x9 * 2
e = x9.exp()
h = torch.floor_divide(x9, x9)
print(a.grad_fn, b.grad_fn, c.grad_fn, e.grad_fn, h.grad_fn)
b.backward(torch.ones(1))
