# trace's backward under create_graph is PyTorch's zeros.index_fill_(grad).view(sizes): the gradient's grad_fn is ViewBackward0
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = (x * x).trace()
g, = torch.autograd.grad(y, [x], create_graph=True)
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h, = torch.autograd.grad(w.trace(), [w], create_graph=True)
print(g, h)
k, = torch.autograd.grad((g * g).sum(), [x])
print(k)
