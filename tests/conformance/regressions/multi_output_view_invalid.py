# a split output whose base changed in place prints grad_fn=<Invalid> (generator finding)
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
y = x * 1
a, b = y.split(2)
y.mul_(2)
print(b)
