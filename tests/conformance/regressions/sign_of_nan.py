# sign(nan) is 0 in PyTorch (numpy: nan); generator finding
x1 = torch.tensor(-2.0, dtype=torch.float32)
with torch.no_grad():
    x1 += -2.0
    t4 = torch.log(x1)
t7 = torch.sign(t4)
x = torch.tensor([float('nan'), -0.0, 0.0, 1.0, -2.0], requires_grad=True)
y = torch.sign(x)
z = x.abs().sum()
z.backward()
print(y, x.grad)
