# torch.fmod_ does not exist (remainder was registered under that spelling too) (generator finding)
x = torch.tensor([5.0, -5.0])
y = torch.remainder(x, 3)
z = torch.fmod_(x, 3)
