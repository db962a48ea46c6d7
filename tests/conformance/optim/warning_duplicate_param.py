# the same parameter twice in a group: a warning, the step still runs once per entry
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w, w], lr=0.1)
(w ** 2).sum().backward()
opt.step()
print(w)
