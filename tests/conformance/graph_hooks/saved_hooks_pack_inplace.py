# a pack hook that changes its input in place is a runtime error at the op
a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x.mul_(2), lambda x: x):
    y = a.sin()
