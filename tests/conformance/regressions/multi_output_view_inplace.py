# in-place on an output of split is refused (generator finding)
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
a, b = y.split(2)
a.mul_(2)
