# a scheduler needs an optimizer: TypeError "SGD is not an Optimizer" style message
w = torch.tensor([1.0, 2.0], requires_grad=True)
sched = torch.optim.lr_scheduler.StepLR([w], step_size=2)
