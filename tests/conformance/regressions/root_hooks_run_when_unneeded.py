# a single root's tensor hooks and retain_grad run even when nothing beyond it is needed (generator finding)
x1 = torch.tensor([[-1.0, -0.25], [1.5, 3.0]], requires_grad=True)
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
x1.register_hook(lambda g: print('hook x1', g))
y = x2 * 2
y.register_hook(lambda g: print('hook y', g))
y.retain_grad()
z = x1 * 3
g1, = torch.autograd.grad(x1, [z], grad_outputs=torch.ones_like(x1), allow_unused=True)
g2, = torch.autograd.grad(y, [x1], grad_outputs=torch.ones_like(y), allow_unused=True)
print(y.grad)
y.backward(torch.ones_like(y), inputs=[x1])
print(y.grad, x1.grad)
g3, = torch.autograd.grad(x1, [x2])
