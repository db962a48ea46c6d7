# std's backward changes its incoming gradient in place: a ZeroTensor fails there
x = torch.tensor([-0.5, 2.0, 3.0], requires_grad=True)
x.std().sgn().backward()
