# in-place on a view made in no_grad mode, with grad mode on, is refused (generator finding)
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
with torch.no_grad():
    v = x[:2]
v.mul_(2)
