# .tolist() leaves autograd: grad of Python numbers fails in torch.autograd._make_grads (fuzz finding)
x = torch.ones(2, 3, requires_grad=True)
g, = torch.autograd.grad(x.mean(), [x], create_graph=True)
h, = torch.autograd.grad(x.mean(dim=1).tolist(), [x], create_graph=True)
