# the zero gradient stays a ZeroTensor through mul, exp and div's self input; div's other input gets a normal tensor
x = torch.tensor([-0.5, 2.0], requires_grad=True)
o = torch.tensor([[1.0, 3.0], [2.0, 4.0]], requires_grad=True)
w = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 2).sgn().sum().backward()
(w.exp() / o).sgn().sum().backward()
print(w.grad, o.grad)
o.grad.zero_()
w.grad.data.zero_()
