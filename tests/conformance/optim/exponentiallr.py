# ExponentialLR on two param groups: each group's lr times gamma per epoch
w = torch.tensor([1.0], requires_grad=True)
v = torch.tensor([2.0], requires_grad=True)
opt = torch.optim.SGD([{"params": [w]}, {"params": [v], "lr": 0.5}], lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
for epoch in range(4):
    (w * v).sum().backward()
    opt.step()
    opt.zero_grad()
    sched.step()
    print(sched.get_last_lr())
print(w, v)
