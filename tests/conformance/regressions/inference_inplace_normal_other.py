# ... a normal tensor that requires grad: the values are written, no history is recorded
with torch.inference_mode():
    x6 = torch.full((1, 1), 0.5, requires_grad=True)
    x7 = torch.full((1, 1), 0.5)
    y = torch.ones(1)
x7.mul_(torch.ones(1, requires_grad=True))
print(x6, x7)
