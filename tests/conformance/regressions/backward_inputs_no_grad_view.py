# a view made under no_grad of a tensor that requires grad is a valid backward input (generator finding)
x = torch.tensor([1.0, 2.0], requires_grad=True)
m = torch.ones(2, 3, requires_grad=True)
with torch.no_grad():
    v = torch.narrow(m, 1, 0, 1)
(x * 2).sum().backward(inputs=[x, v])
print(x.grad, v.grad, m.grad)
