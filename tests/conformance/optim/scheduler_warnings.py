# PyTorch's warnings: scheduler.step() before optimizer.step(), get_lr() called directly, step(epoch) deprecated
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.1)
sched.step()
print(sched.get_last_lr())
print(sched.get_lr())
sched.step(5)
print(sched.get_last_lr(), sched.last_epoch)
