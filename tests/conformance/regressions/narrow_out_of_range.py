# narrow checks start + length against the dimension size (generator finding)
x = torch.ones(2, 3, requires_grad=True)
a = x.narrow(1, -1, 1)
b = x.narrow(1, 2, 2)
