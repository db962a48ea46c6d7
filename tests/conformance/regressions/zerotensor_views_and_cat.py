# views and cat keep the ZeroTensor; autograd.grad returns it, and tolist() on it fails
x = torch.tensor([-0.5, 2.0], requires_grad=True)
y = torch.cat([x.view(2, 1), (x * 2).unsqueeze(1)], dim=1)
z = y.t().sgn().sum()
z.backward(retain_graph=True)
g, = torch.autograd.grad(z, [x])
print(x.grad.tolist() if False else 0, g)
print(g.tolist())
