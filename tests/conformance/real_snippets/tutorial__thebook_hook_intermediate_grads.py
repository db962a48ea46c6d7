# source: https://thebook.io/080289/0284 (Korean book page on hooks: the example before register_hook, verbatim with its line breaks restored)
import torch
x = torch.Tensor([0,1,2,3]).requires_grad_()
y = torch.Tensor([4,5,6,7]).requires_grad_()
w = torch.Tensor([1,2,3,4]).requires_grad_()
z = x + y; o = w.matmul(z)
o.backward()
print(x.grad, y.grad, z.grad, w.grad, o.grad)
