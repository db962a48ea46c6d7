# pow(tensor, tensor) saves its result as PyTorch's PowBackward1 does: an in-place change of the result fails
# the backward in that node (generator finding: it decided the error order freed-vs-modified)
x1 = torch.rand((2, 1), requires_grad=True)
t3 = torch.where(x1 > -0.5, x1, torch.tensor(0.5))
t3.pow_(torch.tensor([[2.0], [1.5]]))
t3.div_(1.5)
t3.sum().backward()
