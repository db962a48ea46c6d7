# abs of a bool tensor: PyTorch has no Bool kernel (runtime) (generator finding)
b = torch.tensor([True, False])
r = torch.absolute(b)
