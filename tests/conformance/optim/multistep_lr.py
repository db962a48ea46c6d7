# torch.optim.lr_scheduler.MultiStepLR: milestones as PyTorch's Counter (a repeated milestone decays twice), the chainable and closed (step(epoch), deprecated) forms, state_dict, resuming with last_epoch
import torch
w = torch.nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([w], lr=0.5)
s = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4, 4], gamma=0.5)
print(s.milestones, s.gamma, s.last_epoch, s.get_last_lr(), 4 in s.milestones, s.milestones[4])
for e in range(7):
    opt.zero_grad()
    (w * w).sum().backward()
    opt.step()
    s.step()
    print(e, s.last_epoch, s.get_last_lr(), opt.param_groups[0]["lr"])
s.step(3)
print(s.get_last_lr())
print(s.state_dict())
opt2 = torch.optim.SGD([w], lr=1.0)
for g in opt2.param_groups:
    g["initial_lr"] = 1.0
s2 = torch.optim.lr_scheduler.MultiStepLR(opt2, [1, 3], last_epoch=2)
print(s2.get_last_lr(), s2.milestones)
