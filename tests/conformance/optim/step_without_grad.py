# step() before any backward: parameters whose grad is None are skipped and get no state
w = torch.tensor([1.0, -1.0], requires_grad=True)
u = torch.tensor([0.5], requires_grad=True)
opt = torch.optim.Adam([w, u], lr=0.1)
opt.step()
print(w, len(opt.state))
(w * 2).sum().backward()
opt.step()
print(w, u, len(opt.state), u in opt.state)
