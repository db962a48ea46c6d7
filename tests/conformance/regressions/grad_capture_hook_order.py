# autograd.grad captures a node that will run (it leads to another input) before its tensor hooks, one that will not after them (engine.cpp evaluate_function; generator finding)
x = torch.ones(2, requires_grad=True)
y = x * 3
y.register_hook(lambda g: g * -1)
x.register_hook(lambda g: g * 10)
print(torch.autograd.grad(y.sum(), [y], retain_graph=True))
print(torch.autograd.grad(y.sum(), [x], retain_graph=True))
print(torch.autograd.grad(y.sum(), [y, x], retain_graph=True))
