# ... a Python number is wrapped in a normal tensor for mul_, so the autograd layer runs and the leaf check fails first
with torch.inference_mode():
    x6 = torch.full((1, 1), 0.5, requires_grad=True)
    x7 = torch.full((1, 1), 0.5)
    y = torch.ones(1)
x6.mul_(2)
print(x6, x7)
