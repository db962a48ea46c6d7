# torch.rand/zeros/ones need a size (or size=) as in PyTorch (generator finding)
a = torch.rand(size=(2,))
b = torch.zeros(size=[2, 1])
c = torch.rand(dtype=torch.float64)
