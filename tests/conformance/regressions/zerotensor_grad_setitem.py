# indexing assignment into a ZeroTensor .grad fails with copy_'s wording
x = torch.tensor([-0.5, 2.0], requires_grad=True)
x.sgn().sum().backward()
x.grad[0] = 1.0
