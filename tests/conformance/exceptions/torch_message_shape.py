# str(e) of shape errors is PyTorch's: broadcasting, matrix products, view/reshape, cat, stack, expand
a = torch.ones(2, 3)
b = torch.ones(4)
def report(f):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError:", e)
report(lambda: a + b)
report(lambda: a * torch.ones(3, 2))
report(lambda: a @ a)
report(lambda: torch.mm(a, b.view(4, 1)))
report(lambda: torch.mv(a, b))
report(lambda: torch.dot(b, torch.ones(3)))
report(lambda: a.view(4))
report(lambda: a.reshape(5, 2))
report(lambda: torch.cat([a, b.view(1, 4)]))
report(lambda: torch.stack([a, a.t()]))
report(lambda: a.expand(3, 3))
report(lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 2, 3)))
report(lambda: F.linear(a, torch.ones(2, 4)))
report(lambda: F.mse_loss(a, b))
