# numpy() of a ZeroTensor .grad fails
x = torch.tensor([-0.5, 2.0], requires_grad=True)
x.sgn().sum().backward()
a = x.grad.numpy()
