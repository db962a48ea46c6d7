x = torch.tensor([1.0, 2.0], requires_grad=True)
if x.sum() > 0
    y = x * 2
