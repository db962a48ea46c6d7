# issue 21: a 10,000-node graph for `gradcli graph` and `gradcli why` -- 5,000 iterations of y = y * 1.001 + x
# (x fans out into every iteration), a leaf w that reaches the chain only through detach(), then backward
x = torch.ones(4, requires_grad=True)
w = torch.full((4,), 2.0, requires_grad=True)
y = x * w.detach()
for i in range(5_000):
    y = y * 1.001 + x
z = y.sum()
z.backward()
