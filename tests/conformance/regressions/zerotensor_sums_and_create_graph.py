# ZeroTensor plus a normal gradient is normal, plus a ZeroTensor stays one; under create_graph .grad is a normal copy; copy_ into a ZeroTensor fails
x = torch.tensor([-0.5, 2.0], requires_grad=True)
(x.sgn() + x).sum().backward()
x.grad.zero_()
(x.sgn() + x.sgn()).sum().backward()
x.grad = None
(x.pow(0).sgn() + (x - 1).sgn()).sum().backward(create_graph=True)
x.grad.zero_()
x.grad = None
x.sgn().sum().backward()
x.grad.copy_(torch.ones(2))
