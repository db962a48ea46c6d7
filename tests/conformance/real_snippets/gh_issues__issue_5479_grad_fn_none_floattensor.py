# source: https://github.com/pytorch/pytorch/issues/5479 (issue description's code, verbatim; `import torch` added)
import torch
a = torch.autograd.Variable(torch.FloatTensor([[1, 2, 3], [4, 5, 6]]), requires_grad=1)
b = torch.mul(a, 2)
c = b.sum()
d = torch.autograd.grad(c, b, torch.FloatTensor([2]), create_graph=True)[0]

print("d gradients are fine")
print(d)

print("d.grad_fn is None")
print(d.grad_fn)

print("Boom")
d.sum().backward()
