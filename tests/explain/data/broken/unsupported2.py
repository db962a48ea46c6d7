x = torch.tensor(2.0, requires_grad=True)
global g
y = x * 2
