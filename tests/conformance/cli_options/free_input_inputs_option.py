# gradcli: --requires-grad w --inputs w
# a free name named by --requires-grad and --inputs: bound as torch.tensor(1.0), and the backward fills only w.grad
b = torch.tensor(2.0, requires_grad=True)
loss = (w * b + 1) ** 2
