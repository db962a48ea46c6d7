# sgn's gradient of a real tensor is PyTorch's immutable ZeroTensor: zeroing the leaf's .grad in place fails
x = torch.tensor([-0.5, 2.0], requires_grad=True)
x.sgn().sum().backward()
print(x.grad)
x.grad.zero_()
