# StepLR: lr times gamma every step_size epochs; get_last_lr() and last_epoch; initial_lr is added to the group
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
print(sched.last_epoch, sched.get_last_lr(), sched.base_lrs, opt.param_groups[0]["initial_lr"])
for epoch in range(7):
    (w * 2).sum().backward()
    opt.step()
    opt.zero_grad()
    sched.step()
    print(epoch, sched.last_epoch, sched.get_last_lr(), opt.param_groups[0]["lr"])
print(w)
print(sched.state_dict())
