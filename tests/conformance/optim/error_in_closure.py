# the error inside a step closure is reported at the closure's line
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
def closure():
    opt.zero_grad()
    loss = (w @ torch.ones(3)).sum()
    loss.backward()
    return loss
opt.step(closure)
